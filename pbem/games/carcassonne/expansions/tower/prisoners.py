"""The Tower: prisoners, their exchange and their ransom.

* **Exchange**: when a capture leaves two seats each holding a follower of the other,
  both go home at once (``PrisonersExchanged``). The captor holds exactly the one just
  taken; if the victim holds several of the captor's followers of different kinds,
  the captor (the active seat) chooses which comes back: decision ``exchange``
  (``exchange big``), default the one captured earliest.
* **Ransom** (any time of the seat's own turn, once a turn, whatever it owes): pay 3
  points to the captor and take one of your prisoners home (``RansomPaid``). Scores
  may go negative; with ``allow_negative_scores`` = false ([HOUSE]) a seat with fewer
  than 3 points pays no ransom (not listed; refused, ``not_enough_points``).
"""
from __future__ import annotations

from ....i18n import _
from ...words import localize
from ....base import IllegalMove
from ...rules import Turn
from ...segwords import typed
from .state import is_foundation, mine, put, take_from_supply

EXCHANGE, RANSOM = "exchange", "ransom"
RANSOM_POINTS = 3


def _held(state, captor: int, owner: int) -> list:
    """Figures of ``owner`` that ``captor`` holds, in capture order."""
    return [f for c, o, f in mine(state)["prisoners"] if c == captor and o == owner]


def exchange_after_capture(turn: Turn, owner: int, figure: str) -> None:
    captor = turn.player
    if owner == captor:
        return
    theirs = _held(turn.state, owner, captor)
    if not theirs:
        return
    if len(set(theirs)) > 1:
        turn.emit({"type": "ExchangeOffered", "player": captor, "owner": owner, "figure": figure})
        return
    _exchange(turn, captor, owner, figure, theirs[0])


def _exchange(turn, captor, owner, figure, back):
    turn.emit({"type": "PrisonersExchanged", "players": [captor, owner], "figures": [back, figure]})


def legal_exchange(state, player: int) -> list:
    if state.over or state.pending.get(player) != EXCHANGE:
        return []
    owner = mine(state)["exchange"]["owner"]
    kinds = []
    for f in _held(state, owner, player):
        if f not in kinds:
            kinds.append(f)
    return [{"type": EXCHANGE, "figure": f} for f in kinds]


def validate_exchange(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "figure"} or not isinstance(move["figure"], str) \
            or move not in legal_exchange(state, player):
        raise IllegalMove("bad_exchange", _("name which of your followers comes back: {moves}", moves=", ".join(
            localize(f"exchange {m['figure']}") for m in legal_exchange(state, player))))
    return dict(move)


def exchange(turn: Turn) -> None:
    m = turn.move
    if not m or m.get("type") != EXCHANGE:
        return
    ex = mine(turn.state)["exchange"]
    _exchange(turn, turn.player, ex["owner"], ex["figure"], m["figure"])


# -- ransom --------------------------------------------------------------------------------------


def _turn_id(state):
    """[seat, first placement index] of the active seat's current turn."""
    t = mine(state).get("turn")
    if t and t[0] == state.active:
        return t
    return [state.active, len(state.placed)]


def _ransoms(state, player: int) -> list:
    """The ransoms the seat could pay, whatever its score."""
    if player != state.active or player not in state.pending or state.over:
        return []
    if not mine(state)["prisoners"]:
        return []                        # most of the time: nobody to ransom
    if mine(state).get("ransom") == _turn_id(state):
        return []
    out = []
    for c, o, f in mine(state)["prisoners"]:
        m = {"type": RANSOM, "from": c, "figure": f}
        if o == player and m not in out:
            out.append(m)
    return out


def _short(state, player: int) -> bool:
    """``allow_negative_scores`` = false and the seat has fewer points than a ransom."""
    return not state.options.get("allow_negative_scores", True) and state.scores[player] < RANSOM_POINTS


def legal_ransom(state, player: int) -> list:
    out = _ransoms(state, player)
    if out and _short(state, player):
        return []
    return out


def validate_ransom(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "from", "figure"}:
        raise IllegalMove("malformed_move", _('a ransom names the captor and the figure: {"type": '
                                              '"ransom", "from": 1, "figure": "follower"}'))
    if not typed(move, ints=("from",), strs=("figure",)):
        raise IllegalMove("malformed_move", _("from is a seat number, figure a word"))
    if mine(state).get("ransom") == _turn_id(state):
        raise IllegalMove("ransom_paid", _("you have paid a ransom this turn already"))
    if move not in _ransoms(state, player):
        raise IllegalMove("no_prisoner", _("that seat holds no such follower of yours"))
    if _short(state, player):
        raise IllegalMove("not_enough_points", _("a ransom costs {RANSOM_POINTS} points and you have "
                                                 "{value} (scores may not go below 0 in this game)", RANSOM_POINTS=RANSOM_POINTS, value=state.scores[player]))
    return dict(move)


def ransom_events(state, player: int, move: dict) -> list:
    return [{"type": "RansomPaid", "player": player, "from": move["from"], "figure": move["figure"],
             "points": RANSOM_POINTS, "turn": _turn_id(state)}]


# -- evolvers ------------------------------------------------------------------------------------


def _remove(prisoners, captor, owner, figure):
    out = list(prisoners)
    out.remove([captor, owner, figure])
    return out


def _exchange_offered(state, event):
    new = put(state, exchange={"owner": event["owner"], "figure": event["figure"]})
    new.pending = {event["player"]: EXCHANGE}
    new.step = "figure_phase_2"
    return new


def _exchanged(state, event):
    (captor, owner), (back, figure) = event["players"], event["figures"]
    prisoners = _remove(mine(state)["prisoners"], captor, owner, figure)
    prisoners = _remove(prisoners, owner, captor, back)
    new = put(state, prisoners=prisoners, exchange=None)
    new.pending = {}
    new = take_from_supply(new, owner, figure, +1)
    return take_from_supply(new, captor, back, +1)


def _ransom(state, event):
    p, c = event["player"], event["from"]
    new = put(state, prisoners=_remove(mine(state)["prisoners"], c, p, event["figure"]), ransom=event["turn"])
    scores = list(new.scores)
    scores[p] -= event["points"]
    scores[c] += event["points"]
    new.scores = tuple(scores)
    tally = dict(new.tally)
    row = list(tally.get("ransom", (0,) * new.players))
    row[p] -= event["points"]
    row[c] += event["points"]
    tally["ransom"] = tuple(row)
    new.tally = tally
    return take_from_supply(new, p, event["figure"], +1)


def turn_marker(base_placed):
    """Wrap the TilePlaced evolver: remember where the placing seat's turn began, and
    the cells with a tower foundation."""
    def evolve(state, event):
        new = base_placed(state, event)
        t = mine(state).get("turn")
        if not t or t[0] != event["player"]:
            new = put(new, turn=[event["player"], len(state.placed)])
        if is_foundation(event["tile"]):
            new = put(new, foundations=[*mine(new).get("foundations", ()), [event["x"], event["y"]]])
        return new
    return evolve


EVOLVERS = {"ExchangeOffered": _exchange_offered, "PrisonersExchanged": _exchanged, "RansomPaid": _ransom}
