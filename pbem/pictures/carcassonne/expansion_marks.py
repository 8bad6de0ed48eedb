"""The expansions' marks on tiles, registered by the names their tile tables
use: Inns & Cathedrals (inn, cathedral), Traders & Builders (wine, grain,
cloth), Cult (shrine), Siege (siege), Abbey & Mayor (well; the abbey tile is a
monastery on stone, see ``terrain.cloister``)."""
from __future__ import annotations

from .. import markup as m
from . import hooks
from .shapes import turn_path
from .terrain import INK, ROOF, WALL_LIGHT, house


@hooks.mark("inn")
def inn(art, k, at, size, count, rot) -> str:
    """A house with a blue roof beside the road, over a small lake (the printed inns)."""
    x, y = at[0] * size, at[1] * size
    shape = turn_path(art.parts[k].shape, rot)
    # beside the road: shift perpendicular to the road's first stretch
    (ax, ay) = shape[0][1][0]
    nxt = shape[1][1][-1]
    dx, dy = nxt[0] - ax, nxt[1] - ay
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    return inn_icon(x - dy / norm * size * 0.16, y + dx / norm * size * 0.16, size)


def inn_icon(x: float, y: float, size: float) -> str:
    lake = m.element("ellipse", cx=f"{x:.1f}", cy=f"{y + size * 0.05:.1f}", rx=f"{size * 0.11:.1f}",
                     ry=f"{size * 0.05:.1f}", fill="#5b9bd5")
    return lake + house(x, y, size * 0.1, roof="#2d5fa8")


@hooks.mark("cathedral")
def cathedral(art, k, at, size, count, rot) -> str:
    """A grey cathedral with two towers, in the middle of the city."""
    cx, cy, r = size * 0.5, size * 0.5, size * 0.16
    body = m.rect(cx - r, cy - r * 0.4, 2 * r, r * 1.2, fill="#d8d4cc", stroke=INK, stroke_width=0.8)
    towers = "".join(
        m.rect(tx - r * 0.28, cy - r * 1.1, r * 0.56, r * 1.9, fill="#c4bfb5", stroke=INK, stroke_width=0.8)
        + m.polygon([(tx - r * 0.36, cy - r * 1.1), (tx, cy - r * 1.7), (tx + r * 0.36, cy - r * 1.1)],
                    fill="#6b6b7a", stroke=INK, stroke_width=0.8)
        for tx in (cx - r * 0.72, cx + r * 0.72))
    window = m.circle(cx, cy, r * 0.25, fill="#6b6b7a")
    return body + towers + window


#: the three goods of Traders & Builders: (fill, outline, letter)
GOODS = {"wine": ("#7b2d6b", "#ffffff", "W"), "grain": ("#e8c547", "#5a4a10", "G"),
         "cloth": ("#3f7fbf", "#ffffff", "C")}


def good_icon(kind: str, x: float, y: float, r: float) -> str:
    """Wine a bunch of grapes, grain a sheaf, cloth a bolt: different shapes
    as well as colours."""
    fill, line, _ = GOODS[kind]
    if kind == "wine":
        dots = [(-0.45, -0.35), (0.45, -0.35), (0, -0.35), (-0.22, 0.1), (0.22, 0.1), (0, 0.52)]
        return "".join(m.circle(x + dx * r, y + dy * r, r * 0.36, fill=fill, stroke=line, stroke_width=0.5)
                       for dx, dy in dots)
    if kind == "grain":
        return (m.path(f"M{x:.1f},{y + r:.1f}L{x:.1f},{y - r * 0.2:.1f}M{x:.1f},{y + r:.1f}L{x - r * 0.5:.1f},"
                       f"{y - r * 0.1:.1f}M{x:.1f},{y + r:.1f}L{x + r * 0.5:.1f},{y - r * 0.1:.1f}",
                       stroke=line, stroke_width=1.0)
                + "".join(m.element("ellipse", cx=f"{x + dx * r:.1f}", cy=f"{y - r * 0.55:.1f}",
                                    rx=f"{r * 0.22:.1f}", ry=f"{r * 0.5:.1f}", fill=fill, stroke=line,
                                    stroke_width=0.6) for dx in (-0.5, 0, 0.5)))
    return (m.rect(x - r, y - r * 0.6, r * 2, r * 1.2, rx=f"{r * 0.3:.1f}", fill=fill, stroke=INK,
                   stroke_width=0.6)
            + m.path(f"M{x - r * 0.4:.1f},{y - r * 0.6:.1f}v{r * 1.2:.1f}M{x + r * 0.3:.1f},{y - r * 0.6:.1f}"
                     f"v{r * 1.2:.1f}", stroke=line, stroke_width=0.6))


@hooks.mark(*GOODS)
def goods(art, k, at, size, count, rot) -> str:
    name = next(n for n, _ in art.tile.segments[k].marks if n in GOODS)
    return "".join(good_icon(name, at[0] * size + i * size * 0.17, at[1] * size, size * 0.085)
                   for i in range(count))


@hooks.mark("shrine")
def shrine(art, k, at, size, count, rot) -> str:
    """A shrine (Cult): a dark round temple with a flame, unlike the monastery's church."""
    cx, cy, r = size * 0.5, size * 0.5, size * 0.2
    base = m.rect(cx - r * 0.8, cy - r * 0.15, r * 1.6, r * 0.85, fill="#4a3b5c", stroke=INK, stroke_width=0.8)
    dome = m.path(f"M{cx - r * 0.8:.1f},{cy - r * 0.15:.1f}a{r * 0.8:.1f},{r * 0.8:.1f} 0 0,1 {r * 1.6:.1f},0z",
                  fill="#7a5c9a", stroke=INK, stroke_width=0.8)
    flame = m.path(f"M{cx:.1f},{cy - r * 1.45:.1f}q{r * 0.3:.1f},{r * 0.35:.1f} 0,{r * 0.55:.1f}"
                   f"q-{r * 0.3:.1f},-{r * 0.2:.1f} 0,-{r * 0.55:.1f}z", fill="#f08a24", stroke=INK,
                   stroke_width=0.5)
    door = m.rect(cx - r * 0.15, cy + r * 0.25, r * 0.3, r * 0.45, fill="#f0d9a0")
    return base + dome + flame + door


@hooks.mark("siege")
def siege(art, k, at, size, count, rot) -> str:
    """Besiegers' tents before the wall (Siege: the city is besieged)."""
    x, y, r = at[0] * size, at[1] * size, size * 0.07
    out = []
    for dx in (-1.1, 1.1):
        tx = x + dx * r
        out.append(m.polygon([(tx - r, y + r * 0.7), (tx, y - r * 0.8), (tx + r, y + r * 0.7)], fill="#f2f2f2",
                             stroke=INK, stroke_width=0.8, stroke_linejoin="round"))
        out.append(m.line(tx, y - r * 0.8, tx, y - r * 1.4, stroke=INK, stroke_width=0.8))
        out.append(m.polygon([(tx, y - r * 1.4), (tx + r * 0.6, y - r * 1.2), (tx, y - r * 1.0)], fill="#c0392b"))
    return "".join(out)


@hooks.mark("well")
def well(art, k, at, size, count, rot) -> str:
    """The well where three roads meet (Abbey & Mayor AM11)."""
    cx, cy, r = size * 0.5, size * 0.5, size * 0.1
    return (m.circle(cx, cy, r, fill="#9a958a", stroke=INK, stroke_width=0.8)
            + m.circle(cx, cy, r * 0.6, fill="#3f7fbf"))


@hooks.tag("abbey")
def abbey(art, size, rot) -> str:
    """The abbey tile: its wildcard edges drawn as a low stone wall."""
    inset = size * 0.06
    return m.rect(inset, inset, size - 2 * inset, size - 2 * inset, fill="none", stroke="#8a8376",
                  stroke_width=f"{size * 0.04:.1f}", stroke_dasharray=f"{size * 0.08:.1f} {size * 0.04:.1f}")


__all__ = ["GOODS", "good_icon", "ROOF", "WALL_LIGHT"]
