"""Figures in seat colours, each kind its own silhouette, the seat's number
written on it (colour is never the only cue): the follower a meeple
(standing as knight, thief or monk; lying as a farmer), the big follower a
larger meeple with a double outline, the builder a tall pawn, the pig a pig,
the mayor a cloaked figure, the wagon a cart, the barn a barn. Registered in
``hooks.FIGURES`` by the figure names of the view (``followers[].figure``).

Each function draws centred on (0, 0) at ``size`` (about the figure's height
in pixels) and returns SVG.
"""
from __future__ import annotations

from contextvars import ContextVar

from .. import markup as m
from ..palette import OUTLINE, seat_fill, seat_ink
from . import hooks

MEEPLE = ("M-3,-3.3L3,-3.3L8.5,-1.2L8.8,1.6L4.2,1.2L7,9.3L1.6,9.3L0,5.6L-1.6,9.3L-7,9.3L-4.2,1.2"
          "L-8.8,1.6L-8.5,-1.2ZM-3.3,-6.4a3.3,3.3 0 1,0 6.6,0a3.3,3.3 0 1,0 -6.6,0Z")
#: the unit figures are about 20 units high
UNIT = 20.0


#: where a board gathers the figures' numbers ((Labels, dx, dy) while one figure is
#: drawn at (dx, dy)): written as a few text elements rather than one per figure
_SINK: ContextVar = ContextVar("figure_labels", default=None)


def _label(seat, x, y, size, scale=1.0) -> str:
    text = seat if isinstance(seat, int) else "?"
    style = dict(size=round(size * 0.36 * scale, 1), anchor="middle", weight="bold", fill=seat_ink(seat))
    sink = _SINK.get()
    if sink is not None:
        labels, dx, dy = sink
        labels.add(dx + x, dy + y, text, **style)
        return ""
    return m.text(x, y, text, **style)


def _shape(d: str, seat, size: float, transform: str = "", width: float = 1.3, extra: str = "") -> str:
    k = size / UNIT
    t = f"scale({k:.3f}){(' ' + transform) if transform else ''}"
    return (f'<path d="{d}" transform="{t}" fill="{seat_fill(seat)}" stroke="{OUTLINE}" '
            f'stroke-width="{width:.2f}" stroke-linejoin="round"{extra}/>')


@hooks.figure("follower")
def follower(seat, role: str, size: float) -> str:
    if role == "farmer":
        return _shape(MEEPLE, seat, size, "rotate(-90)") + _label(seat, -size * 0.02, size * 0.13, size)
    return _shape(MEEPLE, seat, size) + _label(seat, 0, size * 0.16, size)


@hooks.figure("big")
def big(seat, role: str, size: float) -> str:
    size = size * 1.4
    halo = (f'<path d="{MEEPLE}" transform="scale({size / UNIT:.3f}){" rotate(-90)" if role == "farmer" else ""}" '
            f'fill="none" stroke="#ffffff" stroke-width="3.2" stroke-linejoin="round"/>')
    body = _shape(MEEPLE, seat, size, "rotate(-90)" if role == "farmer" else "", width=1.2)
    if role == "farmer":
        return halo + body + _label(seat, -size * 0.02, size * 0.13, size)
    return halo + body + _label(seat, 0, size * 0.16, size)


BUILDER = "M-4.5,9.5L-3,-1Q-3,-3.2 0,-3.2Q3,-3.2 3,-1L4.5,9.5ZM-2.8,-6.6a2.8,2.8 0 1,0 5.6,0a2.8,2.8 0 1,0 -5.6,0Z"


@hooks.figure("builder")
def builder(seat, role: str, size: float) -> str:
    """A tall, narrow pawn."""
    return _shape(BUILDER, seat, size * 1.15) + _label(seat, 0, size * 0.3, size, 0.8)


PIG = ("M-8,0a7.5,5.2 0 1,0 13,0a7.5,5.2 0 1,0 -13,0ZM4.2,-1.2a3.6,3.4 0 1,0 6.2,0a3.6,3.4 0 1,0 -6.2,0Z"
       "M5.2,-4.2L6.2,-7.4L7.6,-4ZM-6,3.5v4.5h2.2v-3.5ZM0.5,3.8v4.2h2.2v-3.8Z")


@hooks.figure("pig")
def pig(seat, role: str, size: float) -> str:
    snout = f'<ellipse cx="{size * 0.46:.1f}" cy="{-size * 0.02:.1f}" rx="{size * 0.07:.1f}" ry="{size * 0.06:.1f}" fill="#f4b6c2" stroke="{OUTLINE}" stroke-width="0.6"/>'
    return _shape(PIG, seat, size) + snout + _label(seat, -size * 0.07, size * 0.12, size, 0.85)


MAYOR = "M-7.5,9.5L-3.2,-3L3.2,-3L7.5,9.5ZM-3.4,-6.3a3.4,3.4 0 1,0 6.8,0a3.4,3.4 0 1,0 -6.8,0ZM-5.5,-8.8h11v1.6h-11Z"


@hooks.figure("mayor")
def mayor(seat, role: str, size: float) -> str:
    """A cloaked, hatted figure (a triangle with a head and a brim)."""
    return _shape(MAYOR, seat, size * 1.1) + _label(seat, 0, size * 0.33, size)


WAGON = ("M-9,-4.5h18v8h-18ZM-9,-4.5l-2.5,-2.5M9,-4.5l2.5,-2.5"
         "M-8.2,6a3,3 0 1,0 6,0a3,3 0 1,0 -6,0ZM2.2,6a3,3 0 1,0 6,0a3,3 0 1,0 -6,0Z")


@hooks.figure("wagon")
def wagon(seat, role: str, size: float) -> str:
    """A cart on two wheels."""
    return _shape(WAGON, seat, size) + _label(seat, 0, size * 0.05, size, 0.85)


BARN = "M-8.5,9L-8.5,-1.5L0,-8.5L8.5,-1.5L8.5,9ZM-2.5,9v-6h5v6"


@hooks.figure("barn")
def barn(seat, role: str, size: float) -> str:
    """A barn with a pitched roof."""
    return _shape(BARN, seat, size * 1.15) + _label(seat, 0, size * 0.12, size, 0.85)


def generic(figure: str):
    """A figure with no art yet: a disc with its name's initial."""
    def draw(seat, role: str, size: float) -> str:
        return (m.circle(0, 0, size * 0.35, fill=seat_fill(seat), stroke=OUTLINE, stroke_width=1.3)
                + m.text(0, size * 0.13, (figure[:1] or "?").upper(), size=round(size * 0.36, 1), anchor="middle",
                         weight="bold", fill=seat_ink(seat)))
    # (its initial stays inside the figure: it is not the seat's number)
    return draw


def figure_svg(figure: str, seat, role: str, x: float, y: float, size: float, data: str = "",
               labels: "m.Labels | None" = None) -> str:
    """A figure at (x, y); ``data``: attributes naming what it stands for (on the
    board); ``labels``: where its seat number goes (else into the figure)."""
    fn = hooks.FIGURES.get(figure) or generic(figure)
    extra = f' class="figure" {data}' if data else ""
    token = _SINK.set((labels, round(x, 1), round(y, 1)) if labels is not None else None)
    try:
        body = fn(seat, role, size)
    finally:
        _SINK.reset(token)
    return f'<g transform="translate({x:.1f},{y:.1f})"{extra}>{body}</g>'


#: what each role is called, by the kind of segment a follower stands on
ROLES = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}
