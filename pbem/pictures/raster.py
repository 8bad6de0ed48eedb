"""SVG to PNG with resvg (the ``resvg-py`` wheel carries the renderer's own
code: no cairo, no system library) and the fonts shipped in ``fonts/``.

System fonts are never loaded, so a picture renders the same on a bare
machine as here, and a text label can never silently vanish because the
machine lacks a font.
"""
from __future__ import annotations

from pathlib import Path

import resvg_py

FONT_DIR = Path(__file__).with_name("fonts")
FONT_FILES = tuple(str(FONT_DIR / name) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))
#: the family the shipped fonts declare; pictures name it first (``markup.FONT``)
FAMILY = "DejaVu Sans"


def png(svg_text: str, *, scale: float = 1.0) -> bytes:
    """Rasterise SVG text; ``scale`` multiplies its width and height."""
    if not scale > 0:
        raise ValueError("scale must be positive")
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg_text, zoom=scale, skip_system_fonts=True, font_files=list(FONT_FILES),
        font_family=FAMILY, sans_serif_family=FAMILY))
