"""Cartoona: the digest's worked examples, every card (and each one blocked),
reaction windows, standing orders, Cheat, teams, solo, kids, options, hidden
information and notation."""
from __future__ import annotations

import json
import random

import pytest

from pbem import games
from pbem.games.base import SPECTATOR, BadOptions, IllegalMove, ParseError, canonical
from pbem.games.cartoona import creatures as cr
from pbem.games.cartoona import data as D
from pbem.games.cartoona import moves as mv
from pbem.games.cartoona.rules import creature_points
from pbem.games.playout import play_random

G = games.get("cartoona")


# ---------------------------------------------------------------- helpers


def tid(variant, colours, nth=0):
    """The nth tile of a variant with exactly these colours ("Y", "B/M", ...)."""
    found = [t["id"] for t in D.TILES if t["variant"] == variant and "/".join(t["colours"]) == colours]
    return found[nth]


def card(kind, nth=0):
    return [c["id"] for c in D.CARDS if c["kind"] == kind][nth]


def fresh(n=3, seed=0, **opts):
    """A set-up game, normalised to seat 0 at the start of a clean turn, empty table.
    These tests play the digest's reaction windows, where any seat may block
    another's card: the ``block_out_of_turn`` option (the source's rule, the
    default, is tested in test_cartoona_block.py)."""
    opts.setdefault("block_out_of_turn", True)
    options = G.check_options(n, opts)
    s = G.start(n, options)
    s = G.apply(s, G.setup(s, random.Random(seed)))
    s = json.loads(json.dumps(s))
    s.update(active=0, placed=False, played=False, used=[], passed=[], called=[], window=None,
             instant=None, cre={}, att={}, phase="place" if s["mode"] in ("basic", "basic_team") else s["phase"])
    return s


def with_creature(s, owner, tiles, cid=None):
    s = dict(s)
    cid = cid or s["next_cid"]
    s["cre"] = dict(s["cre"])
    s["cre"][str(cid)] = {"id": cid, "owner": owner, "tiles": {D.T_PART[t]: t for t in tiles}}
    s["next_cid"] = max(s["next_cid"], cid + 1)
    return s, cid


def hands(s, tiles=None, cards=None):
    s = dict(s)
    if tiles is not None:
        s["hands"] = [list(h) for h in tiles]
    if cards is not None:
        s["chands"] = [list(h) for h in cards]
    return s


def act(s, player, text, seed=0):
    move = G.parse(text, s, player)
    events = G.decide(s, player, move, random.Random(seed))
    return G.apply(s, events), events


def types(events):
    return [e["type"] for e in events]


# ---------------------------------------------------------------- components


def test_component_data_matches_the_source_and_the_house_balance():
    assert len(D.TILES) == 95 and len(D.CARDS) == 70
    counts = {}
    for t in D.TILES:
        counts[t["part"]] = counts.get(t["part"], 0) + 1
    assert counts == D.PART_COUNTS
    colours = {}
    for t in D.TILES:
        if len(t["colours"]) == 1:
            colours[t["colours"][0]] = colours.get(t["colours"][0], 0) + 1
    assert colours == {"Y": 28, "B": 24, "M": 18, "P": 12}
    assert sum(1 for t in D.TILES if len(t["colours"]) == 2) == 10
    assert sum(1 for c in D.CARDS if c["kind"] == "cheat") == 4


# ---------------------------------------------------------------- worked examples (digest §9)


def example2_tiles():
    return [tid("HD-ENK", "M"), tid("EARS", "Y"), tid("NOSE", "B"), tid("BF-HFR", "M"),
            tid("FFEET", "Y"), tid("BB-FBT", "M"), tid("BFEET", "Y"), tid("TAIL", "B")]


def test_example_1_minimal_creature_scores_4():
    s = fresh(2)
    s, cid = with_creature(s, 0, [tid("HD-K", "Y"), tid("BF-H", "Y")])
    c = s["cre"][str(cid)]
    assert cr.is_complete(c["tiles"])
    assert creature_points(s, c)["total"] == 4


def test_example_2_eight_tiles_mixed_colours_scores_16():
    s = fresh(2)
    s, cid = with_creature(s, 0, example2_tiles())
    c = s["cre"][str(cid)]
    assert cr.is_complete(c["tiles"]) and len(c["tiles"]) == 8
    assert creature_points(s, c) == {"base": 16, "doubled": False, "cards": 0, "total": 16}


def test_example_3_two_colour_tiles_share_magenta_scores_26():
    s = fresh(2)
    tiles = [tid("HD-K", "M"), tid("BF-HR", "B/M"), tid("BB-FBT", "M/P"), tid("BFEET", "M"), tid("TAIL", "M")]
    s, cid = with_creature(s, 0, tiles)
    c = s["cre"][str(cid)]
    assert cr.is_complete(c["tiles"])
    assert creature_points(s, c)["total"] == 26


def test_example_4_point_cards_played_and_scored_gives_17():
    s = fresh(2)
    nose = tid("NOSE", "B")
    s, cid = with_creature(s, 1, example2_tiles())
    s = hands(s, tiles=[[], []], cards=[[card("plus3")], [card("minus2")]])
    s, ev = act(s, 0, f"play k{card('plus3')} on t{nose}")
    assert "CardPlayed" in types(ev) and s["window"]["pending"] == [1]
    s, ev = act(s, 1, "pass")
    assert types(ev)[-1] == "CardAttached"
    s, ev = act(s, 0, "end turn")
    assert s["active"] == 1
    s = hands(s, cards=[[], [card("minus2")]])
    s, ev = act(s, 1, f"play k{card('minus2')} on t{nose}")
    s, ev = act(s, 0, "pass")
    assert s["att"][str(nose)] == [card("plus3"), card("minus2")]
    s, ev = act(s, 1, f"score c{cid}")
    scored = [e for e in ev if e["type"] == "CreatureScored"][0]
    assert scored["points"] == 17 and s["scores"][1] == 17
    assert card("plus3") in s["cdisc"] and card("minus2") in s["cdisc"]


def test_example_4_card_values_are_not_doubled_unless_the_option_says_so():
    for option, expected in ((False, 6), (True, 8)):
        s = fresh(2, double_includes_cards=option)
        head = tid("HD-K", "Y")
        s, cid = with_creature(s, 0, [head, tid("BF-H", "Y")])
        s["att"] = {str(head): [card("plus2")]}
        assert creature_points(s, s["cre"][str(cid)])["total"] == expected


def singles_state(k):
    s = fresh(2, use_single_creatures=True)
    ids = []
    for t in D.SINGLE_IDS[:k]:
        s, cid = with_creature(s, 0, [t])
        ids.append(cid)
    return s, ids


def test_example_5_single_tile_creatures_bonus():
    s, ids = singles_state(3)
    legal = [m["creatures"] for m in G.legal_moves(s, 0) if m["type"] == "score"]
    assert ids[:2] in legal and ids in legal and [ids[0]] in legal
    s2, ev = act(s, 0, f"score c{ids[0]}+c{ids[1]}")
    assert ev[0]["points"] == 15
    s3, ev = act(s, 0, f"score c{ids[0]}+c{ids[1]}+c{ids[2]}")
    assert ev[0]["points"] == 27
    assert set(D.SINGLE_IDS) <= set(s3["aside"]), "scored singles leave the game"


def test_example_6_steal_leaves_a_gap_only_a_matching_head_fills():
    s = fresh(2)
    head = tid("HD-EK", "Y")
    s, cid = with_creature(s, 1, [tid("EARS", "Y"), head, tid("BF-HFR", "Y"), tid("FFEET", "Y")])
    s["att"] = {str(head): [card("plus5")]}
    s = hands(s, tiles=[[], []], cards=[[card("steal")], []])
    s, _ = act(s, 0, f"play k{card('steal')} on t{head}")
    s, ev = act(s, 1, "pass")
    assert types(ev)[-1] == "TileStolen"
    assert head in s["hands"][0] and str(cid) in s["cre"]
    assert card("plus5") in s["cdisc"] and str(head) not in s["att"]
    tiles = s["cre"][str(cid)]["tiles"]
    assert sorted(cr.open_sockets(tiles)) == ["EAR", "NECK", "REAR"]  # REAR was open before
    assert cr.fits(tid("HD-EK", "B"), tiles)
    assert cr.fits(tid("HD-ENK", "Y"), tiles)
    assert sorted(cr.open_sockets({**tiles, "head": tid("HD-ENK", "Y")})) == ["NOSE", "REAR"]
    assert not cr.fits(tid("HD-NK", "Y"), tiles)
    assert not cr.fits(tid("HD-K", "Y"), tiles)


def test_example_7_block_cancels_a_steal():
    s = fresh(3)
    target = tid("HD-K", "Y")
    s, cid = with_creature(s, 1, [target])
    s = hands(s, tiles=[[], [], []], cards=[[card("steal")], [], [card("block")]])
    s, ev = act(s, 0, f"play k{card('steal')} on t{target}")
    assert G.to_act(s) == frozenset({1, 2}), "both others may answer at once"
    s, _ = act(s, 1, "pass")
    s, ev = act(s, 2, "block")
    assert types(ev)[-1] == "CardBlocked"
    assert s["cre"][str(cid)]["tiles"] == {"head": target}
    assert card("steal") in s["cdisc"] and card("block") in s["cdisc"]
    assert s["played"] and 2 in s["out_of_turn_used" if False else "used"]
    assert not any(m["type"] == "play_card" for m in G.legal_moves(s, 0))
    assert 2 not in G.to_act(s), "Carol used her out-of-turn card for this turn"


def test_several_blockers_first_in_seat_order_after_the_player_applies():
    s = fresh(4)
    target = tid("HD-K", "Y")
    s, cid = with_creature(s, 3, [target])
    s = hands(s, tiles=[[]] * 4, cards=[[card("steal")], [], [card("block", 0)], [card("block", 1)]])
    s, _ = act(s, 0, f"play k{card('steal')} on t{target}")
    s, _ = act(s, 3, f"block with k{card('block', 1)}")
    s, _ = act(s, 1, "pass")
    s, ev = act(s, 2, f"block with k{card('block', 0)}")
    blocked = ev[-1]
    assert blocked["type"] == "CardBlocked" and blocked["by"] == 2
    assert s["chands"][3] == [card("block", 1)], "the later blocker keeps the card"


def test_example_8_basic_hand_size():
    s = fresh(2, mode="basic")
    s = hands(s, tiles=[[tid("HD-K", "Y"), tid("EARS", "Y"), tid("EARS", "Y", 1), tid("TAIL", "Y"),
                         tid("TAIL", "Y", 1)], [tid("NOSE", "Y")] * 5])
    s["stack"] = [tid("BF-H", "Y"), tid("NOSE", "B")] + s["stack"][2:]
    s["active"] = 1
    em = mv.Emitter(s, random.Random(0))
    mv.begin_turn(em, 0)
    s = em.s
    assert len(s["hands"][0]) == 7 and s["phase"] == "place"
    s, _ = act(s, 0, f"place t{tid('HD-K', 'Y')} new")
    assert len(s["hands"][0]) == 6 and s["phase"] == "discard"
    s, ev = act(s, 0, f"discard t{tid('EARS', 'Y')}")
    assert len(s["hands"][0]) == 5 and s["active"] == 1
    assert ev[0]["type"] == "TileDiscarded" and "tile" not in G.redact(ev[0], 1).get("secret", {})


def test_example_8_no_legal_placement_keeps_all_drawn_tiles():
    s = fresh(2, mode="basic")
    s, _ = with_creature(s, 0, [tid("TAIL", "Y")])
    s, _ = with_creature(s, 0, [tid("TAIL", "B")])
    ears = [tid("EARS", "Y", i) for i in range(4)] + [tid("EARS", "B")]
    s = hands(s, tiles=[ears, []])
    s["stack"] = [tid("EARS", "B", 1), tid("EARS", "B", 2)] + s["stack"][2:]
    s["active"] = 1
    em = mv.Emitter(s, random.Random(0))
    mv.begin_turn(em, 0)
    assert len(em.s["hands"][0]) == 7 and em.s["active"] == 1, "no placement: turn over, hand at 7"


def test_example_9_creature_limit_individual():
    s = fresh(2)
    s, a = with_creature(s, 0, [tid("TAIL", "Y")])
    s, b = with_creature(s, 0, [tid("TAIL", "B")])
    assert mv.placements(s, 0, tid("EARS", "Y")) == [], "fits neither creature and cannot start a third"
    assert mv.placements(s, 0, tid("BB-FBT", "B")) == [[a], [b]]
    s["cre"][str(b)]["tiles"] = {"head": tid("HD-K", "Y"), "body_front": tid("BF-H", "Y")}
    assert [] in mv.placements(s, 0, tid("EARS", "Y")), "a completed creature does not count"
    s["opts"] = {**s["opts"], "limit_counts_completed": True}
    assert [] not in mv.placements(s, 0, tid("EARS", "Y"))


def test_example_10_reaching_50_ends_the_game_at_once():
    s = fresh(3)
    s["scores"] = [41, 10, 0]
    s, cid = with_creature(s, 0, [tid("HD-K", "M"), tid("BF-H", "Y"), ])
    s["cre"][str(cid)]["tiles"] = {"head": tid("HD-K", "P"), "body_front": tid("BF-H", "Y")}
    s["att"] = {str(tid("HD-K", "P")): [card("plus2"), card("plus2", 1)]}  # 4 + 1 + 2 + 2 = 9
    s, ev = act(s, 0, f"score c{cid}")
    assert ev[0]["points"] == 9 and ev[-1]["type"] == "GameEnded"
    r = G.result(s)
    assert r.scores == (50, 10, 0) and r.placings == (1, 2, 3) and r.reason == "target"
    assert G.to_act(s) == frozenset()


def test_example_11_solo_must_start_and_must_discard():
    s = fresh(1, mode="solo")
    yellow = tid("HD-K", "Y")
    s["drawn"] = yellow
    assert G.legal_moves(s, 0) == [{"type": "place_tile", "tile": yellow, "creatures": [], "colour": "Y"}]
    s, cid = with_creature(s, 0, [tid("HD-NK", "B"), tid("BF-H", "B")])
    s["cre"][str(cid)]["colour"] = "B"
    feet = tid("FFEET", "B")
    s["drawn"] = feet
    assert G.legal_moves(s, 0) == [{"type": "discard_tile", "tile": feet, "colour": "B"}]
    s["cre"][str(cid)]["tiles"] = {"body_front": tid("BF-HF", "B")}
    legal = G.legal_moves(s, 0)
    assert {m["type"] for m in legal} == {"place_tile", "discard_tile"}, "fits: place or discard"


def test_solo_two_colour_choice_is_final_and_counts_for_doubling():
    s = fresh(1, mode="solo")
    two = tid("BF-HF", "Y/B")
    s["drawn"] = two
    moves = G.legal_moves(s, 0)
    assert {m["colour"] for m in moves} == {"Y", "B"}
    s, _ = act(s, 0, f"place t{two} new as blue")
    assert s["fixed"][str(two)] == "B"
    cid = next(iter(s["cre"].values()))
    assert cid["colour"] == "B"


def test_solo_game_played_to_the_end():
    for seed in range(5):
        p = play_random(G, 1, {"mode": "solo"}, seed=seed)
        r = G.result(p.state)
        assert r.reason in ("won", "lost") and r.placings == (1,)
        assert r.detail["won"] == (r.reason == "won")


# ---------------------------------------------------------------- cards, one by one, and blocked


def table_for_cards():
    s = fresh(2)
    s, mine = with_creature(s, 0, [tid("HD-K", "Y"), tid("BF-H", "B")])
    s, theirs = with_creature(s, 1, [tid("HD-K", "M"), tid("BF-H", "M")])
    return s, mine, theirs


CARD_CASES = {
    **{k: (lambda k: lambda s: f"play k{card(k)} on t{tid('HD-K', 'Y')}")(k)
       for k in ("plus1", "plus2", "plus3", "plus5")},
    **{k: (lambda k: lambda s: f"play k{card(k)} on t{tid('HD-K', 'M')}")(k)
       for k in ("minus1", "minus2", "minus3", "minus5")},
    "special": lambda s: f"play k{card('special')} on t{tid('BF-H', 'B')}",
    "steal": lambda s: f"play k{card('steal')} on t{tid('HD-K', 'M')}",
    "swap": lambda s: f"play k{card('swap')} on t{tid('HD-K', 'Y')} with t{tid('HD-K', 'M')}",
    "instant": lambda s: f"play k{card('instant')}",
}


@pytest.mark.parametrize("kind", sorted(CARD_CASES))
def test_every_card_resolves(kind):
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[], []], cards=[[card(kind)], [card("block")]])
    s, _ = act(s, 0, CARD_CASES[kind](s))
    s, ev = act(s, 1, "pass")
    last = ev[-1]
    if kind in D.POINT_KINDS or kind == "special":
        assert last["type"] == "CardAttached"
        target = s["cre"][str(theirs if kind.startswith("minus") else mine)]
        pts = creature_points(s, target)
        value = D.C_VALUE[card(kind)]
        assert pts["total"] == {"plus": 3 + value, "minus": 12 + value, "special": 6}[kind.rstrip("1235")]
        if kind == "special":
            assert pts["doubled"], "Special makes the blue tile count as yellow too"
    elif kind == "steal":
        assert last["type"] == "TileStolen" and tid("HD-K", "M") in s["hands"][0]
        assert "head" not in s["cre"][str(theirs)]["tiles"]
    elif kind == "swap":
        assert last["type"] == "TilesSwapped"
        assert s["cre"][str(mine)]["tiles"]["head"] == tid("HD-K", "M")
        assert s["cre"][str(theirs)]["tiles"]["head"] == tid("HD-K", "Y")
        assert creature_points(s, s["cre"][str(theirs)])["total"] == 1 + 3
    else:
        assert last["type"] == "InstantDrawn" and G.to_act(s) == frozenset({0})
        drawn = last["secret"]["tile"]
        assert drawn in s["hands"][0] and "secret" not in G.redact(last, 1)
        assert {"type": "keep"} in G.legal_moves(s, 0)
        s, ev = act(s, 0, "keep")
        assert s["instant"] is None and not s["placed"]
    assert card(kind) in s["cdisc"] or any(card(kind) in v for v in s["att"].values())


@pytest.mark.parametrize("kind", sorted(CARD_CASES))
def test_every_card_can_be_blocked(kind):
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[], []], cards=[[card(kind)], [card("block")]])
    before = canonical((s["cre"], s["att"], s["hands"]))
    s, _ = act(s, 0, CARD_CASES[kind](s))
    s, ev = act(s, 1, f"block with k{card('block')}")
    assert types(ev) == ["ReactionAnswered", "CardBlocked"]
    assert canonical((s["cre"], s["att"], s["hands"])) == before, "a blocked card does nothing"
    assert s["cdisc"][-2:] == [card(kind), card("block")]
    assert s["played"] and s["window"] is None


def test_swap_moves_attached_cards_with_their_tiles():
    s, mine, theirs = table_for_cards()
    s["att"] = {str(tid("HD-K", "M")): [card("minus3")]}
    s = hands(s, tiles=[[], []], cards=[[card("swap")], []])
    s["orders"] = [[], ["always_pass"]]
    s, ev = act(s, 0, f"play k{card('swap')} on t{tid('HD-K', 'Y')} with t{tid('HD-K', 'M')}")
    assert ev[-1]["type"] == "TilesSwapped", "always_pass answers at once"
    assert creature_points(s, s["cre"][str(mine)])["cards"] == -3


def test_swap_needs_the_same_variant():
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[], []], cards=[[card("swap")], []])
    with pytest.raises(IllegalMove):
        G.decide(s, 0, {"type": "play_card", "card": card("swap"), "tile": tid("HD-K", "Y"),
                        "with": tid("BF-H", "M")}, random.Random(0))


def test_instant_and_special_out_of_turn_and_the_one_card_limit():
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[], []], cards=[[], [card("instant"), card("special")]])
    assert G.to_act(s) == frozenset({0, 1})
    s, ev = act(s, 1, f"play k{card('instant')}")
    assert ev[0]["type"] == "CardPlayed" and s["window"]["pending"] == [0]
    s, ev = act(s, 0, "pass")
    assert ev[-1]["type"] == "InstantDrawn" and G.to_act(s) == frozenset({1})
    drawn = ev[-1]["secret"]["tile"]
    places = [m for m in G.legal_moves(s, 1) if m["type"] == "place_tile"]
    assert all(m["tile"] == drawn for m in places)
    s, _ = act(s, 1, "keep")
    assert 1 in s["used"] and G.to_act(s) == frozenset({0}), "one out-of-turn card per turn"


def test_block_is_a_reaction_only():
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[], []], cards=[[card("block")], []])
    assert not [m for m in G.legal_moves(s, 0) if m["type"] in ("play_card", "block")]


# ---------------------------------------------------------------- standing orders


def test_standing_orders_always_pass_and_block_steals():
    s = fresh(3)
    target = tid("HD-K", "Y")
    s, cid = with_creature(s, 1, [target])
    s = hands(s, tiles=[[], [], []], cards=[[card("steal"), card("plus1")], [card("block")], []])
    s, _ = act(s, 1, "order block steal on")
    s, _ = act(s, 2, "order always pass on")
    assert G.to_act(s) == frozenset({0, 1}), "always_pass: not waited for out of turn"
    s, ev = act(s, 0, f"play k{card('steal')} on t{target}")
    assert types(ev) == ["CardPlayed", "CardBlocked"] and ev[-1]["by"] == 1
    assert ev[0]["responders"] == []


def test_block_order_without_a_block_card_passes():
    s = fresh(2)
    target = tid("HD-K", "Y")
    s, cid = with_creature(s, 1, [target])
    s = hands(s, tiles=[[], []], cards=[[card("steal")], [card("plus1")]])
    s["orders"] = [[], ["block_steal"]]
    s, ev = act(s, 0, f"play k{card('steal')} on t{target}")
    assert types(ev) == ["CardPlayed", "TileStolen"]


# ---------------------------------------------------------------- Cheat


def cheat_table(**opts):
    s = fresh(3, cheat_cards=True, **opts)
    head = tid("HD-K", "Y")
    s, cid = with_creature(s, 1, [head, tid("BF-HFR", "Y")])
    s = hands(s, tiles=[[tid("EARS", "Y")], [tid("EARS", "B")], [tid("EARS", "M")]],
              cards=[[card("plus1")], [card("plus2")], [card("cheat"), card("plus3")]])
    return s, head, cid


def test_cheat_hides_the_thief_until_called():
    s, head, cid = cheat_table()
    views_before = {v: G.view(s, v) for v in (0, 1, SPECTATOR)}
    s, ev = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    assert ev[0]["type"] == "TileVanished"
    assert G.redact(ev[0], 2) == ev[0], "the thief sees its own theft whole"
    for viewer in (0, 1, SPECTATOR):
        shown = G.redact(ev[0], viewer)
        assert shown == {k: v for k, v in ev[0].items() if k not in ("secret", "to")}, "nor who it was shown to"
        assert "You took" not in G.describe(shown, viewer)
        view = G.view(s, viewer)
        assert view["card_counts"] == views_before[viewer]["card_counts"]
        assert view["hand_sizes"] == views_before[viewer]["hand_sizes"]
        assert view["to_act"] == views_before[viewer]["to_act"]
        assert "thief" not in json.dumps(view)
    assert G.view(s, 2)["my_theft"]["tile"] == head
    # a correct call: the tile goes back, the Cheat is discarded
    s2, ev = act(s, 0, f"call cheat on seat 2 forfeit k{card('plus1')}")
    assert ev[0]["type"] == "CheatCaught" and ev[0]["back"] == cid
    assert s2["cre"][str(cid)]["tiles"]["head"] == head and card("cheat") in s2["cdisc"]
    assert s2["chands"][0] == [card("plus1")], "a correct caller keeps the forfeit card"


def test_wrong_call_costs_the_caller_a_card():
    s, head, cid = cheat_table()
    s, _ = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    s, ev = act(s, 0, f"call cheat on seat 1 forfeit k{card('plus1')}")
    assert ev[0]["type"] == "CheatCallFailed" and s["chands"][0] == []
    assert card("plus1") in s["cdisc"]
    assert not [m for m in G.legal_moves(s, 0) if m["type"] == "call_cheat"], "one call per turn"


def test_cheat_is_safe_at_the_thiefs_next_turn_and_the_card_stays_face_down():
    s, head, cid = cheat_table()
    s, _ = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    s, _ = act(s, 0, "end turn")
    s, _ = act(s, 1, "end turn")
    assert s["active"] == 2
    assert not s["thefts"] and head in s["hands"][2] and card("cheat") in s["cdown"]
    assert card("cheat") not in s["cdisc"]


def test_bluff_steal_caught_costs_25_and_every_card():
    s, head, cid = cheat_table(allow_bluff_steal=True)
    s["chands"][1] = []
    s, cid2 = with_creature(s, 0, [tid("HD-NK", "B")])
    s, ev = act(s, 1, f"cheat t{tid('HD-NK', 'B')} bluff")
    assert ev[0]["secret"] == {"thief": 1, "card": None}
    s["chands"][1] = [card("plus5")]
    with pytest.raises(ParseError) as err:
        G.parse("call cheat on seat 1", s, 2)
    assert err.value.code == "forfeit_expected"
    s, ev = act(s, 2, f"call cheat on seat 1 forfeit k{card('plus3')}")
    caught = ev[0]
    assert caught["penalty"] == 25 and caught["discarded"] == [card("plus5")]
    assert s["scores"][1] == -25 and s["chands"][1] == []
    assert caught["back"] is None and caught["to_hand"] == 0, "the creature vanished: the tile goes to its owner"


def test_a_secret_theft_opens_no_window_and_block_cannot_be_blocked():
    s, head, cid = cheat_table()
    s, ev = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    assert s["window"] is None and types(ev) == ["TileVanished"]
    s = hands(s, cards=[[card("steal")], [card("block", 0)], [card("block", 1)]])
    s, ev = act(s, 0, f"play k{card('steal')} on t{tid('BF-HFR', 'Y')}")
    s, ev = act(s, 1, "block")
    assert types(ev) == ["ReactionAnswered"], "answers are sealed: seat 2 still answers the Steal"
    s, ev = act(s, 2, "block")
    assert types(ev) == ["ReactionAnswered", "CardBlocked"] and ev[-1]["by"] == 1
    assert s["window"] is None, "a Block opens no window of its own"
    assert s["chands"][2] == [card("block", 1)]


def test_an_outsider_cannot_tell_which_seat_stole():
    """Seat 1's creature, a bluff theft of its head by seat 0 (the active
    seat) or by seat 2 (out of turn): seat 1 and a spectator see the same
    events, texts, views, boards and legal moves either way, and the move is
    withheld from them; each thief sees its own secret."""
    s, head, cid = cheat_table(allow_bluff_steal=True)
    names = ["Ann", "Bob", "Cy"]
    branches = {thief: act(s, thief, f"cheat t{head} bluff") for thief in (0, 2)}
    move = {"type": "cheat", "tile": head, "card": None}
    for viewer in (1, SPECTATOR):
        seen = set()
        for thief, (after, events) in branches.items():
            shown = [G.redact(e, viewer) for e in events]
            assert G.redact_move(move, thief, viewer, events) is None
            seen.add(canonical([shown, [G.describe(e, viewer, names) for e in shown], G.view(after, viewer),
                                G.render(after, viewer, names)] + ([G.legal_moves(after, viewer)] if viewer else [])))
        assert len(seen) == 1, f"viewer {viewer} can tell who stole"
    for thief, (after, events) in branches.items():
        assert G.redact(events[0], thief)["secret"] == {"thief": thief, "card": None}
        assert "You took it with a bluff" in G.describe(G.redact(events[0], thief), thief, names)
        assert G.view(after, thief)["my_theft"]["tile"] == head


def test_resample_gives_a_pending_theft_to_another_seat_that_could_have_made_it():
    """Seat 2 stole seat 1's head with its Cheat card: for seat 1 and a
    spectator the theft may as well be seat 0's (the card goes along, seat
    0 giving one of its cards back), never the viewer's own nor the
    victim's; seat 0's turn began before the theft, so it could have."""
    s, head, cid = cheat_table()
    s, _ = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    rng = random.Random(3)
    for viewer in (1, SPECTATOR):
        thieves = set()
        for _ in range(40):
            other = G.resample(s, viewer, rng)
            (th,) = other["thefts"]
            thieves.add(th["thief"])
            assert card("cheat") in other["chands"][th["thief"]]
            assert [len(h) for h in other["chands"]] == [len(h) for h in s["chands"]]
            assert canonical(G.view(other, viewer)) == canonical(G.view(s, viewer))
        assert thieves == {0, 2}, thieves
    assert {G.resample(s, 0, rng)["thefts"][0]["thief"] for _ in range(20)} == {2}, "seat 0 knows it did not"


def test_resample_never_gives_a_theft_to_a_seat_whose_turn_began_since():
    """Seat 0 bluffs in its own turn; in seat 1's turn seat 2 could as well
    have; once seat 2's turn has begun, with the theft still pending, it
    cannot have been seat 2's (its theft would have been made safe)."""
    s, head, cid = cheat_table(allow_bluff_steal=True)
    s, _ = act(s, 0, f"cheat t{head} bluff")
    rng = random.Random(4)
    s, _ = act(s, 0, "end turn")
    assert s["active"] == 1
    assert {G.resample(s, SPECTATOR, rng)["thefts"][0]["thief"] for _ in range(30)} == {0, 2}
    s, _ = act(s, 1, "end turn")
    assert s["active"] == 2 and s["thefts"]
    assert {G.resample(s, SPECTATOR, rng)["thefts"][0]["thief"] for _ in range(30)} == {0}


def test_resample_keeps_a_theft_made_as_the_card_play():
    """``cheat_timing: own_turn``: the thief was the active seat, public."""
    s, head, cid = cheat_table(cheat_timing="own_turn")
    s["active"] = 2
    s, _ = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    rng = random.Random(5)
    assert {G.resample(s, viewer, rng)["thefts"][0]["thief"] for viewer in (0, 1, SPECTATOR) for _ in range(10)} == {2}


def test_cheat_timing_own_turn_uses_the_card_play():
    s, head, cid = cheat_table(cheat_timing="own_turn")
    assert not [m for m in G.legal_moves(s, 2) if m["type"] == "cheat"]
    s["active"] = 2
    s, _ = act(s, 2, f"cheat t{head} with k{card('cheat')}")
    assert s["played"]


# ---------------------------------------------------------------- teams


def test_team_placement_limit_and_scoring_owner():
    s = fresh(4, teams="2x2")
    assert s["team"] == [0, 0, 1, 1]
    s, mate = with_creature(s, 1, [tid("HD-EK", "Y")])
    s, foe = with_creature(s, 2, [tid("HD-EK", "B")])
    ears = tid("EARS", "Y")
    assert mv.placements(s, 0, ears) == [[mate], []]
    s, own = with_creature(s, 0, [tid("TAIL", "Y")])
    assert mv.placements(s, 0, ears) == [[mate]], "team play: one unfinished creature per player"
    s = hands(s, tiles=[[ears, tid("BF-H", "Y")], [], [], []], cards=[[], [], [], []])
    s, _ = act(s, 0, f"place t{ears} on c{mate}")
    assert s["cre"][str(mate)]["owner"] == 1
    s["played"] = True
    s["cre"][str(mate)]["tiles"] = {"head": tid("HD-K", "Y"), "body_front": tid("BF-H", "Y")}
    assert not [m for m in G.legal_moves(s, 0) if m["type"] == "score"], "only the creator scores"
    s["opts"] = {**s["opts"], "team_any_member_scores": True}
    assert [m for m in G.legal_moves(s, 0) if m["type"] == "score"]


def test_alternating_team_seating():
    s = fresh(6, teams="2x3", team_turn_order="alternating")
    assert s["team"] == [0, 1, 0, 1, 0, 1]
    s = fresh(6, teams="3x2")
    assert s["team"] == [0, 0, 1, 1, 2, 2]


def test_merge_joins_two_creatures_and_can_be_switched_off():
    s = fresh(2)
    s, a = with_creature(s, 0, [tid("EARS", "Y")])
    s, b = with_creature(s, 0, [tid("BF-H", "Y")])
    head = tid("HD-EK", "Y")
    assert [a, b] in mv.placements(s, 0, head)
    s = hands(s, tiles=[[head], []], cards=[[], []])
    s, _ = act(s, 0, f"place t{head} on c{a}+c{b}")
    assert list(s["cre"]) == [str(a)] and cr.is_complete(s["cre"][str(a)]["tiles"])
    s2 = fresh(2, allow_creature_merge=False)
    s2, a = with_creature(s2, 0, [tid("EARS", "Y")])
    s2, b = with_creature(s2, 0, [tid("BF-H", "Y")])
    assert [a, b] not in mv.placements(s2, 0, head)


def test_basic_team_places_on_teammates_and_never_discards():
    p = play_random(G, 4, {"mode": "basic_team", "teams": "2x2"}, seed=3)
    assert not any(e["type"] == "TileDiscarded" for e in p.events)
    r = G.result(p.state)
    assert r.scores[0] == r.scores[1] and r.scores[2] == r.scores[3]
    draws = [e for e in p.events if e["type"] == "TileDrawn"]
    assert all(e["count"] == 1 for e in draws)


def test_basic_auto_scores_completed_creatures():
    s = fresh(2, mode="basic")
    s, cid = with_creature(s, 0, [tid("HD-K", "Y")])
    body = tid("BF-H", "Y")
    s = hands(s, tiles=[[body, tid("EARS", "Y")], []])
    s, ev = act(s, 0, f"place t{body} on c{cid}")
    assert "CreatureScored" in types(ev) and s["scores"][0] == 4 and not s["cre"]


# ---------------------------------------------------------------- kids


def test_kids_take_place_pool_remove_and_target():
    s = fresh(2, mode="kids", kids_target="min_tiles:2")
    s["phase"], s["pool"] = "take", [tid("BF-H", "Y")]
    s, cid = with_creature(s, 0, [tid("HD-K", "Y")])
    legal = {m["type"] for m in G.legal_moves(s, 0)}
    assert legal == {"draw", "take", "remove_tile"}
    s, ev = act(s, 0, f"take t{tid('BF-H', 'Y')}")
    assert s["held"] == tid("BF-H", "Y") and G.view(s, 1)["held"] == s["held"], "the taken tile is public"
    s, ev = act(s, 0, f"place t{tid('BF-H', 'Y')} on c{cid}")
    assert ev[-1] == {"type": "GameEnded", "reason": "kids_target", "winner": 0}
    assert G.result(s).placings == (1, 2)


def test_kids_solo_time_limit():
    p = play_random(G, 1, {"mode": "kids", "kids_target": "parts:ears,nose,tail,back_feet",
                           "kids_solo_turn_limit": 5}, seed=1)
    assert G.result(p.state).reason in ("kids_time_up", "kids_target")
    assert p.state["turn"] <= 5


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("players,options", [
    (2, {"mode": "basic", "teams": "2x2"}),
    (4, {"mode": "basic_team"}),
    (6, {}),
    (6, {"teams": "2x2"}),
    (8, {"teams": "4x2"}),
    (2, {"mode": "solo"}),
    (7, {"mode": "kids"}),
    (1, {}),
    (2, {"mode": "kids", "kids_target": "wings:2"}),
    (2, {"mode": "kids", "kids_target": "parts:head,wings"}),
    (2, {"mode": "basic", "cheat_cards": True}),
    (2, {"allow_bluff_steal": True}),
    (1, {"mode": "solo", "use_single_creatures": True}),
    (3, {"mode": "nonsense"}),
])
def test_bad_setups_are_rejected(players, options):
    with pytest.raises(BadOptions):
        G.check_options(players, options)


def test_sample_setups_cover_every_mode_and_layout():
    seen = {(o.get("mode", "full"), o.get("teams", "none")) for _, o in G.sample_setups}
    for layout in ("2x2", "3x2", "2x3", "2x4"):
        assert ("full", layout) in seen and ("basic_team", layout) in seen
    assert ("basic_team", "4x2") in seen
    assert {m for m, _ in seen} == {"full", "basic", "basic_team", "solo", "kids"}


# ---------------------------------------------------------------- concurrency


def test_concurrent_ok_within_one_reaction_window():
    s = fresh(3)
    target = tid("HD-K", "Y")
    s, _ = with_creature(s, 1, [target])
    s = hands(s, tiles=[[], [], []], cards=[[card("steal")], [card("block")], []])
    s, _ = act(s, 0, f"play k{card('steal')} on t{target}")
    then = s
    s, _ = act(s, 2, "pass")
    assert G.concurrent_ok(then, s, 1), "seat 1 still answers the same window"
    assert not G.concurrent_ok(then, s, 2), "seat 2 has answered"
    s, _ = act(s, 1, "pass")
    assert not G.concurrent_ok(then, s, 1), "the window closed"
    later = s
    s2, _ = act(s, 1, "pass")  # seat 1 declines out-of-turn play
    assert G.concurrent_ok(later, s2, 0), "the active player is still in the same turn"
    s3, _ = act(s2, 0, "end turn")
    assert not G.concurrent_ok(later, s3, 2), "a new turn began"


def test_windows_are_named_and_the_other_modes_are_strict():
    s = fresh(3)
    assert G.concurrency == "window" and G.window(s) == ["turn", s["turn"]]
    assert len(G.to_act(s)) == 3
    target = tid("HD-K", "Y")
    s, _ = with_creature(s, 1, [target])
    s = hands(s, tiles=[[], [], []], cards=[[card("steal")], [card("block")], []])
    opened, _ = act(s, 0, f"play k{card('steal')} on t{target}")
    assert G.window(opened)[0] == "reaction"
    assert not G.concurrent_ok(s, opened, 1), "a pass out of turn is not an answer to the window"
    basic = fresh(2, mode="basic")
    move = G.legal_moves(basic, 0)[0]
    after = G.apply(basic, G.decide(basic, 0, move, random.Random(0)))
    assert G.window(basic) is None and G.to_act(after) == {0}
    assert not G.concurrent_ok(basic, after, 0), "one seat acts in the basic game: strict"


# ---------------------------------------------------------------- hidden information


HIDDEN_SETUPS = [(3, {"cheat_cards": True, "allow_bluff_steal": True}), (4, {"teams": "2x2"}),
                 (3, {"mode": "basic"}), (1, {"mode": "solo"}), (2, {"mode": "kids"}),
                 (6, {"mode": "basic_team", "teams": "3x2"})]


@pytest.mark.parametrize("players,options", HIDDEN_SETUPS)
def test_redacted_record_replays_to_the_same_view_and_result(players, options):
    for seed in range(2):
        p = play_random(G, players, options, seed=seed)
        for viewer in [*range(players), SPECTATOR]:
            seen = json.loads(json.dumps([G.redact(e, viewer) for e in p.events]))
            replayed = G.replay(players, p.options, seen)
            assert canonical(G.view(replayed, viewer)) == canonical(G.view(p.state, viewer))
            assert G.result(replayed) == G.result(p.state)


def test_views_and_events_never_show_others_hands_or_pending_cheats():
    p = play_random(G, 3, {"cheat_cards": True, "allow_bluff_steal": True}, seed=4)
    state = G.start(3, p.options)
    thefts_seen = 0
    for e in p.events:
        state = G.evolve(state, e)
        for viewer in (0, 1, 2, SPECTATOR):
            v = G.view(state, viewer)
            assert "hands" not in v and "card_hands" not in v and "stack_order" not in v
            if viewer is not None:
                assert v["hand"] == state["hands"][viewer] and v["cards"] == state["chands"][viewer]
            for th in v["thefts"]:
                assert set(th) == {"id", "tile", "creature", "victim"}
            if v.get("my_theft"):
                assert v["my_theft"]["thief"] == viewer
            shown = G.redact(e, viewer)
            if "secret" in e and viewer not in e.get("to", ()):
                assert "secret" not in shown
        thefts_seen += e["type"] == "TileVanished"
    assert thefts_seen, "the seed should exercise the cheat"


def test_resample_keeps_every_view_and_changes_hidden_things():
    p = play_random(G, 3, {"cheat_cards": True}, seed=2)
    state = G.start(3, p.options)
    rng = random.Random(1)
    changed_other_hands = 0
    for i, e in enumerate(p.events):
        state = G.evolve(state, e)
        if i % 25 or G.result(state):
            continue
        for viewer in (0, 1, 2, SPECTATOR):
            other = G.resample(state, viewer, rng)
            assert canonical(G.view(other, viewer)) == canonical(G.view(state, viewer))
            if viewer is not None:
                assert other["hands"][viewer] == state["hands"][viewer]
                assert other["chands"][viewer] == state["chands"][viewer]
                changed_other_hands += any(other["chands"][q] != state["chands"][q] for q in range(3) if q != viewer)
    assert changed_other_hands, "resample should re-deal the other players' cards"


# ---------------------------------------------------------------- notation


def test_notation_round_trip_examples_and_errors():
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[tid("EARS", "Y")], []], cards=[[card("steal"), card("plus3")], []])
    assert G.parse("  PLAY   steal on t%d " % tid("HD-K", "M"), s, 0) == \
        {"type": "play_card", "card": card("steal"), "tile": tid("HD-K", "M")}
    assert G.parse("play +3 on t5", s, 0)["card"] == card("plus3")
    assert G.parse("End Turn", s, 0) == {"type": "end_turn"}
    assert G.parse("always pass", s, 0) == {"type": "set_order", "order": "always_pass", "on": True}
    assert G.parse("order block steals off", s, 0) == {"type": "set_order", "order": "block_steal", "on": False}
    with pytest.raises(ParseError) as err:
        G.parse("fly to the moon", s, 0)
    assert "place tN new" in err.value.details["expected"] and err.value.details["examples"]
    with pytest.raises(ParseError) as err:
        G.parse("place t3", s, 0)
    assert err.value.code == "creature_expected"
    for m in G.legal_moves(s, 0):
        assert G.parse(G.describe(m, 0), s, 0) == m
    assert "c%d" % mine in G.render(s, 0) and "Your cards" in G.render(s, 0)
    assert "Your cards" not in G.render(s, SPECTATOR)


def test_illegal_moves_have_clear_codes():
    s, mine, theirs = table_for_cards()
    s = hands(s, tiles=[[tid("EARS", "Y")], []], cards=[[], []])
    with pytest.raises(IllegalMove) as err:
        G.decide(s, 0, {"type": "fly"}, random.Random(0))
    assert err.value.code == "unknown_move"
    with pytest.raises(IllegalMove) as err:
        G.decide(s, 0, {"type": "place_tile", "tile": 999, "creatures": []}, random.Random(0))
    assert err.value.code == "illegal_place_tile"
    with pytest.raises(IllegalMove):
        G.decide(s, 1, {"type": "end_turn"}, random.Random(0))


def test_default_moves_follow_the_digest():
    s, mine, theirs = table_for_cards()
    assert G.default_move(s, 0) == {"type": "end_turn"}
    assert G.default_move(s, 1) == {"type": "pass"}
    b = fresh(2, mode="basic")
    b = hands(b, tiles=[[tid("EARS", "Y"), tid("HD-K", "Y")], []])
    assert G.default_move(b, 0) == {"type": "place_tile", "tile": tid("EARS", "Y"), "creatures": []}
