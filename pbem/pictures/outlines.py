"""The shipped fonts (``fonts/``), the one module that reads them: where
they are (``FONT_FILES``: raster loads them into the renderer) and their
glyphs' advances and outlines, read from their ``cmap``, ``hmtx``, ``loca``
and ``glyf`` tables with the standard library (``font``: metrics measures
labels with it, textpaths draws them).

Outlines are kept as relative path data (font units, y pointing down, the
SVG way), so that ``textpaths`` joins a label's glyphs into one path drawn
by a translate to its baseline and one uniform scale.
"""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).with_name("fonts")
FONT_FILES = tuple(str(FONT_DIR / name) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))

# composite-glyph flags (the OpenType ``glyf`` table)
_ARGS_ARE_WORDS = 0x0001
_ARGS_ARE_XY = 0x0002
_HAS_SCALE = 0x0008
_MORE = 0x0020
_HAS_XY_SCALE = 0x0040
_HAS_2X2 = 0x0080


def _tables(data: bytes) -> dict:
    count = struct.unpack(">H", data[4:6])[0]
    out = {}
    for i in range(count):
        tag, _sum, offset, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        out[tag.decode("latin-1")] = data[offset:offset + length]
    return out


def _cmap(table: bytes) -> dict:
    """Code point -> glyph id, from the format 4 (BMP) subtable."""
    count = struct.unpack(">H", table[2:4])[0]
    for i in range(count):
        _platform, _encoding, offset = struct.unpack(">HHI", table[4 + 8 * i:12 + 8 * i])
        if struct.unpack(">H", table[offset:offset + 2])[0] != 4:
            continue
        sub = table[offset:]
        segs = struct.unpack(">H", sub[6:8])[0] // 2
        ends = struct.unpack(f">{segs}H", sub[14:14 + 2 * segs])
        base = 16 + 2 * segs
        starts = struct.unpack(f">{segs}H", sub[base:base + 2 * segs])
        deltas = struct.unpack(f">{segs}h", sub[base + 2 * segs:base + 4 * segs])
        ranges_at = base + 4 * segs
        ranges = struct.unpack(f">{segs}H", sub[ranges_at:ranges_at + 2 * segs])
        out = {}
        for s in range(segs):
            for code in range(starts[s], ends[s] + 1):
                if code == 0xFFFF:
                    continue
                if ranges[s] == 0:
                    glyph = (code + deltas[s]) & 0xFFFF
                else:
                    at = ranges_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                    glyph = struct.unpack(">H", sub[at:at + 2])[0]
                    if glyph:
                        glyph = (glyph + deltas[s]) & 0xFFFF
                if glyph:
                    out[code] = glyph
        return out
    return {}


class Font:
    """One shipped font: code point -> glyph, advances and outlines."""

    def __init__(self, data: bytes):
        t = _tables(data)
        self.units = struct.unpack(">H", t["head"][18:20])[0]
        long_loca = struct.unpack(">h", t["head"][50:52])[0] == 1
        count = struct.unpack(">H", t["maxp"][4:6])[0]
        if long_loca:
            self.loca = struct.unpack(f">{count + 1}I", t["loca"][:4 * (count + 1)])
        else:
            self.loca = tuple(2 * v for v in struct.unpack(f">{count + 1}H", t["loca"][:2 * (count + 1)]))
        self.glyf = t["glyf"]
        metrics = struct.unpack(">H", t["hhea"][34:36])[0]
        hmtx = t["hmtx"]
        self.widths = [struct.unpack(">H", hmtx[4 * i:4 * i + 2])[0] for i in range(metrics)]
        self.cmap = _cmap(t["cmap"])
        self._paths: dict = {}

    def advance(self, glyph: int) -> int:
        return self.widths[min(glyph, len(self.widths) - 1)]

    def contours(self, glyph: int, depth: int = 0) -> list | None:
        """The glyph's contours, each a list of (x, y, on_curve) in font
        units (y up); None when the glyph uses something not read here."""
        start, end = self.loca[glyph], self.loca[glyph + 1]
        if start == end:
            return []  # a space: no outline
        g = self.glyf[start:end]
        n = struct.unpack(">h", g[:2])[0]
        if n >= 0:
            return _simple(g, n)
        if depth > 4:
            return None
        return self._composite(g, depth)

    def _composite(self, g: bytes, depth: int) -> list | None:
        out, pos = [], 10
        while True:
            flags, index = struct.unpack(">HH", g[pos:pos + 4])
            pos += 4
            if flags & _ARGS_ARE_WORDS:
                dx, dy = struct.unpack(">hh", g[pos:pos + 4])
                pos += 4
            else:
                dx, dy = struct.unpack(">bb", g[pos:pos + 2])
                pos += 2
            if not flags & _ARGS_ARE_XY or flags & (_HAS_SCALE | _HAS_XY_SCALE | _HAS_2X2):
                return None  # point-matched or scaled components: leave to the renderer
            part = self.contours(index, depth + 1)
            if part is None:
                return None
            out.extend([(x + dx, y + dy, on) for x, y, on in contour] for contour in part)
            if not flags & _MORE:
                return out

    def path(self, glyph: int) -> tuple | None:
        """The glyph as relative path data, to be joined into one path with
        others: (first point, the commands after the move to it, the current
        point after them), all in font units from the glyph's origin, y down;
        () for a glyph with no outline (a space); None if it cannot be read."""
        if glyph not in self._paths:
            contours = self.contours(glyph)
            self._paths[glyph] = None if contours is None else _relative(
                [cmd for c in contours for cmd in _contour_commands(c)])
        return self._paths[glyph]


def _simple(g: bytes, n: int) -> list:
    ends = struct.unpack(f">{n}H", g[10:10 + 2 * n])
    points = ends[-1] + 1 if n else 0
    pos = 10 + 2 * n
    skip = struct.unpack(">H", g[pos:pos + 2])[0]
    pos += 2 + skip
    flags = []
    while len(flags) < points:
        f = g[pos]
        pos += 1
        flags.append(f)
        if f & 8:
            flags.extend([f] * g[pos])
            pos += 1
    xs, pos = _coords(g, pos, flags, 2, 16)
    ys, pos = _coords(g, pos, flags, 4, 32)
    out, first = [], 0
    for last in ends:
        out.append([(xs[i], ys[i], bool(flags[i] & 1)) for i in range(first, last + 1)])
        first = last + 1
    return out


def _coords(g: bytes, pos: int, flags: list, short: int, same: int) -> tuple:
    value, out = 0, []
    for f in flags:
        if f & short:
            delta = g[pos]
            pos += 1
            value += delta if f & same else -delta
        elif not f & same:
            value += struct.unpack(">h", g[pos:pos + 2])[0]
            pos += 2
        out.append(value)
    return out, pos


def _contour_commands(points: list) -> list:
    """A closed quadratic contour as absolute commands ("M", "L", "Q", "Z"
    with their points, y down); off-curve neighbours imply an on-curve point
    half way between them."""
    if not points:
        return []
    pts = [(x, -y, on) for x, y, on in points]  # y down
    start = next((i for i, p in enumerate(pts) if p[2]), None)
    if start is None:  # all off-curve: start between the first two
        (x0, y0, _), (x1, y1, _) = pts[0], pts[1 % len(pts)]
        pts = [((x0 + x1) / 2, (y0 + y1) / 2, True)] + pts[1:] + pts[:1]
        start = 0
    pts = pts[start:] + pts[:start]
    out = [("M", (pts[0][0], pts[0][1]))]
    pending = None
    for x, y, on in pts[1:] + pts[:1]:
        if on:
            if pending is None:
                out.append(("L", (x, y)))
            else:
                out.append(("Q", pending, (x, y)))
                pending = None
        else:
            if pending is not None:
                out.append(("Q", pending, ((pending[0] + x) / 2, (pending[1] + y) / 2)))
            pending = (x, y)
    out.append(("Z",))
    return out


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


@lru_cache(maxsize=None)
def font(bold: bool = False) -> Font:
    with open(FONT_FILES[1 if bold else 0], "rb") as f:
        return Font(f.read())
