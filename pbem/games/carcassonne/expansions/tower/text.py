"""The Tower: text notation, event sentences, views and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["tower"]``, in the reader's
language: ``words.localize``) lists it:

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

from ....i18n import _, ngettext
from ...notation import (EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, figure_name, parse_error, points,
                         seat, segment)
from ...segwords import XY, segment_words
from ...words import localize
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
    return parse_error(code, _("could not read this move; it is written {expected}", expected=localize(expected)),
                       expected, examples_now(game, state, player, [expected]))


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


def _captured(e) -> str:
    args = dict(captor=seat(e["captor"]), player=seat(e["player"]), figure=figure_name(e["figure"]),
                on=segment(e["on"]), at=at(e["x"], e["y"]))
    if e["captor"] == e["player"]:
        return _("{captor} captures their own {figure} on {on} at {at}: it goes home.", **args)
    return _("{captor} captures {player}'s {figure} on {on} at {at}.", **args)


EVENT_TEXTS.update(
    TowerBuilt=lambda e: _("{player} builds the tower at {at} to height {height}.", player=seat(e["player"]),
                           at=at(e["x"], e["y"]), height=e["height"]),
    TowerClosed=lambda e: _("{player}'s {figure} closes the tower at {at}.", player=seat(e["player"]),
                            figure=figure_name(e["figure"]), at=at(e["x"], e["y"])),
    CaptureOffered=lambda e: ngettext("{player} may capture a follower at most {n} tile from the tower at {at}.",
                                      "{player} may capture a follower at most {n} tiles from the tower at {at}.",
                                      e["height"], player=seat(e["player"]), at=at(e["x"], e["y"])),
    CaptureDeclined=lambda e: _("{player} captures nobody.", player=seat(e["player"])),
    FollowerCaptured=_captured,
    ExchangeOffered=lambda e: _("{player} is to choose which of their followers {owner} sends back.",
                                player=seat(e["player"]), owner=seat(e["owner"])),
    PrisonersExchanged=lambda e: _("Prisoners exchanged: {first}'s {first_figure} and {second}'s {second_figure} "
                                   "go home.", first=seat(e["players"][0]), first_figure=figure_name(e["figures"][0]),
                                   second=seat(e["players"][1]), second_figure=figure_name(e["figures"][1])),
    RansomPaid=lambda e: _("{player} pays {points} to {captor}: {player}'s {figure} goes home.",
                           player=seat(e["player"]), points=points(e["points"]), captor=seat(e["from"]),
                           figure=figure_name(e["figure"])),
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
    lines = [_("Tower floors in supply: {list}", list=_(", ").join(
        _("{player} {n}", player=seat(p), n=n) for p, n in enumerate(m["pieces"])))]
    towers = []
    for x, y in sorted(foundations(state), key=lambda c: (c[1], c[0])):
        closed = top(state, (x, y))
        towers.append(_("{at} height {height}, closed by {player}", at=at(x, y), height=height(state, (x, y)),
                        player=seat(closed[0])) if closed else
                      _("{at} height {height}", at=at(x, y), height=height(state, (x, y))))
    if towers:
        lines.append(_("Towers: {list}", list=_("; ").join(towers)))
    if m["prisoners"]:
        lines.append(_("Prisoners: {list}", list=_("; ").join(
            _("{captor} holds {player}'s {figure}", captor=seat(c), player=seat(o), figure=figure_name(f))
            for c, o, f in m["prisoners"])))
    return lines


def _owed_capture(state, player: int) -> str:
    c = mine(state)["capture"]
    return ngettext("may capture a follower at most {n} tile from the tower at {at}: {capture} (where it stands, "
                    "whose it is), or {none}",
                    "may capture a follower at most {n} tiles from the tower at {at}: {capture} (where it stands, "
                    "whose it is), or {none}", c["height"], at=at(c["x"], c["y"]),
                    capture=localize("capture X,Y road E seat P"), none=localize("capture none"))


def _owed_exchange(state, player: int) -> str:
    figures = [localize(f"exchange {mv['figure']}") for mv in legal_exchange(state, player)]
    return _("exchanges prisoners with {owner} and chooses which of their own comes back: {moves}",
             owner=seat(mine(state)["exchange"]["owner"]), moves=", ".join(figures))


OWED_TEXTS.update(capture=_owed_capture, exchange=_owed_exchange)
