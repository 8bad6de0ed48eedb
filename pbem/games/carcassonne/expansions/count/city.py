"""The Count of Carcassonne: the City's districts, entering them and leaving them.

State in ``state.ext["count"]``::

    {"count": district, "quarters": {district: [[player, figure], ...]},
     "entered": the placement number of the last entry, "leave": {"seats": [...], "final": bool},
     "final_done": bool}

* **Entering** (after the scoring, step 8.3): when the active seat's tile made features
  score points for other seats and none for it, it may put a follower of its supply
  (normal, big, mayor into the castle only, wagon anywhere but the market) into any
  district, the Count's too, and then set the Count on any district (decision ``count``;
  a builder's extra tile is the same turn: once a turn). Default: enter nowhere.
* **Leaving** (step 7.3, before the scoring): for every road, city or cloister the tile
  completed, the seats with followers in the matching district (blacksmith, castle,
  cathedral; never the Count's) may move them onto it, one at a time, as many as they
  like, seat after seat from the one left of the active seat, the active seat last
  (decision ``count_move``; the published order). They score with the feature and go
  home as usual. Default: move none.
* **At the end** (``count_final_scoring``), before the final scoring, the same into any
  incomplete road, city or cloister, and from the market into any field. Followers still
  in the City score nothing.
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...base_rules import finish
from ...features import is_complete, label_of
from ...rules import Turn
from ...scoring import completed_by_last_tile
from ...segwords import cell_sid, typed
from .tiles import EXPANSION, QUARTERS
from ..ext_state import part_of, with_part

ENTER, LEAVE = "count", "count_move"
#: figures a district takes, by district
ALLOWED = {"castle": ("follower", "big", "mayor", "wagon"), "blacksmith": ("follower", "big", "wagon"),
           "cathedral": ("follower", "big", "wagon"), "market": ("follower", "big")}
SCORING = ("FeatureScored", "BarnFarmersScored", "CastleScored")


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def put(state, **changes):
    return with_part(state, EXPANSION, **changes)


def initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {"count": "castle", "quarters": {q: [] for q in QUARTERS},
                                          "entered": None, "leave": None, "final_done": False}}


# -- entering ------------------------------------------------------------------------------


def _extra_tile(state) -> bool:
    extra = (state.ext.get("traders_builders") or {}).get("extra")
    return extra is not None and extra == state.turn


def note_scoring(turn: Turn) -> None:
    """End of step 8: did this tile score for others only? (kept in ``turn.data``)."""
    me = turn.player
    others = mine_ = False
    for e in turn.events:
        if e.get("type") in SCORING and e.get("points", 0) > 0:
            if me in e.get("winners", ()):
                mine_ = True
            elif e.get("winners"):
                others = True
    for winners in turn.data.get("scored_before", ()):     # before a castle owner's choice (BCB)
        if me in winners:
            mine_ = True
        else:
            others = True
    if others and not mine_:
        turn.data["count_entry"] = True


def entry_moves(state, player: int) -> list:
    counts = state.rules.supply_count
    out = []
    for q in QUARTERS:
        for figure in ALLOWED[q]:
            if figure in counts and counts[figure](state, player) > 0:
                out.extend({"type": ENTER, "quarter": q, "figure": figure, "count_to": c} for c in QUARTERS)
    return out


def offer_entry(turn: Turn) -> None:
    """Step 8.3 (after the followers came home): the entry decision, or its answer."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == ENTER:
        turn.data = dict(mine(st).get("turn_data") or {})
        if m.get("pass"):
            turn.emit({"type": "CityNotEntered", "player": turn.player})
        else:
            turn.emit({"type": "CityEntered", "player": turn.player, "quarter": m["quarter"],
                       "figure": m["figure"], "count_to": m["count_to"], "placement": st.turn})
        return
    if not turn.data.get("count_entry"):
        return
    entered = mine(st).get("entered")
    if entered is not None and _extra_tile(st) and entered == st.turn - 1:
        return                           # the builder's extra tile: the same turn
    if entry_moves(st, turn.player):
        data = {k: v for k, v in turn.data.items() if k != "count_entry"}
        turn.emit({"type": "CityEntryOffered", "player": turn.player, "turn_data": data})


def legal_entry(state, player: int) -> list:
    if state.over or state.pending.get(player) != ENTER:
        return []
    return [{"type": ENTER, "pass": True}, *entry_moves(state, player)]


def validate_entry(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('staying out is {"type": "count", "pass": true}'))
        return {"type": ENTER, "pass": True}
    if set(move) != {"type", "quarter", "figure", "count_to"} or \
            not typed(move, strs=("quarter", "figure", "count_to")) or move not in entry_moves(state, player):
        raise IllegalMove("bad_district", _("enter a district (castle, blacksmith, cathedral, market) "
                                            "with a figure of your supply it takes, and name the "
                                            "Count's district"))
    return dict(move)


# -- leaving ------------------------------------------------------------------------------


def targets(state, final: bool) -> dict:
    """district -> rep segment ids of the features its followers may join now."""
    out = {q: [] for q in QUARTERS}
    if final:
        for f in state.features.values():
            if f.kind in ("road", "city", "cloister", "field") and (f.kind == "field" or not is_complete(state, f)):
                q = next(k for k, v in QUARTERS.items() if v == f.kind)
                out[q].append(min(f.segs))
    else:
        for fid, _sid in completed_by_last_tile(state):
            f = state.features[fid]
            q = next((k for k, v in QUARTERS.items() if v == f.kind and k != "market"), None)
            if q:
                out[q].append(min(f.segs))
    for q in out:
        out[q].sort()
    return out


def leave_moves(state, player: int) -> list:
    m = mine(state)
    final = bool((m.get("leave") or {}).get("final"))
    where = targets(state, final)
    out = []
    for q in QUARTERS:
        if q == m["count"]:
            continue
        figures = []
        for p, figure in m["quarters"][q]:
            if p == player and figure not in figures:
                figures.append(figure)
        for figure in figures:
            for sid in where[q]:
                x, y, label = label_of(state, sid)
                out.append({"type": LEAVE, "quarter": q, "figure": figure, "x": x, "y": y, "on": label})
    return out


def _order(state) -> list:
    n, a = state.players, state.active
    return [(a + k) % n for k in range(1, n + 1)]


def _next_leaver(turn: Turn) -> bool:
    """Offer the next seat with a move its decision; False when none is left (the round ends)."""
    while True:
        leave = mine(turn.state).get("leave")
        if not leave or not leave["seats"]:
            if leave:
                turn.emit({"type": "CityLeavingEnded", "final": leave["final"]})
            return False
        p = leave["seats"][0]
        if leave_moves(turn.state, p):
            turn.emit({"type": "CityLeavingOffered", "player": p})
            return True
        turn.emit({"type": "CityLeavingPassed", "player": p})


def leaving(turn: Turn) -> None:
    """Step 7.3: the seats move followers out of the districts into the completed features."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == LEAVE:
        if _answer(turn, m):
            return
        if mine(turn.state)["final_done"]:
            finish(turn)
        return
    city = mine(st)
    if city.get("leave") is not None or not any(city["quarters"].values()):
        return
    # whether ``leave_moves`` lists anything for some seat: a figure of it in a district
    # (not the Count's) with somewhere to go (no leaving round is open: not the final one)
    where = targets(st, False)
    if not any(where[q] and city["quarters"][q] for q in QUARTERS if q != city["count"]):
        return
    turn.emit({"type": "CityLeavingStarted", "seats": _order(st), "final": False})
    _next_leaver(turn)


def _answer(turn: Turn, m: dict) -> bool:
    """Apply a count_move answer; True if a decision is open again."""
    mover = turn.mover
    if m.get("pass"):
        turn.emit({"type": "CityLeavingPassed", "player": mover})
    else:
        turn.emit({"type": "FollowerLeftCity", "player": mover, "quarter": m["quarter"], "figure": m["figure"],
                   "x": m["x"], "y": m["y"], "on": m["on"]})
        if leave_moves(turn.state, mover):
            turn.emit({"type": "CityLeavingOffered", "player": mover})
            return True
        turn.emit({"type": "CityLeavingPassed", "player": mover})
    return _next_leaver(turn)


def before_finish(turn: Turn) -> bool:
    """Before the final scoring: the last moves out of the City (``count_final_scoring``)."""
    st = turn.state
    if not st.options.get("count_final_scoring", True) or mine(st).get("final_done"):
        return False
    turn.emit({"type": "CityLeavingStarted", "seats": _order(st), "final": True})
    return _next_leaver(turn)


def legal_leave(state, player: int) -> list:
    if state.over or state.pending.get(player) != LEAVE:
        return []
    return [{"type": LEAVE, "pass": True}, *leave_moves(state, player)]


def validate_leave(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('moving nobody is {"type": "count_move", "pass": '
                                                  'true}'))
        return {"type": LEAVE, "pass": True}
    if set(move) != {"type", "quarter", "figure", "x", "y", "on"} or not typed(move, strs=("quarter", "figure")):
        raise IllegalMove("malformed_move", _("a move out of the City names the district, the figure "
                                              "and a segment of the feature: quarter, figure, x, y, on"))
    sid = cell_sid(state, move)
    if sid is not None:
        fid = state.seg_feature[sid]
        for t in leave_moves(state, player):
            if (t["quarter"], t["figure"]) == (move["quarter"], move["figure"]) and \
                    state.seg_feature[cell_sid(state, t)] == fid:
                return dict(t)           # the follower stands on the feature's first segment
    raise IllegalMove("bad_district", _("a follower leaves a district (not the Count's) for a feature "
                                        "of its kind: castle to a city, blacksmith to a road, "
                                        "cathedral to a cloister (market to a field at the end)"))


# -- evolvers ------------------------------------------------------------------------------


def _quarters(state, q, change):
    quarters = {k: [list(i) for i in v] for k, v in mine(state)["quarters"].items()}
    change(quarters[q])
    return quarters


def _entry_offered(state, event):
    new = put(state, turn_data=event.get("turn_data") or {})
    new.pending = {event["player"]: ENTER}
    new.step = "end_turn"
    return new


def _not_entered(state, event):
    new = put(state, turn_data=None)
    new.pending = {}
    return new


def _entered(state, event):
    p, figure = event["player"], event["figure"]
    new = put(state, quarters=_quarters(state, event["quarter"], lambda lst: lst.append([p, figure])),
              count=event["count_to"], entered=event["placement"], turn_data=None)
    new.pending = {}
    if figure == "follower":
        supply = list(new.supply)
        supply[p] -= 1
        new.supply = tuple(supply)
        return new
    return state.rules.supplies[figure](new, p, figure, -1)


def _leaving_started(state, event):
    return put(state, leave={"seats": list(event["seats"]), "final": event["final"]})


def _leaving_offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: LEAVE}
    new.step = "before_scoring"
    return new


def _passed(state, event):
    leave = mine(state)["leave"]
    new = put(state, leave={**leave, "seats": [s for s in leave["seats"] if s != event["player"]]})
    new.pending = {}
    return new


def _left(state, event):
    p, figure = event["player"], event["figure"]
    new = put(state, quarters=_quarters(state, event["quarter"], lambda lst: lst.remove([p, figure])))
    new.pending = {}
    sid = cell_sid(new, event)
    fid = new.seg_feature[sid]
    features = new.features.copy()
    f = features[fid]
    features[fid] = f.with_meeples(f.meeples + ((p, sid, figure),))
    new.features = features
    return new


def _leaving_ended(state, event):
    return put(state, leave=None, final_done=bool(mine(state).get("final_done") or event["final"]))


EVOLVERS = {"CityEntryOffered": _entry_offered, "CityNotEntered": _not_entered, "CityEntered": _entered,
            "CityLeavingStarted": _leaving_started, "CityLeavingOffered": _leaving_offered,
            "CityLeavingPassed": _passed, "FollowerLeftCity": _left, "CityLeavingEnded": _leaving_ended}
