"""Wakanda in both languages (issue 27): the notation's words in English and
Chinese (the source's 建造, 完成, the pieces and villages of its scoring
list), read in any mix and as a phone's Chinese keyboard types them; moves
written in the reader's words; the board's columns straight in Chinese; the
English read as a player writes it; the picture translated."""
from __future__ import annotations

import random

from pbem import games
from pbem.games.i18n import CHINESE, ENGLISH, PSEUDO, reading
from pbem.games.playout import play_random
from pbem.games.wakanda import VILLAGES, WORDS, columns

G = games.get("wakanda")
A, B = 0, 1
NAMES = ["Ann", "Bob"]
ROW = ["sun", "height", "variety", "eagle", "chief", "tipi", "fur", "tomahawk"]


def game(**options):
    """Seat A to move, holding a Sun, villages 1-3 (Sun, Height, Variety) open."""
    opts = G.check_options(2, {"fixed_villages": ROW, "fixed_bag": ["sun", "tipi", "eagle"], "start_player": A,
                               **options})
    state = G.start(2, opts)
    return G.apply(state, G.setup(state, random.Random(1)))


def test_every_command_in_chinese_reads_as_the_same_move_as_in_english():
    s = game()
    pairs = [("build sun on 2", "建造 太陽 在 2"), ("b sun 2", "建造 太陽 2"), ("build 2 sun", "建造 2 太陽"),
             ("claim 3", "完成 3"), ("claim height", "完成 高度"), ("claim variety", "完成 顏色"),
             ("pass", "跳過"), ("build eagle on sun", "建造 老鷹 在 太陽")]
    for english, chinese in pairs:
        for reader in (ENGLISH, CHINESE):
            with reading(reader):
                assert G.parse(chinese, s, A) == G.parse(english, s, A), (english, chinese, reader)
    for piece in ("eagle", "chief", "tomahawk", "fur", "tipi", "sun"):
        assert G.parse(f"建造 {WORDS[CHINESE][piece]} 在 1", s, A) == {"type": "build", "piece": piece, "village": 1}


def test_a_line_mixing_the_languages_typed_as_a_phone_types_it_reads():
    s = game()
    build = {"type": "build", "piece": "sun", "village": 2}
    for text in ("build 太陽 on 2", "建造 sun 在 2", "建造太陽在2", "把太陽建造在第2號村莊", "太陽建在2", "ｂｕｉｌｄ　ｓｕｎ　ｏｎ　２",
                 "建造　太陽　２", "b 太陽 2"):
        assert G.parse(text, s, A) == build, text
    assert G.parse("完成第３號村莊", s, A) == G.parse("claim 3", s, A) == {"type": "claim", "village": 3}
    assert G.parse("完成 height", s, A) == {"type": "claim", "village": 2}


def test_moves_are_written_in_the_readers_words_and_the_pseudo_locale_writes_english():
    moves = [{"type": "build", "piece": "tomahawk", "village": 4}, {"type": "claim", "village": 1}, {"type": "pass"}]
    with reading(CHINESE):
        assert [G.describe(m) for m in moves] == ["建造 戰斧 在 4", "完成 1", "跳過"]
        examples = G.notation_examples(G.check_options(2, {}))
        assert examples == ["建造 太陽 在 2", "建造 太陽 2", "建造 2 太陽", "完成 3", "跳過"]
    with reading(PSEUDO):
        assert [G.describe(m) for m in moves] == ["build tomahawk on 4", "claim 1", "pass"]


def test_the_chinese_board_keeps_its_columns_and_uses_the_sources_words():
    s = game()
    for text in ("build sun on 1", "claim 1"):
        player = next(iter(G.to_act(s)))
        s = G.apply(s, G.decide(s, player, G.parse(text, s, player), random.Random(2)))
    with reading(CHINESE):
        board = G.render(s, A, NAMES)
    rows = [line for line in board.splitlines() if line[:3] in ("  1", "  2", "  3", "  4", "  5", "  6")]
    assert len(rows) == 6, board
    statuses = [next(st for st in ("由Bob完成（第2回合）", "未開放", "開放") if st in line) for line in rows]
    starts = {columns(line[:line.index(st)]) for line, st in zip(rows, statuses)}
    assert len(starts) == 1, rows  # every status starts in the same column, CJK characters two wide
    assert "每個太陽1分，太陽不扣分" in board and "太陽扣分：" in board and "剩2個頭飾" in board
    assert "第2回合" in board and "布袋：" in board


def test_the_chinese_help_names_pieces_and_villages_the_parser_reads():
    s = game()
    with reading(CHINESE):
        help_text = G.notation_help_for(G.check_options(2, {}))
    pieces = help_text.split("圖騰：")[1].split("。")[0].split("、")
    assert [G.parse(f"建造 {p} 1", s, A)["piece"] for p in pieces] == ["eagle", "chief", "tomahawk", "fur", "tipi",
                                                                       "sun"]
    assert all(WORDS[CHINESE][v] in help_text for v in VILLAGES)
    assert "建造 <圖騰> 在 <村莊>" in help_text and "先放置第三個頭飾的玩家獲勝" in help_text


def test_english_texts_read_as_a_player_writes():
    """No "headdress(es)", "piece(s)", "a Eagle", internal option names."""
    texts = []
    for options in ({"hidden_held_pieces": True, "build_after_bag_empty": True}, {"allow_empty_claim": True}):
        playout = play_random(G, 2, options, seed=3)
        state = G.start(2, playout.options)
        for event in playout.events:
            texts.append(G.describe(G.redact(event, A), A, NAMES))
            state = G.apply(state, [event])
            texts.append(G.render(state, A, NAMES))
    text = "\n".join(texts)
    assert "1 headdress left" in text and "drew an Eagle" in text or "drew a piece" in text
    for wrong in ("(es)", "(s)", "a Eagle", "hidden_held_pieces", "allow_empty_claim", "build_after_bag_empty",
                  " 1 pieces", " 1 headdresses"):
        assert wrong not in text, wrong


def test_the_picture_in_the_pseudo_locale_leaves_no_english_of_wakanda():
    from tests.pseudo_support import leftover_english
    from tests.test_pictures_grid_games import parse, picture, states_along, texts
    # svgkit's shared words (the header's winner line, "(you)", "Seat N") are not Wakanda's
    shared = {"wins", "share", "the", "win", "and", "you", "seat", "nobody"}
    draw = picture("wakanda")
    for options in ({}, {"hidden_held_pieces": True, "hidden_future_villages": True}):
        for state in states_along(G, 2, G.check_options(2, options), 2):
            for viewer in (A, None):
                with reading(PSEUDO):
                    shown = texts(parse(draw(G.view(state, viewer), names=NAMES, viewer=viewer)))
                left = [w for t in shown for w in leftover_english(t, NAMES, shared)]
                assert not left, left
