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
