"""The bots' levels (pbem.bots.choose): each returns one of the legal moves,
the same for the same seed, from a seat's view only. Positions are a few
seeded random moves into a 2-player game; ``search`` runs a handful of
iterations (its strength is a bench figure: bench/bots.py)."""
from __future__ import annotations

import json
import random

import pytest

from pbem import bots, games
from pbem.bots.determinize import state_from_view, supported
from pbem.games.base import canonical, rng_for

#: (game key, options): every game, 2 players
SETUPS = [("carcassonne", {}), ("kachina", {}), ("wakanda", {"hidden_held_pieces": True}), ("cartoona", {})]


def position(name: str, options: dict, moves: int, seed: int = 3):
    """A seeded state ``moves`` random moves in, and the seat to act there."""
    game = games.get(name)
    options = game.check_options(2, options)
    state = game.start(2, options)
    state = game.apply(state, game.setup(state, rng_for(b"bots", 0)))
    rng = random.Random(seed)
    for v in range(moves):
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, game.decide(state, seat, move, rng_for(b"bots", v + 1)))
    seat = min(game.to_act(state))
    return game, options, state, seat


def seen(game, state, seat):
    """What the seat's token reads: its view and legal moves, as JSON."""
    return json.loads(json.dumps(game.view(state, seat))), json.loads(json.dumps(game.legal_moves(state, seat)))


@pytest.mark.parametrize("name,options", SETUPS)
@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_level_chooses_a_legal_move_the_same_for_a_seed(name, options, level):
    game, options, state, seat = position(name, options, 6)
    view, legal = seen(game, state, seat)
    assert len(legal) > 1
    stats = {}
    kw = dict(level=level, seed=11, iterations=6)
    move = bots.choose(game.key, options, 2, seat, view, legal, stats=stats, **kw)
    assert move in legal
    assert bots.choose(game.key, options, 2, seat, view, legal, **kw) == move
    if level == "random" or supported(game.key, options, 2):
        assert stats["level"] == level
        if level == "search":
            # the first iteration evaluates the root's moves (its priors), each later one visits a child
            assert stats["iterations"] == 6 and sum(stats["visits"].values()) == 5
    else:
        assert stats["level"] == "random" and "unsupported" in stats


def test_an_unknown_level_is_refused():
    game, options, state, seat = position("kachina", {}, 2)
    view, legal = seen(game, state, seat)
    with pytest.raises(bots.UnknownLevel):
        bots.choose(game.key, options, 2, seat, view, legal, level="genius")


def test_seeds_change_the_random_and_tie_breaking_choices():
    game, options, state, seat = position("kachina", {}, 4)
    view, legal = seen(game, state, seat)
    picks = {canonical(bots.choose(game.key, options, 2, seat, view, legal, level="random", seed=s))
             for s in range(12)}
    assert len(picks) > 1


@pytest.mark.parametrize("name,options", [("kachina", {}), ("wakanda", {"hidden_held_pieces": True,
                                                                       "hidden_future_villages": True})])
@pytest.mark.parametrize("level", ["greedy", "search"])
def test_a_bot_decides_the_same_on_a_redealt_hidden_state(name, options, level):
    """The re-deal check: the other seats' hidden tiles (and the bag) dealt
    again, the seat's view the same: the bot decides the same, and its
    determinizer samples the same state (it reads nothing but the view)."""
    game, options, state, seat = position(name, options, 7)
    view, legal = seen(game, state, seat)
    changed = 0
    for k in range(3):
        other = game.resample(state, seat, random.Random(k))
        changed += canonical(game.dump(other)) != canonical(game.dump(state))
        view2, legal2 = seen(game, other, seat)
        assert canonical(view2) == canonical(view) and canonical(legal2) == canonical(legal)
        a = state_from_view(game.key, options, 2, seat, view, random.Random(5))
        b = state_from_view(game.key, options, 2, seat, view2, random.Random(5))
        assert canonical(game.dump(a)) == canonical(game.dump(b))
        kw = dict(level=level, seed=k, iterations=8)
        assert bots.choose(game.key, options, 2, seat, view2, legal2, **kw) == \
            bots.choose(game.key, options, 2, seat, view, legal, **kw)
    assert changed, "the re-deal changed nothing: the check proved nothing"


def test_greedy_takes_the_points_in_sight():
    """Kachina: greedy plays a move scoring the most points there are
    (its tenth of a point per tile in hand is the same for every placement)."""
    game, options, state, seat = position("kachina", {}, 9)
    view, legal = seen(game, state, seat)
    move = bots.choose(game.key, options, 2, seat, view, legal, level="greedy", seed=1)

    def gained(m):
        after = game.apply(state, game.decide(state, seat, m, rng_for(b"g", 0)))
        return after.scores[seat] - state.scores[seat]
    assert gained(move) == max(gained(m) for m in legal if m["type"] == move["type"])


def test_search_runs_within_its_seconds_cap():
    """The seconds are a cap: a budget of iterations too big for it stops early."""
    game, options, state, seat = position("carcassonne", {}, 4)
    view, legal = seen(game, state, seat)
    stats = {}
    move = bots.choose(game.key, options, 2, seat, view, legal, level="search", budget_s=0.05,
                       iterations=100000, stats=stats)
    assert move in legal and 1 <= stats["iterations"] < 100000


def test_carcassonne_with_expansions_thinks_from_its_public_events():
    """No view rebuilds the expansions' state yet; nothing is hidden in
    Carcassonne, so given the game's events (what every seat reads) the bot
    replays them, checks they lead to its view, and thinks; without them, or
    with a log that does not lead to the view, it plays at random."""
    game = games.get("carcassonne")
    options = game.check_options(2, {"expansions": ["inns_cathedrals", "traders_builders", "princess_dragon"]})
    state = game.start(2, options)
    log = list(game.setup(state, rng_for(b"exp", 0)))
    state = game.apply(state, log)
    rng = random.Random(2)
    for v in range(5):
        seat = min(game.to_act(state))
        events = game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng_for(b"exp", v + 1))
        log += events
        state = game.apply(state, events)
    seat = min(game.to_act(state))
    view, legal = seen(game, state, seat)
    public = json.loads(json.dumps([game.redact(e, seat) for e in log]))
    for level in ("greedy", "search"):
        stats = {}
        move = bots.choose(game.key, options, 2, seat, view, legal, level=level, iterations=4, stats=stats,
                           events=public)
        assert move in legal and stats["level"] == level
    stats = {}
    bots.choose(game.key, options, 2, seat, view, legal, level="greedy", stats=stats)
    assert stats["level"] == "random" and "unsupported" in stats
    stats = {}
    bots.choose(game.key, options, 2, seat, view, legal, level="greedy", stats=stats, events=public[:-1])
    assert stats["level"] == "random" and "do not lead" in stats["unsupported"]


def test_catapult_shots_withheld_from_the_bot_are_re_dealt_in_each_sample():
    """Carcassonne's one secret: a Catapult round's shots (abstract mode) until the last
    is in. Seat 1 has shot at seat 0's thief; seat 0's bot, given the public events
    (which withhold that shot), replays a state where seat 1 passed, and its samples
    re-deal seat 1's shot among its legal shots (both appear); greedy averages over
    them, search keeps its tree; both answer a legal shot."""
    from pbem.bots.thinking import Position
    game = games.get("carcassonne")
    options = game.check_options(2, {"draw_order": ["U", "CA1", "E", "E"], "start_player": 0,
                                     "expansions": ["catapult"], "catapult_mode": "abstract"})
    state = game.start(2, options)
    log = list(game.setup(state, rng_for(b"cat", 0)))
    state = game.apply(state, log)
    for v, (seat, text) in enumerate([(0, "place 1,0 r0 thief road E"), (1, "place 0,1 r0"),
                                      (1, "catapult knockout"), (1, "shoot 1,0 road E")]):
        events = game.decide(state, seat, game.parse(text, state, seat), rng_for(b"cat", v + 1))
        log += events
        state = game.apply(state, events)
        first = len(log) if v == 0 else first
    assert game.to_act(state) == {0}
    view, legal = seen(game, state, 0)
    public = json.loads(json.dumps([game.redact(e, 0) for e in log]))
    assert "road E" not in json.dumps([e for e in public if e["type"] == "ShotAimed"])
    pos = Position(game.key, options, 2, 0, view, events=public)
    assert pos.redeal and pos._fixed.ext["catapult"]["round"]["shots"] == {"1": {"pass": True}}
    dealt = {json.dumps(pos.sample(random.Random(i)).ext["catapult"]["round"]["shots"]["1"], sort_keys=True)
             for i in range(12)}
    assert dealt == {'{"pass": true}', '{"on": "road E", "x": 1, "y": 0}'}
    for level in ("greedy", "search"):
        stats = {}
        move = bots.choose(game.key, options, 2, 0, view, legal, level=level, iterations=6, stats=stats,
                           events=public)
        assert move in legal and stats["level"] == level
    # before the round (seat 1 to place the fair tile): one state, nothing re-dealt
    early = log[:first]
    before = Position(game.key, options, 2, 1, seen(game, game.replay(2, options, early), 1)[0],
                      events=json.loads(json.dumps([game.redact(e, 1) for e in early])))
    assert not before.redeal and before.sample(random.Random(1)) is before.sample(random.Random(2))
