"""A scan of expansion pairs (issue 31): for every pair of the ten expansions (their
figures meet on one tile: tower, dragon, castle, bazaar, fairy, builder, pig, mayor,
wagon, barn, the Count, besieged cities...), seeded random 2-seat games, with the
invariants checked after every decision:

* no figure stands on the dragon's tile (barns on its corners aside: the dragon never
  eats them; and a castle's knight, which it spares), and no tower is closed there;
* every figure of every seat is accounted for, once: in its supply, on the board, on
  top of a tower, in the City of Carcassonne, on a crown of the Wheel of Fortune, or a
  prisoner (captured followers are in one place);
* no castle loses its knight before it scores (the dragon spares it, no tower takes it);
* with ``allow_negative_scores`` = false no score is ever below 0.

Two option sets alternate with the seeds (the published readings, and the other
choices of the options that move figures: the dragon after the scoring, the fairy on
a tile, the wagon to the 8 tiles around). Budget: well under 20 CPU-seconds.
"""
from __future__ import annotations

import itertools
import random

import pytest

from pbem import games
from pbem.games.base import rng_for
from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
from pbem.games.carcassonne.removal import protected

G = games.get("carcassonne")
PAIRS = list(itertools.combinations(ALL_EXPANSIONS, 2))
SEEDS = (0, 1, 2, 3)
OPTION_SETS = (
    {"allow_negative_scores": False},
    {"allow_negative_scores": False, "dragon_move_timing": "after_scoring", "fairy_placement": "on_tile",
     "wagon_move": "nearby_tiles", "volcano_blocks": "all_figures", "castle_feature_choice": "owner_choice",
     "bazaar_bid_cap": "current_score"},
)


def _held(state) -> dict:
    """(seat, figure) -> how many stand anywhere but the supply."""
    out: dict = {}

    def add(player, figure):
        out[(player, figure)] = out.get((player, figure), 0) + 1

    for f in state.features.values():
        for player, _sid, figure in f.meeples:
            add(player, figure)
    tower = state.ext.get("tower") or {}
    for player, figure in (tower.get("tops") or {}).values():
        add(player, figure)
    for _captor, owner, figure in tower.get("prisoners") or ():
        add(owner, figure)
    if "count" in state.ext:
        view = G.view(state, 0)["count"]
        for people in view["quarters"].values():
            for item in people:
                add(item["player"], item["figure"])
    wheel = state.ext.get("wheel_of_fortune") or {}
    for row in (wheel.get("crowns") or {}).values():          # followers on the Wheel's crowns
        for player in row:
            if player is not None:
                add(player, "follower")
    return out


def _supplies(state) -> dict:
    return {(p, figure): fn(state, p) for figure, fn in state.rules.supply_count.items()
            for p in range(state.players)}


def _check(state, start_total: dict, where: str) -> None:
    held = _held(state)
    supplies = _supplies(state)
    for key, total in start_total.items():
        assert supplies[key] + held.get(key, 0) == total, (where, key, supplies[key], held.get(key, 0))
    assert not set(held) - set(start_total), (where, held)
    pd = state.ext.get("princess_dragon") or {}
    if pd.get("dragon"):
        cell = tuple(pd["dragon"])
        on = [(p, figure) for f in state.features.values() if not protected(f)
              for p, sid, figure in f.meeples
              if figure != "barn" and _cell_of(state, sid) == cell]
        assert not on, (where, "on the dragon's tile", cell, on)
    bcb = state.ext.get("bridges_castles_bazaars") or {}
    for castle in bcb.get("castles") or ():
        if castle.get("scored"):
            continue
        f = _castle_feature(state, castle)
        assert f is not None and f.meeples, (where, "a castle without its knight", castle)
    if not state.options.get("allow_negative_scores", True):
        assert min(state.scores) >= 0, (where, state.scores)


def _cell_of(state, sid):
    from pbem.games.carcassonne.state import SEG_BITS
    return state.placed[sid >> SEG_BITS]


def _castle_feature(state, castle):
    from pbem.games.carcassonne.features import sid_at
    sid = sid_at(state, (castle["x"], castle["y"]), castle["on"])
    return None if sid is None else state.feature_of(sid)


def _play_checked(expansions, seed, options):
    opts = G.check_options(2, {"expansions": list(expansions), **options})
    seed_bytes = f"scan:{seed}".encode()
    chooser = random.Random(seed)
    state = G.start(2, opts)
    start_total = _supplies(state)
    for event in G.setup(state, rng_for(seed_bytes, 0)):
        state = G.evolve(state, event)
    version = 1
    for n in range(5000):
        if G.result(state) is not None:
            return state
        player = chooser.choice(sorted(G.to_act(state)))
        move = chooser.choice(G.legal_moves(state, player))
        events = G.decide(state, player, move, rng_for(seed_bytes, version))
        version += len(events)
        for event in events:
            dragon = (state.ext.get("princess_dragon") or {}).get("dragon")
            if event["type"] == "TowerClosed" and dragon:      # no figure goes onto the dragon's tile
                assert [event["x"], event["y"]] != list(dragon), (expansions, seed, n, event)
            state = G.evolve(state, event)
        _check(state, start_total, f"{expansions} seed {seed} decision {n}: {move}")
    raise AssertionError("no result")


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_pairs_keep_the_invariants(pair):
    for seed in SEEDS:
        state = _play_checked(pair, seed, OPTION_SETS[seed % len(OPTION_SETS)])
        assert state.over
