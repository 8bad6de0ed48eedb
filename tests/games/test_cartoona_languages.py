"""Cartoona in both languages (issue 27): every command typed in Chinese
(the glossary's words) reads as the same move as in English, whole lines
or word by word in any mix, as a phone types them; move lines are written
in the reader's language; tiles and cards are named by what they are, in
words a player writes; refusals and the picture read in the reader's
language too."""
from __future__ import annotations

import random
import re

import pytest

from pbem import games
from pbem.games.base import SPECTATOR, IllegalMove, ParseError, canonical
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading
from pbem.games.playout import play_random
from pbem.pictures.cartoona import draw
from tests.games.test_cartoona_texts import card, table, tid
from tests.pseudo_support import leftover_english
from tests.test_pictures_grid_games import parse as parse_svg
from tests.test_pictures_grid_games import texts as svg_texts

G = games.get("cartoona")
NAMES = ["Ann", "Bob Lee", "Cy"]


def state_of(players, options):
    s = G.start(players, G.check_options(players, options))
    return G.apply(s, G.setup(s, random.Random(0)))


FULL = [  # (English, Chinese): every command of the full game with Cheat cards
    ("place t17 new", "擺放 t17 新"),
    ("place t17 on c3", "擺放 t17 到 c3"),
    ("place t17 on c3+c5", "擺放 t17 到 c3+c5"),
    ("score c4+c6", "計分 c4+c6"),
    (f"play +3 k{card('plus3')} on t17", f"出牌 +3 k{card('plus3')} 到 t17"),
    (f"play -2 k{card('minus2')} on t17", f"出牌 -2 k{card('minus2')} 到 t17"),
    (f"play steal k{card('steal')} on t17", f"出牌 偷竊 k{card('steal')} 到 t17"),
    (f"play swap k{card('swap')} on t4 with t17", f"出牌 交換 k{card('swap')} 到 t4 換 t17"),
    (f"play instant k{card('instant')}", f"出牌 及時 k{card('instant')}"),
    (f"play special k{card('special')} on t17", f"出牌 特殊 k{card('special')} 到 t17"),
    (f"block with k{card('block')}", f"阻擋 k{card('block')}"),
    ("pass", "跳過"),
    ("keep", "保留"),
    ("end turn", "結束回合"),
    ("order always pass on", "指令 一律跳過 開"),
    ("order block steal off", "指令 阻擋偷竊 關"),
    ("order block swap on", "指令 阻擋交換 開"),
    ("order block minus on", "指令 阻擋扣分 開"),
    (f"cheat t17 with k{card('cheat')}", f"作弊 t17 用 k{card('cheat')}"),
    ("cheat t17 bluff", "作弊 t17 虛張"),
    ("call cheat on Cy forfeit k44", "喊出作弊 Cy 押 k44"),
]
BASIC = [("discard t17", "棄置 t17")]
SOLO = [("place t17 new as blue", "擺放 t17 新 當 藍色"), ("place t17 on c2 as magenta", "擺放 t17 到 c2 當 紫紅色"),
        ("discard t17 as purple", "棄置 t17 當 紫色"), ("discard t17 as yellow", "棄置 t17 當 黃色")]
KIDS = [("draw", "抽"), ("take t17", "拿 t17"), ("pool", "放中央"), ("remove t17", "移除 t17"),
        ("place t17 on c1", "擺放 t17 到 c1")]
SETUPS = [(FULL, (3, {"cheat_cards": True})), (BASIC, (2, {"mode": "basic"})), (SOLO, (1, {"mode": "solo"})),
          (KIDS, (2, {"mode": "kids"}))]


@pytest.mark.parametrize("lines,setup", SETUPS, ids=["full", "basic", "solo", "kids"])
def test_every_command_in_chinese_is_the_same_move_as_in_english(lines, setup):
    """Each Chinese line parses to the English line's move, whoever reads;
    and the move written for a Chinese reader is that Chinese line."""
    s = state_of(*setup)
    names = NAMES[:setup[0]]
    for english, chinese in lines:
        move = G.parse(english, s, 0, names)
        for reader in (ENGLISH, CHINESE):
            with reading(reader):
                assert G.parse(chinese, s, 0, names) == move, (english, chinese, reader)
        with reading(CHINESE):
            assert G.describe(move, 0, names) == chinese
        with reading(ENGLISH):
            assert G.describe(move, 0, names) == english


def test_chinese_as_a_phone_types_it_without_spaces_and_full_width():
    s = state_of(3, {"cheat_cards": True})
    names = ["Ann", "小明", "Cy"]
    assert G.parse("擺放ｔ１７到ｃ３", s, 0, names) == {"type": "place_tile", "tile": 17, "creatures": [3]}
    assert G.parse("出牌偷竊k44到t17", s, 0, names) == G.parse("play steal k44 on t17", s, 0, names)
    assert G.parse("喊出作弊小明押k44", s, 0, names) == {"type": "call_cheat", "target": 1, "forfeit": 44}
    assert G.parse("喊出作弊　座位２　押　ｋ４４", s, 0, names) == {"type": "call_cheat", "target": 2, "forfeit": 44}
    assert G.parse("指令一律跳過開", s, 0, names) == {"type": "set_order", "order": "always_pass", "on": True}
    assert G.parse("結束 回合。", s, 0, names) == {"type": "end_turn"}
    assert G.parse("不阻擋", s, 0, names) == {"type": "pass"}
    solo = state_of(1, {"mode": "solo"})
    assert G.parse("擺放t17新當藍色", solo, 0) == {"type": "place_tile", "tile": 17, "creatures": [], "colour": "B"}


def test_a_line_may_mix_the_two_languages_word_by_word():
    s = state_of(3, {"cheat_cards": True})
    for line, english in (("擺放 t17 on c3", "place t17 on c3"), ("play 偷竊 k44 到 t17", "play steal k44 on t17"),
                          ("call cheat on Cy 押 k44", "call cheat on Cy forfeit k44"),
                          ("喊出作弊 seat 2 forfeit k44", "call cheat on seat 2 forfeit k44"),
                          ("order 阻擋偷竊 off", "order block steal off"), ("end 回合", "end turn"),
                          ("出牌 k12 on t4 換 t17", "play k12 on t4 with t17")):
        assert G.parse(line, s, 0, NAMES) == G.parse(english, s, 0, NAMES), line
    solo = state_of(1, {"mode": "solo"})
    assert G.parse("place t17 新 as 藍色", solo, 0) == G.parse("place t17 new as blue", solo, 0)


def test_a_parse_error_reads_in_the_readers_language_with_its_notation():
    s = state_of(3, {})
    with reading(CHINESE):
        with pytest.raises(ParseError) as err:
            G.parse("飛到月球", s, 0)
    assert err.value.code == "unknown_command" and err.value.message == "「飛到月球」不是卡吞那的動作。"
    assert "擺放 tN 新" in err.value.details["expected"]
    assert all(not re.search("[A-Za-z]{3,}", e) for e in err.value.details["examples"])


#: Any word with an underscore, a tile code, a plural in brackets, one thing counted as many.
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:HD|BF|BB)-[A-Z]+|\(s\)|\(es\)|\b1 (?:points|tiles|cards|players)\b")
#: A tile or card id with no words saying what it is right after it.
BARE_ID = re.compile(r"\b[tk]\d+\b(?! ?[(（])")


@pytest.mark.parametrize("players,options", [(3, {"cheat_cards": True, "use_single_creatures": True}),
                                             (4, {"teams": "2x2"}), (3, {"mode": "basic"}), (1, {"mode": "solo"}),
                                             (3, {"mode": "kids"})])
def test_texts_name_tiles_and_cards_by_what_they_are(players, options):
    """Every event names each tile and card it speaks of ("t17 (yellow
    head...)", "k44 (Steal)"); no text a player reads has an internal word
    (an option's key, an end reason's code), a tile code or a plural in
    brackets; the Chinese texts the same in Chinese words."""
    names = NAMES[:players] if players <= 3 else [*NAMES, "Dee"]
    checked = G.check_options(players, options)
    for seed in range(2):
        playout = play_random(G, players, options, seed=seed)
        start = G.start(players, playout.options)
        for lang, colour in ((ENGLISH, "yellow"), (CHINESE, "黃色")):
            with reading(lang):
                seen_named = False
                for event in playout.events:
                    for viewer in (0, SPECTATOR):
                        text = G.describe(G.redact(event, viewer), viewer, names)
                        assert not BARE_ID.search(text), (lang, text)
                        assert not INTERNAL.search(text), (lang, text)
                        seen_named = seen_named or colour in text
                assert seen_named
                for version in (len(playout.events) // 2, len(playout.events)):
                    state = G.apply(start, playout.events[:version])
                    for viewer in (0, SPECTATOR):
                        assert not INTERNAL.search(G.render(state, viewer, names))
                for text in (G.describe_setup(checked, players), G.notation_help_for(checked),
                             G.describe_result(G.result(playout.state), names)):
                    assert not INTERNAL.search(text), text
                if lang == CHINESE:
                    assert "卡吞那" in G.render(playout.state, SPECTATOR, names)


def test_a_refusal_reads_in_chinese_with_examples_that_parse():
    s, head = table()
    s["placed"] = True
    with reading(CHINESE):
        with pytest.raises(IllegalMove) as err:
            G.decide(s, 0, {"type": "place_tile", "tile": s["hands"][0][0], "creatures": []}, random.Random(0))
    assert err.value.code == "not_now"
    assert err.value.message.startswith("現在不能擺放板塊：這回合你已經擺放過板塊了。例如：")
    legal = {canonical(m) for m in G.legal_moves(s, 0)}
    for example in err.value.details["examples"]:
        assert not re.search("[A-Za-z]{3,}", example), example
        assert canonical(G.parse(example, s, 0)) in legal
    with reading(CHINESE):
        with pytest.raises(IllegalMove) as err:
            G.decide(s, 0, {"type": "play_card", "card": card("block"), "tile": head}, random.Random(0))
    assert f"k{card('block')}不在你的手牌中（你手上有k{card('steal')}（偷竊牌）和k{card('instant')}（及時牌））" \
        in err.value.message


def test_the_chinese_board_uses_the_rulebooks_terms():
    s, head = table()
    with reading(CHINESE):
        board = G.render(s, 0, NAMES)
        event = G.describe({"type": "TileStolen", "player": 0, "card": card("steal"), "tile": head, "creature": 1,
                            "victim": 1, "dropped": []}, 0, NAMES)
    assert f"c1，Bob Lee的生物：t{head}（黃色頭部，連接耳部、鼻子/嘴和身體(前半)；1分）。" in board
    assert "未完成，所以還不得分：還缺耳部、鼻子/嘴和身體(前半)。" in board
    assert f"你的手牌：k{card('steal')}（偷竊牌）、k{card('instant')}（及時牌）。" in board
    assert event == f"Ann從Bob Lee的生物c1偷走了t{head}（黃色頭部，連接耳部、鼻子/嘴和身體(前半)；1分）。"
    assert tid("HD-ENK", "Y") == head


@pytest.mark.parametrize("players,options", [(3, {"cheat_cards": True}), (4, {"teams": "2x2"}),
                                             (2, {"mode": "basic"}), (1, {"mode": "solo"}), (3, {"mode": "kids"})])
def test_the_picture_leaves_no_english_in_the_pseudo_locale(players, options):
    """Every label of the picture is looked up: in the pseudo-locale only
    the players' names, ids and numbers are left unbracketed."""
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    playout = play_random(G, players, options, seed=1)
    start = G.start(players, playout.options)
    found = []
    with reading(PSEUDO):
        for version in (len(playout.events) // 3, len(playout.events)):
            state = G.apply(start, playout.events[:version])
            for viewer in (0, SPECTATOR):
                for text in svg_texts(parse_svg(draw(G.view(state, viewer), names=names, viewer=viewer))):
                    # "(you)" after a name is the shared player row's (svgkit), not Cartoona's
                    found += leftover_english(text, names, {"you"})
    assert not found, found
