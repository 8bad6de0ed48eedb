"""Bridges, Castles & Bazaars: castles (steps 6.3 and 8).

* **Converting** (step 6.3, before the scoring): a city the new tile completed that is
  exactly two one-edge caps (not marked ``no-castle``) holding a knight: the knight's
  owner (``castle_conversion_by`` = ``knight_owner``; ``active_player``: the active seat)
  may turn it into a castle instead of scoring it, with a castle token (3 each with 2-4
  players, 2 with 5-6): decision ``castle`` (``castle X,Y city N`` / ``no castle``, the
  default). The knight stays; the city counts as incomplete (no score, no King, no
  completion) and is worth 4 to farmers (5 with the pig, 5 for a barn).
* **Scoring** (step 8, after the features): in a later turn, when a road, city, cloister
  (abbey, shrine) or another castle with a tile in the castle's vicinity (``castle_vicinity``
  = ``2x3``: its two tiles and the four beside their long sides) is scored, the castle's
  owner scores that feature's points (the highest of several) and its knight goes home;
  castles so scored trigger their neighbours in turn. A castle never triggered scores 0.
* **Choosing** (``castle_feature_choice`` = ``owner_choice``): of several features worth
  different points next to a castle, its owner chooses the one it scores: decision
  ``choose_castle_feature`` (``castle points X,Y road W``), the highest first (the default),
  castle after castle in the order they were built; the answer resumes the chain, then the
  rest of step 8 (``resume_choice``, first in step 9).
"""
from __future__ import annotations

from ....i18n import _
from ...notation import at, points, segment
from ....base import IllegalMove
from ...features import label_of, sid_at
from ...geometry import DELTA
from ...orient import oriented
from ...rules import Turn
from ...scoring import completed_by_last_tile
from ...segwords import cell_sid, typed
from ...state import SEG_BITS, Feature
from .tiles import EXPANSION
from ..ext_state import part_of, with_part

CASTLE = "castle"
#: castle_feature_choice = owner_choice: the decision of a castle's owner between features
CHOOSE = "choose_castle_feature"
FARMER_POINTS = 4


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def put(state, **changes):
    return with_part(state, EXPANSION, **changes)


def _segment(state, sid):
    cell = state.placed[sid >> SEG_BITS]
    t = state.board[cell]
    return oriented(t[0], t[1]).tile.segments[sid & ((1 << SEG_BITS) - 1)]


def eligible(state, f) -> bool:
    """Two one-edge caps on two tiles, none marked no-castle, complete, not a castle yet."""
    if f.kind != "city" or f.open or f.marks.get("castle") or len(f.segs) != 2 or len(f.tiles) != 2:
        return False
    return all(len(_segment(state, s).ports) == 1 and not _segment(state, s).mark("no-castle") for s in f.segs)


def candidates(state) -> list:
    """(decider, x, y, label) of the new tile's cities that may become castles now."""
    cell = state.placed[-1]
    t = state.board[cell]
    o = oriented(t[0], t[1])
    by_active = state.options.get("castle_conversion_by", "knight_owner") == "active_player"
    out = []
    for k in range(o.nseg):
        if o.kinds[k] != "city":
            continue
        sid = (t[2] << SEG_BITS) + k
        f = state.feature_of(sid)
        if not f.meeples or not eligible(state, f):
            continue
        owner = f.meeples[0][0]
        decider = state.active if by_active else owner
        if mine(state)["castles_left"][owner] > 0:
            out.append((decider, cell[0], cell[1], o.labels[k]))
    return out


def offer(turn: Turn) -> None:
    """Step 6.3: the castle decisions, one city after the other; or an answer to one."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == CASTLE:
        pending = mine(st)["offer"]
        if m.get("pass"):
            turn.emit({"type": "CastleDeclined", "player": turn.mover, "x": pending[1], "y": pending[2],
                       "on": pending[3]})
        else:
            sid = sid_at(st, (m["x"], m["y"]), m["on"])
            f = st.feature_of(sid)
            owner = f.meeples[0][0]
            tiles = sorted(f.tiles, key=lambda c: (c[1], c[0]))
            turn.emit({"type": "CastleBuilt", "player": owner, "x": m["x"], "y": m["y"], "on": m["on"],
                       "tiles": [list(c) for c in tiles], "placement": st.turn})
    done = mine(turn.state).get("decided") or []
    for decider, x, y, label in candidates(turn.state):
        if [x, y, label] not in done:
            turn.emit({"type": "CastleOffered", "player": decider, "x": x, "y": y, "on": label})
            return


def legal_castle(state, player: int) -> list:
    if state.over or state.pending.get(player) != CASTLE:
        return []
    _p, x, y, label = mine(state)["offer"]
    return [{"type": CASTLE, "pass": True}, {"type": CASTLE, "x": x, "y": y, "on": label}]


def validate_castle(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('keeping the city is {"type": "castle", "pass": true}'))
        return {"type": CASTLE, "pass": True}
    _p, x, y, label = mine(state)["offer"]
    if set(move) != {"type", "x", "y", "on"} or not typed(move, ints=("x", "y"), strs=("on",)):
        raise IllegalMove("malformed_move", _("a castle names its city: x, y, on (e.g. castle 0,1 city "
                                              "N)"))
    sid = cell_sid(state, move)
    if sid is None or state.seg_feature[sid] != state.seg_feature[sid_at(state, (x, y), label)]:
        raise IllegalMove("bad_castle", _("the city offered is {label} at {x},{y}", label=label, x=x, y=y))
    return {"type": CASTLE, "x": x, "y": y, "on": label}


# -- scoring -------------------------------------------------------------------------------


def vicinity(state, tiles) -> set:
    (x1, y1), (x2, y2) = sorted(tuple(t) for t in tiles)
    if state.options.get("castle_vicinity", "2x3") == "six_neighbours":
        cells = set()
        for x, y in ((x1, y1), (x2, y2)):
            cells.update((x + dx, y + dy) for dx, dy in DELTA)
        return cells - {(x1, y1), (x2, y2)}
    if x1 == x2:                      # a vertical pair: the columns beside it
        return {(x, y) for x in (x1 - 1, x1, x1 + 1) for y in (y1, y2)}
    return {(x, y) for x in (x1, x2) for y in (y1 - 1, y1, y1 + 1)}


def score(turn: Turn) -> None:
    """Step 8: castles next to the features scored this turn score the best of them."""
    st = turn.state
    if st.options.get("castle_feature_choice", "highest") != "highest":
        _score_choosing(turn)
        return
    scored = []                         # (tiles, points) of what was scored this turn
    for fid in turn.completed:
        f = st.features.get(fid)
        if f is not None:
            scored.append((set(f.tiles), st.rules.points[f.kind](st, f, True)))
    fired = []
    while scored:
        best = {}
        for i, c in enumerate(mine(turn.state)["castles"]):
            if c["scored"] or c["placement"] == turn.state.turn or i in best:
                continue
            near = vicinity(turn.state, c["tiles"])
            points = [p for tiles, p in scored if near & tiles]
            if points:
                best[i] = max(points)
        scored = []
        for i, points in sorted(best.items()):
            c = mine(turn.state)["castles"][i]
            fired.append(turn.state.seg_feature[sid_at(turn.state, (c["x"], c["y"]), c["on"])])
            _score_castle(turn, i, points)
            scored.append(({tuple(t) for t in c["tiles"]}, points))
    if fired:
        turn.data["castles_scored"] = fired


# -- castle_feature_choice = owner_choice ------------------------------------------------------
#
# An item that may trigger a castle: [tiles ([[x, y], ...]), points, x, y, on], named by one
# of its segments (a completed feature: its segment on the new tile, or its first; a castle:
# its city segment). The chain goes in rounds: ``now`` holds what was scored in the round
# before (first the features the tile completed), ``later`` the castles scored in this round
# (they trigger the next one). In a round the castles are taken in the order they were
# built; one triggered by items of different values asks its owner (``choose_castle_feature``)
# and the chain stops until the answer (``resume_choice``, first in step 9), then goes on,
# and once it is over the rest of step 8 runs.


def _feature_items(turn: Turn) -> list:
    st = turn.state
    last = len(st.placed) - 1
    items = []
    for fid in turn.completed:
        f = st.features.get(fid)
        if f is None:
            continue
        on_tile = [s for s in f.segs if s >> SEG_BITS == last]
        x, y, label = label_of(st, min(on_tile or f.segs))
        items.append([[list(c) for c in sorted(f.tiles, key=lambda c: (c[1], c[0]))],
                      st.rules.points[f.kind](st, f, True), x, y, label])
    return items


def _score_castle(turn: Turn, i: int, points: int) -> list:
    """CastleScored and the knight home; returns the castle as an item of the next round."""
    c = mine(turn.state)["castles"][i]
    f = turn.state.feature_of(sid_at(turn.state, (c["x"], c["y"]), c["on"]))
    back = []
    for p, s, figure in f.meeples:
        x, y, label = label_of(turn.state, s)
        back.append({"player": p, "figure": figure, "x": x, "y": y, "on": label})
    turn.emit({"type": "CastleScored", "player": c["player"], "x": c["x"], "y": c["y"], "on": c["on"],
               "points": points, "winners": [c["player"]], "category": "castle", "index": i})
    if back:
        turn.emit({"type": "FollowersReturned", "followers": back})
    return [[list(t) for t in c["tiles"]], points, c["x"], c["y"], c["on"]]


#: the events Count's entry counts as scoring (kept over a decision in ``turn.data``)
_SCORING = ("FeatureScored", "BarnFarmersScored", "CastleScored")


def _chain(turn: Turn, now: list, later: list, fired: list) -> bool:
    """Score the castles the items of ``now`` trigger, round after round; False if it
    stopped at a castle owner's choice."""
    while now:
        for i, c in enumerate(mine(turn.state)["castles"]):
            if c["scored"] or c["placement"] == turn.state.turn:
                continue
            near = vicinity(turn.state, c["tiles"])
            hits = [item for item in now if near & {tuple(t) for t in item[0]}]
            if not hits:
                continue
            if len({item[1] for item in hits}) > 1:
                options = sorted(hits, key=lambda item: -item[1])      # the highest first: the default
                earlier = list(turn.data.get("scored_before") or ())
                earlier += [list(e["winners"]) for e in turn.events
                            if e.get("type") in _SCORING and e.get("points", 0) > 0 and e.get("winners")]
                data = {k: v for k, v in turn.data.items() if k != "castles_scored"}
                data["scored_before"] = earlier
                turn.emit({"type": "CastleFeatureOffered", "player": c["player"], "index": i,
                           "x": c["x"], "y": c["y"], "on": c["on"],
                           "options": [[x, y, on, p] for _t, p, x, y, on in options],
                           "now": now, "later": later, "fired": fired, "turn_data": data})
                return False
            later = [*later, _score_castle(turn, i, hits[0][1])]
            fired = [*fired, i]
        now, later = later, []
    if fired:
        castles = mine(turn.state)["castles"]
        turn.data["castles_scored"] = [turn.state.seg_feature[sid_at(turn.state, (castles[i]["x"], castles[i]["y"]),
                                                                      castles[i]["on"])] for i in fired]
    return True


def _score_choosing(turn: Turn) -> None:
    _chain(turn, _feature_items(turn), [], [])


def resume_choice(turn: Turn) -> None:
    """Back from a castle owner's choice (first in step 9): score it, go on with the chain,
    then run the rest of step 8 (the handlers after ``score``)."""
    m = turn.move
    if not m or m.get("type") != CHOOSE:
        return
    ch = mine(turn.state)["choice"]
    turn.completed = [fid for fid, _i in completed_by_last_tile(turn.state)]
    turn.data = dict(ch["turn_data"])
    points = next(o[3] for o in ch["options"] if o[:3] == [m["x"], m["y"], m["on"]])
    turn.emit({"type": "CastleFeatureChosen", "player": turn.mover, "index": ch["index"],
               "x": m["x"], "y": m["y"], "on": m["on"], "points": points})
    later = [*ch["later"], _score_castle(turn, ch["index"], points)]
    if not _chain(turn, ch["now"], later, [*ch["fired"], ch["index"]]):
        return
    handlers = turn.rules.handlers["score"]
    for handler in handlers[handlers.index(score) + 1:]:
        before = turn.state.pending
        handler(turn)
        if turn.state.over or (turn.state.pending and turn.state.pending is not before):
            return


def legal_choice(state, player: int) -> list:
    if state.over or state.pending.get(player) != CHOOSE:
        return []
    return [{"type": CHOOSE, "x": x, "y": y, "on": on} for x, y, on, _p in mine(state)["choice"]["options"]]


def validate_choice(state, player: int, move: dict) -> dict:
    options = mine(state)["choice"]["options"]
    if set(move) != {"type", "x", "y", "on"} or not typed(move, ints=("x", "y"), strs=("on",)):
        raise IllegalMove("malformed_move", _("the castle's feature is named by a segment: x, y, on "
                                              "(e.g. castle points 1,0 road W)"))
    sid = cell_sid(state, move)
    fid = None if sid is None else state.seg_feature[sid]
    for x, y, on, _p in options:
        if fid is not None and fid == state.seg_feature[sid_at(state, (x, y), on)]:
            return {"type": CHOOSE, "x": x, "y": y, "on": on}
    raise IllegalMove("bad_castle_feature", _("the castle scores one of: {list}", list=_("; ").join(
        _("{on} at {at} ({points})", on=segment(on), at=at(x, y), points=points(p)) for x, y, on, p in options)))


# -- evolvers and restoring ------------------------------------------------------------------


def _mark(state, sid):
    fid = state.seg_feature[sid]
    f = state.features[fid]
    features = state.features.copy()
    features[fid] = Feature(f.kind, f.segs, f.tiles, f.open, {**f.marks, "castle": 1}, f.meeples, f.cities)
    state.features = features


def _offered(state, event):
    new = put(state, offer=[event["player"], event["x"], event["y"], event["on"]])
    new.pending = {event["player"]: CASTLE}
    new.step = "resolve_figures"
    return new


def _declined(state, event):
    new = put(state, offer=None, decided=[*(mine(state).get("decided") or []),
                                          [event["x"], event["y"], event["on"]]])
    new.pending = {}
    return new


def _built(state, event):
    left = list(mine(state)["castles_left"])
    left[event["player"]] -= 1
    castle = {"player": event["player"], "x": event["x"], "y": event["y"], "on": event["on"],
              "tiles": event["tiles"], "placement": event["placement"], "scored": False}
    new = put(state, offer=None, castles_left=left, castles=[*mine(state)["castles"], castle],
              decided=[*(mine(state).get("decided") or []), [event["x"], event["y"], event["on"]]])
    new.pending = {}
    _mark(new, sid_at(new, (event["x"], event["y"]), event["on"]))
    return new


def _scored(state, event):
    castles = [dict(c) for c in mine(state)["castles"]]
    castles[event["index"]]["scored"] = True
    return state.rules.evolvers["FeatureScored"](put(state, castles=castles), event)


def _choice_offered(state, event):
    new = put(state, choice={k: event[k] for k in ("index", "x", "y", "on", "options", "now", "later", "fired",
                                                   "turn_data")})
    new.pending = {event["player"]: CHOOSE}
    new.step = "score"
    return new


def _choice_made(state, event):
    new = put(state, choice=None)
    new.pending = {}
    new.step = "end_turn"
    return new


def restore(state) -> None:
    """``Rules.restore``: the castles' cities after a rebuild from the tiles."""
    for c in mine(state).get("castles") or ():
        _mark(state, sid_at(state, (c["x"], c["y"]), c["on"]))


def clear_decided(state, event):
    """TilePlaced: a new tile, new castle decisions."""
    return put(state, decided=[]) if mine(state).get("decided") else state


EVOLVERS = {"CastleOffered": _offered, "CastleDeclined": _declined, "CastleBuilt": _built, "CastleScored": _scored,
            "CastleFeatureOffered": _choice_offered, "CastleFeatureChosen": _choice_made}
