"""A past version served from the states a replay kept (pbem/service/past.py)
or from the stored snapshot is exactly the one replayed from version 0:
the same view and the same text board, for every version of games of all
four games, for every seat and a spectator (each through the game's own
filter), visited in an order that makes the service start from kept states
of every kind (before, far before, none)."""
from __future__ import annotations

import random

import pytest

from pbem.games.base import OMNISCIENT, SPECTATOR, canonical
from pbem.service import Service, StateCache

from .pages_support import play, seated

#: (game, players, options, moves played: None to the end)
GAMES = [
    ("carcassonne", 2, {}, 70),
    ("carcassonne", 3, {"expansions": ["inns_cathedrals", "traders_builders", "princess_dragon", "tower"]}, 60),
    ("kachina", 2, {}, 30),
    ("cartoona", 2, {}, 60),
    ("wakanda", 2, {}, None),   # finished: everything is public
    ("wakanda", 2, {"hidden_held_pieces": True, "hidden_future_villages": True}, 12),
    ("kachina", 3, {}, 20),
    ("cartoona", 3, {"cheat_cards": True, "use_single_creatures": True}, 40),
]


def replayed_from_zero(service: Service, game_id: str):
    """(version, state) for every version, replayed from the start by the
    rules alone (no cache, no kept state, no snapshot)."""
    meta = service.meta(game_id)
    loaded = service.load(game_id)
    game = loaded.game
    state = game.start(meta["players"], meta["options"])
    yield 0, state
    for version, event, _move in service.store.events(game_id, 0, loaded.version):
        state = game.evolve(state, event)
        yield version, state


@pytest.mark.parametrize("name,players,options,moves", GAMES,
                         ids=lambda v: "+".join(v.get("expansions", v)) or "base" if isinstance(v, dict) else str(v))
def test_a_past_state_is_the_one_replayed_from_zero(service, name, players, options, moves):
    game_id, keys, tokens = seated(service, name, players, options)
    play(service, game_id, keys, tokens, random.Random(7), moves)
    summary = service.get_game(game_id, None)
    finished = summary["status"] == "finished"
    names = [s["name"] for s in summary["seats"]]
    callers = [(None, SPECTATOR)] + [(tokens[s], s) for s in range(players)]
    expected = {}
    for version, state in replayed_from_zero(service, game_id):
        game = service.load(game_id).game
        for token, viewer in callers:
            seen = OMNISCIENT if finished else viewer
            expected[version, viewer] = (canonical(game.view(state, seen)), game.render(state, seen, names),
                                         sorted(game.to_act(state)))
    last = summary["version"]
    assert last > 20
    # a fresh service (nothing kept), the versions in a shuffled order: each
    # is served from whatever a replay before it kept, or the snapshot
    fresh = Service(service.store, cache=StateCache(), snapshot_every=service.snapshot_every)
    assert fresh.store.snapshot(game_id) is not None or last < fresh.snapshot_every
    order = list(range(last + 1))
    random.Random(3).shuffle(order)
    for version in order:
        for token, viewer in callers:
            at = fresh.state_at(game_id, token, version)
            view, text, to_act = expected[version, viewer]
            assert canonical(at["view"]) == view, (version, viewer)
            assert at["text"] == text, (version, viewer)
            assert at["to_act"] == to_act
    assert fresh.past.get(fresh.meta(game_id), last) is not None, "the replays kept no state"
    # hidden information: a seat's past view is not another seat's, unless the game is over
    if not finished and name in ("kachina", "cartoona"):
        mid = last // 2
        assert canonical(fresh.state_at(game_id, tokens[0], mid)["view"]) != \
            canonical(fresh.state_at(game_id, tokens[1], mid)["view"])


def test_a_past_version_starts_from_a_kept_state(service):
    """Served from the nearest kept state: a replay reads only the events after it."""
    game_id, keys, tokens = seated(service, "carcassonne", 2)
    play(service, game_id, keys, tokens, random.Random(5), 80)
    fresh = Service(service.store, cache=StateCache(), snapshot_every=10**6)  # no snapshot read either
    last = fresh.meta(game_id)["version"]
    target = last - 5
    if (target - 1) % fresh.past.every == 0:  # a kept state at the very version reads nothing: step off it
        target -= 2
    fresh.state_at(game_id, None, target)  # replays from 0, keeping every 16th state
    read = []
    events = fresh.store.events

    def counting(game, after=0, until=None, limit=None):
        rows = events(game, after, until, limit)
        read.append(len(rows))
        return rows
    fresh.store.events = counting
    try:
        fresh.state_at(game_id, None, target - 1)
    finally:
        del fresh.store.events
    assert read and sum(read) < fresh.past.every, read


def test_the_kept_states_are_bounded():
    from pbem.service.past import PastStates
    kept = PastStates(every=4, states=10)
    metas = [{"id": f"g{i}", "created": 1} for i in range(3)]
    for version in range(0, 24, 4):   # 6 states of the first game
        kept.put(metas[0], version, ("g0", version))
    for version in range(0, 24, 4):   # 6 of the second: the first game goes
        kept.put(metas[1], version, ("g1", version))
    assert kept.get(metas[0], 100) is None
    assert kept.get(metas[1], 13) == (12, ("g1", 12))
    assert kept.get(metas[1], 3) == (0, ("g1", 0))
    # another game under a reused id is another game
    assert kept.get({"id": "g1", "created": 2}, 13) is None
    for version in range(0, 80, 4):   # one game alone may pass the bound: it stays, whole
        kept.put(metas[2], version, ("g2", version))
    assert kept.get(metas[2], 79) == (76, ("g2", 76)) and kept.get(metas[1], 13) is None
