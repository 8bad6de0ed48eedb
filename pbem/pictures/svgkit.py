"""Small building blocks for the board pictures: escaping, an SVG element
buffer, seat colours, names, and the header and player rows the games share.

Everything here writes plain SVG 1.1 text that resvg and mail clients'
rasterisers both read: no CSS, no filters, no external references, so a
picture is one self-contained document.
"""
from __future__ import annotations

from typing import Iterable

#: The shipped font's family first; the generic fallback for other viewers.
FONT = "DejaVu Sans, sans-serif"

INK = "#222222"
MUTED = "#6b6b6b"
PAPER = "#fbf8f1"
PANEL = "#f0ebe0"
LINE = "#cfc6b4"
HIGHLIGHT = "#fff1b8"

#: Seat colours (Okabe-Ito, readable by most colour-blind players), seat 0 first.
SEAT_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7a5c00", "#555555")


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def esc(text) -> str:
    """Text for an SVG text node or attribute value."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def num(x) -> str:
    """A coordinate: integers as integers, others to one decimal."""
    if isinstance(x, int):
        return str(x)
    r = round(x, 1)
    return str(int(r)) if r == int(r) else str(r)


_NARROW = frozenset("ijl'.,:;!|")
_SEMI = frozenset("frt ()-[]I")
_WIDE = frozenset("mwMW@%")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` in DejaVu Sans, from rough classes of glyph
    advances: enough to lay out and to cut names before they run into
    their neighbours."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += 0.29
        elif ch in _SEMI:
            em += 0.38
        elif ch in _WIDE:
            em += 0.96
        elif ch.isupper():
            em += 0.72
        else:
            em += 0.61
    return em * size * (1.1 if bold else 1.0)


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
    return f"Seat {seat}"


def is_seat(viewer, players: int) -> bool:
    return isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < players


class Svg:
    """An element buffer; ``document`` wraps it into a standalone SVG."""

    def __init__(self):
        self.parts: list[str] = []

    def add(self, raw: str) -> None:
        self.parts.append(raw)

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
        w, h = num(width), num(height)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT}">')
        label = f"<title>{esc(title)}</title>" if title else ""
        back = f'<rect width="{w}" height="{h}" fill="{PAPER}"/>'
        return head + label + back + "".join(self.parts) + "</svg>"


def turn_marker(svg: Svg, x, y, size=10, fill=INK) -> None:
    """A right-pointing triangle whose left tip is at (x, y - size/2)."""
    svg.polygon(((x, y - size), (x + size * 0.9, y - size / 2), (x, y)), fill=fill)


def header(svg: Svg, width, title: str, status: str, detail: str = "") -> float:
    """The title bar: the game's name, then what happens now in bold. Returns
    the y below it."""
    svg.rect(0, 0, width, 58 if not detail else 78, fill=PANEL)
    svg.text(16, 24, title, size=15, fill=MUTED, bold=True)
    svg.text(16, 47, fit(status, 18, width - 32, bold=True), size=18, bold=True)
    if detail:
        svg.text(16, 68, fit(detail, 14, width - 32), size=14, fill=MUTED)
        return 88
    return 68


def name_column(labels: list[str], width) -> float:
    """The width of the name column of player rows: the longest name (bold,
    16px) and a gap, at most half the row so notes keep room."""
    return min(max((text_width(x, 16, True) for x in labels), default=0) + 14, width * 0.5)


def player_row(svg: Svg, x, y, width, seat: int, name: str, *, score=None, acting=False,
               you=False, note: str = "", place: int | None = None, name_w: float | None = None) -> None:
    """One player's line: a turn marker when they are to act, a seat-coloured
    dot, the name (and "you"), a note (hand count and the like) in a column
    ``name_w`` after the name's start, and the score at the right. ``y`` is
    the text baseline."""
    if acting:
        svg.rect(x, y - 20, width, 28, fill=HIGHLIGHT, rx=6)
        turn_marker(svg, x + 6, y - 1, size=12)
    svg.circle(x + 30, y - 6, 7, fill=seat_colour(seat))
    label = name + (" (you)" if you else "")
    score_txt = "" if score is None else str(score)
    score_w = text_width(score_txt, 17, True) + (34 if place == 1 else 10)
    room = width - 44 - score_w - 8
    if name_w is None:
        name_w = name_column([label], room)
    you_txt = " (you)" if you else ""
    shown = fit(name, 16, ((name_w - 12) if note else room) - text_width(you_txt, 16, True), bold=True) + you_txt
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
        return "nobody wins"
    if len(firsts) == 1:
        return f"{firsts[0]} wins"
    return ", ".join(firsts[:-1]) + f" and {firsts[-1]} share the win"


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
