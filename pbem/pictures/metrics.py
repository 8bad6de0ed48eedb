"""How wide a label will be, read from the shipped font's own advance widths
(its ``cmap``, ``hhea``, ``hmtx`` and ``head`` tables, with the standard
library), so panels can be laid out and long names cut before the renderer
draws them. Kerning is ignored (a pixel or two on a long label)."""
from __future__ import annotations

import struct
from functools import lru_cache


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


@lru_cache(maxsize=None)
def advances(bold: bool = False) -> tuple:
    """(code point -> advance in em, the advance of a missing glyph), from
    the font ``outlines`` reads (the one the labels are drawn with)."""
    from .outlines import font  # here: outlines reads the tables with this module's readers

    face = font(bold)
    out = {code: face.advance(g) / face.units for code, g in face.cmap.items()}
    return out, face.advance(0) / face.units


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The label's width in pixels at font size ``size``."""
    table, missing = advances(bold)
    return size * sum(table.get(ord(ch), missing) for ch in str(text))
