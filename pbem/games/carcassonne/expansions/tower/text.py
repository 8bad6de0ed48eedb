"""The Tower: text notation, event sentences, views and the text board.

The help's lines (``notation.help_for``; a line naming a figure only where
that figure is in play):

    tower X,Y                         step 5: a floor on the tower at X,Y
                                      (then you may capture)
    tower X,Y top                     step 5: your follower on top closes it
    tower X,Y top big                 ... your big follower
    capture X,Y road E seat P         when offered: the follower the tower
                                      takes (seat P's, on that segment)
    capture X,Y tower seat P          ... the one on top of the tower at X,Y
    capture X,Y road E seat P big     ... seat P's big follower there
    capture X,Y road E seat P mayor   ... seat P's mayor (or wagon)
    capture none                      ... or nobody (also: pass)
    exchange follower                 when offered: which of yours comes back
    exchange big                      ... your big follower
    exchange mayor                    ... your mayor (exchange wagon)
    ransom seat P                     in your turn, once: 3 points to seat P
                                      for your follower it holds
    ransom seat P big                 ... for your big follower
    ransom seat P mayor               ... your mayor (ransom seat P wagon)
"""
from __future__ import annotations

import re

from ....base import ParseError
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, figure_name
from ...segwords import XY, segment_words
from .prisoners import EXCHANGE, RANSOM, legal_exchange
from .state import mine
from .towers import CAPTURE, foundations, height, top

_FIG = r"(?:\s+(follower|big|mayor|wagon))?"
_TOWER = re.compile(r"^\s*tower\s+" + XY + r"(?:\s+(top)" + _FIG + r")?\s*$", re.IGNORECASE)
_CAPTURE = re.compile(r"^\s*capture\s+" + XY + r"\s+(.*?)\s+seat\s+(\d+)" + _FIG + r"\s*$", re.IGNORECASE)
_NO_CAPTURE = re.compile(r"^\s*(?:capture\s+(?:none|nobody|pass)|no\s+capture)\s*$", re.IGNORECASE)
_EXCHANGE = re.compile(r"^\s*exchange" + _FIG + r"\s*$", re.IGNORECASE)
_RANSOM = re.compile(r"^\s*ransom\s+seat\s+(\d+)" + _FIG + r"\s*$", re.IGNORECASE)


def _bad(game, state, player, code, expected):
    return ParseError(code, f"could not read {expected.split()[0]!r}", expected=expected,
                      examples=[game.describe(m) for m in game.legal_moves(state, player)[:4]] or [expected])


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    if _NO_CAPTURE.match(t):
        return {"type": CAPTURE, "pass": True}
    m = _TOWER.match(t)
    if m:
        move = {"type": "action", "do": "tower", "x": int(m.group(1)), "y": int(m.group(2))}
        if m.group(3):
            move["top"] = (m.group(4) or "follower").lower()
        return move
    m = _CAPTURE.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        words = m.group(3).lower().split()
        if words == ["tower"]:
            label = "tower"
        else:
            label, rest = segment_words(words, state, (x, y))
            if label is None or rest:
                raise _bad(game, state, player, "bad_capture", "capture X,Y road E seat P")
        return {"type": CAPTURE, "x": x, "y": y, "on": label, "player": int(m.group(4)),
                "figure": (m.group(5) or "follower").lower()}
    m = _EXCHANGE.match(t)
    if m:
        figure = m.group(1)
        if figure is None:
            options = legal_exchange(state, player) if state is not None else []
            figure = options[0]["figure"] if options else "follower"
        return {"type": EXCHANGE, "figure": figure.lower()}
    m = _RANSOM.match(t)
    if m:
        return {"type": RANSOM, "from": int(m.group(1)), "figure": (m.group(2) or "follower").lower()}
    word = t.strip().split()[0].lower() if t.strip() else ""
    if word == "tower":
        raise _bad(game, state, player, "bad_tower", "tower X,Y [top]")
    if word == "capture":
        raise _bad(game, state, player, "bad_capture", "capture X,Y road E seat P")
    if word == "exchange":
        raise _bad(game, state, player, "bad_exchange", "exchange big")
    if word == "ransom":
        raise _bad(game, state, player, "bad_ransom", "ransom seat P")
    return None


def _fig(figure) -> str:
    return "" if figure == "follower" else f" {figure}"


def describe_capture(move: dict) -> str:
    if move.get("pass"):
        return "capture none"
    return f"capture {move.get('x')},{move.get('y')} {move.get('on')} seat {move.get('player')}{_fig(move.get('figure'))}"


MOVE_TEXTS[CAPTURE] = describe_capture
MOVE_TEXTS[EXCHANGE] = lambda m: f"exchange {m.get('figure')}"
MOVE_TEXTS[RANSOM] = lambda m: f"ransom seat {m.get('from')}{_fig(m.get('figure'))}"
EVENT_TEXTS.update(
    TowerBuilt=lambda e: f"seat {e['player']} builds the tower at {e['x']},{e['y']} to height {e['height']}.",
    TowerClosed=lambda e: f"seat {e['player']}'s {figure_name(e['figure'])} closes the tower at {e['x']},{e['y']}.",
    CaptureOffered=lambda e: f"seat {e['player']} may capture a follower within {e['height']} of {e['x']},{e['y']}.",
    CaptureDeclined=lambda e: f"seat {e['player']} captures nobody.",
    FollowerCaptured=lambda e: (f"seat {e['captor']} captures seat {e['player']}'s {figure_name(e['figure'])} on {e['on']} at "
                                f"{e['x']},{e['y']}" + (" (it goes home)." if e["captor"] == e["player"] else ".")),
    ExchangeOffered=lambda e: f"seat {e['player']} is to choose which follower seat {e['owner']} sends back.",
    PrisonersExchanged=lambda e: (f"Prisoners exchanged: seat {e['players'][0]}'s {figure_name(e['figures'][0])} "
                                  f"and seat {e['players'][1]}'s {figure_name(e['figures'][1])} go home."),
    RansomPaid=lambda e: (f"seat {e['player']} pays {e['points']} points to seat {e['from']}: seat {e['player']}'s "
                          f"{figure_name(e['figure'])} goes home."),
)


def view(state, viewer, view: dict) -> None:
    m = mine(state)
    view["tower"] = {
        "pieces": list(m["pieces"]),
        "towers": [{"x": x, "y": y, "height": height(state, (x, y)),
                    "top": None if top(state, (x, y)) is None else
                    {"player": top(state, (x, y))[0], "figure": top(state, (x, y))[1]}}
                   for x, y in sorted(foundations(state), key=lambda c: (c[1], c[0]))],
        "prisoners": [{"captor": c, "player": o, "figure": f} for c, o, f in m["prisoners"]],
        "capture": m.get("capture"),
    }


def render(state, viewer) -> list:
    m = mine(state)
    lines = ["Tower floors in supply: " + ", ".join(f"seat {p} {n}" for p, n in enumerate(m["pieces"]))]
    towers = [f"{x},{y} height {height(state, (x, y))}" + (f" closed by seat {top(state, (x, y))[0]}"
                                                            if top(state, (x, y)) else "")
              for x, y in sorted(foundations(state), key=lambda c: (c[1], c[0]))]
    if towers:
        lines.append("Towers: " + "; ".join(towers))
    if m["prisoners"]:
        lines.append("Prisoners: " + "; ".join(f"seat {c} holds seat {o}'s {f}" for c, o, f in m["prisoners"]))
    return lines


def _owed_capture(state, player: int) -> str:
    c = mine(state)["capture"]
    return (f"may capture a follower within {c['height']} of the tower at {c['x']},{c['y']}: "
            "capture X,Y FEATURE seat P (where it stands, whose it is), or capture none")


def _owed_exchange(state, player: int) -> str:
    figures = [f"exchange {mv['figure']}" for mv in legal_exchange(state, player)]
    return (f"exchanges prisoners with seat {mine(state)['exchange']['owner']} and chooses which of its own comes "
            "back: " + ", ".join(figures))


OWED_TEXTS.update(capture=_owed_capture, exchange=_owed_exchange)
