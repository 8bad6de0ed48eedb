"""Reading PNG pixels with the standard library, for tests that look at
what a picture shows (8-bit RGB or RGBA, not interlaced: what resvg writes)."""
from __future__ import annotations

import struct
import zlib


def decode(data: bytes) -> tuple[int, int, list]:
    """(width, height, rows), each row a list of (r, g, b, a)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, f"unsupported PNG {header}"
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = prev[i]
            corner = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
        prev = line
        px = [tuple(line[i:i + channels]) + ((255,) if channels == 3 else ()) for i in range(0, stride, channels)]
        rows.append(px)
    return width, height, rows


def region(rows: list, x0: int, y0: int, x1: int, y1: int) -> list:
    """The pixels of the box [x0, x1) x [y0, y1)."""
    return [p for row in rows[y0:y1] for p in row[x0:x1]]


def differing(a: list, b: list, tolerance: int = 24) -> int:
    """How many pixels of two equal-length lists differ by more than ``tolerance`` in some channel."""
    return sum(1 for p, q in zip(a, b) if max(abs(u - v) for u, v in zip(p, q)) > tolerance)
