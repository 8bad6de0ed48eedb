"""A tile type's picture, worked out from its segments (the rules' own data:
``pbem.games.carcassonne.segments``), once per tile type.

For each segment the art holds its shape in the tile's unrotated frame
(unit coordinates, see ``shapes``), the point a figure stands on (``anchor``)
and the points its marks are drawn at. Cities are shaped by the edges they
touch (a cap on one edge, a corner on two adjacent ones, a band across two
opposite ones, all but a notch on three, the whole tile on four), made
slimmer when a tile holds several cities so that they stay apart; roads run
between their edges' midpoints, and a road that ends on the tile runs to its
cloister, its junction or into its nearest city, else to a small house.
Fields are what is left; where two fields meet with nothing between them, a
hedge is drawn (see ``fields``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...games.carcassonne.orient import TILES
from . import fields as field_geometry
from .shapes import CENTRE, EDGE_MID, INWARD, along, dist, inside, outline, samples, turn, turn_path


@dataclass
class Part:
    kind: str
    shape: list = field(default_factory=list)    # city: its fill; road: its centre line
    walls: list = field(default_factory=list)    # city: the wall lines
    anchor: tuple = CENTRE
    mark_points: list = field(default_factory=list)
    end: str = ""                                # road: "house" where it ends on nothing
    region: list = field(default_factory=list)   # city: its polygon (point-in-shape tests)


@dataclass
class Art:
    tile: object
    parts: list
    hedges: list
    junction: bool
    ground: str          # "field" or "stone" (a tile without fields: the abbey)

    @property
    def letter(self) -> str:
        return self.tile.letter

    def anchor(self, k: int, rot: int) -> tuple:
        """Where a figure on segment k stands, in the board frame of a tile turned by ``rot`` quarter turns."""
        return turn(self.parts[k].anchor, rot)


_ART: dict = {}


def art_of(letter: str) -> Art:
    art = _ART.get(letter)
    if art is None:
        art = _ART[letter] = build(TILES[letter])
    return art


# -- cities ---------------------------------------------------------------------------


def city_part(ports: tuple, crowded_edges: set, several: bool, crossing: bool = False) -> Part:
    """The shape of a city segment touching ``ports``; ``crowded_edges``: other
    cities' edges (a band keeps clear of them), ``several``: the tile has more
    than one city, ``crossing``: two bands cross on it (KR5, AM2), drawn as
    straight strips over the middle of their edges, the second over the first."""
    ports = tuple(sorted(ports))
    n = len(ports)
    if crossing:
        k = 0 if ports == (1, 3) else 1
        shape = [("M", [(0, 0.27)]), ("L", [(1, 0.27)]), ("L", [(1, 0.73)]), ("L", [(0, 0.73)]), ("Z", [])]
        walls = [("M", [(0, 0.27)]), ("L", [(1, 0.27)]), ("M", [(1, 0.73)]), ("L", [(0, 0.73)])]
        anchor, marks = (0.5, 0.5), [(0.16, 0.5), (0.84, 0.5)]
        shape = turn_path(shape, k)
        return Part("city", shape, turn_path(walls, k), turn(anchor, k), [turn(p, k) for p in marks],
                    region=outline(shape))
    if n == 1:
        k = ports[0]                                        # the shape below is the N cap
        c = 0.36 if several else 0.55
        shape = [("M", [(0, 0)]), ("L", [(1, 0)]), ("Q", [(0.5, c), (0, 0)]), ("Z", [])]
        walls = [("M", [(1, 0)]), ("Q", [(0.5, c), (0, 0)])]
        anchor, marks = (0.5, c * 0.3), [(0.25, 0.065), (0.75, 0.065), (0.5, 0.05)]
    elif n == 2 and (ports[1] - ports[0]) % 2:
        k = next(p for p in ports if (p - 1) % 4 in ports)   # the shape below is the W + N corner
        c = 0.36 if several else 0.42
        shape = [("M", [(0, 0)]), ("L", [(1, 0)]), ("Q", [(c, c), (0, 1)]), ("Z", [])]
        walls = [("M", [(1, 0)]), ("Q", [(c, c), (0, 1)])]
        anchor, marks = (0.27 if not several else 0.23,) * 2, [(0.12, 0.12), (0.45, 0.09), (0.09, 0.45)]
    elif n == 2:
        k = 0 if ports == (1, 3) else 1                     # the shape below is the E + W band
        north, south = (0 + k) % 4, (2 + k) % 4   # the edges on the band's two sides
        # a side facing another city's edge keeps a field's width from it
        cu = 0.62 if north in crowded_edges else 0.3
        cl = 0.38 if south in crowded_edges else 0.7
        shape = [("M", [(0, 0)]), ("Q", [(0.5, cu), (1, 0)]), ("L", [(1, 1)]), ("Q", [(0.5, cl), (0, 1)]), ("Z", [])]
        walls = [("M", [(0, 0)]), ("Q", [(0.5, cu), (1, 0)]), ("M", [(1, 1)]), ("Q", [(0.5, cl), (0, 1)])]
        anchor, marks = (0.5, 0.5), [(0.2, 0.5), (0.8, 0.5), (0.35, 0.5)]
    elif n == 3:
        missing = next(d for d in range(4) if d not in ports)
        k = (missing - 2) % 4                               # the shape below lacks S
        shape = [("M", [(0, 0)]), ("L", [(1, 0)]), ("L", [(1, 1)]), ("Q", [(0.5, 0.45), (0, 1)]), ("Z", [])]
        walls = [("M", [(1, 1)]), ("Q", [(0.5, 0.45), (0, 1)])]
        anchor, marks = (0.5, 0.33), [(0.14, 0.14), (0.86, 0.14), (0.5, 0.1)]
    else:
        k = 0
        shape = [("M", [(0, 0)]), ("L", [(1, 0)]), ("L", [(1, 1)]), ("L", [(0, 1)]), ("Z", [])]
        walls = []
        anchor, marks = (0.5, 0.5), [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)]
    shape = turn_path(shape, k)
    return Part("city", shape, turn_path(walls, k), turn(anchor, k), [turn(p, k) for p in marks],
                region=outline(shape))


# -- roads ----------------------------------------------------------------------------


def road_part(ports: tuple, city_parts: list, ends_centre: bool) -> Part:
    """A road segment's centre line. ``ends_centre``: a road ending on this
    tile runs to the centre (a cloister or junction is drawn there)."""
    mids = [EDGE_MID[p] for p in ports]
    end = ""
    if len(ports) == 2:
        a, b = mids
        if (ports[0] - ports[1]) % 2 == 0:
            shape = [("M", [a]), ("L", [b])]
        else:
            shape = [("M", [a]), ("Q", [CENTRE, b])]
        anchor = along(shape, 0.5)
    elif len(ports) == 1:
        a = mids[0]
        normal = INWARD[ports[0]]
        if ends_centre or not city_parts:
            target = CENTRE if ends_centre else (a[0] + normal[0] * 0.4, a[1] + normal[1] * 0.4)
            shape = [("M", [a]), ("L", [target])]
            end = "" if ends_centre else "house"
            anchor = along(shape, 0.5 if ends_centre else 0.45)
        else:
            # the road runs into the city wall nearest to it (KR2, TB7, IC5, IC10...),
            # so two roads ending at one city stay apart
            ahead = (a[0] + normal[0] * 0.35, a[1] + normal[1] * 0.35)
            city, wall = min(((c, w) for c in city_parts for w in _wall_points(c)),
                             key=lambda cw: dist(cw[1], ahead))
            target = (wall[0] + (city.anchor[0] - wall[0]) * 0.25, wall[1] + (city.anchor[1] - wall[1]) * 0.25)
            ctrl = (a[0] + normal[0] * 0.3, a[1] + normal[1] * 0.3)
            shape = [("M", [a]), ("Q", [ctrl, target])]
            anchor = along(shape, 0.3)
            # keep the anchor outside the city, on the visible road
            for t in (0.3, 0.22, 0.15, 0.1):
                p = along(shape, t)
                if not any(_in_city(c, p) for c in city_parts):
                    anchor = p
                    break
    else:
        shape = []
        for a in mids:
            shape += [("M", [a]), ("L", [CENTRE])]
        anchor = along([("M", [mids[0]]), ("L", [CENTRE])], 0.5)
    normal_mark = along(shape[:2], 0.72) if shape else CENTRE
    return Part("road", shape, anchor=anchor, mark_points=[normal_mark], end=end)


def _wall_points(part: Part) -> list:
    return samples(part.walls, 24) if part.walls else list(part.region)


def _in_city(part: Part, p) -> bool:
    return inside(part.region, p)


# -- the whole tile ---------------------------------------------------------------------


def build(tile) -> Art:
    segs = tile.segments
    has_cloister = any(s.kind == "cloister" for s in segs)
    cities = [s for s in segs if s.kind == "city"]
    several = len(cities) > 1
    ends = sum(1 for s in segs if s.kind == "road" and len(s.ports) == 1)
    multi = any(s.kind == "road" and len(s.ports) > 2 for s in segs)
    junction = ("junction" in tile.tags or ends >= 3 or multi) and not has_cloister
    parts: list = [None] * len(segs)
    city_parts = []
    bands = [s for s in cities if len(s.ports) == 2 and (s.ports[0] - s.ports[1]) % 2 == 0]
    for k, s in enumerate(segs):
        if s.kind == "city":
            others = {p for o in cities if o is not s for p in o.ports}
            parts[k] = city_part(s.ports, others, several, crossing=len(bands) > 1 and s in bands)
            city_parts.append(parts[k])
    for k, s in enumerate(segs):
        if s.kind == "road":
            parts[k] = road_part(s.ports, city_parts, has_cloister or junction)
        elif s.kind == "river" and s.ports:
            # a river runs between its edges like a road (River: a spring or a lake where it ends)
            part = road_part(s.ports, [], False)
            parts[k] = Part("river", part.shape, anchor=part.anchor, mark_points=part.mark_points, end=part.end)
        elif s.kind == "cloister":
            parts[k] = Part("cloister", anchor=CENTRE, mark_points=[CENTRE])
        elif s.kind not in ("city", "field"):
            parts[k] = Part(s.kind, anchor=CENTRE, mark_points=[CENTRE])
    _spread_anchors(parts)
    hedges = field_geometry.hedges(tile, parts)
    for k, anchor in field_geometry.anchors(tile, parts, hedges).items():
        parts[k] = Part("field", anchor=anchor, mark_points=[anchor])
    ground = "stone" if tile.edges == "****" else "field"   # the abbey: no land around its monastery
    return Art(tile, parts, hedges, junction, ground)


def _spread_anchors(parts: list) -> None:
    """Two segments whose figures would stand on one spot (crossing roads,
    crossing cities, a monk and a junction): move the later one aside."""
    # Two roads crossing (a bridge over a road): neither figure stands at the crossing,
    # where it would look as if on the upper one; each stands on an arm of its own road.
    crossing = [part for part in parts if part is not None and part.kind == "road" and part.shape
                and len(part.shape) == 2 and dist(part.anchor, CENTRE) < 0.16]
    if len(crossing) > 1:
        for part, t in zip(crossing, (0.8, 0.2, 0.85, 0.15)):
            part.anchor = along(part.shape, t)
    taken = []
    for part in parts:
        if part is None:
            continue
        p = part.anchor
        if any(dist(p, q) < 0.16 for q in taken):
            if part.kind == "road" and part.shape:
                for t in (0.25, 0.75, 0.15, 0.85):
                    cand = along(part.shape, t)
                    if not any(dist(cand, q) < 0.16 for q in taken):
                        p = cand
                        break
            elif part.kind == "city":
                for cand in part.mark_points:
                    if not any(dist(cand, q) < 0.16 for q in taken):
                        p = cand
                        break
            part.anchor = p
        taken.append(p)
