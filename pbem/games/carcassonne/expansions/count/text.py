"""The Count of Carcassonne: text notation, event sentences, views and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["count"]``, in the reader's
language: ``words.localize``) lists it:

    enter castle count market         when offered: your follower into a
                                      district (castle, blacksmith,
                                      cathedral, market), the Count to one
    enter market big count castle     ... your big follower
    enter castle mayor count market   ... your mayor (the castle only), or
                                      wagon (enter castle wagon count market)
    stay out                          ... or not (also: pass)
    leave castle X,Y city N           when offered: your follower leaves the
                                      district for that feature (castle: a
                                      city, blacksmith: a road, cathedral: a
                                      cloister; market: a field at the end)
    leave castle big X,Y city N       ... your big follower
    leave castle mayor X,Y city N     ... your mayor (or wagon)
"""
from __future__ import annotations

import re

from ....i18n import N_, _
from ...notation import (EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, figure_name, parse_error, seat, seats,
                         segment)
from ...segwords import XY, segment_words
from ...words import localize
from .city import ENTER, LEAVE, mine
from .tiles import QUARTERS

#: the districts as the texts name them
DISTRICTS = {"castle": N_("castle district"), "blacksmith": N_("blacksmith district"),
             "cathedral": N_("cathedral district"), "market": N_("market district")}


def district(name) -> str:
    return _(DISTRICTS[name]) if name in DISTRICTS else str(name)


_Q = "(" + "|".join(QUARTERS) + ")"
_FIG = r"(?:\s+(follower|big|mayor|wagon))?"
_ENTER = re.compile(r"^\s*enter\s+" + _Q + _FIG + r"(?:\s+count\s+" + _Q + r")?\s*$", re.IGNORECASE)
_LEAVE = re.compile(r"^\s*leave\s+" + _Q + _FIG + r"\s+" + XY + r"\s+(.*?)\s*$", re.IGNORECASE)
_STAY = re.compile(r"^\s*(?:stay\s+out|no\s+entry|enter\s+(?:none|nothing|pass))\s*$", re.IGNORECASE)


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    if _STAY.match(t):
        return {"type": ENTER, "pass": True}
    m = _ENTER.match(t)
    if m:
        count = (m.group(3) or (mine(state).get("count") if state is not None else None) or "castle").lower()
        return {"type": ENTER, "quarter": m.group(1).lower(), "figure": (m.group(2) or "follower").lower(),
                "count_to": count}
    m = _LEAVE.match(t)
    if m:
        x, y = int(m.group(3)), int(m.group(4))
        label, rest = segment_words(m.group(5).lower().split(), state, (x, y))
        if label is not None and not rest:
            return {"type": LEAVE, "quarter": m.group(1).lower(), "figure": (m.group(2) or "follower").lower(),
                    "x": x, "y": y, "on": label}
    word = t.strip().split()[0].lower() if t.strip() else ""
    if word in ("enter", "leave"):
        raise parse_error("bad_district", _("could not read the move for the City of Carcassonne"),
                          "enter castle count market | leave castle X,Y city N | pass",
                          examples_now(game, state, player, ["pass"]))
    return None


def _fig(figure) -> str:
    return "" if figure == "follower" else f" {figure}"


def describe_enter(move: dict) -> str:
    if move.get("pass"):
        return "stay out"
    return f"enter {move.get('quarter')}{_fig(move.get('figure'))} count {move.get('count_to')}"


def describe_leave(move: dict) -> str:
    if move.get("pass"):
        return "pass"
    return f"leave {move.get('quarter')}{_fig(move.get('figure'))} {move.get('x')},{move.get('y')} {move.get('on')}"


MOVE_TEXTS[ENTER] = describe_enter
MOVE_TEXTS[LEAVE] = describe_leave
def _leaving_started(e) -> str:
    args = dict(players=seats(e["seats"]))
    if e["final"]:
        return _("Before the final scoring, followers may leave the City: {players} in turn.", **args)
    return _("Before the scoring, followers may leave the City: {players} in turn.", **args)


EVENT_TEXTS.update(
    CityEntryOffered=lambda e: _("{player} scored nothing while others did, and may enter the City.",
                                 player=seat(e["player"])),
    CityNotEntered=lambda e: _("{player} stays out of the City.", player=seat(e["player"])),
    CityEntered=lambda e: _("{player}'s {figure} enters the {district}; the Count goes to the {count}.",
                            player=seat(e["player"]), figure=figure_name(e["figure"]), district=district(e["quarter"]),
                            count=district(e["count_to"])),
    CityLeavingStarted=_leaving_started,
    CityLeavingOffered=lambda e: _("{player} may move a follower out of the City.", player=seat(e["player"])),
    CityLeavingPassed=lambda e: _("{player} moves no more followers out of the City.", player=seat(e["player"])),
    FollowerLeftCity=lambda e: _("{player}'s {figure} leaves the {district} for {on} at {at}.",
                                 player=seat(e["player"]), figure=figure_name(e["figure"]),
                                 district=district(e["quarter"]), on=segment(e["on"]), at=at(e["x"], e["y"])),
    CityLeavingEnded=lambda e: _("No more followers leave the City."),
)


def view(state, viewer, view: dict) -> None:
    m = mine(state)
    view["count"] = {"count": m["count"],
                     "quarters": {q: [{"player": p, "figure": f} for p, f in m["quarters"][q]] for q in QUARTERS},
                     "leaving": None if not m.get("leave") else list(m["leave"]["seats"])}


def render(state, viewer) -> list:
    m = mine(state)
    parts = []
    for q in QUARTERS:
        there = _(", ").join(_("{player}'s {figure}", player=seat(p), figure=figure_name(f)) for p, f in m["quarters"][q])
        parts.append(_("{district}: {figures}", district=district(q), figures=there) if there else
                     _("{district}: empty", district=district(q)))
    return [_("City of Carcassonne (the Count in the {district}): {list}", district=district(m["count"]),
              list=_("; ").join(parts))]


def _owed_leave(state, player: int) -> str:
    leaves = [localize(describe_leave(mv)) for mv in state.rules.legal[LEAVE](state, player) if not mv.get("pass")]
    return _("may move a follower out of the City before the scoring: {moves}, or {none}",
             moves=", ".join(leaves), none=localize("pass"))


OWED_TEXTS.update(
    count=lambda state, player: _("scored nothing while others did and may put a follower into the City: {move} "
                                  "({districts}), or {none}", move=" ".join(
                                      (localize("enter"), _("DISTRICT"), localize("count"), _("DISTRICT"))),
                                  districts=", ".join(localize(f"enter {q}").split(" ", 1)[1] for q in QUARTERS),
                                  none=localize("stay out")),
    count_move=_owed_leave,
)
