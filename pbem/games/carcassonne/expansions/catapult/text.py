"""The Catapult: text notation, event sentences, the view and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["catapult"]``) lists it:

    catapult knockout | seduction     after a fair tile (catapult_mode abstract):
                                      the active seat's choice of round
    shoot X,Y road E                  your secret shot at the follower there
    no shot                           ... or none (also: pass)
"""
from __future__ import annotations

import re

from ....i18n import N_, _
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, figure_name, parse_error, seat, segment
from ...segwords import XY, segment_words
from ...words import localize
from .round import CHOOSE, SHOT, mine, shot_moves, targets

_CHOOSE = re.compile(r"^\s*catapult\s+(knock-?out|seduction|seduce)\s*$", re.IGNORECASE)
_SHOOT = re.compile(r"^\s*shoot\s+" + XY + r"\s*(.*?)\s*$", re.IGNORECASE)
_NO_SHOT = re.compile(r"^\s*(?:no\s+shot|shoot\s+(?:none|pass))\s*$", re.IGNORECASE)
KIND_NAMES = {"knockout": N_("knock-out"), "seduction": N_("seduction")}


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    m = _CHOOSE.match(t)
    if m:
        word = m.group(1).lower().replace("-", "")
        return {"type": CHOOSE, "kind": "knockout" if word == "knockout" else "seduction"}
    if _NO_SHOT.match(t):
        return {"type": SHOT, "pass": True}
    m = _SHOOT.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        words = [w.lower() for w in m.group(3).split()]
        if words and words[0] in ("follower", "big", "mayor", "wagon"):
            words = words[1:]
        label, rest = segment_words(words, state, (x, y))
        if label is None or rest:
            raise parse_error("bad_shot", _("name the follower by its segment: {move}",
                                            move=localize("shoot 1,0 road E")),
                              "shoot X,Y road E | no shot", examples_now(game, state, player, ["no shot"]))
        return {"type": SHOT, "x": x, "y": y, "on": label}
    if t.strip().lower() == "catapult":
        raise parse_error("bad_catapult", _("choose the round: {moves}",
                                            moves=localize("catapult knockout | catapult seduction")),
                          "catapult knockout | catapult seduction", ["catapult knockout", "catapult seduction"])
    return None


def describe_choice(move: dict) -> str:
    return f"catapult {move.get('kind')}"


def describe_shot(move: dict) -> str:
    if move.get("pass"):
        return "no shot"
    return f"shoot {move.get('x')},{move.get('y')} {move.get('on')}"


def kind_name(kind) -> str:
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else str(kind)


def _follower(item: dict) -> str:
    return _("{player}'s {figure} on {on} at {at}", player=seat(item["player"]),
             figure=figure_name(item.get("figure", "follower")), on=segment(item["on"]), at=at(item["x"], item["y"]))


def _round(e: dict) -> str:
    if e.get("held"):
        return _("Fair at {at}: catapult round; {player} chooses knock-out or seduction.",
                 at=at(e["x"], e["y"]), player=seat(e["player"]))
    return _("Fair at {at}: no follower within reach of the catapult, no round.", at=at(e["x"], e["y"]))


def _aimed(e: dict) -> str:
    shot = e.get("secret")
    if shot is None:
        return _("{player} has taken a secret shot.", player=seat(e["player"]))
    if shot.get("pass"):
        return _("{player} (secretly) takes no shot.", player=seat(e["player"]))
    return _("{player} (secretly) aims at {on} at {at}.", player=seat(e["player"]), on=segment(shot["on"]),
             at=at(shot["x"], shot["y"]))


def _revealed(e: dict) -> str:
    parts = [_("{player}: no shot", player=seat(s["player"])) if s.get("pass") else
             _("{player} at {on} at {at}", player=seat(s["player"]), on=segment(s["on"]), at=at(s["x"], s["y"]))
             for s in e["shots"]]
    return _("The shots ({kind}): {list}.", kind=kind_name(e["kind"]), list=_("; ").join(parts))


def _wasted(e: dict) -> str:
    if e.get("why") == "no_follower":
        return _("{player}'s seduction at {on} at {at} does nothing: no follower in supply.",
                 player=seat(e["player"]), on=segment(e["on"]), at=at(e["x"], e["y"]))
    return _("{player}'s shot at {on} at {at} hits nobody: that follower is gone.", player=seat(e["player"]),
             on=segment(e["on"]), at=at(e["x"], e["y"]))


MOVE_TEXTS[CHOOSE] = describe_choice
MOVE_TEXTS[SHOT] = describe_shot
EVENT_TEXTS.update(
    CatapultRound=_round,
    CatapultChosen=lambda e: _("{player} chooses {kind}: every player takes one secret shot.",
                               player=seat(e["player"]), kind=kind_name(e["kind"])),
    ShotAimed=_aimed,
    ShotsRevealed=_revealed,
    ShotWasted=_wasted,
    CatapultKnockOut=lambda e: _("{player} knocks out {list}: it goes home.", player=seat(e["player"]),
                                 list=_("; ").join(_follower(i) for i in e["followers"])),
    CatapultSeduced=lambda e: _("{player} seduces {list}: it goes home and {player}'s follower takes its place.",
                                player=seat(e["player"]), list=_("; ").join(_follower(i) for i in e["followers"])),
    CatapultRoundEnded=lambda e: _("The catapult round is over."),
)
OWED_TEXTS[CHOOSE] = lambda state, player: _("chooses the catapult round: {moves}", moves=localize(
    "catapult knockout | catapult seduction"))
OWED_TEXTS[SHOT] = lambda state, player: _("takes a secret shot ({move}) or none ({none})", move=localize(
    "shoot X,Y road E"), none=localize("no shot"))


# -- the view and the text board ----------------------------------------------------------------


def view(state, viewer, view: dict) -> None:
    """``catapult``: the round under way (its fair, kind, the seats still to shoot,
    the followers within reach) and the viewer's own shot, never another's."""
    r = mine(state).get("round")
    if not r:
        view["catapult"] = None
        return
    fair = tuple(r["fair"])
    out = {"x": fair[0], "y": fair[1], "kind": r.get("kind"), "chooser": state.active,
           "shot": sorted(int(p) for p in r.get("shots", {})),
           "to_shoot": sorted(p for p, a in state.pending.items() if a == SHOT),
           "targets": targets(state, fair)}
    if isinstance(viewer, int) and not isinstance(viewer, bool) and str(viewer) in r.get("shots", {}):
        out["my_shot"] = r["shots"][str(viewer)]
    view["catapult"] = out


def render(state, viewer) -> list:
    r = mine(state).get("round")
    if not r:
        return []
    fair = at(*r["fair"])
    reach = "; ".join(_follower(t) for t in targets(state, tuple(r["fair"]))) or _("nobody")
    lines = []
    if not r.get("kind"):
        lines.append(_("Catapult round at the fair {at}: {player} chooses {moves}. Within reach: {list}.",
                       at=fair, player=seat(state.active),
                       moves=localize("catapult knockout | catapult seduction"), list=reach))
        return lines
    lines.append(_("Catapult round ({kind}) at the fair {at}: within reach: {list}.", kind=kind_name(r["kind"]),
                   at=fair, list=reach))
    if isinstance(viewer, int) and not isinstance(viewer, bool):
        mine_ = r.get("shots", {}).get(str(viewer))
        if mine_ is not None:
            lines.append(_("Your shot: {move}.", move=localize(describe_shot(mine_))))
        elif state.pending.get(viewer) == SHOT:
            moves = ", ".join(localize(describe_shot(m)) for m in shot_moves(state, viewer))
            lines.append(_("Your shot: {moves}, or {none}.", moves=moves or _("nobody"), none=localize("no shot")))
    return lines
