"""The shipped fonts (``fonts/``), the one module that reads them (with
fontTools): where they are (``FONT_FILES``: raster loads them into the
renderer), and for each character the glyph that draws it (``glyph``): its
advance and its outline. metrics measures labels with it, textpaths draws
them.

A character is drawn by the first font of a chain that has it: DejaVu Sans
(or DejaVu Sans Bold in a bold label) for Latin, then the CJK subset (Noto
Sans CJK TC Regular, the one weight shipped: see ``_embolden``), then a
placeholder, DejaVu's white square □, so a character no shipped font has is
seen, never dropped. ``visible`` writes a text the way the chain draws it,
for labels left to the renderer.

Advances and outlines are in one unit for every font, ``UNITS`` to the em
(DejaVu's own), so a label's glyphs from both fonts join into one path drawn
by a translate to its baseline and one uniform scale. Outlines are kept as
relative path data (y pointing down, the SVG way). The fonts are read once
per process, the CJK one only when a label first needs it (its character
map holds six thousand entries); each character's glyph is kept once drawn.
"""
from __future__ import annotations

import threading
import unicodedata
from functools import cached_property, lru_cache
from pathlib import Path
from typing import NamedTuple

FONT_DIR = Path(__file__).with_name("fonts")
LATIN_FILES = (str(FONT_DIR / "DejaVuSans.ttf"), str(FONT_DIR / "DejaVuSans-Bold.ttf"))
CJK_FILE = str(FONT_DIR / "NotoSansCJKtc-Regular-subset.otf")
FONT_FILES = (*LATIN_FILES, CJK_FILE)
#: the families the files declare, in the order a character looks for a glyph
FAMILIES = ("DejaVu Sans", "Noto Sans CJK TC")
#: units to the em of every advance and outline here (DejaVu's: its glyphs unscaled)
UNITS = 2048
#: drawn for a character no shipped font has
PLACEHOLDER = "\u25a1"
#: how far a CJK glyph is drawn twice apart in a bold label, in em
BOLD_OFFSET = 0.035


class Glyph(NamedTuple):
    """How a character is drawn: ``advance`` in ``UNITS``; ``outline`` the
    relative path data (first point, the commands after the move to it, the
    current point after them) or () for nothing to fill (a space);
    ``font`` which font drew it ("latin", "cjk", "placeholder", "none")."""
    advance: float
    outline: tuple
    font: str


class Face:
    """One shipped font file, opened when first used."""

    def __init__(self, path: str, kind: str):
        self.path = path
        self.kind = kind
        self._lock = threading.Lock()

    @cached_property
    def font(self):
        from fontTools.ttLib import TTFont  # imported when a picture is first drawn, not with pbem.pictures
        return TTFont(self.path, lazy=True)

    @cached_property
    def cmap(self) -> dict:
        with self._lock:
            return self.font.getBestCmap()

    @cached_property
    def glyphs(self):
        return self.font.getGlyphSet()

    @cached_property
    def scale(self) -> float:
        return UNITS / self.font["head"].unitsPerEm

    def glyph(self, code: int, embolden: bool = False) -> Glyph | None:
        name = self.cmap.get(code)
        if name is None:
            return None
        with self._lock:  # fontTools' lazy tables are not made for threads
            advance = self.font["hmtx"].metrics[name][0] * self.scale
            pen = _pen_class()(self.glyphs, self.scale)
            self.glyphs[name].draw(pen)
        commands = pen.commands
        if embolden and commands:
            commands = _embolden(commands)
        return Glyph(advance, _relative(commands), self.kind)


@lru_cache(maxsize=None)
def _pen_class():
    from fontTools.pens.basePen import BasePen

    class RelativePen(BasePen):
        """Records a glyph as absolute commands ("M", "L", "Q", "C" with
        their points, "Z"), scaled to ``UNITS`` and with y pointing down;
        quadratic runs with implied on-curve points arrive split (``BasePen``),
        composite glyphs through their parts."""

        def __init__(self, glyphs, scale: float):
            super().__init__(glyphs)
            self.s = scale
            self.commands: list = []

        def _pt(self, p) -> tuple:
            x, y = p[0] * self.s, -p[1] * self.s
            return (x, y) if self.s == 1 else (round(x), round(y))

        def _moveTo(self, p):
            self.commands.append(("M", self._pt(p)))

        def _lineTo(self, p):
            self.commands.append(("L", self._pt(p)))

        def _qCurveToOne(self, p1, p2):
            self.commands.append(("Q", self._pt(p1), self._pt(p2)))

        def _curveToOne(self, p1, p2, p3):
            self.commands.append(("C", self._pt(p1), self._pt(p2), self._pt(p3)))

        def _closePath(self):
            self.commands.append(("Z",))

        def _endPath(self):
            self.commands.append(("Z",))

    return RelativePen


def _embolden(commands: list) -> list:
    """The glyph's contours twice, the copy moved right: filled together (the
    nonzero rule unites them) they make the strokes heavier, a bold for the
    one CJK weight shipped. The advance stays, so metrics need not know."""
    dx = round(BOLD_OFFSET * UNITS)
    moved = [(op, *((x + dx, y) for x, y in pts)) for op, *pts in commands]
    return commands + moved


def _relative(commands: list) -> tuple:
    """(first point, relative commands after it, current point at the end):
    relative commands can follow any pen position, so a label's glyphs join
    into one path with one move between them (resvg fills a path at a fixed
    cost each, and glyphs are most of a picture's paths)."""
    if not commands:
        return ()
    first = commands[0][1]
    cur = start = first
    out = []
    for op, *pts in commands[1:] if commands[0][0] == "M" else commands:
        if op == "Z":
            out.append("z")
            cur = start
            continue
        rel = " ".join(f"{_n(x - cur[0])} {_n(y - cur[1])}" for x, y in pts)
        out.append(f"{op.lower()}{rel}")
        cur = pts[-1]
        if op == "M":
            start = cur
    return first, "".join(out), cur


def _n(v) -> str:
    return str(int(v)) if v == int(v) else f"{v:.1f}"


_LATIN = (Face(LATIN_FILES[0], "latin"), Face(LATIN_FILES[1], "latin"))
_CJK = Face(CJK_FILE, "cjk")
_GLYPHS: tuple = ({}, {})
_NOTHING = Glyph(0, (), "none")


def glyph(ch: str, bold: bool = False) -> Glyph:
    """How ``ch`` is drawn in a regular or bold label (kept once read)."""
    found = _GLYPHS[bold].get(ch)
    if found is None:
        found = _GLYPHS[bold][ch] = _find(ch, bold)
    return found


def _find(ch: str, bold: bool) -> Glyph:
    code = ord(ch)
    found = _LATIN[bold].glyph(code)
    if found is None:
        found = _CJK.glyph(code, embolden=bold)
    if found is not None:
        return found
    if ch.isspace():
        return glyph(" ", bold)
    if _invisible(ch):
        return _NOTHING
    return glyph(PLACEHOLDER, bold)._replace(font="placeholder")


def _invisible(ch: str) -> bool:
    """Characters that draw nothing by design: joiners (ZWJ, ZWNJ: names may
    hold them), variation selectors, other format characters."""
    return unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F


def normal(text: str) -> str:
    """The text as drawn: composed (NFC), so an accent typed as a combining
    mark is the accented letter the font has."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def visible(text: str) -> str:
    """``text`` with each character no shipped font has replaced by the
    placeholder (and ones that draw nothing dropped): what a label left to
    the renderer should hold, so it shows what ``glyph`` would draw."""
    if text.isascii():
        return text
    out = []
    for ch in normal(text):
        g = glyph(ch)
        out.append(PLACEHOLDER if g.font == "placeholder" else "" if g.font == "none" else ch)
    return "".join(out)
