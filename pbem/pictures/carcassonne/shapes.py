"""Tile-local geometry in unit coordinates: (0, 0) is a tile's north-west
corner, (1, 1) its south-east one, y grows southwards as on the board.

Paths are lists of (command, points) with commands M, L, Q and Z, so they can
be turned by quarter turns before being written out at a tile's size.
"""
from __future__ import annotations

#: the midpoint of each edge N E S W, and each half-edge NL..WR's midpoint
EDGE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
HALF_MID = ((0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75),
            (0.75, 1.0), (0.25, 1.0), (0.0, 0.75), (0.0, 0.25))
#: the point between half h and half h+1 going clockwise round the tile:
#: an edge's midpoint (between its L and R halves) or a corner
BETWEEN = ((0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0),
           (0.5, 1.0), (0.0, 1.0), (0.0, 0.5), (0.0, 0.0))
#: inward unit normal of each edge
INWARD = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
CENTRE = (0.5, 0.5)


def turn(p, quarter_turns: int):
    """A point turned clockwise about the tile's centre (N goes to E)."""
    x, y = p
    for _ in range(quarter_turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


def turn_path(path, quarter_turns: int):
    return [(cmd, [turn(p, quarter_turns) for p in pts]) for cmd, pts in path]


def _n(v: float) -> str:
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


def d(path, size: float, ox: float = 0.0, oy: float = 0.0) -> str:
    """SVG path data for a unit path drawn at ``size`` with its origin at (ox, oy)."""
    out = []
    for cmd, pts in path:
        out.append(cmd + " ".join(f"{_n(ox + x * size)},{_n(oy + y * size)}" for x, y in pts))
    return "".join(out)


def quad(a, c, b, t: float):
    """The point at t of the quadratic Bezier a-c-b."""
    u = 1.0 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])


def along(path, t: float):
    """The point at t (0..1, by segment count) along a path of M then L/Q segments."""
    pieces = []
    pos = None
    for cmd, pts in path:
        if cmd == "M":
            pos = pts[0]
        elif cmd == "L":
            pieces.append(("L", pos, pts[0]))
            pos = pts[0]
        elif cmd == "Q":
            pieces.append(("Q", pos, pts[0], pts[1]))
            pos = pts[1]
    if not pieces:
        return pos
    k = min(int(t * len(pieces)), len(pieces) - 1)
    s = t * len(pieces) - k
    piece = pieces[k]
    if piece[0] == "L":
        a, b = piece[1], piece[2]
        return (a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s)
    return quad(piece[1], piece[2], piece[3], s)


def samples(path, n: int = 24) -> list:
    return [along(path, i / n) for i in range(n + 1)]


def dist(a, b) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def inside(poly, p) -> bool:
    """Point in polygon (even-odd), poly a list of points."""
    x, y = p
    hit = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def outline(path, n: int = 12) -> list:
    """A closed path as a polygon (curves sampled), for point-in-shape tests."""
    poly = []
    pos = None
    for cmd, pts in path:
        if cmd == "M":
            pos = pts[0]
            poly.append(pos)
        elif cmd == "L":
            pos = pts[0]
            poly.append(pos)
        elif cmd == "Q":
            poly.extend(quad(pos, pts[0], pts[1], i / n) for i in range(1, n + 1))
            pos = pts[1]
    return poly
