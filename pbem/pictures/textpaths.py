"""Labels drawn as paths before rasterising: each ``<text>`` of a picture
becomes ``<use>`` of glyph outlines defined once per document.

Why: resvg lays out and outlines every glyph of every label on each parse,
about 30 µs a glyph, which was a quarter of the PNG time of a grid game's
picture (500 glyphs). Outlines read once per process (``outlines``) cost
nothing per picture. The SVG served to browsers keeps its ``<text>``
(selectable, searchable); only the renderer's copy is rewritten.

Only the labels the pictures write are rewritten: ``x``, ``y``,
``font-size``, ``text-anchor``, ``font-weight``, paint passed on as is, and
``<tspan x y>`` children. A label with anything else (a halo stroke, an
italic, a glyph the shipped font lacks) is left for the renderer to lay out,
so the picture is never wrong, only sometimes slower. Kerning is not
applied (a pixel on some pairs).
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

from . import outlines

_TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)
_TSPAN = re.compile(r'<tspan x="([-0-9.]+)" y="([-0-9.]+)">([^<]*)</tspan>')
_ATTR = re.compile(r'\s([a-zA-Z:-]+)="([^"]*)"')
_ROOT = re.compile(r"<svg\b[^>]*>")
_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"-?[0-9.]+$")

#: attributes that only paint the label: given to its group unchanged
_PASSED = frozenset({"fill", "class", "opacity", "fill-opacity"})
_LAID_OUT = frozenset({"x", "y", "font-size", "text-anchor", "font-weight"})


def labels_as_paths(svg: str) -> str:
    """The document with every label it can draw as glyph paths."""
    used: dict = {}
    body = _TEXT.sub(lambda m: _label(m, used) or m.group(0), svg)
    if not used:
        return svg
    root = _ROOT.search(body)
    defs = "".join(f'<path id="{key}" d="{d}"/>' for key, d in used.items())
    return f"{body[:root.end()]}<defs>{defs}</defs>{body[root.end():]}"


def _label(match, used: dict) -> str | None:
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
    scale = float(size) / outlines.font(bold).units
    anchor = attrs.get("text-anchor", "start")
    groups = []
    for x, y, words in spans:
        drawn = _glyphs(words, bold, scale, float(x), float(y), anchor, used)
        if drawn is None:
            return None
        groups.append(drawn)
    paint = "".join(f' {k}="{v}"' for k, v in attrs.items() if k not in _LAID_OUT)
    return f"<g{paint}>{''.join(groups)}</g>"


def _glyphs(words: str, bold: bool, scale: float, x: float, y: float, anchor: str,
            used: dict) -> str | None:
    run = _run(words, bold)
    if run is None:
        return None
    uses, pen, defs = run
    used.update(defs)
    if anchor == "middle":
        x -= pen * scale / 2
    elif anchor == "end":
        x -= pen * scale
    elif anchor != "start":
        return None
    return f'<g transform="translate({x:.2f} {y:.2f}) scale({scale:.6f})">{uses}</g>'


@lru_cache(maxsize=4096)
def _run(words: str, bold: bool) -> tuple | None:
    """(the label's <use> elements, its advance in font units, the glyph
    paths it needs); None if the shipped font cannot draw it. Labels repeat
    (numbers, names), so runs are kept."""
    face = outlines.font(bold)
    words = _SPACE.sub(" ", html.unescape(words)).strip()  # what xml:space="default" does
    uses, defs, pen = [], {}, 0
    for ch in words:
        glyph = face.cmap.get(ord(ch))
        d = None if glyph is None else face.path(glyph)
        if d is None:
            return None
        if d:
            key = f"pg{'b' if bold else 'r'}{glyph}"
            defs[key] = d
            uses.append(f'<use href="#{key}" x="{pen}"/>')
        pen += face.advance(glyph)
    return "".join(uses), pen, tuple(defs.items())
