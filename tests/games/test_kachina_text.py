"""Kachina's texts: a seat is told in the opening redraw whether it may
redraw, and why; the start player is shown; the help lists only the stuck
rule in play; a swap reads well; seats go by their players' names."""
from __future__ import annotations

import random

from pbem import games
from pbem.games.kachina import build_state

G = games.get("kachina")
NAMES = ["Ann", "Bob"]


def redraw_game():
    order = (["sun", "sun", "sun", "wolf", "chief"] + ["ogre", "eagle", "wolf", "koshari", "chief"]
             + ["hummingbird", "warrior", "koshari", "eagle", "wolf", "chief", "sun"])
    opts = G.check_options(2, {"tile_order": order, "start_player": 1})
    s = G.start(2, opts)
    return G.apply(s, G.setup(s, random.Random(0)))


def test_each_seat_is_told_whether_it_may_redraw():
    s = redraw_game()
    mine, theirs = G.render(s, 0, NAMES), G.render(s, 1, NAMES)
    assert "You may redraw: you hold 3 Sun tiles. Answer 'redraw' (5 new tiles) or 'keep'." in mine
    assert "You may not redraw (you hold no 3 tiles of one kind): answer 'keep'." in theirs
    assert "answers awaited from Ann and Bob" in mine
    spectator = G.render(s, None, NAMES)
    assert "You may" not in spectator and "answers awaited from Ann and Bob" in spectator
    s = G.apply(s, G.decide(s, 0, {"type": "redraw"}, random.Random(1)))
    assert "You have answered: redraw." in G.render(s, 0, NAMES)
    assert "answers awaited from Bob " in G.render(s, 0, NAMES)


def test_the_start_player_is_shown():
    s = redraw_game()
    assert "Start player: Bob" in G.render(s, 0, NAMES) and "Start player: seat 1" in G.render(s, 0)
    s = build_state(2, {(0, 0): "wolf"}, [["sun"], ["chief"]], turn=1)
    assert "Start player: Ann" in G.render(s, 1, NAMES)


def test_the_help_lists_only_the_stuck_rule_in_play():
    passing = G.notation_help_for(G.check_options(2, {}))
    discarding = G.notation_help_for(G.check_options(2, {"stuck_player": "discard"}))
    assert "\n  pass " in passing and "discard" not in passing
    assert "discard sun" in discarding and "\n  pass" not in discarding
    assert "redraw" not in G.notation_help_for(G.check_options(2, {"opening_redraw": False}))
    assert G.notation_examples(G.check_options(2, {"stuck_player": "discard"}))[-1] == "discard sun"


def test_a_swap_reads_well_and_names_the_player():
    s = build_state(2, {(0, 0): "wolf", (1, 0): "sun"}, [["warrior"], ["chief"]])
    events = G.decide(s, 0, {"type": "swap", "x": 1, "y": 0}, random.Random(0))
    text = G.describe(events[0], 0, NAMES)
    assert text.startswith("Ann took the Sun at 1,0 into hand, leaving a Warrior in its place, and scored")
    assert "taking it" not in text


def test_the_setup_in_words():
    text = G.describe_setup(G.check_options(3, {"stuck_player": "discard"}), 3)
    assert text.startswith("Kachina; 3 players; an opening redraw") and "discards a tile and draws" in text


# --------------------------------------------------------------------------
# Both languages (issue 27): the notation's words in English and Chinese,
# read in any mix; texts in the reader's language.

from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading  # noqa: E402
from pbem.games.kachina import CHINESE_CODES, NAMES as KINDS, TILE_WORDS, board_code, columns  # noqa: E402
from pbem.games.playout import play_random  # noqa: E402


def play_position():
    """Seat 0 to play, holding one of most kinds, next to a Sun and a Wolf."""
    return build_state(2, {(0, 0): "wolf", (1, 0): "sun"},
                       [["sun", "eagle", "warrior", "chief", "koshari"], ["ogre"]], pile=["wolf"] * 5)


def test_every_command_in_chinese_reads_as_the_same_move_as_in_english():
    s, r = play_position(), redraw_game()
    pairs = [(s, "sun 2,0", "太陽 2,0"), (s, "chief 0,1", "部落酋長 0,1"), (s, "koshari -1,0", "小丑 -1,0"),
             (s, "eagle on 1,0", "老鷹 覆蓋 1,0"), (s, "warrior swap 1,0", "戰士 交換 1,0"),
             (s, "eagle 0,-1", "老鷹 0,-1"), (s, "pass", "跳過"), (s, "discard sun", "棄置 太陽"),
             (r, "keep", "保留"), (r, "redraw", "重抽")]
    for state, english, chinese in pairs:
        for reader in (ENGLISH, CHINESE):
            with reading(reader):
                assert G.parse(chinese, state, 0) == G.parse(english, state, 0), (english, chinese, reader)
    for k in range(1, 9):  # every kind by its Chinese name and by its board character
        for text in (f"{TILE_WORDS[CHINESE][k]} 2,0", f"{CHINESE_CODES[k]} 2,0"):
            assert G.parse(text, s, 0) == {"type": "place", "tile": KINDS[k], "x": 2, "y": 0}, text


def test_a_line_mixing_the_languages_typed_as_a_phone_types_it_reads():
    s = play_position()
    cover = {"type": "cover", "x": 1, "y": 0}
    for text in ("eagle 覆蓋 1,0", "老鷹 on 1,0", "老鷹覆蓋1,0", "用老鷹覆蓋（1，0）", "ｅａｇｌｅ　ｏｎ　１，０",
                 "老鷹　覆蓋　１、０"):
        assert G.parse(text, s, 0) == cover, text
    assert G.parse("放置一片太陽在 2，0", s, 0) == {"type": "place", "tile": "sun", "x": 2, "y": 0}
    assert G.parse("warrior 交換 1,0", s, 0) == {"type": "swap", "x": 1, "y": 0}
    assert G.parse("discard 太陽", s, 0) == G.parse("棄置 sun", s, 0) == {"type": "discard", "tile": "sun"}


def test_moves_are_written_in_the_readers_words_and_the_pseudo_locale_writes_english():
    s = play_position()
    moves = [{"type": "place", "tile": "sun", "x": 2, "y": 0}, {"type": "cover", "x": 1, "y": 0},
             {"type": "swap", "x": 1, "y": 0}, {"type": "pass"}, {"type": "discard", "tile": "chief"}]
    with reading(CHINESE):
        assert [G.describe(m) for m in moves] == ["太陽 2,0", "老鷹 覆蓋 1,0", "戰士 交換 1,0", "跳過", "棄置 部落酋長"]
        assert G.notation_examples(G.check_options(2, {}))[:3] == ["太陽 3,-1", "老鷹 覆蓋 2,0", "戰士 交換 1,1"]
    with reading(PSEUDO):
        assert [G.describe(m) for m in moves] == ["sun 2,0", "eagle on 1,0", "warrior swap 1,0", "pass",
                                                  "discard chief"]


def test_the_chinese_board_shows_one_character_per_tile_in_straight_columns():
    s = build_state(2, {(0, 0): "wolf", (1, 0): "sun", (1, 1): "eagle", (-1, 0): "hummingbird"},
                    [["chief"], ["ogre"]], under={(1, 1): "chief"})
    with reading(CHINESE):
        board = G.render(s, 0, NAMES)
        codes = {k: board_code(k) for k in range(1, 9)}
    grid = [line for line in board.splitlines()[:5]]
    assert len({columns(line) for line in grid}) == 1, grid  # every row of the grid as wide as the header
    header = grid[0]
    row0 = next(line for line in grid if line.split()[0] == "0")
    # the Sun of 1,0 stands under the column label 1, the Wolf under 0
    for x, k in ((1, 7), (0, 4), (-1, 2)):
        label_end = columns(header[:header.index(f" {x}", 4) + len(f" {x}")])
        code_end = columns(row0[:row0.index(codes[k]) + 1])
        assert code_end == label_end - 1, (x, header, row0)
    assert all(columns(c) == 2 for c in codes.values()) and "陽" in board and "鷹*" in board
    assert "圖例：酋 部落酋長 8" in board and "被老鷹覆蓋的板塊：1,1 部落酋長" in board
    assert "起始玩家：Ann" in board and "你的板塊：部落酋長" in board
    for k, code in codes.items():  # what the board shows is read as that tile
        assert G.parse(f"{code} 2,0", s, 0)["tile"] == KINDS[k]


def test_the_chinese_help_names_tiles_the_parser_reads():
    with reading(CHINESE):
        help_text = G.notation_help_for(G.check_options(2, {"stuck_player": "discard"}))
    assert "老鷹 覆蓋 2,0" in help_text and "棄置 太陽" in help_text and "跳過" not in help_text
    listed = help_text.split("板塊與能力值：")[1].split("。")[0]
    for entry in listed.split("、"):
        name, value = entry.rsplit(" ", 1)
        assert KINDS.index(G.parse(f"{name} 2,0", None, 0)["tile"]) == int(value), entry


def test_english_texts_read_as_a_player_writes():
    """No "1 points", no "tile(s)", no "a Eagle", over whole games."""
    texts = []
    for players, options in ((2, {}), (3, {"stuck_player": "discard"})):
        playout = play_random(G, players, options, seed=4)
        state = G.start(players, playout.options)
        for event in playout.events:
            texts.append(G.describe(event, 0, NAMES))
            state = G.apply(state, [event])
            if event["type"] == "TilePlaced":
                texts.append(G.render(state, 0, NAMES))
        texts.append(G.describe_result(G.result(state), NAMES))
    text = "\n".join(texts)
    assert "scored 1 point." in text and "(row " in text
    for wrong in ("(s)", "(es)", " 1 points", " 1 tiles", "a Eagle", "a Ogre", "an Sun", "'", "\\u"):
        assert wrong not in text.replace("'keep'", "").replace("'redraw'", ""), wrong


def test_the_picture_in_the_pseudo_locale_leaves_no_english_of_kachina():
    from tests.pseudo_support import leftover_english
    from tests.test_pictures_grid_games import parse, picture, texts, states_along
    # svgkit's shared words (the header's winner line, "(you)", "Seat N") are not Kachina's
    shared = {"wins", "share", "the", "win", "and", "you", "seat", "nobody"}
    draw = picture("kachina")
    for players, options in ((2, {}), (3, {"stuck_player": "discard"})):
        for state in states_along(G, players, G.check_options(players, options), 2):
            for viewer in (0, None):
                with reading(PSEUDO):
                    shown = texts(parse(draw(G.view(state, viewer), names=NAMES[:players], viewer=viewer,
                                             legal=G.legal_moves(state, 0))))
                left = [w for t in shown for w in leftover_english(t, NAMES, shared)]
                assert not left, left
