"""Step 5's actions away from the new tile, as one decision after the placement.

The placement move carries at most one figure on the new tile (steps 3 and 4,
and step 5's pig, builder and barn). What an expansion offers *instead* that
does not stand on the new tile (move the fairy, add a tower floor or close a
tower, send a knight home with the princess, deploy through a magic portal) is
chosen afterwards, by the same seat, as the decision ``action``: it is owed
only when the placement deployed nothing and some such action exists, and it
may always be declined (``{"type": "action", "pass": true}``, notation
``pass``; also the timeout default). Listing these choices with the placement
would multiply every placement by every target on the board.

An expansion registers an :class:`Action` under a name (``move["do"]``):
``legal(state, player) -> moves``, ``validate(state, player, move) -> move``
(raising ``IllegalMove``), ``run(turn, move)`` (emits its events) and
``describe(move) -> text``; its text notation is one of ``Rules.parsers``.
"""
from __future__ import annotations

from ..base import IllegalMove
from ..i18n import N_, _
from .moves import tile_block
from .notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, seat
from .rules import Rules, Turn

ACTION = "action"
PASS = {"type": ACTION, "pass": True}


class Action:
    def __init__(self, legal, validate, run, describe, required=None, exists=None):
        self.legal = legal
        #: fn(state, player) -> bool: whether ``legal`` would list anything (cheaper)
        self.exists = exists or (lambda state, player: bool(legal(state, player)))
        self.validate = validate
        self.run = run
        self.describe = describe
        #: fn(state, player) -> True when this action may not be declined (the princess
        #: with princess_action = must): only its moves are then legal.
        self.required = required


def available(state, player: int) -> list:
    """Every action move (no pass) the seat may choose now, in the registry's order."""
    out = []
    for action in state.rules.actions.values():
        out.extend(action.legal(state, player))
    return out


def _required(state, player: int):
    for action in state.rules.actions.values():
        if action.required is not None and action.required(state, player):
            return action
    return None


def legal_actions(state, player: int) -> list:
    if state.over or state.pending.get(player) != ACTION:
        return []
    must = _required(state, player)
    if must is not None:          # the princess with princess_action = must
        return must.legal(state, player)
    return [dict(PASS), *available(state, player)]


def validate(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('declining is the move with "pass": true'))
        if _required(state, player) is not None:
            raise IllegalMove("action_required", _("the princess must send a knight home (option princess_action "
                                                   "= must)"))
        return dict(PASS)
    do = move.get("do")
    action = state.rules.actions.get(do) if isinstance(do, str) else None
    if action is None:
        raise IllegalMove("malformed_move", _("an action names what it does: do = {actions}",
                                              actions=" | ".join(sorted(state.rules.actions))))
    return action.validate(state, player, move)


def _placement_deployed(move) -> bool:
    return bool(move and move.get("figure"))


def offer_or_do(turn: Turn) -> None:
    """End of step 5: answer the action decision, or offer it after a placement that
    deployed nothing."""
    m = turn.move
    st = turn.state
    if m and m.get("type") == ACTION:
        if m.get("pass"):
            turn.emit({"type": "ActionDeclined", "player": turn.player})
        else:
            turn.emit({"type": "ActionTaken", "player": turn.player, "do": m["do"]})
            st.rules.actions[m["do"]].run(turn, m)
        return
    if not m or m.get("type") not in ("place_tile", "abbey") or _placement_deployed(m) or m.get("pass"):
        return
    if st.placed and tile_block(st, st.board[st.placed[-1]][0]) == "all":
        return
    if any(action.exists(st, turn.player) for action in st.rules.actions.values()):
        turn.emit({"type": "ActionOffered", "player": turn.player})


def _offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: ACTION}
    new.step = "figure_phase_2"
    return new


def _answered(state, event):
    new = state.copy()
    new.pending = {}
    return new


def describe_action(move: dict) -> str:
    if move.get("pass"):
        return "pass"
    return MOVE_ACTIONS[move["do"]](move)


#: action name -> fn(move) -> text (filled by the expansions with their Action)
MOVE_ACTIONS: dict = {}
MOVE_TEXTS[ACTION] = describe_action
#: what each action is called in the texts
ACTION_NAMES = {"fairy": N_("{player} moves the fairy."), "princess": N_("{player} calls on the princess."),
                "portal": N_("{player} goes through the magic portal."), "tower": N_("{player} builds at a tower.")}
OWED_TEXTS[ACTION] = lambda state, player: _("may act away from the tile (or pass)")
EVENT_TEXTS.update(
    ActionOffered=lambda e: _("{player} may act away from the tile (or pass).", player=seat(e["player"])),
    ActionDeclined=lambda e: _("{player} passes.", player=seat(e["player"])),
    ActionTaken=lambda e: _(ACTION_NAMES.get(e["do"], N_("{player} acts away from the tile.")),
                            player=seat(e["player"])),
)


_PASS_WORDS = {"pass", "skip", "none", "no", "nothing", "done"}


def parse_pass(game, text: str, state, player):
    """"pass" declines whatever optional decision the seat owes (``Rules.pass_moves``)."""
    if text.strip().lower() not in _PASS_WORDS or state is None:
        return None
    owed = state.pending.get(player)
    move = state.rules.pass_moves.get(owed)
    if move is None and owed != "bazaar":
        # nothing declinable owed: still read as a pass (the rules refuse it: not the move owed);
        # the bazaar reads its own "pass" (a bid passed), in its parser
        move = next(iter(state.rules.pass_moves.values()), None)
    return dict(move) if move is not None else None


def install_pass(rules: Rules) -> None:
    if parse_pass not in rules.parsers:
        rules.parsers.append(parse_pass)


def register_action(rules: Rules, name: str, action: Action) -> None:
    """Install the action decision (once) and one action."""
    install_pass(rules)
    if ACTION not in rules.moves:
        rules.moves[ACTION] = "figure_phase_2"
        rules.validators[ACTION] = validate
        rules.legal[ACTION] = legal_actions
        rules.pass_moves[ACTION] = dict(PASS)
        rules.evolvers.update(ActionOffered=_offered, ActionDeclined=_answered, ActionTaken=_answered)
        rules.on("figure_phase_2", offer_or_do)
    rules.actions[name] = action
    MOVE_ACTIONS[name] = action.describe
