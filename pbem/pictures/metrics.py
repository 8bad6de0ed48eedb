"""How wide a label will be, from the advances of the glyphs that draw it
(``outlines.glyph``: DejaVu, then the CJK font, then the placeholder), so
panels can be laid out and long names cut before the renderer draws them,
in any script. Kerning is ignored (a pixel or two on a long label)."""
from __future__ import annotations

from . import outlines


class _Advances(dict):
    """Character -> advance in em, filled as characters are first met."""

    def __init__(self, bold: bool):
        super().__init__()
        self.bold = bold

    def __missing__(self, ch: str) -> float:
        value = self[ch] = outlines.glyph(ch, self.bold).advance / outlines.UNITS
        return value


_ADVANCES = (_Advances(False), _Advances(True))


def advance(ch: str, bold: bool = False) -> float:
    """One character's advance in em."""
    return _ADVANCES[bold][ch]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The label's width in pixels at font size ``size``."""
    table = _ADVANCES[bold]
    return size * sum([table[ch] for ch in outlines.normal(str(text))])
