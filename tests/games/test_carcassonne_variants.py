"""Variants JCloisterZone reads differently (issue 31): its King & Robber scorings under
their names in carcassonne@2 (``fixed_10_20``: 10 a card; ``fixed_15_40``: 15 a card, 40
for both held by one seat; ``continuous``: the holder from before the turn's change),
carcassonne@1 kept with its own readings for its games, and ``besieged_tiny_city``.

Board: the start tile D at 0,0 (city cap N, road W-E). North is y-1.
"""
from __future__ import annotations

import random

import pytest

from pbem import games
from pbem.games.i18n import reading
from pbem.games.playout import play_random

V1 = games.get("carcassonne", 1)
V2 = games.get("carcassonne")

#: seat 0 closes D's cap with E (the King, its knight scores 4), seat 1 ends D's road west
#: with W, seat 0 ends it east with X (a 3-tile road: the Robber Baron); then the end
BOTH_FIGURES = [(0, "place 0,-1 r180 follower city S"), (1, "place -1,0 r0"), (0, "place 1,0 r0")]


def _play(game, script, order, expansions, **options):
    opts = game.check_options(2, {"draw_order": order, "start_player": 0, "expansions": expansions, **options})
    state = game.start(2, opts)
    log = game.setup(state, random.Random(0))
    state = game.apply(state, log)
    for seat, text in script:
        assert game.to_act(state) == {seat}, text
        events = game.decide(state, seat, game.parse(text, state, seat), random.Random(0))
        log += events
        state = game.apply(state, events)
    assert state.over
    return state, log


def _kr(log):
    return [(e["type"], e["player"], e["points"], bool(e.get("continuous"))) for e in log
            if e["type"] in ("KingScored", "RobberScored")]


def test_carcassonne_2_is_the_newest_and_1_stays_for_its_games():
    assert V2.version == 2 and V1.version == 1 and V2.key == "carcassonne@2"
    names = {o.name for o in V1.options}
    assert "unplaceable_bazaar" not in names and "besieged_tiny_city" not in names
    assert {o.name for o in V2.options} - names == {"unplaceable_bazaar", "besieged_tiny_city"}


@pytest.mark.parametrize("game,scoring,expected,total", [
    # carcassonne@2: JCloisterZone's readings
    (V2, "per_feature", [("KingScored", 0, 1, False), ("RobberScored", 0, 1, False)], 6),
    (V2, "fixed_10_20", [("KingScored", 0, 10, False), ("RobberScored", 0, 10, False)], 24),
    (V2, "fixed_15_40", [("KingScored", 0, 40, False)], 44),          # both held by seat 0: 40 once
    (V2, "continuous", [], 4),                 # nobody held either figure before it changed hands
    # carcassonne@1: the readings its games began with
    (V1, "fixed_10_20", [("KingScored", 0, 10, False), ("RobberScored", 0, 20, False)], 34),
    (V1, "fixed_15_40", [("KingScored", 0, 15, False), ("RobberScored", 0, 40, False)], 59),
    (V1, "continuous", [("KingScored", 0, 1, True), ("RobberScored", 0, 1, True)], 6),
])
def test_king_robber_scorings_by_version(game, scoring, expected, total):
    state, log = _play(game, BOTH_FIGURES, ["E", "W", "X"], ["king_robber"], king_robber_scoring=scoring)
    assert _kr(log) == expected
    assert state.scores == (total, 0)
    # the record replays to the same state under its own version
    again = game.replay(2, game.check_options(2, {"draw_order": ["E", "W", "X"], "start_player": 0,
                                                 "expansions": ["king_robber"],
                                                 "king_robber_scoring": scoring}), log)
    assert again.scores == state.scores


def test_fifteen_forty_one_card_each_pays_fifteen_each():
    # seat 1 ends the road instead: seat 0 holds the King, seat 1 the Robber Baron
    script = [(0, "place 0,-1 r180 follower city S"), (1, "place -1,0 r0"), (0, "place 0,1 r0"),
              (1, "place 1,0 r0")]
    state, log = _play(V2, script, ["E", "W", "U", "X"], ["king_robber"], king_robber_scoring="fixed_15_40")
    assert _kr(log) == [("KingScored", 0, 15, False), ("RobberScored", 1, 15, False)]
    assert "40" not in " ".join(V2.describe(e) for e in log if e["type"].endswith("Scored"))


def test_continuous_pays_the_holder_from_before_the_change_in_seeded_games():
    """JCloisterZone's continuous scoring: every payment of a turn goes to the seat that
    held the figure before that turn's change of hands (never to the one who just took
    it from someone else), and at least one game shows a change of hands with a payment."""
    changed_and_paid = 0
    for seed in range(6):
        out = play_random(V2, 2, {"expansions": ["king_robber"], "king_robber_scoring": "continuous"}, seed=seed)
        holder = {"king": None, "robber": None}
        for e in out.events:
            figure = {"KingTaken": "king", "RobberTaken": "robber",
                      "KingScored": "king", "RobberScored": "robber"}.get(e["type"])
            if figure is None:
                continue
            if e["type"].endswith("Taken"):
                assert e["previous"] == holder[figure]
                holder[figure] = e["player"]
                continue
            assert e.get("continuous") is True       # nothing at the end
            # the payment comes before the turn's records: the holder then
            assert e["player"] == holder[figure]
        taken = [i for i, e in enumerate(out.events) if e["type"] in ("KingTaken", "RobberTaken")
                 and e["previous"] not in (None, e["player"])]
        for i in taken:
            prev = out.events[i - 1]
            if prev["type"] in ("KingScored", "RobberScored") and prev["player"] == out.events[i]["previous"]:
                changed_and_paid += 1
    assert changed_and_paid >= 1


def test_a_besieged_tiny_city_scores_by_the_option():
    script = [(0, "place 0,-1 r180 follower city S")]
    for options, points in (({"tiny_city_scoring": 2}, 2),                       # exempt: 1 a tile
                            ({"tiny_city_scoring": 2, "besieged_tiny_city": "zero"}, 0),   # JCZ
                            ({"tiny_city_scoring": 4, "besieged_tiny_city": "zero"}, 2),
                            ({}, 2)):
        state, log = _play(V2, script, ["SI1"], ["siege"], **options)
        scored = [e for e in log if e["type"] == "FeatureScored" and e["complete"]]
        assert [(e["feature"], e["tiles"], e["points"]) for e in scored] == [("city", 2, points)], options
    # carcassonne@1 has no such option: the exemption
    state, log = _play(V1, script, ["SI1"], ["siege"], tiny_city_scoring=2)
    assert [e["points"] for e in log if e["type"] == "FeatureScored" and e["complete"]] == [2]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_setups_say_the_readings(lang):
    with reading(lang):
        v2 = V2.describe_setup(V2.check_options(2, {"expansions": ["king_robber", "siege", "bridges_castles_bazaars"],
                                                     "king_robber_scoring": "fixed_15_40", "tiny_city_scoring": 2,
                                                     "besieged_tiny_city": "zero"}), 2)
        v1 = V1.describe_setup(V1.check_options(2, {"expansions": ["king_robber"],
                                                     "king_robber_scoring": "fixed_15_40"}), 2)
        d2 = V2.describe_options()
    if lang == "en":
        assert "15 each, or 40 held together" in v2 and "besieged 2-tile city scores 0" in v2
        assert "still calls a bazaar" in v2
        assert "15 and 40" in v1 and "held together" not in v1
    else:
        assert "40" in v2 and "held together" not in v2 and "besieged" not in v2 and "bazaar" not in v2
        assert "held together" not in v1
    doc = {o["name"]: o for o in d2}
    assert {"unplaceable_bazaar", "besieged_tiny_city", "king_robber_scoring"} <= set(doc)
    words = {"en": ("bazaar", "besieged", "JCloisterZone"), "zh-Hant": ("市集", "圍城", "JCloisterZone")}[lang]
    texts = doc["unplaceable_bazaar"]["doc"] + \
        doc["besieged_tiny_city"]["doc"]
    assert all(w in texts for w in words), texts
    if lang == "zh-Hant":
        assert "bazaar" not in texts and "besieged" not in texts
