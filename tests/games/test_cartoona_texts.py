"""Cartoona as the source says and in words: only Instant and Special cards
out of turn (a Block answers only a card played during your own turn;
cartoona@1 and the ``block_out_of_turn`` option keep the old reading);
results that say lost, won or no winner; tiles and cards named by what
they are; refusals
with a reason and examples in notation; the board's counts, discards and
this turn's plays; seats by name, a cheat called by name."""
from __future__ import annotations

import json
import random

import pytest

from pbem import games
from pbem.games.base import IllegalMove
from pbem.games.cartoona import data as D
from pbem.games.playout import play_random

G = games.get("cartoona")
V1 = games.get("cartoona", 1)
NAMES = ["Ann", "Bob Lee", "Cy"]


def tid(variant, colours):
    return next(t["id"] for t in D.TILES if t["variant"] == variant and "/".join(t["colours"]) == colours)


def card(kind, nth=0):
    return [c["id"] for c in D.CARDS if c["kind"] == kind][nth]


def table(game=G, **opts):
    """Seat 0's clean turn: seat 1 owns creature c1 (a head), seat 0 holds a
    Steal and an Instant, seat 1 a Block and an Instant, seat 2 a Block."""
    s = game.start(3, game.check_options(3, opts))
    s = game.apply(s, game.setup(s, random.Random(0)))
    s = json.loads(json.dumps(s))
    head = tid("HD-ENK", "Y")
    s.update(active=0, placed=False, played=False, used=[], passed=[], called=[], window=None, instant=None,
             att={}, cre={"1": {"id": 1, "owner": 1, "tiles": {"head": head}}}, next_cid=2)
    s["hands"] = [[h for h in hand if h != head] for hand in s["hands"]]
    s["chands"] = [[card("steal"), card("instant")], [card("block"), card("instant", 1)], [card("block", 1)]]
    return s, head


def play(game, s, seat, text):
    events = game.decide(s, seat, game.parse(text, s, seat), random.Random(1))
    return game.apply(s, events), events


def test_the_source_a_steal_cannot_be_blocked_out_of_turn():
    s, head = table()
    s, events = play(G, s, 0, f"play k{card('steal')} on t{head}")
    assert [e["type"] for e in events] == ["CardPlayed", "TileStolen"]  # no window: nobody may block it
    assert events[0]["eligible"] == [] and s["window"] is None and head in s["hands"][0]


def test_the_source_the_active_player_blocks_an_out_of_turn_instant():
    s, head = table()
    s, events = play(G, s, 1, f"play k{card('instant', 1)}")        # seat 1 out of turn
    assert events[0]["eligible"] == [0] and s["window"]["pending"] == [0]
    with pytest.raises(IllegalMove) as err:                      # seat 2 may not answer
        G.decide(s, 2, {"type": "block", "card": card("block", 1)}, random.Random(0))
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("game,options", [(V1, {}), (G, {"block_out_of_turn": True})],
                         ids=["cartoona@1", "cartoona@2 block_out_of_turn"])
def test_the_old_reading_any_seat_may_block_a_steal(game, options):
    s, head = table(game, **options)
    s, events = play(game, s, 0, f"play k{card('steal')} on t{head}")
    assert events[0]["eligible"] == [1, 2] and s["window"] is not None
    s, events = play(game, s, 1, f"block with k{card('block')}")
    s, events = play(game, s, 2, "pass")
    assert "CardBlocked" in [e["type"] for e in events] and head not in s["hands"][0]


def test_cartoona_1_has_no_option_and_new_games_are_cartoona_2():
    assert games.get("cartoona") is G and G.key == "cartoona@2"
    assert "block_out_of_turn" not in {o.name for o in V1.options}
    assert G.check_options(3, {})["block_out_of_turn"] is False
    assert "a Block answers only a card played during your own turn" in G.notation_help_for(G.check_options(3, {}))


def test_a_lost_solo_game_has_no_winner_and_a_won_one_has_its_player():
    outcomes = set()
    for seed in range(8):
        r = G.result(play_random(G, 1, {"mode": "solo"}, seed=seed).state)
        d = r.as_dict()
        if r.reason == "lost":
            assert d["outcome"] == "lost" and d["winners"] == []
            assert G.describe_result(r, ["Ann"]).startswith("Ann lost (")
        else:
            assert d["outcome"] == "won" and d["winners"] == [0]
        outcomes.add(d["outcome"])
    assert "lost" in outcomes


def test_a_kids_game_out_of_time_has_no_winner():
    for seed in range(10):
        r = G.result(play_random(G, 3, {"mode": "kids", "kids_target": "parts:ears,nose,tail,back_feet",
                                        "kids_turn_limit": 2}, seed=seed).state)
        d = r.as_dict()
        if r.reason == "kids_time_up":
            assert d["outcome"] == "no_winner" and d["winners"] == [] and r.placings == (1, 1, 1)
            assert G.describe_result(r, NAMES) == "No winner: time is up."
            return
        assert d["outcome"] == "won" and len(d["winners"]) == 1
    raise AssertionError("no kids' game ran out of time")


def test_tiles_are_named_by_what_they_are_in_the_help_and_on_the_board():
    for options in ({}, {"mode": "basic"}, {"mode": "solo"}, {"mode": "kids"}):
        players = 1 if options.get("mode") == "solo" else 3
        assert "Tiles read tN (colour, part, the parts it joins; points)" in G.notation_help_for(
            G.check_options(players, options))
    s, head = table()
    board = G.render(s, 0, NAMES)
    assert f"c1, Bob Lee's creature: t{head} (yellow head, joining ears, nose/mouth and body front; 1 point)." \
        in board
    assert "Not complete, so it scores nothing yet: it still needs ears, nose/mouth and body front." in board
    assert f"Your cards: k{card('steal')} (Steal), k{card('instant')} (Instant)." in board
    assert "HD-ENK" not in board and "HD-" not in G.notation_help_for(G.check_options(3, {}))


def test_refusals_say_why_in_words_with_moves_in_notation():
    s, head = table()
    s["placed"] = True
    with pytest.raises(IllegalMove) as err:
        G.decide(s, 0, {"type": "place_tile", "tile": s["hands"][0][0], "creatures": []}, random.Random(0))
    assert err.value.code == "not_now" and "you have placed a tile this turn already" in err.value.message
    assert "{" not in err.value.message and err.value.details["examples"]
    for text in err.value.details["examples"]:
        G.parse(text, s, 0)                                      # each example is notation that parses
    with pytest.raises(IllegalMove) as err:
        G.decide(s, 0, {"type": "play_card", "card": card("block"), "tile": head}, random.Random(0))
    assert err.value.code == "illegal_play_card" and "is not in your hand" in err.value.message
    assert "{" not in err.value.message and "For example: play steal" in err.value.message
    with pytest.raises(IllegalMove) as err:                      # a Steal on your own tile
        s2, _ = table()
        s2["cre"]["1"]["owner"] = 0
        G.decide(s2, 0, {"type": "play_card", "card": card("steal"), "tile": head}, random.Random(0))
    assert "steal from an opponent's creature" in err.value.message
    assert "For example: play instant k" in err.value.message   # what seat 0 may play instead
    with pytest.raises(IllegalMove) as err:                      # seat 2 may act out of turn, not end it
        G.decide(s, 2, {"type": "end_turn"}, random.Random(0))
    assert err.value.code == "not_now" and (
        "You cannot end the turn now: it is seat 0's turn (out of turn you may play only Instant and Special "
        "cards)." in err.value.message)
    s["used"] = [2]                                              # seat 2 has played out of turn
    with pytest.raises(IllegalMove) as err:
        G.decide(s, 2, {"type": "pass"}, random.Random(0))
    assert err.value.code == "not_your_turn" and (
        err.value.message == "It is seat 0's turn; you have played out of turn this turn already.")


def test_the_board_shows_the_others_counts_the_discards_and_this_turns_plays():
    s, head = table()
    s["cdisc"] = [card("plus1"), card("swap")]
    s["played"] = True
    board = G.render(s, 1, NAMES)
    tiles = [len(h) for h in s["hands"]]
    assert f"Tiles in hand: Ann {tiles[0]}, Bob Lee {tiles[1]}, Cy {tiles[2]}.\n" in board
    assert "Cards in hand: Ann 2, Bob Lee 2, Cy 1.\n" in board
    assert f"Card discard: k{card('plus1')} (+1 card), k{card('swap')} (Swap)." in board
    assert "tile discard: 0 face down" in board
    assert "This turn Ann has played a card and not placed a tile yet." in board
    assert f"c1, Bob Lee's creature: t{head} (yellow head" in board


def test_a_cheat_is_called_by_name():
    s, head = table(cheat_cards=True)
    s["thefts"] = [{"id": 1, "tile": head, "creature": 1, "victim": 1, "thief": 2, "card": None}]
    move = G.parse("call cheat on Cy forfeit k44", s, 0, NAMES)
    assert move == {"type": "call_cheat", "target": 2, "forfeit": 44}
    assert G.parse("call cheat on seat 2 forfeit k44", s, 0, NAMES) == move
    assert G.describe(move, 0, NAMES) == "call cheat on Cy forfeit k44"
    assert G.describe(move, 0, ["Ann", "Ann", "Ann"]) == "call cheat on seat 2 forfeit k44"
    assert G.parse("call cheat on bob lee forfeit k44", s, 0, NAMES)["target"] == 1
    assert G.describe({"type": "CheatCallFailed", "caller": 0, "target": 2, "forfeit": 44}, 0, NAMES) == \
        "Ann wrongly called cheat on Cy and discards k44 (Steal)."
