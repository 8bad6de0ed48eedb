"""The base game installed into a :class:`Rules`: its step handlers, event
evolvers, figure strengths and scoring functions."""
from __future__ import annotations

from .evolve import EVOLVERS
from .features import label_of
from .moves import fitting_cells, legal_moves, refusal, validate_place
from .rules import FINAL_SCORING, EXPANSIONS, Rules, Turn
from .scoring import (city_points, cloister_points, completed_by_last_tile, feature_scored,
                      field_events, final_feature_events, road_points)
from .tiles import base_pile


def placeable(state, letter: str) -> bool:
    """Whether the tile fits in some empty cell next to the board in some rotation
    (or, with an expansion's help such as a bridge, ``Rules.placeable_with``)."""
    checks = state.rules.placement_checks if state.rules is not None else ()
    if not checks:
        if fitting_cells(state.frontier, letter):                   # kept for the legal moves
            return True
    else:
        for cell, rots in fitting_cells(state.frontier, letter):   # kept for the legal moves
            for r in rots:
                if not refusal(state, letter, cell, r):
                    return True
    if state.rules is not None:
        return any(fn(state, letter) for fn in state.rules.placeable_with)
    return False


def _pick(state, rng, tried: set):
    if state.order is not None:
        for letter in state.order:
            if letter not in tried:
                return letter
        return None
    pile = state.pile
    letters = _sorted_letters(pile)
    if tried:
        letters = [k for k in letters if k not in tried]
        total = sum([pile[k] for k in letters])
    else:
        total = sum(pile.values())
    if not total:
        return None
    r = rng.randrange(total)
    for letter in letters:
        v = pile[letter]
        if r < v:
            return letter
        r -= v
    return None  # pragma: no cover


#: (the letters of the last pile asked about, in its order; those letters sorted)
_LAST_PILE: tuple = ((), [])


def _sorted_letters(pile: dict) -> list:
    """The pile's letters sorted (kept while the pile holds the same letters)."""
    global _LAST_PILE
    keys = tuple(pile)
    last = _LAST_PILE
    if last[0] != keys:
        last = _LAST_PILE = (keys, sorted(keys))
    return last[1]


# -- step handlers -------------------------------------------------------------


def draw_tile(turn: Turn) -> None:
    """Step 2: draw a tile; one that fits nowhere is removed (or, with
    unplaceable_tile = reshuffle, put back) and another is drawn. With the
    pile empty the game ends."""
    if turn.state.tile is not None:
        return                          # an expansion gave the tile already (a bazaar tile)
    tried: set = set()
    remove = turn.state.options.get("unplaceable_tile", "remove") == "remove"
    filters = turn.rules.draw_filters
    while True:
        letter = _pick(turn.state, turn.rng, tried)
        if letter is None:
            finish(turn)
            return
        turn.emit({"type": "TileDrawn", "player": turn.player, "tile": letter})
        if filters and any(f(turn, letter) for f in filters):
            continue                    # put aside (a dragon tile before the dragon is in play)
        if placeable(turn.state, letter):
            return
        if remove:
            turn.emit({"type": "TileDiscarded", "player": turn.player, "tile": letter})
            for fn in turn.rules.on_discard:
                fn(turn, letter)
        else:
            turn.emit({"type": "TileReturned", "player": turn.player, "tile": letter})
            tried.add(letter)


def place_tile(turn: Turn) -> None:
    """Step 3: the active player's move places the drawn tile."""
    m = turn.move
    turn.emit({"type": "TilePlaced", "player": turn.player, "tile": turn.state.tile,
               "x": m["x"], "y": m["y"], "rotation": m["rotation"]})


def deploy_follower(turn: Turn) -> None:
    """Step 4: the move may deploy one follower on a segment of the tile."""
    m = turn.move
    if m.get("figure") == "follower":
        turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": "follower",
                   "x": m["x"], "y": m["y"], "on": m["on"]})


def score_completed(turn: Turn) -> None:
    """Step 8.1: score every feature the tile completed."""
    done = completed_by_last_tile(turn.state)
    turn.completed = [fid for fid, _ in done]
    for fid, sid in done:
        turn.emit(feature_scored(turn.state, fid, sid, True))


def return_followers(turn: Turn) -> None:
    """Step 9.1: followers on the scored features go home (farmers stay)."""
    if not turn.completed:
        return
    st = turn.state
    back = []
    for fid in turn.completed:
        f = st.features.get(fid)
        if f is None:
            continue
        for player, sid, figure in f.meeples:
            x, y, label = label_of(st, sid)
            back.append({"player": player, "figure": figure, "x": x, "y": y, "on": label})
    if back:
        turn.emit({"type": "FollowersReturned", "followers": back})


def final_features(turn: Turn) -> None:
    for event in final_feature_events(turn.state):
        turn.emit(event)


def final_fields(turn: Turn) -> None:
    for event in field_events(turn.state):
        turn.emit(event)


def finish(turn: Turn) -> None:
    """Final scoring (its handlers in order), then the game ends. An expansion may
    first open decisions (``Rules.before_finish``, the Count's last moves out of the
    city); the move that closes them calls ``finish`` again."""
    for before in turn.rules.before_finish:
        if before(turn):
            return
    for handler in turn.rules.handlers[FINAL_SCORING]:
        handler(turn)
    turn.emit({"type": "GameEnded", "scores": list(turn.state.scores)})


# -- installation ------------------------------------------------------------


def install_base(rules: Rules) -> None:
    rules.parts.append("base")
    rules.evolvers.update(EVOLVERS)
    rules.strength["follower"] = 1
    rules.points.update(road=road_points, city=city_points, cloister=cloister_points)
    rules.pile.update(base_pile())
    rules.moves["place_tile"] = "place_tile"
    rules.validators["place_tile"] = validate_place
    rules.legal["place_tile"] = legal_moves
    rules.on("draw_tile", draw_tile)
    rules.on("place_tile", place_tile)
    rules.on("figure_phase_1", deploy_follower)
    rules.on("score", score_completed)
    rules.on("end_turn", return_followers)
    rules.on(FINAL_SCORING, final_features)
    rules.on(FINAL_SCORING, final_fields)


_CACHE: dict = {}


def rules_for(expansions) -> Rules:
    """The Rules for a set of expansion names (cached: rules hold no state)."""
    key = tuple(sorted(expansions))
    rules = _CACHE.get(key)
    if rules is None:
        rules = Rules()
        install_base(rules)
        for name in key:
            EXPANSIONS[name].install(rules)
            rules.parts.append(name)
        for step, late in rules.late.items():
            rules.handlers[step].extend(late)
        _CACHE[key] = rules
    return rules
