"""Carcassonne's touch contract (``pbem/pictures/carcassonne/touch.py``): over
seeded random games of every sample setup with expansions, every decision that
places no tile is a set of touch paths, one per legal move, unique and none a
prefix of another; every key is labelled, and either drawn with ``data-pick`` in
the picture the seat sees (drawn once, and only with legal moves) or listed as
off-board; a placement is left to the page's chooser (None), whose enlarged
tiles have a spot for every figure a placement may put."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from pbem import games, pictures
from pbem.games.base import canonical, rng_for
from pbem.games.carcassonne.catalog import SAMPLE_SETUPS
from pbem.games.i18n import reading
from pbem.pictures.carcassonne import touch
from pbem.pictures.carcassonne.chooser import choosers
from tests.pseudo_support import leftover_english

GAME = games.get("carcassonne")
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]
SEEDS = 2
EXPANSION_SETUPS = [pytest.param(players, options, id=f"{players}p-{canonical(options)}"[:90])
                    for players, options in SAMPLE_SETUPS if options.get("expansions")]
#: a segment's edge, a direction: notation, the same in every language
EDGES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]
PICK = re.compile(r'data-pick="([^"]*)"')


def decisions(players, options, seed):
    """(state, seat, legal moves) at every decision of a seeded random game."""
    options = GAME.check_options(players, options)
    chooser = random.Random(seed)
    state = GAME.start(players, options)
    state = GAME.apply(state, GAME.setup(state, rng_for(b"touch", 0)))
    n = 0
    while GAME.result(state) is None:
        seat = chooser.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        yield state, seat, legal
        events = GAME.decide(state, seat, chooser.choice(legal), rng_for(b"touch", n))
        state = GAME.apply(state, events)
        n += 1


def check(state, seat, legal, names, seen: Counter) -> None:
    view = GAME.view(state, seat)
    listed = [{"move": m, "text": GAME.describe(m, seat, names)} for m in legal]
    answer = touch(view, listed, seat, names)
    if any(m["type"] == "place_tile" for m in legal):
        assert answer is None            # carcassonne.js places the tile
        seen["place_tile"] += 1
        return
    assert answer is not None, legal
    paths = answer["paths"]
    assert len(paths) == len(legal)
    assert all(1 <= len(p) <= 5 for p in paths), paths
    whole = [tuple(p) for p in paths]
    assert len(set(whole)) == len(whole), "two moves with one path"
    every = set(whole)
    for p in whole:
        for n in range(1, len(p)):
            assert p[:n] not in every, f"{p[:n]} is a prefix of {p}"
    svg = pictures.svg("carcassonne", view, names=names, viewer=seat, legal=legal)
    drawn = PICK.findall(svg)
    assert len(drawn) == len(set(drawn)), "a key drawn twice"
    offboard = set(answer["offboard"])
    for p in whole:
        for key in p:
            assert answer["labels"].get(key), f"{key} has no label"
            if key in offboard:
                assert key not in drawn
            else:
                assert key in drawn, f"{key} is neither drawn nor off-board ({legal[:2]}...)"
    assert set(drawn) >= {k for p in whole for k in p} - offboard
    for m in legal:
        kind = m["type"] + (":" + m["do"] if "do" in m else "")
        seen[kind] += 1
    for p in whole:
        seen["touches:" + p[0].split(":")[0]] += 1
    assert "data-pick" not in pictures.svg("carcassonne", view, names=names, viewer=seat, legal=None)


@pytest.mark.parametrize("players,options", EXPANSION_SETUPS)
def test_every_decision_but_the_placement_is_touches(players, options):
    seen: Counter = Counter()
    for seed in range(SEEDS):
        for state, seat, legal in decisions(players, options, seed):
            check(state, seat, legal, NAMES[:players], seen)
    assert seen["place_tile"] > 0
    if set(options["expansions"]) & {"tower", "princess_dragon", "abbey_mayor"}:
        assert seen["touches:cell"] > 0        # the board itself is touched, not only buttons
    if seen["count"] or seen["count_move"]:
        assert seen["touches:district"] > 0, seen


def test_the_expansions_decisions_all_come_up():
    """The walks above (the same seeded games) meet every kind of decision the
    expansions have, so the test is not vacuous."""
    seen: Counter = Counter()
    for players, options in SAMPLE_SETUPS:
        if options.get("expansions"):
            for seed in range(SEEDS):
                for _state, _seat, legal in decisions(players, options, seed):
                    seen.update(m["type"] + (":" + m["do"] if "do" in m else "") for m in legal)
    for kind in ("abbey", "action", "action:fairy", "action:tower", "action:portal", "action:princess", "bazaar",
                 "capture", "castle", "count", "count_move", "dragon", "escape", "wagon", "ransom"):
        assert seen[kind] > 0, f"no {kind} decision met"


def test_labels_come_in_the_readers_language():
    """The keys' labels are the catalog's: Chinese for a Chinese reader, no English
    left in the pseudo-locale."""
    for state, seat, legal in decisions(2, {"expansions": ["tower", "princess_dragon", "count",
                                                           "bridges_castles_bazaars", "abbey_mayor"]}, 3):
        if any(m["type"] == "place_tile" for m in legal) or len(legal) < 3:
            continue
        view = GAME.view(state, seat)
        with reading("x-pseudo"):
            answer = touch(view, [{"move": m, "text": ""} for m in legal], seat, NAMES[:2])
        for key, label in answer["labels"].items():
            assert not leftover_english(label, NAMES[:2], EDGES), (key, label)
        with reading("zh-Hant"):
            answer = touch(view, [{"move": m, "text": ""} for m in legal], seat, NAMES[:2])
        assert any(re.search(r"[\u4e00-\u9fff]", label) for label in answer["labels"].values())


def test_a_placement_is_the_choosers():
    state = next(s for s, seat, legal in decisions(2, {"expansions": ["bridges_castles_bazaars"]}, 0))
    seat = next(iter(GAME.to_act(state)))
    legal = [{"move": m, "text": ""} for m in GAME.legal_moves(state, seat)]
    assert touch(GAME.view(state, seat), legal, seat, NAMES[:2]) is None


@pytest.mark.parametrize("players,options", EXPANSION_SETUPS)
def test_the_chooser_has_a_spot_for_every_figure_a_placement_may_put(players, options):
    """The placement's own chooser (``chooser.choosers``: the enlarged tile in each
    rotation, and bridged where a bridge may go on it) has a spot named as each
    legal move's ``on``, for every figure (follower, big, builder, pig, mayor,
    wagon, barn on a corner, a follower on a new bridge)."""
    figures: Counter = Counter()
    for seed in range(SEEDS):
        for state, seat, legal in decisions(players, options, seed):
            places = [m for m in legal if m["type"] == "place_tile" and m.get("figure")]
            if not places:
                continue
            spots = {}
            for svg in choosers(GAME.view(state, seat), legal):
                rotation = int(re.search(r'data-rotation="(\d+)"', svg).group(1))
                bridge = re.search(r'data-bridge="(\w+)"', svg)
                spots[(rotation, bridge and bridge.group(1))] = set(re.findall(r'data-on="([^"]*)"', svg))
            for m in places:
                b = m.get("bridge")
                axis = b[2] if b and b[:2] == [m["x"], m["y"]] else None
                assert m["on"] in spots.get((m["rotation"], axis), ()), m
                figures[m["figure"] + (" on a bridged tile" if axis else "")] += 1
    assert figures["follower"] > 0
    if "abbey_mayor" in options["expansions"]:
        assert figures["mayor"] and figures["wagon"] and figures["barn"], figures
    if "bridges_castles_bazaars" in options["expansions"]:
        assert figures["follower on a bridged tile"], figures


def test_a_move_of_an_unknown_kind_is_a_button_of_its_own():
    """A move no path is known for (an expansion added later) is still made by
    touching: its own off-board button, labelled with its text."""
    state = next(s for s, seat, legal in decisions(2, {"expansions": ["tower"]}, 0)
                 if not any(m["type"] == "place_tile" for m in legal))
    seat = next(iter(GAME.to_act(state)))
    legal = [{"move": m, "text": "t"} for m in GAME.legal_moves(state, seat)]
    legal.append({"move": {"type": "juggle", "balls": 3}, "text": "juggle 3"})
    answer = touch(GAME.view(state, seat), legal, seat, NAMES[:2])
    assert answer["paths"][-1] == [f"move:{len(legal) - 1}"]
    assert answer["labels"][f"move:{len(legal) - 1}"].endswith("juggle 3")
    assert f"move:{len(legal) - 1}" in answer["offboard"]


def test_the_castles_choice_and_the_exchange():
    """Two decisions random games seldom reach: the castle owner's choice of feature
    (its segments ringed, their points said) and the Tower's exchange (a button per
    kind of figure)."""
    from tests.games.test_carcassonne_bridges_castles_bazaars import _castle_with_road_and_city
    state, _events = _castle_with_road_and_city("owner_choice")
    legal = GAME.legal_moves(state, 0)
    assert [m["type"] for m in legal] == ["choose_castle_feature"] * 2
    seen: Counter = Counter()
    check(state, 0, legal, NAMES[:2], seen)
    answer = touch(GAME.view(state, 0), [{"move": m, "text": ""} for m in legal], 0, NAMES[:2])
    assert answer["paths"] == [["cell:1,0", "seg:1,0:city N"], ["cell:1,0", "seg:1,0:road W"]]
    assert answer["labels"]["seg:1,0:city N"] == "city N at 1,0: 8 points"
    exchange = [{"move": {"type": "exchange", "figure": f}, "text": f"exchange {f}"} for f in ("follower", "big")]
    answer = touch(GAME.view(state, 0), exchange, 0, NAMES[:2])
    assert answer["paths"] == [["figure:follower"], ["figure:big"]]
    assert answer["offboard"] == ["figure:big", "figure:follower"]
