"""The site's icon (pbem/web/favicon.py): ``/favicon.ico`` is a real ICO of
the drawing at 16, 32 and 48 px, made from ``static/favicon.svg`` (so an
edit to the drawing without ``python -m pbem.web.favicon`` fails here).
tests/test_run.py asks for both icons from ``make run``."""
from __future__ import annotations

import struct

from pbem.web import favicon


def images(ico: bytes) -> list[tuple[int, bytes]]:
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind) == (0, 1)  # an icon file
    out = []
    for i in range(count):
        width, height, _, _, planes, bits, size, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        assert width == height and (planes, bits) == (1, 32)
        out.append((width, ico[offset:offset + size]))
    return out


def test_the_ico_holds_the_drawing_at_three_sizes():
    served = (favicon.STATIC / "favicon.ico").read_bytes()
    found = images(served)
    assert [size for size, _ in found] == [16, 32, 48]
    for size, png in found:
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert struct.unpack(">II", png[16:24]) == (size, size)
    assert served == favicon.make_ico(), "the ICO is stale: python -m pbem.web.favicon"
