"""SVG to PNG with resvg (the ``resvg`` wheel carries the renderer's own
compiled code: no cairo, no system library) and the fonts shipped in
``fonts/``: DejaVu Sans (regular and bold) and the CJK subset, both named in
every picture's font-family (``markup.FONT``), so a label left to the
renderer finds a Chinese character in the second.

System fonts are never loaded, so a picture renders the same on a bare
machine as here, and a text label can never silently vanish because the
machine lacks a font. (Of the two resvg bindings on PyPI this one renders a
finished Carcassonne board about 2.5 times faster than ``resvg-py``, and lets
the fonts be loaded once per process rather than on every call.)
"""
from __future__ import annotations

import re
import threading

import resvg

from .outlines import FAMILIES, FONT_FILES
from .textpaths import labels_as_paths

#: the Latin family, the renderer's default; pictures name it first (``markup.FONT``)
FAMILY = FAMILIES[0]

_OPTIONS = None
_LOCK = threading.Lock()
_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\s(width|height)="([0-9.]+)(?:px)?"')


def options():
    """resvg's options with the shipped fonts and no other (made once)."""
    global _OPTIONS
    with _LOCK:
        if _OPTIONS is None:
            opts = resvg.usvg.Options.default()
            for name in FONT_FILES:
                opts.load_font_file(name)
            opts.font_family = FAMILY
            _OPTIONS = opts
    return _OPTIONS


def _scaled(svg_text: str, scale: float) -> str:
    """The document with its width and height multiplied (its viewBox keeps
    the drawing's coordinates, so everything grows with it)."""
    root = _ROOT.search(svg_text)
    if root is None:
        raise ValueError("not an SVG document")
    tag = root.group(0)
    sizes = dict(_SIZE.findall(tag))
    if "width" not in sizes or "height" not in sizes:
        raise ValueError("the SVG root needs a width and a height to be scaled")
    new = _SIZE.sub(lambda g: f' {g.group(1)}="{float(g.group(2)) * scale:g}"', tag)
    if "viewBox" not in tag:
        new = new[:-1].rstrip("/") + f' viewBox="0 0 {sizes["width"]} {sizes["height"]}">'
    return svg_text[:root.start()] + new + svg_text[root.end():]


def png(svg_text: str, *, scale: float = 1.0) -> bytes:
    """Rasterise SVG text; ``scale`` multiplies its width and height."""
    if not scale > 0:
        raise ValueError("scale must be positive")
    svg_text = labels_as_paths(svg_text)
    if scale != 1.0:
        svg_text = _scaled(svg_text, scale)
    tree = resvg.usvg.Tree.from_str(svg_text, options())
    return bytes(resvg.render(tree, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)))
