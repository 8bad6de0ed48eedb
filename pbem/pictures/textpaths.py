"""Labels drawn as paths before rasterising: each ``<text>`` of a picture
becomes one ``<path>`` of its glyphs' outlines.

Why: resvg lays out and outlines every glyph of every label on each parse
(about 30 µs a glyph), then fills each glyph as a path of its own, at a cost
per path; glyphs were most of a grid game's paths and over half its PNG
time. Outlines read once per process (``outlines``) cost nothing per
picture, and a label's glyphs joined by relative moves fill as one path.
The SVG served to browsers keeps its ``<text>`` (selectable, searchable);
only the renderer's copy is rewritten.

Only the labels the pictures write are rewritten: ``x``, ``y``,
``font-size``, ``text-anchor``, ``font-weight``, paint passed on as is, and
``<tspan x y>`` children. A label with anything else (a halo stroke, an
italic) is left for the renderer to lay out, so the picture is never wrong,
only sometimes slower; its characters that no shipped font has are written
as the placeholder (``outlines.visible``), which the renderer would
otherwise leave out. Every character is drawn by ``outlines.glyph``: Latin
and Chinese in one path, a missing one as the placeholder. Kerning is not
applied (a pixel on some pairs).
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

from . import outlines
from .outlines import _n

_TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)
_TSPAN = re.compile(r'<tspan x="([-0-9.]+)" y="([-0-9.]+)">([^<]*)</tspan>')
_ATTR = re.compile(r'\s([a-zA-Z:-]+)="([^"]*)"')
_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"-?[0-9.]+$")

#: attributes that only paint the label: given to its group unchanged
_PASSED = frozenset({"fill", "class", "opacity", "fill-opacity"})
_LAID_OUT = frozenset({"x", "y", "font-size", "text-anchor", "font-weight"})


_TEXT_NODE = re.compile(r"(?<=>)[^<]+")


def labels_as_paths(svg: str) -> str:
    """The document with every label it can draw as glyph paths (and the
    others' missing characters as the placeholder)."""
    return _TEXT.sub(lambda m: _label(m) or _visible(m.group(0)), svg)


def _visible(element: str) -> str:
    return element if element.isascii() else _TEXT_NODE.sub(lambda t: outlines.visible(t.group(0)), element)


def _label(match) -> str | None:
    attrs = dict(_ATTR.findall(match.group(1)))
    if any(k not in _PASSED and k not in _LAID_OUT and not k.startswith("data-") for k in attrs):
        return None
    size = attrs.get("font-size")
    weight = attrs.get("font-weight", "normal")
    if size is None or not _NUMBER.match(size) or weight not in ("normal", "bold", "400", "700"):
        return None
    bold = weight in ("bold", "700")
    content = match.group(2)
    if "<" in content:
        spans = _TSPAN.findall(content)
        if _TSPAN.sub("", content).strip():
            return None  # something besides plain tspans
    else:
        if not (_NUMBER.match(attrs.get("x", "")) and _NUMBER.match(attrs.get("y", ""))):
            return None
        spans = [(attrs["x"], attrs["y"], content)]
    anchor = attrs.get("text-anchor", "start")
    if anchor not in ("start", "middle", "end"):
        return None
    scale = float(size) / outlines.UNITS
    # One path for the whole element: its spans' glyphs joined by relative
    # moves, in font units from the first span's origin.
    parts, origin, cur = [], None, (0.0, 0.0)
    for x, y, words in spans:
        pen, first, body, end = _run(words, bold)
        x = float(x) - (pen * scale / 2 if anchor == "middle" else pen * scale if anchor == "end" else 0)
        if origin is None:
            origin = (x, float(y))
        if body:
            ox, oy = (x - origin[0]) / scale, (float(y) - origin[1]) / scale
            parts.append(f"m{_n(ox + first[0] - cur[0])} {_n(oy + first[1] - cur[1])}{body}")
            cur = (ox + end[0], oy + end[1])
    if not parts:
        return "<g/>"  # only spaces: nothing to draw
    paint = "".join(f' {k}="{v}"' for k, v in attrs.items() if k not in _LAID_OUT)
    return (f'<path{paint} transform="translate({origin[0]:.2f} {origin[1]:.2f}) scale({scale:.6f})" '
            f'd="{"".join(parts)}"/>')


@lru_cache(maxsize=4096)
def _run(words: str, bold: bool) -> tuple:
    """(advance, first point, relative path data after it, the pen's point
    after it), in ``outlines.UNITS`` from the run's origin. Labels repeat
    (numbers, names), so runs are kept."""
    words = _SPACE.sub(" ", html.unescape(words)).strip()  # what xml:space="default" does
    parts, first, cur, pen = [], None, (0, 0), 0
    for ch in outlines.normal(words):
        glyph = outlines.glyph(ch, bold)
        if glyph.outline:
            (fx, fy), body, (ex, ey) = glyph.outline
            if first is None:
                first = (pen + fx, fy)
                parts.append(body)
            else:
                parts.append(f"m{_n(pen + fx - cur[0])} {_n(fy - cur[1])}{body}")
            cur = (pen + ex, ey)
        pen += glyph.advance
    return pen, first, "".join(parts), cur
