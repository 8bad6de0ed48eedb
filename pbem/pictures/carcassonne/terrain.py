"""Drawing a tile: its ground, hedges, roads, cities, buildings and marks,
through the hooks (``hooks.SEGMENTS``, ``MARKS``, ``TAGS``), as one SVG group
per tile type and rotation: the land is turned, the buildings and marks only
moved, so a church never lies on its side.

Colours: fields green, cities orange-brown with darker walls, roads light
with dark borders, as on the printed tiles.
"""
from __future__ import annotations

from .. import markup as m
from . import hooks
from .shapes import d, turn, turn_path
from .tile_art import Art, art_of

FIELD = "#8cbf5f"
FIELD_EDGE = "#6f9e47"
HEDGE = "#3f6b26"
CITY = "#d9924f"
CITY_WALL = "#7a4a22"
ROAD = "#f4ecd6"
ROAD_EDGE = "#6d5c42"
STONE = "#b9b3a6"
ROOF = "#b8432f"
WALL_LIGHT = "#efe3c4"
PENNANT = "#2d5fa8"
INK = "#1d1d1d"


_GROUPS: dict = {}


def tile_group(letter: str, rot: int, size: float, ident: str) -> str:
    """``<g id=ident>``: the tile turned ``rot`` quarter turns, drawn at ``size`` from (0, 0)
    (kept: it depends only on the tile type)."""
    key = (letter, rot, size, ident)
    out = _GROUPS.get(key)
    if out is None:
        out = _GROUPS[key] = f'<g id="{ident}">{tile_body(art_of(letter), size, rot)}</g>'
    return out


def tile_body(art: Art, size: float, rot: int = 0) -> str:
    layers = {name: [] for name in hooks.LAYERS}
    layers["ground"].append(m.rect(0, 0, size, size, fill=STONE if art.ground == "stone" else FIELD))
    if art.hedges:
        lines = [(turn(a, rot), turn(b, rot)) for a, b in art.hedges]
        layers["hedge"].append(m.path("".join(f"M{a[0] * size:.1f},{a[1] * size:.1f}L{b[0] * size:.1f},"
                                              f"{b[1] * size:.1f}" for a, b in lines),
                                      fill="none", stroke=HEDGE, stroke_width=f"{size * 0.035:.1f}",
                                      stroke_dasharray=f"{size * 0.04:.1f} {size * 0.03:.1f}",
                                      stroke_linecap="round"))
    segments = art.tile.segments
    for k, part in enumerate(art.parts):
        if part is None:
            continue
        layer, fn = hooks.SEGMENTS.get(part.kind, (None, None))
        if fn is not None:
            layers[layer].append(fn(art, k, size, rot))
        points = [turn(p, rot) for p in part.mark_points]
        for name, count in segments[k].marks:
            if name in hooks.SILENT_MARKS:
                continue
            draw = hooks.MARKS.get(name, unknown_mark)
            at = points.pop(0) if len(points) > 1 else points[0] if points else (0.5, 0.5)
            layers["mark"].append(draw(art, k, at, size, count, rot))
    for name in art.tile.tags:
        fn = hooks.TAGS.get(name)
        if fn is not None:
            layers["building"].append(fn(art, size, rot))
    if art.junction and "junction" not in art.tile.tags:
        layers["building"].append(hooks.TAGS["junction"](art, size, rot))
    return "".join("".join(layers[name]) for name in hooks.LAYERS)


def unknown_mark(art, k, at, size, count, rot) -> str:
    """A mark with no art yet: a small white diamond, so it is at least seen."""
    x, y, r = at[0] * size, at[1] * size, size * 0.06
    return m.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill="#ffffff", stroke=INK,
                     stroke_width=0.8)


# -- segments ----------------------------------------------------------------------------


@hooks.segment("road", "road")
def road(art: Art, k: int, size: float, rot: int) -> str:
    part = art.parts[k]
    shape = turn_path(part.shape, rot)
    path = d(shape, size)
    out = (m.path(path, fill="none", stroke=ROAD_EDGE, stroke_width=f"{size * 0.17:.1f}", stroke_linecap="butt")
           + m.path(path, fill="none", stroke=ROAD, stroke_width=f"{size * 0.105:.1f}", stroke_linecap="butt"))
    if part.end == "house":
        x, y = shape[-1][1][-1]
        out += house(x * size, y * size, size * 0.13, roof=ROOF)
    return out


WATER = "#4f93d6"
WATER_EDGE = "#2f6aa8"


@hooks.segment("river", "river")
def river(art: Art, k: int, size: float, rot: int) -> str:
    """Water between green banks, wider than a road; a spring or lake where it ends on the tile."""
    part = art.parts[k]
    shape = turn_path(part.shape, rot)
    path = d(shape, size)
    out = (m.path(path, fill="none", stroke=WATER_EDGE, stroke_width=f"{size * 0.2:.1f}", stroke_linecap="round")
           + m.path(path, fill="none", stroke=WATER, stroke_width=f"{size * 0.14:.1f}", stroke_linecap="round"))
    if part.end:
        x, y = shape[-1][1][-1]
        out += m.circle(x * size, y * size, size * 0.13, fill=WATER, stroke=WATER_EDGE, stroke_width=1)
    return out


@hooks.segment("city", "city")
def city(art: Art, k: int, size: float, rot: int) -> str:
    part = art.parts[k]
    out = m.path(d(turn_path(part.shape, rot), size), fill=CITY)
    if part.walls:
        out += m.path(d(turn_path(part.walls, rot), size), fill="none", stroke=CITY_WALL, stroke_width=f"{size * 0.045:.1f}",
                      stroke_linecap="round")
    return out


@hooks.segment("cloister", "building")
def cloister(art: Art, k: int, size: float, rot: int) -> str:
    if art.tile.segments[k].mark("shrine"):
        return ""              # the shrine mark draws the building
    scale = 1.35 if art.ground == "stone" else 1.0
    return monastery(size * 0.5, size * 0.5, size * 0.2 * scale)


def monastery(cx: float, cy: float, r: float) -> str:
    """A church: walls, a red roof, a cross."""
    w, h = r * 1.5, r * 1.0
    body = m.rect(cx - w / 2, cy - h * 0.2, w, h, fill=WALL_LIGHT, stroke=INK, stroke_width=0.8)
    roof = m.polygon([(cx - w / 2 - r * 0.12, cy - h * 0.2), (cx, cy - h * 0.95), (cx + w / 2 + r * 0.12, cy - h * 0.2)],
                     fill=ROOF, stroke=INK, stroke_width=0.8, stroke_linejoin="round")
    door = m.rect(cx - r * 0.15, cy + h * 0.35, r * 0.3, h * 0.45, fill="#5a3a22")
    cross = m.path(f"M{cx:.1f},{cy - h * 1.45:.1f}v{r * 0.55:.1f}M{cx - r * 0.17:.1f},{cy - h * 1.28:.1f}h{r * 0.34:.1f}",
                   stroke=INK, stroke_width=1.1)
    return body + roof + door + cross


def house(cx: float, cy: float, r: float, roof: str = ROOF) -> str:
    body = m.rect(cx - r * 0.7, cy - r * 0.3, r * 1.4, r, fill=WALL_LIGHT, stroke=INK, stroke_width=0.6)
    top = m.polygon([(cx - r * 0.9, cy - r * 0.3), (cx, cy - r), (cx + r * 0.9, cy - r * 0.3)],
                    fill=roof, stroke=INK, stroke_width=0.6, stroke_linejoin="round")
    return body + top


@hooks.tag("junction")
def junction(art: Art, size: float, rot: int) -> str:
    """Where roads meet and end: a small village square."""
    return house(size * 0.5, size * 0.52, size * 0.15, roof="#8a5a3a")


# -- marks of the base game ----------------------------------------------------------------


@hooks.mark("pennant")
def pennant(art: Art, k: int, at, size: float, count: int, rot: int) -> str:
    """A blue-and-white shield per pennant (coat of arms)."""
    out = []
    r = size * 0.075
    for n in range(count):
        x, y = at[0] * size + (n - (count - 1) / 2) * r * 2.3, at[1] * size
        out.append(m.path(f"M{x - r:.1f},{y - r:.1f}h{2 * r:.1f}v{r:.1f}q0,{r * 1.1:.1f}-{r:.1f},{r * 1.5:.1f}"
                          f"q-{r:.1f},-{r * 0.4:.1f}-{r:.1f},-{r * 1.5:.1f}z",
                          fill=PENNANT, stroke="#ffffff", stroke_width=1.1, stroke_linejoin="round"))
    return "".join(out)
