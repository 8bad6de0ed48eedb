"""PNG from SVG with no system font: labels are drawn with the shipped font."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pbem.pictures import markup, png
from pbem.pictures.outlines import FONT_FILES

from .png_pixels import decode, differing, region

LABEL_BOX = (10, 10, 190, 50)


def label_svg(with_label: bool) -> str:
    body = [markup.rect(0, 0, 200, 60, fill="#ffffff")]
    if with_label:
        body.append(markup.text(12, 42, "Seat 1: 42", size=28, weight="bold"))
    return markup.document(200, 60, body)


#: run in a child whose fontconfig knows no font at all, and whose home and
#: data folders are empty: only what the package ships can draw a glyph
CHILD = """
import json, sys
from pbem.pictures import png
from tests.pictures.test_raster import label_svg
out = {}
for flag in (True, False):
    out[str(flag)] = png(label_svg(flag)).hex()
json.dump(out, sys.stdout)
"""


def no_font_env(tmp_path: Path) -> dict:
    empty = tmp_path / "fonts-empty"
    empty.mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig></fontconfig>')
    return {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(empty),
            "XDG_CONFIG_HOME": str(empty), "FONTCONFIG_FILE": str(conf), "FONTCONFIG_PATH": str(empty)}


def test_labels_are_drawn_with_no_system_font(tmp_path):
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=root, env=no_font_env(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    images = {k: decode(bytes.fromhex(v)) for k, v in json.loads(done.stdout).items()}
    (w, h, with_label), (_, _, without) = images["True"], images["False"]
    assert (w, h) == (200, 60)
    changed = differing(region(with_label, *LABEL_BOX), region(without, *LABEL_BOX))
    # "Seat 1: 42" at 28 px covers well over a thousand pixels; no glyph, no change
    assert changed > 800, f"only {changed} pixels differ: the label was not drawn"
    dark = sum(1 for p in region(with_label, *LABEL_BOX) if p[0] < 100)
    assert dark > 400


def test_scale_multiplies_the_size():
    w, h, _ = decode(png(label_svg(True), scale=2.0))
    assert (w, h) == (400, 120)


def test_the_shipped_fonts_are_there_and_small():
    from pbem.pictures.outlines import CJK_FILE, LATIN_FILES
    for name in LATIN_FILES:
        data = Path(name).read_bytes()
        assert data[:4] in (b"\x00\x01\x00\x00", b"true"), f"{name} is not a TrueType font"
        assert len(data) < 100_000
    data = Path(CJK_FILE).read_bytes()
    assert data[:4] == b"OTTO" and len(data) < 1_500_000, "the CJK subset is a CFF font of at most 1.5 MB"
    assert set(FONT_FILES) == {*LATIN_FILES, CJK_FILE}
    fonts = Path(FONT_FILES[0]).parent
    assert (fonts / "LICENSE-DejaVu.txt").read_text().startswith("Fonts are (c) Bitstream")
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts / "LICENSE-NotoSansCJK.txt").read_text()


def test_the_renderer_knows_only_the_shipped_fonts():
    from pbem.pictures.raster import options
    assert options().list_fonts() == ["DejaVu Sans", "Noto Sans CJK TC"]


def test_text_width_matches_what_is_drawn():
    from pbem.pictures.markup import text_width
    for label, size, bold in (("knight thief monk", 20, False), ("Player Name 42", 24, True), ("WWWiii", 30, False)):
        svg = markup.document(600, 60, [markup.text(10, 40, label, size=size, weight="bold" if bold else None)])
        w, h, rows = decode(png(svg))
        inked = [x for x in range(w) if any(rows[y][x][0] < 128 for y in range(h))]
        drawn = inked[-1] + 1 - 10
        # the ink ends a little before the advance of the last glyph
        assert text_width(label, size, bold) - size * 0.25 <= drawn <= text_width(label, size, bold) + 1, (label, drawn)
