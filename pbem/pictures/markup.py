"""Writing SVG as text: escaping, compact numbers, a few element helpers.

Pictures are strings built by appending parts to a list (no drawing
library, no DOM), which keeps a whole board in a few milliseconds. Keyword
attributes are written with ``_`` turned into ``-`` (``stroke_width=2`` ->
``stroke-width="2"``); ``None`` values are left out; ``cls`` is ``class``.
"""
from __future__ import annotations

from html import escape

#: the font stack of every picture: the shipped fonts first (``outlines.FAMILIES``:
#: Latin, then Chinese), so the PNG and a browser showing the SVG agree as far
#: as they can
FONT = "'DejaVu Sans','Noto Sans CJK TC',Verdana,Arial,sans-serif"


def esc(text) -> str:
    """Text or an attribute value, escaped for XML."""
    return escape(str(text), quote=True)


# A board writes the same few hundred coordinates (tile corners, text
# baselines) hundreds of thousands of times: each float's text is kept
# (floats only: 1.0 and True hash alike but read "1" and "True"). Bounded.
_FLOATS: dict = {}
_FLOATS_KEPT = 1 << 16


def num(value) -> str:
    """A coordinate, short: integers as such, else at most 2 decimals."""
    if isinstance(value, int):
        return str(value)
    if type(value) is float:
        text = _FLOATS.get(value)
        if text is None:
            if len(_FLOATS) >= _FLOATS_KEPT:
                _FLOATS.clear()
            text = _FLOATS[value] = _short(value)
        return text
    return _short(value)


def _short(value) -> str:
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def attrs(**kw) -> str:
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        if key == "cls":
            key = "class"
        out.append(f' {key.rstrip("_").replace("_", "-")}="{num(value) if isinstance(value, float) else esc(value)}"')
    return "".join(out)


def element(tag: str, **kw) -> str:
    return f"<{tag}{attrs(**kw)}/>"


def rect(x, y, w, h, **kw) -> str:
    return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{attrs(**kw)}/>'


def circle(cx, cy, r, **kw) -> str:
    return f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"{attrs(**kw)}/>'


def line(x1, y1, x2, y2, **kw) -> str:
    return f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"{attrs(**kw)}/>'


def path(d: str, **kw) -> str:
    return f'<path d="{d}"{attrs(**kw)}/>'


def polygon(points, **kw) -> str:
    return f'<polygon points="{" ".join(f"{num(x)},{num(y)}" for x, y in points)}"{attrs(**kw)}/>'


def text(x, y, content, *, size=12, anchor=None, weight=None, fill="#222", **kw) -> str:
    """A label; ``anchor`` start|middle|end, ``weight`` e.g. "bold"."""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"'
            f'{attrs(text_anchor=anchor, font_weight=weight, fill=fill, **kw)}>{esc(content)}</text>')


class Labels:
    """Labels gathered by style and written as one ``<text>`` per style with a
    ``<tspan>`` per label: resvg lays out each text element on its own, so a
    panel of forty labels renders several times faster this way."""

    def __init__(self):
        self.styles: dict = {}

    def add(self, x, y, content, *, size=12, anchor=None, weight=None, fill="#222", **kw) -> None:
        key = (num(size), anchor, weight, fill, tuple(sorted(kw.items())))
        self.styles.setdefault(key, []).append(f'<tspan x="{num(x)}" y="{num(y)}">{esc(content)}</tspan>')

    def svg(self) -> str:
        out = []
        for (size, anchor, weight, fill, extra), spans in self.styles.items():
            out.append(f'<text font-size="{size}"{attrs(text_anchor=anchor, font_weight=weight, fill=fill, **dict(extra))}>'
                       f'{"".join(spans)}</text>')
        return "".join(out)


def document(width, height, body, *, defs: str = "", background: str | None = "#ffffff",
             title: str | None = None) -> str:
    """A whole SVG document of ``width`` x ``height`` user units (= PNG pixels
    at scale 1), ``body`` a string or a list of strings."""
    if not isinstance(body, str):
        body = "".join(body)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{num(width)}" height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" '
            f'font-family="{FONT}">')
    parts = [head]
    if title:
        parts.append(f"<title>{esc(title)}</title>")
    if defs:
        parts.append(f"<defs>{defs}</defs>")
    if background:
        parts.append(rect(0, 0, width, height, fill=background))
    parts.append(body)
    parts.append("</svg>")
    return "".join(parts)


def part(kind: str, body, box=None) -> str:
    """A part of a picture the page may lay out by itself (``zoom.js``): the
    ``board`` (what a phone shows first, fitted to the screen, to pan and zoom)
    or a ``panel`` (players, scores, tiles in hand: below the board on a
    phone). ``box`` is the part's (x, y, width, height) where the drawing
    knows it better than the browser's bounding box (margins it keeps on
    purpose). Renderers ignore the attributes: a mail's picture is unchanged."""
    if not isinstance(body, str):
        body = "".join(body)
    where = "" if box is None else f' data-box="{" ".join(num(float(v)) for v in box)}"'
    return f'<g data-part="{esc(kind)}"{where}>{body}</g>'


def text_width(content: str, size: float, bold: bool = False) -> float:
    """The width of a label in pixels, from the shipped font's advances (``metrics``)."""
    from .metrics import text_width as width
    return width(content, size, bold)
