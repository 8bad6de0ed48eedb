"""Wakanda rules: the digest's worked examples (§5) played through real moves,
each scoring village, the Sun penalty, the tie-breaks, illegal moves, the
hidden variants and the text notation."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pbem import games
from pbem.games.base import OMNISCIENT, SPECTATOR, BadOptions, IllegalMove, ParseError, canonical
from pbem.games.playout import play_random
from pbem.games.wakanda import PIECE_COUNTS, PIECES, score_breakdown, tie_break_keys

G = games.get("wakanda")
A, B = 0, 1


# --------------------------------------------------------------------------
# Scripted games: a list of text moves, seats alternating from the start
# player; the bag order is planned so each builder holds the piece in time.


def plan_bag(moves: list[dict], start: int) -> list[str]:
    """The draw order that lets the scripted builds happen: each turn the
    player draws the first piece of their future builds that they do not yet
    hold; otherwise a piece nobody's script needs."""
    pool = Counter(dict(zip(PIECES, PIECE_COUNTS)))
    needed = Counter(m["piece"] for m in moves if m["type"] == "build")
    spare = pool - needed
    hands = [Counter(), Counter()]
    bag = []
    for t, move in enumerate(moves):
        p = (start + t) % 2
        if sum(pool.values()):
            future = Counter()
            want = None
            for later in moves[t::2]:
                if later["type"] == "build":
                    future[later["piece"]] += 1
                    if future[later["piece"]] > hands[p][later["piece"]]:
                        want = later["piece"]
                        break
            if want is None:
                want = next(x for x in PIECES if spare[x]) if sum(spare.values()) else None
                assert want is not None, "script cannot be dealt"
                spare[want] -= 1
            bag.append(want)
            pool[want] -= 1
            hands[p][want] += 1
        if move["type"] == "build":
            hands[p][move["piece"]] -= 1
    return bag


def parse_script(texts: list[str]) -> list[dict]:
    out = []
    for text in texts:
        words = text.split()
        if words[0] == "build":
            out.append({"type": "build", "piece": words[1], "village": int(words[-1])})
        elif words[0] == "claim":
            out.append({"type": "claim", "village": int(words[1])})
        else:
            out.append({"type": "pass"})
    return out


def new_game(options: dict, seed: int = 0):
    opts = G.check_options(2, options)
    state = G.start(2, opts)
    log = G.setup(state, random.Random(seed))
    return G.apply(state, log), list(log)


def play_script(villages: list[str], start: int, texts: list[str], **options):
    moves = parse_script(texts)
    options = {"fixed_villages": villages, "start_player": start,
               "fixed_bag": plan_bag(moves, start), **options}
    state, log = new_game(options)
    rng = random.Random(1)
    for i, text in enumerate(texts):
        player = (start + i) % 2
        assert G.to_act(state) == {player}, (i, text)
        move = G.parse(text, state, player)
        assert move == moves[i]
        events = G.decide(state, player, move, rng)
        log.extend(events)
        state = G.apply(state, events)
    return state, log


def do(state, player, text, rng=None):
    events = G.decide(state, player, G.parse(text, state, player), rng or random.Random(0))
    return G.apply(state, events), events


# --------------------------------------------------------------------------
# §5.1 Full scoring


EXAMPLE_1_ROW = ["eagle", "chief", "height", "tomahawk", "sun", "variety"]
EXAMPLE_1 = [
    "build sun on 1",        # t1 A
    "build chief on 2",      # t2 B
    "build fur on 3",        # t3 A
    "build tomahawk on 2",   # t4 B
    "build tipi on 1",       # t5 A
    "build sun on 2",        # t6 B
    "build eagle on 1",      # t7 A
    "claim 2",               # t8 B  -> village 4 opens
    "claim 1",               # t9 A  -> village 5 opens
    "build fur on 3",        # t10 B
    "build tomahawk on 4",   # t11 A
    "build chief on 3",      # t12 B
    "build tipi on 3",       # t13 A
    "build tipi on 4",       # t14 B
    "claim 3",               # t15 A -> village 6 opens
    "claim 4",               # t16 B
    "build sun on 5",        # t17 A
    "build fur on 6",        # t18 B
    "build sun on 5",        # t19 A
    "build sun on 6",        # t20 B
    "build tipi on 6",       # t21 A (draws the last piece)
    "claim 6",               # t22 B (no draw: the bag is empty)
    "claim 5",               # t23 A -> all six claimed
]


def test_example_1_full_scoring_b_wins():
    state, log = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1)
    assert state["poles"] == [["sun", "tipi", "eagle"], ["chief", "tomahawk", "sun"],
                              ["fur", "fur", "chief", "tipi"], ["tomahawk", "tipi"],
                              ["sun", "sun"], ["fur", "sun", "tipi"]]
    result = G.result(state)
    assert result is not None and not G.to_act(state)
    a, b = result.detail["breakdown"]
    assert a["villages"] == {"eagle": 8, "height": 8, "sun": 3} and a["sun_penalty"] == 0
    assert b["villages"] == {"chief": 5, "tomahawk": 8, "variety": 10} and b["sun_penalty"] == -2
    assert result.scores == (19, 21)
    assert result.placings == (2, 1)
    assert result.detail["end"] == "all_claimed"
    # the removed villages were secret until the end, then revealed
    assert sorted(result.detail["removed_villages"]) == ["fur", "tipi"]
    assert log[-1]["type"] == "GameEnded" and sorted(log[-1]["removed"]) == ["fur", "tipi"]
    assert sorted(G.view(state, A)["removed_villages"]) == ["fur", "tipi"]


# --------------------------------------------------------------------------
# §5.2 Sun village not in play


def test_example_2_sun_village_removed_penalises_everyone():
    row = ["height", "tipi", "eagle", "chief", "fur", "variety"]
    script = [
        "build sun on 1",     # t1 A
        "build fur on 2",     # t2 B
        "build chief on 3",   # t3 A
        "build sun on 1",     # t4 B
        "claim 3",            # t5 A  eagle [chief]          -> 4 opens
        "build sun on 1",     # t6 B
        "claim 2",            # t7 A  tipi [fur]             -> 5 opens
        "build tipi on 1",    # t8 B
        "build tipi on 1",    # t9 A  height pole: 5 pieces
        "build chief on 4",   # t10 B
        "claim 1",            # t11 A third headdress        -> 6 opens
        "claim 4",            # t12 B chief [chief]
        "build fur on 5",     # t13 A (no headdress: builds)
        "claim 5",            # t14 B fur [fur]
        "build tipi on 6",    # t15 A
        "claim 6",            # t16 B variety [tipi]
    ]
    state, _ = play_script(row, A, script)
    result = G.result(state)
    a, b = result.detail["breakdown"]
    assert "sun" in result.detail["removed_villages"]
    assert a["villages"] == {"height": 10, "tipi": 4, "eagle": 0}
    assert a["sun_penalty"] == -3
    assert a["total"] == 11
    # B: chief 5 + fur 3 + variety 3 kinds (chief, fur, tipi) = 14, no suns
    assert (b["total"], b["sun_penalty"]) == (14, 0)
    assert result.scores == (11, 14) and result.placings == (2, 1)


# --------------------------------------------------------------------------
# §5.3 Opening villages (and the advanced variant)


def test_example_3_claim_opens_lowest_closed_village():
    state, log = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A, "fixed_bag": ["sun", "fur", "sun"]})
    assert [v["state"] for v in G.view(state, A)["villages"]] == ["open"] * 3 + ["closed"] * 3
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "build", "piece": "sun", "village": 4}, random.Random(0))
    assert err.value.code == "village_closed"
    state, _ = do(state, A, "build sun on 2")
    state, events = do(state, B, "claim 2")
    assert events[1] == {"type": "VillageOpened", "village": 4, "name": "tomahawk"}
    states = [v["state"] for v in G.view(state, A)["villages"]]
    assert states == ["open", "claimed", "open", "open", "closed", "closed"]
    state, _ = do(state, A, "build sun on 4")  # now legal
    assert state["poles"][3] == ["sun"]


def test_example_3_advanced_variant_turns_village_face_up_when_it_opens():
    opts = {"fixed_villages": EXAMPLE_1_ROW, "start_player": A, "fixed_bag": ["sun", "fur"],
            "hidden_future_villages": True}
    state, log = new_game(opts)
    dealt = log[0]
    assert dealt["row"] == ["eagle", "chief", "height", None, None, None]
    for viewer in (A, B, SPECTATOR):
        assert "secret" not in G.redact(dealt, viewer)
        names = [v["village"] for v in G.view(state, viewer)["villages"]]
        assert names == ["eagle", "chief", "height", None, None, None]
    assert [v["village"] for v in G.view(state, OMNISCIENT)["villages"]] == EXAMPLE_1_ROW
    state, _ = do(state, A, "build sun on 2")
    state, events = do(state, B, "claim 2")
    assert events[1] == {"type": "VillageOpened", "village": 4, "name": "tomahawk"}
    for viewer in (A, B, SPECTATOR):
        names = [v["village"] for v in G.view(state, viewer)["villages"]]
        assert names == ["eagle", "chief", "height", "tomahawk", None, None]
    assert "Tomahawk" in G.describe(events[1], A)
    # a face-down village cannot be named in the notation
    with pytest.raises(ParseError):
        G.parse("claim sun", state, A)


# --------------------------------------------------------------------------
# §5.4 Tie: the first to place the third headdress wins


TIE_ROW = ["tomahawk", "chief", "height", "tipi", "fur", "variety"]
TIE_SCRIPT = [  # B (seat 1) starts: B plays odd turns, A even turns
    "build tomahawk on 1",  # t1 B
    "build tomahawk on 1",  # t2 A
    "build fur on 1",       # t3 B
    "claim 1",              # t4 A  #1  -> 4 opens
    "build chief on 2",     # t5 B
    "build tipi on 2",      # t6 A
    "claim 2",              # t7 B  #1  -> 5 opens
    "build tipi on 3",      # t8 A
    "build tipi on 3",      # t9 B
    "claim 3",              # t10 A #2  -> 6 opens
    "build chief on 4",     # t11 B
    "build fur on 4",       # t12 A
    "build fur on 5",       # t13 B
    "claim 5",              # t14 A #3 (third headdress)
    "claim 4",              # t15 B #2
    "build tipi on 6",      # t16 A (no headdress left: must build)
    "claim 6",              # t17 B #3 (third headdress)
]


def test_example_4_tie_third_headdress_first_wins():
    state, _ = play_script(TIE_ROW, B, TIE_SCRIPT)
    result = G.result(state)
    a, b = result.detail["breakdown"]
    assert a["villages"] == {"tomahawk": 8, "height": 6, "fur": 6}
    assert b["villages"] == {"chief": 10, "tipi": 4, "variety": 6}
    assert result.scores == (20, 20)
    assert result.placings == (1, 2)
    third = {s: max(c["turn"] for c in result.detail["claims"] if c["seat"] == s) for s in (A, B)}
    assert third == {A: 14, B: 17}
    assert "third headdress first" in result.detail["tie_break"]
    assert "turn 14" in result.detail["tie_break"] and "turn 17" in result.detail["tie_break"]


def test_a_player_without_headdresses_keeps_building():
    state, _ = play_script(TIE_ROW, B, TIE_SCRIPT[:15])
    assert state["headdresses"][A] == 0 and G.to_act(state) == {A}
    legal = G.legal_moves(state, A)
    assert legal and all(m["type"] == "build" and m["village"] == 6 for m in legal)
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "pass"}, random.Random(0))
    assert err.value.code == "cannot_pass"


# --------------------------------------------------------------------------
# §5.5 Empty bag


def test_example_5_empty_bag_skips_the_draw():
    state, log = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1[:21])
    # t21: A drew the last piece at the start of the turn, so nothing is drawn for B
    assert sum(state["bag"]) == 0
    assert log[-1]["type"] == "PieceBuilt"
    assert sum(1 for e in log if e["type"] == "PieceDrawn") == 21
    assert G.to_act(state) == {B}
    before = list(state["held"][B])
    state, events = do(state, B, "claim 6")
    assert [e["type"] for e in events] == ["PoleClaimed"]  # and no draw for A either
    assert state["held"][B] == before


def test_empty_bag_player_with_pieces_must_build_or_claim_with_them():
    state, _ = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1[:20])
    assert sum(state["bag"]) == 0 and G.to_act(state) == {A}
    hand = list(state["held"][A])
    assert hand
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "pass"}, random.Random(0))
    assert err.value.code == "cannot_pass"
    assert {m["type"] for m in G.legal_moves(state, A)} == {"build", "claim"}
    state, events = do(state, A, "build tipi on 6")
    assert [e["type"] for e in events] == ["PieceBuilt"]
    assert len(state["held"][A]) == len(hand) - 1


# --------------------------------------------------------------------------
# §5.6 No empty claims (and the option that allows them)


def test_example_6_newly_opened_empty_village_cannot_be_claimed():
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A, "fixed_bag": ["sun", "fur", "tipi"]})
    state, _ = do(state, A, "build sun on 1")
    state, _ = do(state, B, "claim 1")  # opens 4, empty
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "claim", "village": 4}, random.Random(0))
    assert err.value.code == "empty_pole"
    assert {"type": "claim", "village": 4} not in G.legal_moves(state, A)
    state, _ = do(state, A, "build tipi on 4")
    state, _ = do(state, B, "claim 4")  # after a build it can be claimed
    assert state["owner"][3] == B


def test_allow_empty_claim_option():
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A, "allow_empty_claim": True})
    assert {"type": "claim", "village": 3} in G.legal_moves(state, A)
    state, events = do(state, A, "claim 3")
    assert state["owner"][2] == A and state["poles"][2] == []


# --------------------------------------------------------------------------
# House rule 8 (stall) and house rule 9 (tie-break fallbacks)


STALL_ROW = ["height", "variety", "sun", "tipi", "fur", "eagle"]
STALL_SCRIPT = [  # B starts (odd turns)
    "build eagle on 1", "build chief on 1", "build chief on 1", "build tomahawk on 1",   # t1-4
    "build tomahawk on 1", "build tipi on 1", "build sun on 1", "build sun on 1",        # t5-8
    "build tomahawk on 2",                                                                # t9
    "build sun on 3",       # t10 A
    "claim 1",              # t11 B #1 -> 4 opens
    "build sun on 3",       # t12 A
    "build sun on 3",       # t13 B
    "build sun on 3",       # t14 A
    "claim 2",              # t15 B #2 -> 5 opens
    "claim 3",              # t16 A #1 -> 6 opens
    "build tipi on 4", "build tipi on 4", "build tipi on 4", "build tipi on 4",          # t17-20
    "build fur on 5",       # t21 B (last draw)
    "claim 4",              # t22 A #2
    "build fur on 5",       # t23 B
    "build fur on 5",       # t24 A
    "build fur on 5",       # t25 B
    "claim 5",              # t26 A #3
]


def test_stall_both_pass_ends_game_and_more_headdresses_wins_a_tie():
    state, log = play_script(STALL_ROW, B, STALL_SCRIPT, build_after_bag_empty=True)
    assert G.result(state) is None
    # B: nothing held, bag empty, only the empty village 6 left: must pass
    assert G.to_act(state) == {B}
    assert G.legal_moves(state, B) == [{"type": "pass"}]
    assert G.default_move(state, B) == {"type": "pass"}
    state, events = do(state, B, "pass")
    assert events == [{"type": "Passed", "player": B}]
    assert G.legal_moves(state, A) == [{"type": "pass"}]
    state, events = do(state, A, "pass")
    assert events[-1]["type"] == "GameEnded" and events[-1]["reason"] == "both_passed"
    result = G.result(state)
    assert result.detail["end"] == "both_passed"
    assert result.detail["unclaimed"] == [{"village": 6, "name": "eagle", "pole": []}]
    a, b = result.detail["breakdown"]
    assert a["villages"] == {"sun": 4, "tipi": 8, "fur": 12}
    assert b["villages"] == {"height": 16, "variety": 10} and b["sun_penalty"] == -2
    assert result.scores == (24, 24)
    assert result.placings == (1, 2)  # A placed 3 headdresses, B only 2
    assert "more headdresses" in result.detail["tie_break"]


def test_stall_before_every_village_opened_reveals_the_face_down_one():
    pieces = ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["fur"] * 4 + ["tipi"] * 5 + ["sun"] * 6
    script = [f"build {piece} on {1 if i < 11 else 2}" for i, piece in enumerate(pieces)]
    script += ["claim 1", "claim 2", "pass", "pass"]  # B, A, then nobody can act
    row = ["variety", "height", "eagle", "chief", "fur", "tipi"]
    state, log = play_script(row, A, script, hidden_future_villages=True)
    end = log[-1]
    assert end["type"] == "GameEnded" and end["reason"] == "both_passed"
    assert end["face_down"] == {"6": "tipi"}
    assert [v["village"] for v in G.view(state, B)["villages"]] == row
    result = G.result(state)
    assert result.detail["breakdown"][B]["villages"] == {"variety": 10}
    assert result.detail["breakdown"][A]["villages"] == {"height": 20}
    assert result.scores == (14, 10) and result.placings == (1, 2)  # A: 20 - 6 Suns
    assert [u["village"] for u in result.detail["unclaimed"]] == [3, 4, 5, 6]


def test_a_single_pass_does_not_end_the_game():
    state, _ = play_script(STALL_ROW, B, STALL_SCRIPT, build_after_bag_empty=True)
    state, _ = do(state, B, "pass")
    assert G.result(state) is None and state["passes"] == 1


def test_pass_when_you_can_act_is_illegal():
    state, _ = new_game({"start_player": A})
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "pass"}, random.Random(0))
    assert err.value.code == "cannot_pass"


def test_tie_break_keys_rule_9_fallbacks():
    # both placed three: the third (= last) placed earlier wins (the source's rule)
    keys = tie_break_keys([20, 20], [[0, 1, 3], [1, 2, 4], [0, 3, 9], [1, 4, 10], [0, 5, 14], [1, 6, 17]])
    assert keys[0] > keys[1]
    # more headdresses placed wins
    keys = tie_break_keys([20, 20], [[1, 1, 2], [0, 2, 3], [1, 3, 6]])
    assert keys[1] > keys[0]
    # equal counts: the last headdress placed earlier wins
    keys = tie_break_keys([20, 20], [[0, 1, 2], [1, 2, 3], [1, 3, 6], [0, 4, 8]])
    assert keys[1] > keys[0]
    # no way to tell: a draw
    keys = tie_break_keys([5, 5], [])
    assert keys[0] == keys[1]
    # the score always comes first
    keys = tie_break_keys([21, 20], [[1, 1, 2], [1, 2, 3], [1, 3, 4]])
    assert keys[0] > keys[1]


def test_result_equal_headdresses_last_placed_earlier_and_draw():
    # a finished state built from the stall game, with the record edited to
    # exercise the remaining fallbacks through result()
    state, _ = play_script(STALL_ROW, B, STALL_SCRIPT, build_after_bag_empty=True)
    state, _ = do(state, B, "pass")
    state, _ = do(state, A, "pass")
    edited = json.loads(json.dumps(state))
    # give village 5 to nobody: A 2 headdresses (turns 16, 22), B 2 (11, 15)
    edited["owner"][4] = None
    edited["claims"] = [c for c in edited["claims"] if c[1] != 5]
    edited["poles"][4] = []
    edited["poles"][0] = ["eagle", "chief", "tomahawk"]  # B: height 6 + variety 6 = 12
    result = G.result(edited)
    assert result.scores == (12, 12)  # A: Sun 4 + Tipi 8
    assert result.placings == (2, 1)  # B's last headdress: turn 15 < A's 22
    assert "placed the last headdress earlier" in result.detail["tie_break"]
    # identical records are a draw
    nobody = dict(edited, owner=[None] * 6, claims=[], poles=[[] for _ in range(6)])
    result = G.result(nobody)
    assert result.scores == (0, 0) and result.placings == (1, 1)
    assert result.detail["tie_break"].startswith("draw")


# --------------------------------------------------------------------------
# One test per scoring village, and the Sun penalty


POLES = [["eagle", "sun", "chief"], ["chief", "tomahawk", "tomahawk", "fur", "fur"], ["tipi", "sun", "sun"]]


@pytest.mark.parametrize("village,points", [
    ("eagle", 8 * 1), ("chief", 5 * 2), ("tomahawk", 4 * 2), ("fur", 3 * 2), ("tipi", 2 * 1)])
def test_symbol_village_scores_its_symbol_on_all_poles(village, points):
    b = score_breakdown([village], POLES)
    assert b["villages"] == {village: points}
    assert b["sun_penalty"] == -3  # not owning the Sun village
    assert b["total"] == points - 3


def test_sun_village_scores_plus_one_and_lifts_the_penalty():
    b = score_breakdown(["sun"], POLES)
    assert b["villages"] == {"sun": 3} and b["sun_penalty"] == 0 and b["total"] == 3


def test_variety_village_counts_distinct_symbols():
    b = score_breakdown(["variety"], POLES)
    assert b["villages"] == {"variety": 2 * 6}  # all six symbols
    b = score_breakdown(["variety"], [["fur", "fur"], ["fur"]])
    assert b["villages"] == {"variety": 2}


def test_height_village_counts_the_tallest_pole_only():
    b = score_breakdown(["height"], POLES)
    assert b["villages"] == {"height": 2 * 5}


def test_sun_penalty_without_sun_village():
    assert score_breakdown(["eagle"], [["sun", "sun"], ["sun"]])["total"] == -3
    assert score_breakdown([], [])["total"] == 0


def test_held_pieces_and_headdresses_do_not_score():
    state, _ = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1)
    assert any(state["held"])  # pieces left in hand
    assert G.result(state).scores == (19, 21)


# --------------------------------------------------------------------------
# Illegal moves


def early_state():
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A,
                         "fixed_bag": ["sun", "fur", "tipi", "chief"]})
    state, _ = do(state, A, "build sun on 1")
    state, _ = do(state, B, "claim 1")
    return state  # A to act, holds tipi; village 1 claimed by B, 4 open and empty


@pytest.mark.parametrize("move,code", [
    ({"type": "build", "piece": "tipi", "village": 5}, "village_closed"),
    ({"type": "build", "piece": "tipi", "village": 1}, "village_claimed"),
    ({"type": "claim", "village": 1}, "village_claimed"),
    ({"type": "claim", "village": 4}, "empty_pole"),
    ({"type": "claim", "village": 6}, "village_closed"),
    ({"type": "pass"}, "cannot_pass"),
    ({"type": "build", "piece": "eagle", "village": 2}, "piece_not_held"),
    ({"type": "build", "piece": "dragon", "village": 2}, "bad_piece"),
    ({"type": "build", "piece": "tipi", "village": 0}, "bad_village"),
    ({"type": "build", "piece": "tipi", "village": True}, "bad_village"),
    ({"type": "claim", "village": "2"}, "bad_village"),
    ({"type": "build", "piece": "tipi"}, "malformed_move"),
    ({"type": "claim", "village": 2, "extra": 1}, "malformed_move"),
    ({"type": "fly"}, "unknown_move"),
    ({"village": 2}, "malformed_move"),
    ("claim 2", "malformed_move"),
])
def test_illegal_moves_have_stable_codes(move, code):
    state = early_state()
    before = canonical(state)
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, move, random.Random(0))
    assert err.value.code == code
    assert canonical(state) == before


def test_claim_with_no_headdress():
    state, _ = play_script(TIE_ROW, B, TIE_SCRIPT[:15])  # A placed all three (t4, t10, t14)
    assert state["headdresses"][A] == 0 and G.to_act(state) == {A}
    with pytest.raises(IllegalMove) as err:
        G.decide(state, A, {"type": "claim", "village": 6}, random.Random(0))
    assert err.value.code == "no_headdress"
    assert not any(m["type"] == "claim" for m in G.legal_moves(state, A))


def test_out_of_turn_and_after_the_end():
    state = early_state()
    with pytest.raises(IllegalMove) as err:
        G.decide(state, B, {"type": "claim", "village": 2}, random.Random(0))
    assert err.value.code == "not_your_turn"
    done, _ = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1)
    with pytest.raises(IllegalMove) as err:
        G.decide(done, B, {"type": "pass"}, random.Random(0))
    assert err.value.code == "game_over"


# --------------------------------------------------------------------------
# Default move (digest §8)


def test_default_move_builds_earliest_drawn_piece_on_lowest_open_village():
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A,
                         "fixed_bag": ["sun", "fur", "tipi", "chief", "eagle"]})
    for player, text in [(A, "build sun on 3"), (B, "build fur on 1"), (A, "claim 3"), (B, "claim 1")]:
        state, _ = do(state, player, text)
    assert state["held"][A] == ["tipi", "eagle"]
    assert G.default_move(state, A) == {"type": "build", "piece": "tipi", "village": 2}


def test_default_move_claims_lowest_non_empty_pole_when_holding_nothing():
    state, _ = play_script(STALL_ROW, B, STALL_SCRIPT[:25])  # A to act at t26, holds nothing
    assert state["held"][A] == []
    assert G.default_move(state, A) == {"type": "claim", "village": 5}


# --------------------------------------------------------------------------
# Setup, options and hidden information


def test_setup_deals_six_of_eight_villages_and_two_removed_secretly():
    state, log = new_game({}, seed=4)
    dealt = log[0]
    assert dealt["type"] == "VillagesDealt" and dealt["to"] == []
    assert len(dealt["row"]) == 6 and len(dealt["secret"]["removed"]) == 2
    assert sorted(dealt["row"] + dealt["secret"]["removed"]) == sorted(
        ["eagle", "chief", "tomahawk", "fur", "tipi", "sun", "variety", "height"])
    for viewer in (A, B, SPECTATOR):
        assert "secret" not in G.redact(dealt, viewer)
        assert G.view(state, viewer)["removed_villages"] is None
    assert G.view(state, OMNISCIENT)["removed_villages"] == dealt["secret"]["removed"]
    assert sum(state["bag"]) == 20 and len(state["held"][state["current"]]) == 1
    assert state["turn"] == 1


def test_start_player_is_random_but_seeded():
    starts = {new_game({}, seed=s)[0]["start_player"] for s in range(20)}
    assert starts == {0, 1}
    assert new_game({}, seed=3)[1] == new_game({}, seed=3)[1]


def test_bad_options_are_refused():
    for bad in ({"fixed_villages": ["eagle"] * 6}, {"fixed_villages": ["eagle", "chief"]},
                {"fixed_villages": ["dragon", "chief", "height", "tipi", "sun", "fur"]},
                {"fixed_bag": ["eagle", "eagle"]}, {"fixed_bag": ["dragon"]},
                {"start_player": 2}, {"hidden_held_pieces": "yes"}):
        with pytest.raises(BadOptions):
            G.check_options(2, bad)
    with pytest.raises(BadOptions):
        G.check_options(3, {})


def test_held_pieces_public_by_default():
    state = early_state()
    event = {"type": "PieceDrawn", "player": B, "piece": "chief"}
    assert G.redact(event, A) == event
    assert G.view(state, B)["players"][A]["held"] == state["held"][A]


def test_hidden_held_pieces_are_secret_to_their_owner():
    opts = {"fixed_villages": EXAMPLE_1_ROW, "start_player": A, "hidden_held_pieces": True}
    state, log = new_game(opts, seed=2)
    drawn = log[-1]
    assert drawn["type"] == "PieceDrawn" and drawn["to"] == [A] and "piece" not in drawn
    assert G.redact(drawn, A)["secret"]["piece"] == state["held"][A][0]
    for viewer in (B, SPECTATOR):
        assert "secret" not in G.redact(drawn, viewer)
        assert "a piece" in G.describe(G.redact(drawn, viewer), viewer)
        seen = G.view(state, viewer)["players"][A]
        assert seen["held"] is None and seen["held_count"] == 1
    assert G.view(state, A)["players"][A]["held"] == state["held"][A]
    # the bag's contents are not shown: only what the viewer cannot see
    assert "bag" not in G.view(state, B)
    assert sum(G.view(state, B)["unseen"].values()) == 21
    assert sum(G.view(state, A)["unseen"].values()) == 20
    # resample re-deals A's hand for B, keeping B's view identical
    rng = random.Random(0)
    hands = set()
    for _ in range(40):
        other = G.resample(state, B, rng)
        assert canonical(G.view(other, B)) == canonical(G.view(state, B))
        hands.add(tuple(other["held"][A]))
        assert sum(other["bag"]) == 20
    assert len(hands) > 1
    # a built piece becomes public
    piece = state["held"][A][0]
    state, events = do(state, A, f"build {piece} on 1", random.Random(5))
    assert G.redact(events[0], B)["piece"] == piece
    assert G.view(state, B)["villages"][0]["pole"] == [piece]


def test_hidden_future_villages_resample_keeps_views():
    opts = {"hidden_future_villages": True}
    state, _ = new_game(opts, seed=9)
    rng = random.Random(0)
    rows = set()
    for viewer in (A, B, SPECTATOR):
        for _ in range(20):
            other = G.resample(state, viewer, rng)
            assert canonical(G.view(other, viewer)) == canonical(G.view(state, viewer))
            assert other["row"][:3] == state["row"][:3]
            rows.add(tuple(other["row"][3:]))
    assert len(rows) > 1


def test_hidden_future_villages_stay_secret_in_the_log_until_opened():
    playout = play_random(G, 2, {"hidden_future_villages": True}, seed=5)
    opened = [e for e in playout.events if e["type"] == "VillageOpened"]
    assert [e["village"] for e in opened] == [4, 5, 6]
    assert [e["name"] for e in opened] == playout.state["row"][3:]
    for viewer in (A, B, SPECTATOR):
        seen = G.redact(playout.events[0], viewer)
        assert seen["row"][3:] == [None, None, None] and "secret" not in seen


def test_end_of_game_reveals_secret_hands_and_face_down_villages():
    opts = {"hidden_held_pieces": True, "hidden_future_villages": True}
    for seed in range(30):
        playout = play_random(G, 2, opts, seed=seed)
        end = playout.events[-1]
        assert end["type"] == "GameEnded" and "secret" not in end
        assert end["held"] == playout.state["held"]
        assert end["removed"] == playout.state["removed"]
        for viewer in (A, B, SPECTATOR):
            view = G.view(playout.state, viewer)
            assert [p["held"] for p in view["players"]] == playout.state["held"]
            assert [v["village"] for v in view["villages"]] == playout.state["row"]
            assert view["removed_villages"] == playout.state["removed"]


def test_replay_of_a_scripted_game_equals_live_state():
    state, log = play_script(STALL_ROW, B, STALL_SCRIPT, build_after_bag_empty=True)
    replayed = G.replay(2, state["options"], json.loads(json.dumps(log)))
    assert canonical(G.dump(replayed)) == canonical(G.dump(state))


# --------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize("text,move", [
    ("build sun on 2", {"type": "build", "piece": "sun", "village": 2}),
    ("  BUILD   Sun   ON  2 ", {"type": "build", "piece": "sun", "village": 2}),
    ("b tipis 3", {"type": "build", "piece": "tipi", "village": 3}),
    ("build 1 eagle", {"type": "build", "piece": "eagle", "village": 1}),
    ("build chief on #2", {"type": "build", "piece": "chief", "village": 2}),
    ("claim 3", {"type": "claim", "village": 3}),
    ("Claim height", {"type": "claim", "village": 3}),
    ("claim village 1", {"type": "claim", "village": 1}),
    ("pass", {"type": "pass"}),
])
def test_parse(text, move):
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A})
    assert G.parse(text, state, A) == move


@pytest.mark.parametrize("text", ["", "build", "build dragon on 2", "build sun on 9", "claim",
                                  "claim fur", "fly away", "build sun on tipi", "pass 2"])
def test_parse_errors_explain(text):
    state, _ = new_game({"fixed_villages": EXAMPLE_1_ROW, "start_player": A})
    with pytest.raises(ParseError) as err:
        G.parse(text, state, A)
    assert err.value.details["expected"]
    assert err.value.details["examples"]


def test_describe_round_trip_and_render():
    state, _ = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1[:10])
    for move in G.legal_moves(state, A if A in G.to_act(state) else B):
        assert G.parse(G.describe(move), state, A) == move
    text = G.render(state, A)
    assert "claimed by seat 1" in text and "Eagle" in text
    assert "claimed by Bob" in G.render(state, A, ["Ann", "Bob"])
    done, _ = play_script(EXAMPLE_1_ROW, A, EXAMPLE_1)
    text = G.render(done, A)
    assert "Removed villages: Fur, Tipi" in text and "19" in text and "21" in text
    assert "build <piece> on <village>" in G.notation_help


# --------------------------------------------------------------------------
# Engine


def test_module_docstring_example_runs():
    import doctest

    import pbem.games.wakanda as module
    failures, attempted = doctest.testmod(module)
    assert attempted and not failures


@pytest.mark.timing  # a speed budget: make test's serial phase, away from the suite's own load
def test_random_games_are_fast_and_consistent():
    import time
    t = time.perf_counter()
    for seed in range(100):
        playout = play_random(G, 2, {}, seed=seed)
        result = G.result(playout.state)
        assert len(result.detail["removed_villages"]) == 2
        assert sum(len(p) for p in playout.state["poles"]) + sum(map(len, playout.state["held"])) \
            + sum(playout.state["bag"]) == 21
    per_game = (time.perf_counter() - t) / 100
    assert per_game < 0.005, f"{per_game * 1000:.2f} ms per game"


def test_one_seat_acts_at_a_time_so_moves_are_strict():
    assert G.concurrency == "strict" and G.concurrency_doc
    for seed in range(3):
        playout = play_random(G, 2, {}, seed=seed)
        state = G.start(2, playout.options)
        before = None
        for event in playout.events:
            state = G.evolve(state, event)
            assert len(G.to_act(state)) <= 1 and G.window(state) is None
            if before is not None:
                assert not any(G.concurrent_ok(before, state, seat) for seat in (0, 1))
            before = state
