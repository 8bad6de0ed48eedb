"""The Count of Carcassonne: text notation, event sentences, views and the text board.

The help's lines (``notation.help_for``; a line naming a figure only where
that figure is in play):

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

from ....base import ParseError
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, figure_name
from ...segwords import XY, segment_words
from .city import ENTER, LEAVE, mine
from .tiles import QUARTERS

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
        raise ParseError("bad_district", "could not read the move for the City of Carcassonne",
                         expected="enter castle count market | leave castle X,Y city N | pass",
                         examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]] or ["pass"])
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
EVENT_TEXTS.update(
    CityEntryOffered=lambda e: f"seat {e['player']} scored nothing while others did, and may enter the City.",
    CityNotEntered=lambda e: f"seat {e['player']} stays out of the City.",
    CityEntered=lambda e: (f"seat {e['player']}'s {figure_name(e['figure'])} enters the {e['quarter']}; the Count goes to the "
                           f"{e['count_to']}."),
    CityLeavingStarted=lambda e: ("Before the final scoring" if e["final"] else "Before the scoring")
                                 + ", followers may leave the City: " + ", then ".join(f"seat {p}" for p in e["seats"])
                                 + " in turn.",
    CityLeavingOffered=lambda e: f"seat {e['player']} may move a follower out of the City.",
    CityLeavingPassed=lambda e: f"seat {e['player']} moves no (more) follower out of the City.",
    FollowerLeftCity=lambda e: (f"seat {e['player']}'s {figure_name(e['figure'])} leaves the {e['quarter']} for {e['on']} at "
                                f"{e['x']},{e['y']}."),
    CityLeavingEnded=lambda e: "No more followers leave the City.",
)


def view(state, viewer, view: dict) -> None:
    m = mine(state)
    view["count"] = {"count": m["count"],
                     "quarters": {q: [{"player": p, "figure": f} for p, f in m["quarters"][q]] for q in QUARTERS},
                     "leaving": None if not m.get("leave") else list(m["leave"]["seats"])}


def render(state, viewer) -> list:
    m = mine(state)
    parts = [f"{q} " + (", ".join(f"seat {p}{_fig(f)}" for p, f in m["quarters"][q]) or "empty")
             for q in QUARTERS]
    return [f"City of Carcassonne (the Count in the {m['count']}): " + "; ".join(parts)]


def _owed_leave(state, player: int) -> str:
    leaves = [describe_leave(mv) for mv in state.rules.legal[LEAVE](state, player) if not mv.get("pass")]
    return "may move a follower out of the City before the scoring: " + ", ".join(leaves) + ", or pass"


OWED_TEXTS.update(
    count=lambda state, player: ("scored nothing while others did and may put a follower into the City: "
                                 f"enter DISTRICT count DISTRICT ({', '.join(QUARTERS)}), or stay out"),
    count_move=_owed_leave,
)
