"""Building blocks of the Kachina, Wakanda and Cartoona pictures: an SVG
element buffer, names, and the header and player rows the three share. Escaping,
numbers, the font, seat colours and label widths come from the shared
``markup``, ``palette`` and ``metrics``.

Everything here writes plain SVG 1.1 text that resvg and mail clients'
rasterisers both read: no CSS, no filters, no external references, so a
picture is one self-contained document.
"""
from __future__ import annotations

from typing import Iterable
from pbem.games.base import seat_label
from pbem.games.i18n import _, join_words

from . import markup, palette
from .markup import FONT, esc, num  # noqa: F401  (re-exported for the three pictures)
from .metrics import text_width, wrap  # noqa: F401  (wrap: re-exported)

INK = "#222222"
MUTED = "#6b6b6b"
PAPER = "#fbf8f1"
PANEL = "#f0ebe0"
LINE = "#cfc6b4"
HIGHLIGHT = "#fff1b8"


def seat_colour(seat: int) -> str:
    """The seat's colour, the same in every game's picture (``palette``)."""
    return palette.seat_fill(seat)


def fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits in ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def seat_name(names, seat: int) -> str:
    """The player's name, or "Seat N" where no name is known."""
    if names and 0 <= seat < len(names):
        name = names[seat]
        if isinstance(name, str) and name.strip():
            return " ".join(name.split())
    return seat_label(seat, capital=True)


def is_seat(viewer, players: int) -> bool:
    return isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < players


class Svg:
    """An element buffer; ``document`` wraps it into a standalone SVG."""

    def __init__(self):
        self.parts: list[str] = []

    def add(self, raw: str) -> None:
        self.parts.append(raw)

    def hit(self, x, y, w, h, key: str, rx: float = 4) -> None:
        """The area a touch takes (``data-pick``: its key): invisible in the
        picture (and the PNG), framed by the page's style while it may be
        touched. A shape of its own, with no text in it: its label is all that
        assistive technology reads of it."""
        self.add(f'<rect class="hit" data-pick="{esc(key)}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
                 f'height="{h:.1f}" rx="{rx:g}" fill="#ffffff" fill-opacity="0"/>')

    def part(self, kind: str, box=None, layout: str | None = None) -> None:
        """What is drawn from here to ``end_part`` is one part of the picture
        (``markup.part``: the board, or a panel the page may put below it).
        ``layout`` "wide": a panel that has a narrow twin (``narrow_panel``),
        shown on a wide screen only."""
        where = "" if box is None else f' data-box="{" ".join(num(float(v)) for v in box)}"'
        if layout:
            where += f' data-layout="{esc(layout)}"'
        self.parts.append(f'<g data-part="{esc(kind)}"{where}>')

    def narrow_panel(self, panel: "Svg", width, height) -> None:
        """``panel`` (drawn from 0,0, ``width`` wide) as the narrow twin of the
        wide panels: hidden as drawn (a wide screen, a picture shown without
        the page's script), put in place of the wide ones on a phone by
        static/zoom.js. Laid out for a width near a phone's, it is scaled
        about 1:1 there, so its text reads at the size it is drawn."""
        self.parts.append(f'<g data-part="panel" data-layout="narrow" display="none" '
                          f'data-box="0 0 {num(float(width))} {num(float(height))}">')
        self.parts.extend(panel.parts)
        self.parts.append("</g>")

    def end_part(self) -> None:
        self.parts.append("</g>")

    def rect(self, x, y, w, h, fill="none", stroke=None, sw=1, rx=0, dash=None, opacity=None) -> None:
        a = f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"'
        if rx:
            a += f' rx="{num(rx)}"'
        a += f' fill="{fill}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{num(sw)}"'
        if dash:
            a += f' stroke-dasharray="{dash}"'
        if opacity is not None:
            a += f' opacity="{num(opacity)}"'
        self.parts.append(a + "/>")

    def circle(self, cx, cy, r, fill="none", stroke=None, sw=1) -> None:
        a = f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{num(sw)}"'
        self.parts.append(a + "/>")

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1, dash=None) -> None:
        a = (f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
             f'stroke="{stroke}" stroke-width="{num(sw)}"')
        if dash:
            a += f' stroke-dasharray="{dash}"'
        self.parts.append(a + "/>")

    def polygon(self, points: Iterable, fill=INK, stroke=None, sw=1) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        a = f'<polygon points="{pts}" fill="{fill}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{num(sw)}" stroke-linejoin="round"'
        self.parts.append(a + "/>")

    def path(self, d: str, fill="none", stroke=None, sw=1) -> None:
        a = f'<path d="{d}" fill="{fill}"'
        if stroke:
            a += f' stroke="{stroke}" stroke-width="{num(sw)}" stroke-linecap="round" stroke-linejoin="round"'
        self.parts.append(a + "/>")

    def text(self, x, y, content, size=14, fill=INK, anchor="start", bold=False, italic=False,
             halo=None) -> None:
        """``halo``: a colour drawn around the glyphs, so text stays readable
        across a two-coloured background."""
        a = f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"'
        if fill != INK:
            a += f' fill="{fill}"'
        if halo:
            a += f' stroke="{halo}" stroke-width="{num(max(2, size * 0.16))}" paint-order="stroke" stroke-linejoin="round"'
        if anchor != "start":
            a += f' text-anchor="{anchor}"'
        if bold:
            a += ' font-weight="bold"'
        if italic:
            a += ' font-style="italic"'
        self.parts.append(f"{a}>{esc(content)}</text>")

    def document(self, width, height, title: str = "") -> str:
        return markup.document(width, height, self.parts, background=PAPER, title=title or None)


def seat_frame(svg: Svg, x, y, w, h, seat: int, rx=6, sw=3.5) -> None:
    """A frame in a seat's colour, edged in dark so a light seat colour
    (yellow) still shows on a light ground."""
    svg.rect(x, y, w, h, stroke=seat_colour(seat), sw=sw, rx=rx)
    svg.rect(x - sw / 2, y - sw / 2, w + sw, h + sw, stroke=palette.OUTLINE, sw=0.8, rx=rx + sw / 2)


def turn_marker(svg: Svg, x, y, size=10, fill=INK) -> None:
    """A right-pointing triangle whose left tip is at (x, y - size/2)."""
    svg.polygon(((x, y - size), (x + size * 0.9, y - size / 2), (x, y)), fill=fill)


def header(svg: Svg, width, title: str, status: str, detail: str = "") -> float:
    """The title bar: the game's name, then what happens now in bold. Returns
    the y below it."""
    # a narrow panel (a phone's, ``Svg.narrow_panel``): the detail on two lines rather than cut short
    lines = wrap(detail, 14, width - 32) if detail and width < 500 else [detail] if detail else []
    if len(lines) > 2:
        lines = [lines[0], fit(" ".join(lines[1:]) if " " in detail else "".join(lines[1:]), 14, width - 32)]
    more = 18 * max(len(lines) - 1, 0)
    svg.rect(0, 0, width, (58 if not detail else 78) + more, fill=PANEL)
    svg.text(16, 24, title, size=15, fill=MUTED, bold=True)
    svg.text(16, 47, fit(status, 18, width - 32, bold=True), size=18, bold=True)
    if detail:
        for i, line in enumerate(lines):
            svg.text(16, 68 + 18 * i, fit(line, 14, width - 32), size=14, fill=MUTED)
        return 88 + more
    return 68


def name_column(labels: list[str], width) -> float:
    """The width of the name column of player rows: the longest name (bold,
    16px) and a gap, at most half the row so notes keep room."""
    return min(max((text_width(x, 16, True) for x in labels), default=0) + 14, width * 0.5)


def player_row(svg: Svg, x, y, width, seat: int, name: str, *, score=None, acting=False,
               you=False, note: str = "", place: int | None = None, name_w: float | None = None) -> None:
    """One player's line: a turn marker when they are to act, a seat-coloured
    dot, the name (and "you"), a note (hand count and the like) in a column
    ``name_w`` after the name's start (the name cut to fit that column when
    it is given), and the score at the right. ``y`` is the text baseline."""
    if acting:
        svg.rect(x, y - 20, width, 28, fill=HIGHLIGHT, rx=6)
        turn_marker(svg, x + 6, y - 1, size=12)
    svg.circle(x + 30, y - 6, 7, fill=seat_colour(seat), stroke=palette.OUTLINE, sw=1)
    you_txt = _(" (you)") if you else ""
    label = name + you_txt
    score_txt = "" if score is None else str(score)
    score_w = text_width(score_txt, 17, True) + (34 if place == 1 else 10)
    room = width - 44 - score_w - 8
    column = name_w is not None   # the caller draws beside the name column: keep the name inside it
    if name_w is None:
        name_w = name_column([label], room)
    shown = fit(name, 16, ((name_w - 12) if note or column else room) - text_width(you_txt, 16, True),
                bold=True) + you_txt
    svg.text(x + 44, y, shown, size=16, bold=True)
    if note:
        nx = x + 44 + name_w
        svg.text(nx, y, fit(note, 14, max(x + width - score_w - nx, 10)), size=14, fill=MUTED)
    if score is not None:
        svg.text(x + width - 4, y, score_txt, size=17, bold=True, anchor="end")
    if place == 1:
        # a small crown left of the score for the winner(s)
        cx = x + width - score_w + 14
        svg.polygon(((cx - 9, y), (cx - 10, y - 12), (cx - 5, y - 6), (cx, y - 14), (cx + 5, y - 6),
                     (cx + 10, y - 12), (cx + 9, y)), fill="#e0a800", stroke="#8a6500", sw=1)


def winners_text(names, placings) -> str:
    """ "Ann wins", "Ann and Bob share the win" from the placings."""
    firsts = [seat_name(names, p) for p, place in enumerate(placings or ()) if place == 1]
    if not firsts:
        return _("nobody wins")
    if len(firsts) == 1:
        return _("{player} wins", player=firsts[0])
    return _("{players} share the win", players=join_words(firsts))


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return join_words(items)
