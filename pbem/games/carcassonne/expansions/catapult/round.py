"""The Catapult's abstract round (rules digest §3.10, step 9.2; option
``catapult_mode`` = ``abstract``, a [HOUSE] reading of a dexterity game).

After a fair tile's followers came home (step 9.1), the active seat chooses
knock-out or seduction (decision ``catapult``); then every seat at once owes
one secret shot (decision ``shot``): a follower on a land tile within
Chebyshev distance 2 of the fair, or no shot. Followers on castles, on towers
and in the City of Carcassonne are exempt (they are not on a land tile's
segment, or the castle is no land). Seduction names an opponent's follower.
A shot is secret until the last is in (``ShotAimed`` carries it in ``secret``
to its shooter alone); then ``ShotsRevealed`` makes every shot public and
they are resolved in seat order from the active seat:

* knock-out: the named follower goes home (``CatapultKnockOut``);
* seduction: it goes home and one of the shooter's followers from supply
  takes its place in the same role (``CatapultSeduced``); with an empty
  supply nothing happens;
* a shot at a follower already gone does nothing (``ShotWasted``).

A fair tile with no follower within reach holds no round
(``CatapultRound`` with ``held`` false). The turn's scratch data (a builder's
extra tile, the Count's entry) waits in the round and comes back once it is
over.
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...features import label_of, occupied, sid_at
from ...rules import Turn
from .tiles import CA_TILES, EXPANSION

CHOOSE = "catapult"
SHOT = "shot"
KINDS = ("knockout", "seduction")
REACH = 2
#: the figures a shot may name: the followers (a builder, a pig or a barn is no follower)
FOLLOWERS = ("follower", "big", "mayor", "wagon")


def mine(state) -> dict:
    return state.ext.get(EXPANSION) or {}


def abstract(state) -> bool:
    return state.options.get("catapult_mode", "tiles_only") == "abstract"


def initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {"held": -1, "round": None}}


def targets(state, fair, shooter: int | None = None, kind: str = "knockout") -> list:
    """The followers a shot may name, sorted: dicts ``player``, ``figure``, ``x``,
    ``y``, ``on`` (seduction: only other seats' followers)."""
    fx, fy = fair
    out = []
    for _fid, f in occupied(state):
        if f.marks.get("castle"):
            continue
        for p, sid, figure in f.meeples:
            if figure not in FOLLOWERS or (kind == "seduction" and p == shooter):
                continue
            x, y, label = label_of(state, sid)
            if max(abs(x - fx), abs(y - fy)) <= REACH:
                out.append({"player": p, "figure": figure, "x": x, "y": y, "on": label})
    out.sort(key=lambda t: (t["y"], t["x"], t["on"], t["player"], t["figure"]))
    return out


def _fair(state) -> tuple:
    r = mine(state).get("round") or {}
    return tuple(r.get("fair") or (0, 0))


# -- the decisions ----------------------------------------------------------------------------


def legal_choice(state, player: int) -> list:
    if state.over or state.pending.get(player) != CHOOSE:
        return []
    return [{"type": CHOOSE, "kind": k} for k in KINDS]


def validate_choice(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "kind"} or move.get("kind") not in KINDS:
        raise IllegalMove("bad_catapult", _("the catapult round is knock-out or seduction: "
                                            '{"type": "catapult", "kind": "knockout"} or "seduction"'))
    return {"type": CHOOSE, "kind": move["kind"]}


def shot_moves(state, player: int) -> list:
    r = mine(state).get("round") or {}
    return [{"type": SHOT, "x": t["x"], "y": t["y"], "on": t["on"]}
            for t in targets(state, _fair(state), player, r.get("kind") or "knockout")]


def legal_shot(state, player: int) -> list:
    """No shot first: the default at the deadline (digest §5)."""
    if state.over or state.pending.get(player) != SHOT:
        return []
    return [{"type": SHOT, "pass": True}, *shot_moves(state, player)]


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_shot(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('no shot is {"type": "shot", "pass": true}'))
        return {"type": SHOT, "pass": True}
    if set(move) != {"type", "x", "y", "on"}:
        raise IllegalMove("malformed_move", _("a shot names a follower: x, y and on (e.g. road E)"))
    x, y, on = move["x"], move["y"], move["on"]
    if not (_int(x) and _int(y)) or not isinstance(on, str):
        raise IllegalMove("bad_position", _("x and y must be integers and on a segment, e.g. shoot 1,0 road E"))
    sid = sid_at(state, (x, y), on)
    if sid is None:
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=on, x=x, y=y))
    x, y, label = label_of(state, sid)
    clean = {"type": SHOT, "x": x, "y": y, "on": label}
    if clean not in shot_moves(state, player):
        r = mine(state).get("round") or {}
        raise IllegalMove("not_a_target", _("no follower the catapult may hit stands on {on} at {x},{y} "
                                            "(within 2 tiles of the fair; seduction: another seat's)",
                                            on=label, x=x, y=y) if r.get("kind") != "knockout" else
                          _("no follower the catapult may hit stands on {on} at {x},{y} (within 2 tiles "
                            "of the fair)", on=label, x=x, y=y))
    return clean


# -- the step -----------------------------------------------------------------------------------


def _fair_index(state):
    """The placement index of the tile just placed if it has a fair, else None."""
    if not state.placed:
        return None
    n = len(state.placed) - 1
    letter = state.board[state.placed[n]][0]
    return n if letter in CA_TILES else None


def catapult_round(turn: Turn) -> None:
    """Step 9.2: the round after a fair tile, its choice, its shots and their resolution."""
    st = turn.state
    m = turn.move or {}
    if m.get("type") == CHOOSE:
        turn.emit({"type": "CatapultChosen", "player": turn.mover, "kind": m["kind"]})
        return
    if m.get("type") == SHOT:
        shot = {"pass": True} if m.get("pass") else {"x": m["x"], "y": m["y"], "on": m["on"]}
        turn.emit({"type": "ShotAimed", "player": turn.mover, "secret": shot, "to": [turn.mover]})
        if not turn.state.pending:
            _resolve(turn)
        return
    if not abstract(st):
        return
    n = _fair_index(st)
    if n is None or mine(st).get("held") == n:
        return
    x, y = st.placed[n]
    held = bool(targets(st, (x, y)))
    turn.emit({"type": "CatapultRound", "player": turn.player, "x": x, "y": y, "placement": n,
               "held": held, **({"turn_data": dict(turn.data)} if held else {})})


def _resolve(turn: Turn) -> None:
    """The last shot is in: all are shown, then resolved from the active seat on."""
    st = turn.state
    r = mine(st)["round"]
    turn.data = dict(r.get("turn_data") or {})
    shots = r["shots"]
    order = [(turn.player + i) % st.players for i in range(st.players)]
    turn.emit({"type": "ShotsRevealed", "kind": r["kind"],
               "shots": [{"player": p, **shots[str(p)]} for p in order]})
    for p in order:
        shot = shots[str(p)]
        if shot.get("pass"):
            continue
        st = turn.state
        sid = sid_at(st, (shot["x"], shot["y"]), shot["on"])
        f = st.features[st.seg_feature[sid]]
        hit = next(((q, fig) for q, s, fig in f.meeples if s == sid and fig in FOLLOWERS
                    and (r["kind"] == "knockout" or q != p)), None)
        where = {"x": shot["x"], "y": shot["y"], "on": shot["on"]}
        if hit is None:
            turn.emit({"type": "ShotWasted", "player": p, **where, "why": "gone"})
        elif r["kind"] == "knockout":
            turn.emit({"type": "CatapultKnockOut", "player": p,
                       "followers": [{"player": hit[0], "figure": hit[1], **where}]})
        elif st.supply[p] < 1:
            turn.emit({"type": "ShotWasted", "player": p, **where, "why": "no_follower"})
        else:
            turn.emit({"type": "CatapultSeduced", "player": p,
                       "followers": [{"player": hit[0], "figure": hit[1], **where}]})
    turn.emit({"type": "CatapultRoundEnded", "player": turn.player})


# -- evolvers ------------------------------------------------------------------------------------


def _set(state, **changes):
    new = state.copy()
    new.ext = {**state.ext, EXPANSION: {**mine(state), **changes}}
    return new


def _round(state, event):
    new = _set(state, held=event["placement"],
               round={"fair": [event["x"], event["y"]], "kind": None, "shots": {},
                      "turn_data": event.get("turn_data") or {}} if event["held"] else None)
    if event["held"]:
        new.pending = {event["player"]: CHOOSE}
        new.step = "end_turn"
    return new


def _chosen(state, event):
    r = mine(state)["round"]
    new = _set(state, round={**r, "kind": event["kind"]})
    new.pending = {p: SHOT for p in range(state.players)}
    return new


def _aimed(state, event):
    r = mine(state)["round"]
    # a seat's shot as its event says it (a redacted event, without ``secret``, still
    # closes that seat's answer: a replay from what a viewer saw keeps the turn order)
    shots = {**r["shots"], str(event["player"]): event.get("secret") or {"pass": True}}
    new = _set(state, round={**r, "shots": shots})
    new.pending = {p: a for p, a in state.pending.items() if p != event["player"]}
    return new


def _knocked(state, event):
    return state.rules.evolvers["FollowersReturned"](state, event)


def _seduced(state, event):
    new = state.rules.evolvers["FollowersReturned"](state, event)
    for item in event["followers"]:
        new = state.rules.evolvers["FollowerDeployed"](new, {
            "type": "FollowerDeployed", "player": event["player"], "figure": "follower",
            "x": item["x"], "y": item["y"], "on": item["on"]})
    return new


def _ended(state, event):
    new = _set(state, round=None)
    new.pending = {}
    return new


EVOLVERS = {"CatapultRound": _round, "CatapultChosen": _chosen, "ShotAimed": _aimed,
            "ShotsRevealed": lambda state, event: state, "ShotWasted": lambda state, event: state,
            "CatapultKnockOut": _knocked, "CatapultSeduced": _seduced, "CatapultRoundEnded": _ended}


def resample(state, viewer, rng):
    """The state with the shots of the other seats re-dealt among their legal
    shots (the contract suite's re-deal check; the state itself when no
    other seat's shot is in)."""
    r = mine(state).get("round")
    if not r or not r.get("kind"):
        return state
    shots = dict(r["shots"])
    changed = False
    for key in sorted(shots):
        p = int(key)
        if p == viewer:
            continue
        options = [{"pass": True}] + [{"x": t["x"], "y": t["y"], "on": t["on"]}
                                      for t in targets(state, tuple(r["fair"]), p, r["kind"])]
        shots[key] = rng.choice(options)
        changed = True
    return _set(state, round={**r, "shots": shots}) if changed else state
