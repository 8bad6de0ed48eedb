"""How wide a label will be, from the advances of the glyphs that draw it
(``outlines.glyph``: DejaVu, then the CJK font, then the placeholder), so
panels can be laid out and long names cut before the renderer draws them,
in any script. Kerning is ignored (a pixel or two on a long label)."""
from __future__ import annotations

import unicodedata

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


#: punctuation a line does not start with, and punctuation it does not end with
#: (the usual rules for Chinese, which breaks between any two characters)
_NO_LINE_START = frozenset("，。、：；！？）」』】》〉…‥·,.;:!?)]}%％")
_NO_LINE_END = frozenset("（「『【《〈([{")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _pieces(text: str) -> list:
    """(piece, space before it): the text cut where a line may break, at
    spaces and between Chinese characters, punctuation kept with the
    character it belongs to."""
    pieces: list = []
    space = False
    for ch in text:
        if ch.isspace() and not _wide(ch):
            space = bool(pieces)
            continue
        last = pieces[-1][0] if pieces else ""
        joins = last and not space and (
            ch in _NO_LINE_START or last[-1] in _NO_LINE_END or not (_wide(ch) or _wide(last[-1])))
        if joins:
            pieces[-1][0] += ch
        else:
            pieces.append([ch, space])
        space = False
    return pieces


def wrap(text: str, size: float, width: float, bold: bool = False) -> list:
    """``text`` in lines no wider than ``width`` pixels at font size ``size``:
    broken at spaces and between Chinese characters, and inside a word
    only when the word alone is wider than a line."""
    lines: list = []
    line, used = "", 0.0
    space_w = text_width(" ", size, bold)
    for piece, space in _pieces(str(text)):
        piece_w = text_width(piece, size, bold)
        gap = space_w if line and space else 0.0
        if line and used + gap + piece_w > width:
            lines.append(line)
            line, used, gap = "", 0.0, 0.0
        line, used = line + (" " if gap else "") + piece, used + gap + piece_w
        while used > width and len(line) > 1:   # one piece wider than a line: cut it
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], size, bold) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
            used = text_width(line, size, bold)
    return lines + [line] if line else lines
