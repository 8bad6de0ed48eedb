"""How wide a label will be, read from the shipped font's own advance widths
(its ``cmap``, ``hhea``, ``hmtx`` and ``head`` tables, with the standard
library), so panels can be laid out and long names cut before the renderer
draws them. Kerning is ignored (a pixel or two on a long label)."""
from __future__ import annotations

from functools import lru_cache

from .outlines import font


@lru_cache(maxsize=None)
def advances(bold: bool = False) -> tuple:
    """(code point -> advance in em, the advance of a missing glyph), from
    the font ``outlines`` reads (the one the labels are drawn with)."""
    face = font(bold)
    out = {code: face.advance(g) / face.units for code, g in face.cmap.items()}
    return out, face.advance(0) / face.units


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The label's width in pixels at font size ``size``."""
    table, missing = advances(bold)
    return size * sum(table.get(ord(ch), missing) for ch in str(text))
