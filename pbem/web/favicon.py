"""The site's icon: ``/favicon.svg`` (the pages link it) and ``/favicon.ico``
(what a browser, a bookmark or a feed reader asks for unbidden; it was a 404
in every server log), both cached by browsers for a day.

One drawing, ``static/favicon.svg``; ``static/favicon.ico`` holds it
rasterised at 16, 32 and 48 px (PNG images in an ICO directory, which every
browser since 2007 reads), made by ``python -m pbem.web.favicon`` after a
change to the drawing. It is a file rather than made at the first request:
resvg's objects belong to the thread that made them, and the API answers on
many threads.
"""
from __future__ import annotations

import struct
from pathlib import Path

from flask import Blueprint, send_from_directory

STATIC = Path(__file__).resolve().parent / "static"
SIZES = (16, 32, 48)
MAX_AGE_S = 86400

icons = Blueprint("icons", __name__)


@icons.get("/favicon.svg")
def favicon_svg():
    return send_from_directory(STATIC, "favicon.svg", mimetype="image/svg+xml", max_age=MAX_AGE_S)


@icons.get("/favicon.ico")
def favicon_ico():
    return send_from_directory(STATIC, "favicon.ico", mimetype="image/x-icon", max_age=MAX_AGE_S)


def make_ico() -> bytes:
    """The drawing as an ICO file (its images rasterised by pbem/pictures)."""
    from ..pictures.raster import png

    drawing = (STATIC / "favicon.svg").read_text()
    return ico_of([(size, png(drawing, scale=size / 32)) for size in SIZES])  # the drawing is 32 px


def ico_of(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file of square PNG images: its header, one 16-byte directory
    entry per image (width, height, colours, planes, bits, size, offset),
    then the images."""
    offset = 6 + 16 * len(images)
    entries, data = b"", b""
    for size, image in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset + len(data))
        data += image
    return struct.pack("<HHH", 0, 1, len(images)) + entries + data


def register(app) -> None:
    app.register_blueprint(icons)


if __name__ == "__main__":
    (STATIC / "favicon.ico").write_bytes(make_ico())
