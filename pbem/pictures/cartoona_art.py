"""Cartoona's tiles drawn as the body parts they are (the art of
``cartoona.py``'s picture): ears, a snout with nose and mouth, a head with
an eye, the body's front and back halves, front and back legs, a tail, and
the single-tile creatures whole. Every creature faces left, as on the table.

A part is drawn in a cell of side ``s``; where a tile has a socket its
shape runs to that edge of the cell, at the same place as its neighbour's
(the body band, the neck, the ear bases, the snout, the legs), so the tiles
of a creature join into one animal. A tile without a socket on a side has
that part drawn on (a head without a nose socket gets a small snout, a body
without feet sockets short legs, a head without a neck a little body).

Each part is a list of shapes in the unit cell. They are drawn in two
passes: first every shape of the creature in dark ink, a little fatter
(the outline), then every shape in its colour; so the outlines of shapes
that overlap (a head and its neck, a body and the next tile's body) vanish
and the creature has one outline around it. Details (eye, nose, mouth,
claws) come last. A two-colour tile is filled with a hard diagonal split
(a gradient defined once in ``defs``).
"""
from __future__ import annotations

from ..games.cartoona.data import T_COLOURS, T_PART, T_SOCKETS
from .markup import num

OUTLINE = "#2a2320"
OUTLINE_W = 2.4
#: the sets' colours, and a lighter tint of each (inner ears, bellies)
FILLS = {"Y": "#f5c431", "B": "#3f82dc", "M": "#dc3b8f", "P": "#7650b0"}
SINGLE = "#d8c9a6"
#: the body band (top, bottom) shared by the head's neck and both body halves
BAND = (0.24, 0.78)
NECK = (0.38, 0.72)
#: the leg columns (left, right) for both pairs of feet
LEGS = ((0.14, 0.32), (0.44, 0.62))
#: the ear bases (left, right), shared by the head's ear sockets and the ears
EARS = ((0.24, 0.46), (0.56, 0.78))
SNOUT = (0.48, 0.80)


def gradient_id(colours: tuple) -> str:
    return "cartoona-" + "".join(colours)


def defs() -> str:
    """The hard diagonal splits of the two-colour tiles (every pair that exists)."""
    pairs = sorted({c for c in T_COLOURS if len(c) == 2})
    out = []
    for a, b in pairs:
        out.append(f'<linearGradient id="{gradient_id((a, b))}" x1="0" y1="0" x2="1" y2="1">'
                   f'<stop offset="0.5" stop-color="{FILLS[a]}"/><stop offset="0.5" stop-color="{FILLS[b]}"/>'
                   f'</linearGradient>')
    return "".join(out)


def fill_of(t: int) -> str:
    colours = T_COLOURS[t]
    if not colours:
        return SINGLE
    if len(colours) == 1:
        return FILLS[colours[0]]
    return f"url(#{gradient_id(colours)})"


class _Pen:
    """Unit-cell coordinates to the picture's."""

    def __init__(self, x, y, s):
        self.x, self.y, self.s = x, y, s

    def p(self, u, v) -> str:
        return f"{num(self.x + u * self.s)},{num(self.y + v * self.s)}"

    def rect(self, u0, v0, u1, v1, r=(0, 0, 0, 0)) -> str:
        """A rectangle with its own radius per corner (tl, tr, br, bl), as a path."""
        tl, tr, br, bl = r
        p = self.p
        return (f"M{p(u0 + tl, v0)}L{p(u1 - tr, v0)}Q{p(u1, v0)} {p(u1, v0 + tr)}"
                f"L{p(u1, v1 - br)}Q{p(u1, v1)} {p(u1 - br, v1)}L{p(u0 + bl, v1)}Q{p(u0, v1)} {p(u0, v1 - bl)}"
                f"L{p(u0, v0 + tl)}Q{p(u0, v0)} {p(u0 + tl, v0)}Z")

    def ellipse(self, cu, cv, ru, rv) -> str:
        p = self.p
        # clockwise, as every shape here: the shapes of a tile are filled as
        # one path, and overlapping shapes turning the other way would cut holes
        return (f"M{p(cu - ru, cv)}A{num(ru * self.s)},{num(rv * self.s)} 0 1,1 {p(cu + ru, cv)}"
                f"A{num(ru * self.s)},{num(rv * self.s)} 0 1,1 {p(cu - ru, cv)}Z")


def _legs(pen: _Pen, top: float, bottom: float) -> list:
    """Two legs from ``top`` to ``bottom`` with paws pointing left."""
    out = []
    for u0, u1 in LEGS:
        out.append(pen.rect(u0, top, u1, bottom - 0.06))
        out.append(pen.rect(u0 - 0.07, bottom - 0.14, u1 + 0.01, bottom, (0.07, 0.04, 0.03, 0.06)))
    return out


def _body_front(pen: _Pen, sockets) -> tuple[list, list]:
    top, bottom = BAND
    rear = "REAR" in sockets
    shapes = [pen.rect(0, top, 1 if rear else 0.9, bottom, (0, 0 if rear else 0.2, 0 if rear else 0.2, 0))]
    if "FFEET" in sockets:
        shapes += [pen.rect(u0, bottom - 0.1, u1, 1) for u0, u1 in LEGS]
    else:
        shapes += _legs(pen, bottom - 0.1, 0.98)
    return shapes, [("belly", pen.ellipse(0.48, 0.64, 0.3, 0.08))]


def _body_back(pen: _Pen, sockets) -> tuple[list, list]:
    top, bottom = BAND
    tail = "TAIL" in sockets
    shapes = [pen.rect(0, top, 1 if tail else 0.86, bottom, (0, 0 if tail else 0.26, 0 if tail else 0.22, 0))]
    if "BFEET" in sockets:
        shapes += [pen.rect(u0, bottom - 0.1, u1, 1) for u0, u1 in LEGS]
    else:
        shapes += _legs(pen, bottom - 0.1, 0.98)
    return shapes, [("belly", pen.ellipse(0.44, 0.64, 0.28, 0.08))]


def _feet(pen: _Pen, sockets) -> tuple[list, list]:
    shapes = _legs(pen, 0, 0.7)
    claws = [("line", f"M{pen.p(u0 - 0.02, 0.6)}L{pen.p(u0 - 0.02, 0.68)}") for u0, _u1 in LEGS]
    return shapes, claws


def _back_feet(pen: _Pen, sockets) -> tuple[list, list]:
    """Hind legs: as the front ones, with a heel behind each (so the two
    pairs tell apart, as the rulebook's F and B marks do)."""
    shapes, claws = _feet(pen, sockets)
    shapes += [pen.ellipse(u1 - 0.01, 0.36, 0.06, 0.09) for _u0, u1 in LEGS]
    return shapes, claws


def _ears(pen: _Pen, sockets) -> tuple[list, list]:
    shapes, inner = [], []
    for (u0, u1), lean in zip(EARS, (-0.05, 0.04)):
        mid = (u0 + u1) / 2 + lean
        p = pen.p
        shapes.append(f"M{p(u0, 1)}C{p(u0 - 0.02, 0.7)} {p(mid - 0.08, 0.4)} {p(mid, 0.3)}"
                      f"C{p(mid + 0.08, 0.4)} {p(u1 + 0.02, 0.7)} {p(u1, 1)}Z")
        inner.append(("tint", f"M{p(u0 + 0.06, 1)}C{p(u0 + 0.05, 0.75)} {p(mid - 0.04, 0.5)} {p(mid, 0.44)}"
                              f"C{p(mid + 0.04, 0.5)} {p(u1 - 0.05, 0.75)} {p(u1 - 0.06, 1)}Z"))
    return shapes, inner


def _nose(pen: _Pen, sockets) -> tuple[list, list]:
    top, bottom = SNOUT
    p = pen.p
    shapes = [f"M{p(1, bottom)}L{p(0.34, bottom)}C{p(0.06, bottom)} {p(0.1, top - 0.02)} {p(0.36, top)}L{p(1, top)}Z"]
    details = [("ink", pen.ellipse(0.17, top + 0.07, 0.08, 0.06)),
               ("line", f"M{p(0.3, bottom - 0.1)}Q{p(0.55, bottom - 0.02)} {p(0.78, bottom - 0.12)}"),
               ("tongue", pen.ellipse(0.5, bottom - 0.05, 0.07, 0.04))]
    return shapes, details


def _head(pen: _Pen, sockets) -> tuple[list, list]:
    neck = "NECK" in sockets
    # a head without a neck socket has its body drawn on: a smaller head, up and left
    cu, cv, r = (0.54, 0.52, 0.32) if neck else (0.46, 0.44, 0.27)
    shapes = [pen.ellipse(cu, cv, r, r)]
    details = []
    if neck:
        shapes.append(pen.rect(0.7, NECK[0], 1, NECK[1]))
    else:
        shapes.append(pen.ellipse(0.72, 0.74, 0.22, 0.14))
        shapes += [pen.rect(u, 0.78, u + 0.1, 0.97, (0, 0, 0.03, 0.03)) for u in (0.56, 0.78)]
    if "EAR" in sockets:
        shapes += [pen.rect(u0, 0, u1, cv - r + 0.12) for u0, u1 in EARS]
    else:
        p = pen.p
        for u in (cu - 0.18, cu + 0.1):
            shapes.append(f"M{p(u - 0.05, cv - r + 0.12)}L{p(u + 0.02, cv - r - 0.1)}L{p(u + 0.1, cv - r + 0.08)}Z")
    if "NOSE" in sockets:
        shapes.append(pen.rect(0, SNOUT[0], cu, SNOUT[1]))
    else:
        shapes.append(pen.ellipse(cu - r + 0.02, cv + 0.1, 0.12, 0.09))
        details.append(("ink", pen.ellipse(cu - r - 0.06, cv + 0.06, 0.045, 0.035)))
        details.append(("line", f"M{pen.p(cu - r - 0.02, cv + 0.16)}Q{pen.p(cu - r + 0.06, cv + 0.2)} "
                                f"{pen.p(cu - r + 0.12, cv + 0.15)}"))
    # the eye looks left
    details.append(("eye", pen.ellipse(cu - 0.1, cv - 0.08, 0.09, 0.1)))
    details.append(("ink", pen.ellipse(cu - 0.13, cv - 0.07, 0.045, 0.055)))
    return shapes, details


def _tail(pen: _Pen, sockets) -> tuple[list, list]:
    p = pen.p
    # a thick tail from the body band's upper half, curling up; a tuft at its tip
    shapes = [f"M{p(0, 0.3)}C{p(0.4, 0.3)} {p(0.56, 0.26)} {p(0.62, 0.08)}L{p(0.8, 0.14)}"
              f"C{p(0.72, 0.42)} {p(0.44, 0.5)} {p(0, 0.5)}Z",
              pen.ellipse(0.72, 0.12, 0.12, 0.1)]
    return shapes, []


def _single(pen: _Pen, sockets) -> tuple[list, list]:
    """A whole little creature on one tile."""
    p = pen.p
    shapes = [pen.ellipse(0.6, 0.56, 0.28, 0.17),
              pen.ellipse(0.32, 0.42, 0.19, 0.18),
              f"M{p(0.2, 0.3)}L{p(0.22, 0.1)}L{p(0.32, 0.26)}Z",
              f"M{p(0.34, 0.26)}L{p(0.42, 0.08)}L{p(0.48, 0.3)}Z",
              f"M{p(0.86, 0.5)}C{p(0.94, 0.45)} {p(0.96, 0.3)} {p(0.92, 0.22)}L{p(0.97, 0.2)}"
              f"C{p(1.0, 0.34)} {p(0.98, 0.5)} {p(0.86, 0.58)}Z"]
    shapes += [pen.rect(u, 0.66, u + 0.09, 0.9, (0, 0, 0.03, 0.03)) for u in (0.4, 0.52, 0.68, 0.8)]
    details = [("eye", pen.ellipse(0.28, 0.38, 0.06, 0.07)), ("ink", pen.ellipse(0.26, 0.39, 0.03, 0.04)),
               ("ink", pen.ellipse(0.14, 0.46, 0.035, 0.03))]
    return shapes, details


PARTS = {"head": _head, "ears": _ears, "nose": _nose, "body_front": _body_front, "body_back": _body_back,
         "front_feet": _feet, "back_feet": _back_feet, "tail": _tail, "single": _single}


def shapes_of(t: int, x, y, s) -> tuple[list, list]:
    """The shapes (path data) and details of tile ``t`` in the cell at (x, y) of side ``s``."""
    return PARTS[T_PART[t]](_Pen(x, y, s), T_SOCKETS[t])


def draw_parts(svg, placed: list) -> None:
    """Draw tiles as one animal: ``placed`` is [(tile, x, y, s)]; the
    outlines of all of them first, then the fills, then the details."""
    drawn = [(t, s, *shapes_of(t, x, y, s)) for t, x, y, s in placed]
    # one path per tile and pass: a two-colour tile's split then runs across
    # the whole part (a gradient spans the bounding box of its element)
    for _t, s, shapes, _details in drawn:
        svg.add(f'<path d="{"".join(shapes)}" fill="{OUTLINE}" stroke="{OUTLINE}" '
                f'stroke-width="{num(OUTLINE_W * s / 50)}" stroke-linejoin="round"/>')
    for t, _s, shapes, _details in drawn:
        svg.add(f'<path d="{"".join(shapes)}" fill="{fill_of(t)}"/>')
    for _t, s, _shapes, details in drawn:
        w = num(1.6 * s / 50)
        for kind, d in details:
            if kind == "eye":
                svg.add(f'<path d="{d}" fill="#ffffff" stroke="{OUTLINE}" stroke-width="{num(s / 50)}"/>')
            elif kind == "ink":
                svg.add(f'<path d="{d}" fill="{OUTLINE}"/>')
            elif kind == "line":
                svg.add(f'<path d="{d}" fill="none" stroke="{OUTLINE}" stroke-width="{w}" stroke-linecap="round"/>')
            elif kind == "tongue":
                svg.add(f'<path d="{d}" fill="#f08a9a"/>')
            else:  # tint, belly: a lighter patch
                svg.add(f'<path d="{d}" fill="#ffffff" fill-opacity="0.35"/>')
