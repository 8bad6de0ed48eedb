"""The shipped fonts draw every character a picture writes in either
language: the zh-Hant catalogs', Taiwan's common characters, pbem's own
Chinese words; a character no font has is a visible placeholder, measured as
it is drawn."""
from __future__ import annotations

import unicodedata

import pytest

from pbem.pictures import outlines
from pbem.pictures.metrics import text_width
from pbem.pictures.outlines import PLACEHOLDER, glyph

from pbem.docgen import font_subset as make_subset


def undrawn(chars) -> list:
    """The characters of ``chars`` that would be drawn as the placeholder."""
    return sorted(c for c in chars if glyph(c).font == "placeholder" and c != PLACEHOLDER)


def test_every_catalog_character_is_in_a_shipped_font():
    missing = undrawn(make_subset.catalog_characters())
    assert not missing, ("the zh-Hant catalogs use characters no shipped font has: run `make fonts` "
                         f"and commit the font: {''.join(missing)} "
                         f"({' '.join(f'U+{ord(c):04X}' for c in missing)})")


def test_every_chinese_word_in_pbems_code_is_in_a_shipped_font():
    # the games' notation words (放置, 跳過...) are tables in code, not messages
    missing = undrawn(make_subset.source_characters())
    assert not missing, f"run `make fonts`: {''.join(missing)}"


def test_taiwans_common_characters_are_drawn_by_the_cjk_font():
    common = {c for c in make_subset.big5_block(0xA440, 0xC67E)} | {"\u5f5e"}
    assert len(common) == 5402       # Big5 level 1 (built from the 4,808) and 彞
    assert {glyph(c).font for c in common} == {"cjk"}
    assert all(glyph(c).outline for c in common)


def test_chinese_punctuation_and_full_width_forms_are_drawn():
    marks = "，。、：；！？「」『』（）【】《》〈〉—…　０１２９ＡＺａｚ＋－％"
    assert undrawn(marks) == []
    assert {glyph(c).font for c in "，。「」０Ａ"} == {"cjk"}


def test_latin_comes_first_then_chinese_then_the_placeholder():
    assert glyph("A").font == "latin" and glyph("é").font == "latin" and glyph("Ж").font == "latin"
    assert glyph("國").font == "cjk" and glyph("ㄅ").font == "cjk" and glyph("あ").font == "cjk"
    for nowhere in ("\U0001F600", "\u0e01", "\uac00"):  # an emoji, Thai, Hangul: none shipped
        g = glyph(nowhere)
        assert g.font == "placeholder" and g.outline == glyph(PLACEHOLDER).outline and g.advance > 0
    assert glyph("\u200d").font == "none" and glyph("\u200d").advance == 0   # a joiner draws nothing


def test_a_bold_label_draws_chinese_heavier_at_the_same_advance():
    regular, bold = glyph("國"), glyph("國", bold=True)
    assert bold.advance == regular.advance == outlines.UNITS
    assert bold.outline[1].count("z") == 2 * regular.outline[1].count("z")
    assert glyph("A", bold=True).outline != glyph("A").outline    # DejaVu Sans Bold


def test_widths_are_the_fonts_advances_in_both_scripts():
    assert text_width("王小明", 16) == pytest.approx(48)            # a full em each
    assert text_width("W" * 10, 16) == pytest.approx(10 * text_width("W", 16))
    assert text_width("王", 16) > 1.5 * text_width("a", 16)
    assert text_width("\U0001F600", 16) == pytest.approx(text_width(PLACEHOLDER, 16))
    # an accent typed as a combining mark is measured as the accented letter it draws
    assert text_width(unicodedata.normalize("NFD", "Zoë"), 16) == pytest.approx(text_width("Zoë", 16))


def test_visible_is_what_the_chain_draws():
    assert outlines.visible("Ann 王小明") == "Ann 王小明"
    assert outlines.visible("小明\U0001F600\u200d") == "小明" + PLACEHOLDER
