"""Evolvers of the base game's events: ``fn(state, event) -> new state``.

Each copies the state shallowly and replaces only the containers it
changes, so the state it was given is never mutated.
"""
from __future__ import annotations

from .features import Frontier, known_occupied, occupied_after, place_tile_into, sid_at
from .state import State


def _add(tup: tuple, i: int, delta: int) -> tuple:
    lst = list(tup)
    lst[i] += delta
    return tuple(lst)


def start_player_chosen(state: State, event: dict) -> State:
    new = state.copy()
    new.active = event["player"]
    new.step = "start_turn"
    return new


def tile_drawn(state: State, event: dict) -> State:
    new = state.copy()
    letter = event["tile"]
    pile = state.pile.copy()
    left = pile.get(letter, 0) - 1
    if left > 0:
        pile[letter] = left
    else:
        pile.pop(letter, None)
    new.pile = pile
    if state.order is not None:
        order = list(state.order)
        if letter in order:
            order.remove(letter)
        new.order = tuple(order)
    new.tile = letter
    new.active = event["player"]
    new.pending = {event["player"]: "place_tile"}
    new.step = "place_tile"
    return new


def tile_discarded(state: State, event: dict) -> State:
    new = state.copy()
    new.tile = None
    new.pending = {}
    new.step = "draw_tile"
    new.discarded = state.discarded + (event["tile"],)
    return new


def tile_returned(state: State, event: dict) -> State:
    """Option unplaceable_tile = reshuffle: the tile goes back into the pile
    (with a fixed draw order: to the end of the order)."""
    new = state.copy()
    letter = event["tile"]
    new.tile = None
    new.pending = {}
    new.step = "draw_tile"
    pile = state.pile.copy()
    pile[letter] = pile.get(letter, 0) + 1
    new.pile = pile
    if state.order is not None:
        new.order = state.order + (letter,)
    return new


def tile_placed(state: State, event: dict) -> State:
    new = state.copy()
    board = state.board.copy()
    seg_feature = state.seg_feature.copy()
    features = state.features.copy()
    frontier = Frontier(state.frontier)
    frontier.inherit(state.frontier)
    cell = (event["x"], event["y"])
    place_tile_into(board, seg_feature, features, frontier, len(state.placed), cell,
                    event["tile"], event["rotation"] // 90)
    new.board = board
    new.seg_feature = seg_feature
    new.features = features
    new.frontier = frontier
    new.placed = state.placed + (cell,)
    new.tile = None
    new.pending = {}
    new.step = "figure_phase_1"
    new.turn = state.turn + 1
    before = known_occupied(state)
    if before is not None:
        occupied_after(new, before)
    return new


def follower_deployed(state: State, event: dict) -> State:
    new = state.copy()
    sid = sid_at(state, (event["x"], event["y"]), event["on"])
    player = event["player"]
    figure = event.get("figure", "follower")
    fid = state.seg_feature[sid]
    features = state.features.copy()
    f = features[fid]
    features[fid] = f.with_meeples(f.meeples + ((player, sid, figure),))
    new.features = features
    before = known_occupied(state)
    if before is not None:
        occupied_after(new, before, (fid,))
    if figure == "follower":
        new.supply = _add(state.supply, player, -1)
    else:
        new = state.rules.supplies[figure](new, player, figure, -1)
    return new


def points_scored(state: State, event: dict) -> State:
    """FeatureScored / FieldScored: every winner gets the points."""
    points = event["points"]
    winners = event["winners"]
    if not points or not winners:
        return state
    new = state.copy()
    scores = list(state.scores)
    category = event.get("category") or event.get("feature", "other")
    tally = dict(state.tally)
    row = list(tally.get(category, (0,) * state.players))
    for p in winners:
        scores[p] += points
        row[p] += points
    tally[category] = tuple(row)
    new.scores = tuple(scores)
    new.tally = tally
    return new


def followers_returned(state: State, event: dict) -> State:
    new = state.copy()
    features = state.features.copy()
    seg_feature = state.seg_feature
    supply = list(state.supply)
    changed = []
    for item in event["followers"]:
        sid = sid_at(state, (item["x"], item["y"]), item["on"])
        figure = item.get("figure", "follower")
        player = item["player"]
        fid = seg_feature[sid]
        changed.append(fid)
        f = features[fid]
        meeples = list(f.meeples)
        meeples.remove((player, sid, figure))
        features[fid] = f.with_meeples(tuple(meeples))
        if figure == "follower":
            supply[player] += 1
        else:
            new.supply = tuple(supply)
            new = state.rules.supplies[figure](new, player, figure, +1)
            supply = list(new.supply)
    new.features = features
    new.supply = tuple(supply)
    before = known_occupied(state)
    if before is not None:
        occupied_after(new, before, changed)
    return new


def game_ended(state: State, event: dict) -> State:
    new = state.copy()
    new.over = True
    new.pending = {}
    new.tile = None
    new.step = "over"
    return new


EVOLVERS = {
    "StartPlayerChosen": start_player_chosen,
    "TileDrawn": tile_drawn,
    "TileDiscarded": tile_discarded,
    "TileReturned": tile_returned,
    "TilePlaced": tile_placed,
    "FollowerDeployed": follower_deployed,
    "FeatureScored": points_scored,
    "FieldScored": points_scored,
    "FollowersReturned": followers_returned,
    "GameEnded": game_ended,
}
