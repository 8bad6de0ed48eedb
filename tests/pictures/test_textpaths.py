"""Labels drawn as glyph paths look as the renderer's own text does, and
labels the rewrite does not understand are left for the renderer."""
from __future__ import annotations

import re

import pytest
import resvg

from pbem.pictures import markup, png
from pbem.pictures.raster import options
from pbem.pictures.textpaths import labels_as_paths

from .png_pixels import decode, differing


def renderer_text(svg: str) -> bytes:
    """The PNG resvg draws from the document as written, its own text layout."""
    tree = resvg.usvg.Tree.from_str(svg, options())
    return bytes(resvg.render(tree, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)))


def ink_box(rows) -> tuple:
    inked = [(x, y) for y, row in enumerate(rows) for x, p in enumerate(row) if p[0] < 140]
    xs, ys = [x for x, _ in inked], [y for _, y in inked]
    return min(xs), min(ys), max(xs), max(ys), len(inked)


LABELS = [
    dict(x=10, y=40, content="Seat 1: 42", size=28, weight="bold"),
    dict(x=300, y=40, content="Éléonore & Zoë", size=22, anchor="middle"),
    dict(x=590, y=40, content="knight thief monk", size=18, anchor="end"),
    dict(x=10, y=90, content="  spaced   out  ", size=20),
    dict(x=10, y=40, content="王小明：分數 42", size=26),
    dict(x=300, y=90, content="遊戲結束，Ann 獲勝", size=20, anchor="middle"),
]


@pytest.mark.parametrize("label", LABELS, ids=[lb["content"].strip() for lb in LABELS])
def test_a_label_as_paths_is_drawn_where_the_renderer_draws_it(label):
    svg = markup.document(600, 110, [markup.text(**label)])
    rewritten = labels_as_paths(svg)
    assert "<text" not in rewritten and rewritten.count("<path") == 1
    _, _, ours = decode(png(svg))
    _, _, theirs = decode(renderer_text(svg))
    a, b = ink_box(ours), ink_box(theirs)
    # the same ink within a pixel or two (kerning is the only difference)
    assert all(abs(p - q) <= 2 for p, q in zip(a[:4], b[:4])), (a, b)
    assert abs(a[4] - b[4]) <= 0.05 * b[4], (a, b)
    assert differing([p for r in ours for p in r], [p for r in theirs for p in r], 96) <= 0.2 * b[4]


def test_labels_in_tspans_are_each_placed():
    labels = markup.Labels()
    for i, word in enumerate(("alpha", "beta", "gamma")):
        labels.add(20 + 180 * i, 30, word, size=16, weight="bold", fill="#0072B2")
    svg = markup.document(600, 50, [labels.svg()])
    rewritten = labels_as_paths(svg)
    assert "<text" not in rewritten and 'fill="#0072B2"' in rewritten
    _, _, ours = decode(png(svg))
    _, _, theirs = decode(renderer_text(svg))
    for x0 in (20, 200, 380):
        mine = ink_box([row[x0 - 5:x0 + 170] for row in ours])
        ref = ink_box([row[x0 - 5:x0 + 170] for row in theirs])
        assert all(abs(p - q) <= 2 for p, q in zip(mine[:4], ref[:4])), (x0, mine, ref)


@pytest.mark.parametrize("odd", [
    '<text x="5" y="20" font-size="14" stroke="#fff" stroke-width="2" paint-order="stroke">halo</text>',
    '<text x="5" y="20" font-size="14" font-style="italic">slanted</text>',
    '<text x="5" y="20" font-size="14" font-style="italic">漢字</text>',
    '<text x="5 9 13" y="20" font-size="14">abc</text>',
    '<text x="5" y="20">no size</text>',
    '<text x="5" y="20" font-size="14"><tspan x="5" y="20" dy="3">moved</tspan></text>',
])
def test_labels_it_does_not_understand_are_left_to_the_renderer(odd):
    svg = markup.document(200, 40, [odd])
    assert labels_as_paths(svg) == svg


def test_a_chinese_label_is_one_path_with_the_latin_one():
    svg = markup.document(300, 40, [markup.text(5, 30, "王小明 wins 42", size=20)])
    rewritten = labels_as_paths(svg)
    assert "<text" not in rewritten and rewritten.count("<path") == 1


def test_a_character_no_font_has_is_a_placeholder_in_a_label_left_to_the_renderer():
    def halo(content):
        return markup.document(200, 40, [markup.text(5, 30, content, size=24, stroke="#fff", stroke_width=3,
                                                     paint_order="stroke")])
    assert labels_as_paths(halo("小明\U0001F600")) == halo("小明\u25a1")
    # without it the renderer draws nothing there: the placeholder is ink where the emoji was
    _, _, with_box = decode(png(halo("小明\U0001F600")))
    _, _, without = decode(png(halo("小明")))
    assert differing([p for r in with_box for p in r], [p for r in without for p in r], 96) > 40


def test_chinese_in_a_label_left_to_the_renderer_is_drawn_with_the_shipped_font():
    # the renderer knows the shipped fonts only (raster.options): a halo label's
    # Chinese must come from the CJK subset, named in every picture's font-family
    def halo(content):
        return markup.document(200, 40, [markup.text(5, 30, content, size=24, stroke="#fff", stroke_width=3,
                                                     paint_order="stroke")])
    assert "<text" in labels_as_paths(halo("王小明"))
    _, _, chinese = decode(png(halo("王小明")))
    _, _, empty = decode(png(halo("")))
    assert differing([p for r in chinese for p in r], [p for r in empty for p in r], 96) > 150


def test_a_document_without_labels_is_unchanged():
    svg = markup.document(50, 50, [markup.rect(0, 0, 10, 10, fill="#000")])
    assert labels_as_paths(svg) == svg


def test_each_label_is_one_path_however_many_glyphs_and_spans():
    labels = markup.Labels()
    for i in range(5):
        labels.add(10 + 40 * i, 20, f"n{i}", size=12)
    svg = markup.document(300, 60, [labels.svg(), markup.text(5, 50, "11 11", size=30, fill="#123456")])
    rewritten = labels_as_paths(svg)
    paths = re.findall(r"<path\b[^>]*>", rewritten)
    assert len(paths) == 2 and "<text" not in rewritten
    assert 'fill="#123456"' in paths[1]
    # the five spans' glyphs: one move to each glyph (an "n" and a digit; "1" is one contour)
    assert len(re.findall(r"[mM]", re.search(r'd="([^"]+)"', paths[0]).group(1))) >= 10


def test_a_whole_picture_looks_the_same_with_labels_as_paths():
    from pbem import games, pictures
    from pbem.games.base import SPECTATOR
    from pbem.games.playout import play_random
    game = games.get("wakanda")
    played = play_random(game, 2, {}, seed=3)
    svg = pictures.svg(game.name, game.view(played.state, SPECTATOR), names=["Ann", "Bo"], viewer=SPECTATOR)
    assert svg.count("<text") > 20
    assert labels_as_paths(svg).count("<text") == 0
    w, h, ours = decode(png(svg))
    _, _, theirs = decode(renderer_text(svg))
    flat_ours, flat_theirs = [p for r in ours for p in r], [p for r in theirs for p in r]
    text_ink = sum(1 for p in flat_theirs if p[0] < 140)
    # the labels are a few thousand dark pixels; a misplaced label would differ by hundreds
    assert differing(flat_ours, flat_theirs, 96) < 0.002 * w * h, differing(flat_ours, flat_theirs, 96)
    assert abs(sum(1 for p in flat_ours if p[0] < 140) - text_ink) < 0.03 * text_ink
