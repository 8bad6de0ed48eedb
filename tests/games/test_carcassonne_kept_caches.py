"""What the engine keeps on a state's frontier to list placements fast (the cells in
(y, x) order, each cell's port segments, the fits of a tile type) answers as working it
out from the board again would, state after state of seeded games (base and all ten
expansions, bridges included: their frontiers are plain dicts, made whole)."""
from __future__ import annotations

import itertools

import pytest

from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
from pbem.games.carcassonne.features import cell_ports, frontier_order, port_sids
from pbem.games.carcassonne.moves import fitting_cells
from pbem.games.carcassonne.orient import TILES, fits, orientations
from pbem.games.playout import play_random

from .carcassonne_support import G


def _fits_by_edges(letter, constraint):
    return tuple(o.rot for o in orientations(letter)
                 if all(c in (".", e) for c, e in zip(constraint, o.edges)))


def test_fits_match_the_edges_for_every_constraint():
    letters = [letter for letter in sorted(dict(TILES)) if "~" not in letter] + ["U~NS", "E~WE", "B~NS"]   # bridged types
    for letter in letters:
        for constraint in map("".join, itertools.product(".CRF*·", repeat=4)):
            assert fits(letter, constraint) == _fits_by_edges(letter, constraint), (letter, constraint)


@pytest.mark.parametrize("players,expansions,seed", [(2, [], 0), (2, ALL_EXPANSIONS, 0), (2, ALL_EXPANSIONS, 3)])
def test_kept_frontier_data_match_the_board(players, expansions, seed):
    p = play_random(G, players, {"expansions": list(expansions)}, seed=seed)
    state = G.start(players, p.options)
    checked = 0
    for event in p.events:
        state = G.evolve(state, event)
        if state.tile is None:
            continue
        frontier = state.frontier
        cells = sorted(frontier, key=lambda c: (c[1], c[0]))
        assert [(c[1], c[0], c, frontier[c]) for c in cells] == frontier_order(frontier)
        expected = [(c, _fits_by_edges(state.tile, frontier[c])) for c in cells]
        assert fitting_cells(frontier, state.tile) == [(c, r) for c, r in expected if r]
        G.legal_moves(state, state.active)            # fills the port segments it reads
        kept = cell_ports(state)
        for cell, sids in kept.items():
            assert cell in frontier and sids == port_sids(state, cell), cell
        checked += 1
    assert checked > 50


def _barn_choices_from_scratch(state, player):
    """(x, y, rotation, label) of every barn a placement may carry, each corner asked in full
    (``figures._barn_ok``: the corner's three tiles, then the joined fields' figures)."""
    from pbem.games.carcassonne.expansions.abbey_mayor.common import BARN, CORNERS, left
    from pbem.games.carcassonne.expansions.abbey_mayor.figures import _barn_ok
    from pbem.games.carcassonne.expansions.abbey_mayor.tiles import ABBEY
    from pbem.games.carcassonne.moves import legal_placements, tile_block
    from pbem.games.carcassonne.orient import oriented
    if left(state, player, BARN) <= 0 or state.tile == ABBEY or tile_block(state, state.tile) == "all":
        return set()
    return {(x, y, r * 90, f"corner {corner}") for (x, y), r in legal_placements(state)
            for corner in CORNERS if _barn_ok(state, (x, y), oriented(state.tile, r), corner)}


@pytest.mark.parametrize("barns,seed", [("any", 0), ("any", 5), ("no_farmers", 1), ("no_farmers", 4)])
def test_listed_barns_match_each_corner_asked_in_full(barns, seed):
    """The listing's barn corners (which skip the joined fields when no figure meets the
    cell's half-edge ports) are those each corner's full test allows."""
    p = play_random(G, 2, {"expansions": list(ALL_EXPANSIONS), "barn_placement": barns}, seed=seed)
    state = G.start(2, p.options)
    asked = with_figures = 0
    for event in p.events:
        state = G.evolve(state, event)
        player = state.active
        if state.tile is None or state.pending.get(player) != "place_tile":
            continue
        listed = {(m["x"], m["y"], m["rotation"], m["on"]) for m in G.legal_moves(state, player)
                  if m.get("figure") == "barn" and "bridge" not in m}
        assert listed == _barn_choices_from_scratch(state, player), state.turn
        asked += 1
        with_figures += any(f.kind == "field" and f.meeples for f in state.features.values())
    assert asked > 50 and with_figures > 20


@pytest.mark.parametrize("players,expansions,seed", [(2, [], 1), (2, ALL_EXPANSIONS, 1), (6, ALL_EXPANSIONS, 2),
                                                     (2, ["tunnel", "count"], 0), (3, ["traders_builders"], 2)])
def test_occupied_carried_from_parent_to_child_matches_a_scan(players, expansions, seed):
    """``features.occupied`` as the base evolvers carry it from a state to the next
    (``occupied_after``: placements, deployments, returns) lists what a scan of the
    features finds, in the features' order (a bridge on a placed tile adds a feature id out
    of the ids' order: 6 seats, seed 2)."""
    from pbem.games.carcassonne.features import occupied
    p = play_random(G, players, {"expansions": list(expansions)}, seed=seed)
    state = G.start(players, p.options)
    carried = 0
    for event in p.events:
        state = G.evolve(state, event)
        memo = state.occupied_memo
        if memo is not None and memo[0] is state.features:
            carried += 1
        assert occupied(state) == [(fid, f) for fid, f in state.features.items() if f.meeples], event
    assert carried > len(p.events) // 4
