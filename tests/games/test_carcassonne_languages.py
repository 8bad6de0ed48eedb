"""Carcassonne in Traditional Chinese as well as English: a move typed in
Chinese words (the glossary's: 放置, 隨從, 城市...) reads as the same move
as its English line, for every expansion's commands; both languages mix
word by word, with or without spaces, in full-width characters; names in
either script name seats; the texts say why where they say 0; a picture of a
Chinese reader's view renders with its labels from the catalog."""
from __future__ import annotations

import re

import pytest

from pbem import games
from pbem.games.base import SPECTATOR, canonical
from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
from pbem.games.carcassonne.columns import width
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading
from tests.pseudo_support import leftover_english

from .test_carcassonne_text import _game, _owing
from ..test_game_contract import walked

G = games.get("carcassonne")

#: (expansion, the decision owed or None, the English line, the same move typed in Chinese)
LINES = [
    (None, None, "place 1,0 r90", "放置 1,0 r90"),
    (None, None, "place 1,0 r90 follower city N", "放置 1,0 r90 隨從 城市 N"),
    (None, None, "place 1,0 r90 follower road E", "放置 1,0 r90 隨從 道路 E"),
    (None, None, "place 1,0 r90 follower cloister", "放置 1,0 r90 隨從 修道院"),
    (None, None, "place 0,1 r0 farmer NL", "放置 0,1 r0 農夫 NL"),
    (None, None, "place 1,0 r90 knight N", "放置 1,0 r90 騎士 N"),
    (None, None, "place 1,0 r90 monk", "放置 1,0 r90 修道士"),
    ("inns_cathedrals", None, "place 1,0 r0 big city N", "放置 1,0 r0 大隨從 城市 N"),
    ("inns_cathedrals", None, "place 1,0 r0 big farmer NL", "放置 1,0 r0 大隨從 農夫 NL"),
    ("traders_builders", None, "place 1,0 r0 builder road E", "放置 1,0 r0 建築師 道路 E"),
    ("traders_builders", None, "place 1,0 r0 pig NL", "放置 1,0 r0 小豬 NL"),
    ("cult", None, "place 0,1 r0 heretic", "放置 0,1 r0 異教徒"),
    ("siege", "escape", "escape 1,0 city E", "逃脫 1,0 城市 E"),
    ("siege", "escape", "no escape", "不逃脫"),
    ("abbey_mayor", None, "place 1,0 r0 mayor city N", "放置 1,0 r0 市長 城市 N"),
    ("abbey_mayor", None, "place 1,0 r0 wagon road E", "放置 1,0 r0 馬車 道路 E"),
    ("abbey_mayor", None, "place 1,1 r0 barn NE", "放置 1,1 r0 穀倉 NE"),
    ("abbey_mayor", "abbey", "abbey 2,1", "大修道院 2,1"),
    ("abbey_mayor", "abbey", "abbey 2,1 monk", "大修道院 2,1 修道士"),
    ("abbey_mayor", "abbey", "draw", "抽"),
    ("abbey_mayor", "wagon", "wagon 1,0 road E", "馬車 1,0 道路 E"),
    ("abbey_mayor", "wagon", "wagon home", "馬車 收回"),
    ("princess_dragon", "dragon", "dragon N", "火龍 N"),
    ("princess_dragon", "dragon", "dragon W", "火龍 西"),
    ("princess_dragon", "action", "fairy 1,0 road E", "仙女 1,0 道路 E"),
    ("princess_dragon", "action", "princess 1,0 city N seat 1", "公主 1,0 城市 N 座位1"),
    ("princess_dragon", "action", "portal 1,0 follower road E", "傳送門 1,0 隨從 道路 E"),
    ("princess_dragon", "action", "pass", "跳過"),
    ("tower", "action", "tower 1,0", "高塔 1,0"),
    ("tower", "action", "tower 1,0 top", "高塔 1,0 頂端"),
    ("tower", "capture", "capture 1,0 road E seat 1", "俘虜 1,0 道路 E 座位 1"),
    ("tower", "capture", "capture none", "俘虜 無"),
    ("tower", "exchange", "exchange follower", "交換 隨從"),
    ("tower", None, "ransom seat 1", "買回 座位1"),
    ("count", "count", "enter castle count market", "進入 城堡區 伯爵 市集區"),
    ("count", "count", "stay out", "留在城外"),
    ("count", "count_move", "leave castle 1,0 city N", "離開 城堡區 1,0 城市 N"),
    ("bridges_castles_bazaars", None, "place 1,0 r0 bridge 1,0 NS", "放置 1,0 r0 橋樑 1,0 NS"),
    ("bridges_castles_bazaars", "castle", "castle 1,0 city N", "城堡 1,0 城市 N"),
    ("bridges_castles_bazaars", "castle", "no castle", "不建城堡"),
    ("bridges_castles_bazaars", "choose_castle_feature", "castle points 1,0 road W", "城堡 計分 1,0 道路 W"),
    ("bridges_castles_bazaars", "bazaar", "bazaar 0 bid 1", "市集 0 出價 1"),
    ("bridges_castles_bazaars", "bazaar", "bid 2", "出價 2"),
    ("bridges_castles_bazaars", "bazaar", "pass", "PASS"),
    ("bridges_castles_bazaars", "bazaar", "buy", "買下"),
    ("bridges_castles_bazaars", "bazaar", "sell", "賣出"),
]


@pytest.mark.parametrize("expansion,owed,english,chinese", LINES, ids=[line[3] for line in LINES])
def test_a_chinese_move_line_is_the_move_of_its_english_line(expansion, owed, english, chinese):
    state = _owing(_game([expansion] if expansion else []), 0, owed)
    move = G.parse(english, state, 0)
    for reader in (ENGLISH, CHINESE):
        with reading(reader):
            assert canonical(G.parse(chinese, state, 0)) == canonical(move), (reader, chinese)
    with reading(CHINESE):          # and a Chinese reader is offered the Chinese line back
        assert G.parse(G.describe(move, 0), state, 0) == move


@pytest.mark.parametrize("text", [
    "放置 1,0 r90 meeple 城市 N",          # the brief's mix
    "place 1,0 r90 隨從 city N",
    "放置 1,0 r90 follower 城市 n",
    "放置1,0 r90 隨從城市N",                 # no spaces between the Chinese words
    "放置　１，０　ｒ９０　隨從　城市　Ｎ",       # a phone's full-width keyboard
    "  放置 1,0 r90 米寶 城市 北 ",            # the glossary's 米寶, a direction in Chinese
])
def test_both_languages_mix_word_by_word(text):
    state = _game([])
    assert G.parse(text, state, 0) == G.parse("place 1,0 r90 follower city N", state, 0)


def test_a_seat_is_named_by_its_player_in_either_script():
    names = ["Ann", "小明"]
    state = _owing(_game(["tower"]), 0, None)
    assert G.parse("買回 座位 小明", state, 0, names) == G.parse("ransom seat 1", state, 0)
    assert G.parse("買回 座位小明", state, 0, names) == G.parse("ransom seat 1", state, 0)
    assert G.parse("ransom seat 小明 big", state, 0, names) == G.parse("ransom seat 1 big", state, 0)
    with reading(CHINESE):
        line = G.describe({"type": "ransom", "from": 1, "figure": "follower"}, 0, names)
        assert line == "買回 座位 小明"
        assert G.parse(line, state, 0, names) == {"type": "ransom", "from": 1, "figure": "follower"}


def test_a_chinese_refusal_reads_chinese_and_offers_chinese_moves():
    state = _game([])
    with reading(CHINESE):
        try:
            G.parse("xyzzy", state, 0)
        except Exception as err:
            refusal = err
    assert "看不懂" in refusal.message
    assert refusal.details["examples"] and all(e.startswith("放置 ") for e in refusal.details["examples"])
    assert refusal.details["expected"].startswith("放置 ")


def test_an_incomplete_feature_scoring_0_says_why():
    inn = {"type": "FeatureScored", "feature": "road", "x": 1, "y": 0, "on": "road E", "tiles": 3,
           "points": 0, "winners": [0], "complete": False}
    assert G.describe(inn) == ("Incomplete road at 1,0 (road E, 3 tiles): 0 points to seat 0 (an incomplete road "
                               "with an inn scores nothing).")
    with reading(CHINESE):
        assert "湖畔旅館" in G.describe(inn)
    one = {**inn, "points": 1, "tiles": 1}
    assert G.describe(one) == "Incomplete road at 1,0 (road E, 1 tile): 1 point to seat 0."


@pytest.mark.parametrize("players,options", [(2, {"expansions": ALL_EXPANSIONS}), (3, {})])
def test_the_chinese_board_keeps_to_80_columns_and_every_offered_line_pastes(players, options):
    names = ["Ann", "小明", "Bob"][:players]
    checked = G.check_options(players, options)
    for step, (state, player, legal, log, seed, chooser) in enumerate(walked(G, players, checked, 1)):
        if step % 7:
            continue
        with reading(CHINESE):
            board = G.render(state, player, names)
            for viewer in (player, SPECTATOR):
                for line in G.render(state, viewer, names).splitlines():
                    assert width(line) <= 80, line
            placements = [ln.strip() for ln in board.splitlines() if ln.startswith("  放置 ")]
        for line in placements:
            assert G.parse(line, state, player, names) in legal, line


def test_the_help_in_chinese_keeps_to_80_columns_and_its_examples_parse():
    options = G.check_options(2, {"expansions": ALL_EXPANSIONS})
    with reading(CHINESE):
        text = G.notation_help_for(options)
        examples = G.notation_examples(options)
    assert all(width(line) <= 80 for line in text.splitlines()), [ln for ln in text.splitlines() if width(ln) > 80]
    assert "放置 X,Y rR 隨從 城市 N" in text and "買回 座位 P" in text
    state = _game(ALL_EXPANSIONS)
    for example in examples:
        assert example in text
        assert re.search(r"[\u4e00-\u9fff]", example), example
        G.parse(example, state, 0)


def _picture(lang, names=("Ann", "小明")):
    from pbem import pictures
    from pbem.pictures.raster import png
    options = G.check_options(2, {"expansions": ALL_EXPANSIONS})
    for step, (state, player, legal, log, seed, chooser) in enumerate(walked(G, 2, options, 0)):
        if step == 30:
            with reading(lang):
                svg = pictures.svg("carcassonne", G.view(state, player), names=list(names), viewer=player,
                                   legal=G.legal_moves(state, player))
                return svg, png(svg)
    raise AssertionError("the game ended early")


def test_a_picture_of_a_chinese_readers_view_renders_its_labels_from_the_catalog():
    svg, data = _picture(CHINESE)
    assert data.startswith(b"\x89PNG")
    labels = re.findall(r">([^<>]+)<", svg)
    assert "圖例" in labels and "Key" not in labels      # the key's heading, in Chinese
    svg, _data = _picture(PSEUDO)
    texts = "\n".join(re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<(?:text|title)[^>]*>(.*?)</(?:text|title)>",
                                                                      svg, re.S))
    # a drawn tile's segment names (NL, ER...) are the notation's marks, typed as drawn in any language
    marks = [e + h for e in "NESW" for h in "LR"]
    assert not leftover_english(texts, ["Ann", "小明"], marks), leftover_english(texts, ["Ann", "小明"], marks)
