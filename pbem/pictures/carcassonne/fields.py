"""Fields: where two of a tile's fields meet with nothing between them (a
hedge), and where a farmer stands in each field.

A field segment is known only by the half-edges it touches (``NL`` ... ``WR``)
or as an inner field (``I``, ``II``), so its area is found on a grid: every
grid point not covered by a city, a road, a cloister or a hedge belongs to the
field that reaches it first from its half-edges; what no half-edge reaches is
an inner field. A farmer stands at the point of its field farthest from
everything else.
"""
from __future__ import annotations

from collections import deque

from .shapes import BETWEEN, CENTRE, dist, inside, samples

N = 14                      # grid points per side
STEP = 1.0 / N
ROAD_CLEAR = 0.09           # a road covers points this close to its centre line
HEDGE_CLEAR = 0.05
CLOISTER_HALF = 0.17


def hedges(tile, parts) -> list:
    """Hedge lines [(a, b)]: from each point of the tile's rim where two
    different fields meet (a field edge's midpoint, or a corner between two
    field edges), to the centre, and from there to the nearest city wall, which
    closes the fields off from each other."""
    owner = [-1] * 8
    for k, s in enumerate(tile.segments):
        if s.kind == "field":
            for h in s.ports:
                owner[h] = k
    out = []
    for h in range(8):
        a, b = owner[h], owner[(h + 1) % 8]
        if a < 0 or b < 0 or a == b:
            continue
        if h % 2 == 0 and tile.edges[h // 2] != "F":
            continue            # the halves of a road edge: the road is between them
        out.append((BETWEEN[h], CENTRE))
    cities = [p for p in parts if p is not None and p.kind == "city" and p.walls]
    if out and cities:
        wall = min((w for c in cities for w in samples(c.walls, 24)), key=lambda w: dist(w, CENTRE))
        out.append((CENTRE, wall))
    return out


def _near_segment(p, a, b, clear: float) -> bool:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return dist(p, (ax + t * dx, ay + t * dy)) < clear


def _blocked(tile, parts, hedge_lines) -> list:
    roads = [samples(p.shape, 16) for p in parts if p is not None and p.kind == "road" and p.shape]
    cities = [p.region for p in parts if p is not None and p.kind == "city"]
    cloister = any(p is not None and p.kind == "cloister" for p in parts)
    grid = []
    for j in range(N):
        row = []
        for i in range(N):
            p = ((i + 0.5) * STEP, (j + 0.5) * STEP)
            hit = (any(inside(c, p) for c in cities)
                   or any(_near_segment(p, line[n], line[n + 1], ROAD_CLEAR)
                          for line in roads for n in range(len(line) - 1))
                   or any(_near_segment(p, a, b, HEDGE_CLEAR) for a, b in hedge_lines)
                   or (cloister and abs(p[0] - 0.5) < CLOISTER_HALF and abs(p[1] - 0.5) < CLOISTER_HALF))
            row.append(hit)
        grid.append(row)
    return grid


def _rim(h: int) -> list:
    """Grid points along half-edge h."""
    edge, right = divmod(h, 2)
    half = range(N // 2, N) if right else range(0, N // 2)
    if edge == 0:
        return [(i, 0) for i in half]
    if edge == 1:
        return [(N - 1, j) for j in half]
    if edge == 2:
        return [(N - 1 - i, N - 1) for i in half]
    return [(0, N - 1 - j) for j in half]


def _grow(grid, owner, seeds) -> None:
    queue = deque(seeds)
    while queue:
        i, j = queue.popleft()
        k = owner[j][i]
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a, b = i + di, j + dj
            if 0 <= a < N and 0 <= b < N and owner[b][a] is None and not grid[b][a]:
                owner[b][a] = k
                queue.append((a, b))


def anchors(tile, parts, hedge_lines) -> dict:
    """Segment index -> the point a farmer stands on, for each field segment."""
    grid = _blocked(tile, parts, hedge_lines)
    owner = [[None] * N for _ in range(N)]
    seeds = []
    inner = []
    for k, s in enumerate(tile.segments):
        if s.kind != "field":
            continue
        if not s.ports:
            inner.append(k)
        for h in s.ports:
            for i, j in _rim(h):
                if not grid[j][i] and owner[j][i] is None:
                    owner[j][i] = k
                    seeds.append((i, j))
    _grow(grid, owner, seeds)
    # inner fields take what no rim reached, the largest pieces first
    pieces = []
    for j in range(N):
        for i in range(N):
            if not grid[j][i] and owner[j][i] is None:
                owner[j][i] = ("piece", len(pieces))
                _grow(grid, owner, [(i, j)])
                pieces.append(sum(row.count(("piece", len(pieces))) for row in owner))
    order = sorted(range(len(pieces)), key=lambda n: -pieces[n])
    rename = {("piece", n): k for n, k in zip(order, inner)}
    for j in range(N):
        for i in range(N):
            if isinstance(owner[j][i], tuple):
                owner[j][i] = rename.get(owner[j][i])
    out = {}
    for k, s in enumerate(tile.segments):
        if s.kind == "field":
            out[k] = _deepest(owner, k) or CENTRE
    return out


def _deepest(owner, k):
    """The point of field k farthest (in grid steps) from any other thing, the rim
    included; ties go to the point nearest the field's centroid."""
    far = [[0 if owner[j][i] != k else None for i in range(N)] for j in range(N)]
    queue = deque()
    for j in range(N):
        for i in range(N):
            if far[j][i] == 0:
                queue.append((i, j))
            elif i in (0, N - 1) or j in (0, N - 1):
                far[j][i] = 1
                queue.append((i, j))
    while queue:
        i, j = queue.popleft()
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                a, b = i + di, j + dj
                if 0 <= a < N and 0 <= b < N and far[b][a] is None:
                    far[b][a] = far[j][i] + 1
                    queue.append((a, b))
    cells = [(i, j) for j in range(N) for i in range(N) if owner[j][i] == k]
    if not cells:
        return None
    cx = sum(i for i, _ in cells) / len(cells)
    cy = sum(j for _, j in cells) / len(cells)
    best = max(cells, key=lambda c: (far[c[1]][c[0]], -((c[0] - cx) ** 2 + (c[1] - cy) ** 2)))
    return ((best[0] + 0.5) * STEP, (best[1] + 0.5) * STEP)
