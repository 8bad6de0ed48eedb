"""Abbey & Mayor: text notation, event sentences, views and the text board."""
from __future__ import annotations

import re

from ....i18n import _
from ...features import label_of, sid_at
from ...notation import (EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, cities, examples_now, parse_error, points, seat,
                         seats, segment)
from ...words import localize
from .abbey import describe_abbey, holes
from .common import BARN, FIGURES, WAGON, _mine, left
from .wagon import describe_wagon, legal_wagon

_XY = r"\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?"
_ABBEY = re.compile(rf"^\s*(?:place\s+)?abbey\s+{_XY}\s*(.*?)\s*$", re.IGNORECASE)
_DRAW = re.compile(r"^\s*(?:draw|no\s+abbey|abbey\s+(?:pass|no|none))\s*$", re.IGNORECASE)
_WAGON = re.compile(rf"^\s*wagon\s+{_XY}\s*(.*?)\s*$", re.IGNORECASE)
_HOME = re.compile(r"^\s*(?:wagon\s+(?:home|back|return|supply)|wagon\s+pass)\s*$", re.IGNORECASE)
_BARN = re.compile(r"^(.*?)\s+barn\s+(?:corner\s+)?(NE|NW|SE|SW)\s*$", re.IGNORECASE)


def _bad(game, state, player, code, msg, expected, fallback):
    return parse_error(code, msg, expected, examples_now(game, state, player, fallback))


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    if _DRAW.match(t):
        return {"type": "abbey", "pass": True}
    if _HOME.match(t):
        return {"type": WAGON, "home": True}
    m = _ABBEY.match(t)
    if m:
        move = {"type": "abbey", "x": int(m.group(1)), "y": int(m.group(2))}
        words = [w.lower() for w in m.group(3).split()]
        if words:
            figure = {"monk": "follower", "follower": "follower", "big": "big", "wagon": WAGON}.get(words[0])
            if figure is None or any(w not in ("cloister", "monastery", "abbey", "monk") for w in words[1:]):
                raise _bad(game, state, player, "bad_abbey", _("could not read “{text}”", text=text.strip()[:60]),
                           "abbey X,Y [monk | big | wagon] | draw", ["draw", "abbey 1,1 monk"])
            move.update(figure=figure, on="cloister")
        return move
    m = _WAGON.match(t)
    if m:
        words = [w.lower() for w in m.group(3).split()]
        kinds = {"road": "road", "city": "city", "cloister": "cloister", "monastery": "cloister",
                 "abbey": "cloister", "shrine": "cloister"}
        if not words or words[0] not in kinds or (kinds[words[0]] != "cloister" and len(words) != 2) \
                or (kinds[words[0]] == "cloister" and len(words) != 1):
            raise _bad(game, state, player, "bad_wagon", _("could not read “{text}”", text=text.strip()[:60]),
                       "wagon X,Y road EDGE | wagon X,Y city EDGE | wagon X,Y cloister | wagon home",
                       ["wagon home", "wagon 1,0 road E"])
        label = "cloister" if kinds[words[0]] == "cloister" else f"{kinds[words[0]]} {words[1].upper()}"
        x, y = int(m.group(1)), int(m.group(2))
        if state is not None and (x, y) in state.board:
            sid = sid_at(state, (x, y), label)
            if sid is not None:
                label = label_of(state, sid)[2]
        return {"type": WAGON, "x": x, "y": y, "on": label}
    m = _BARN.match(t)
    if m and re.match(r"^\s*(?:place|play|put|tile)?\s*\(?\s*-?\d", m.group(1), re.IGNORECASE):
        from ...notation import parse_move
        move = parse_move(game, m.group(1), state, player)
        if move.get("figure"):
            raise _bad(game, state, player, "two_figures", _("one figure per move"), "place X,Y rR barn CORNER",
                       ["place 1,1 r0 barn NE"])
        move.update(figure=BARN, on=f"corner {m.group(2).upper()}")
        return move
    return None




MOVE_TEXTS["abbey"] = describe_abbey
MOVE_TEXTS[WAGON] = describe_wagon


def _barn_scored(e) -> str:
    args = dict(on=segment(e["on"]), at=at(e["x"], e["y"]), cities=cities(e["cities"]), points=points(e["points"]),
                players=seats(e["winners"]))
    if e["winners"]:
        return _("Barn in {on} at {at} ({cities}): {points} to {players}.", **args)
    return _("Barn in {on} at {at} ({cities}): nobody scores.", **args)


EVENT_TEXTS.update(
    AbbeyOffered=lambda e: (_("{player} may place the abbey instead of drawing (end round).", player=seat(e["player"]))
                            if e.get("final") else
                            _("{player} may place the abbey instead of drawing.", player=seat(e["player"]))),
    AbbeyDeclined=lambda e: _("{player} keeps the abbey.", player=seat(e["player"])),
    AbbeyTaken=lambda e: _("{player} takes the abbey instead of drawing.", player=seat(e["player"])),
    AbbeyRoundStarted=lambda e: _("The pile is empty: an end round of abbeys for {players}.",
                                  players=seats(e["seats"])),
    AbbeyRoundSkipped=lambda e: _("{player} has no hole for the abbey.", player=seat(e["player"])),
    BarnFarmersScored=lambda e: _("The barn's {on} at {at} ({cities}): {points} to {player}'s farmers.",
                                  on=segment(e["on"]), at=at(e["x"], e["y"]), cities=cities(e["cities"]),
                                  points=points(e["points"]), player=seat(e["winners"][0])),
    BarnScored=_barn_scored,
    WagonOffered=lambda e: _("{player} may move the wagon from {on} at {at}.", player=seat(e["player"]),
                             on=segment(e["at"][3]), at=at(e["at"][1], e["at"][2])),
    WagonReturned=lambda e: _("{player}'s wagon goes home.", player=seat(e["player"])),
    WagonMoved=lambda e: _("{player}'s wagon moves to {on} at {at}.", player=seat(e["player"]), on=segment(e["on"]),
                           at=at(e["x"], e["y"])),
)


# -- views ----------------------------------------------------------------------------


def _view(state, viewer, view: dict) -> None:
    for f in FIGURES:
        view[f"{f}s" if f != "abbey" else "abbeys"] = [left(state, p, f) for p in range(state.players)]
    mine = _mine(state)
    if mine.get("wagon_at"):
        p, x, y, label = mine["wagon_at"]
        view["wagon_decision"] = {"player": p, "x": x, "y": y, "on": label}
    if mine.get("round") is not None:
        view["abbey_round"] = list(mine["round"])


def _render(state, viewer) -> list:
    lines = [_("Abbeys, mayors, wagons, barns in supply: {list}", list=_(", ").join(
        _("{player} {n}", player=seat(p), n="/".join(str(left(state, p, f)) for f in FIGURES))
        for p in range(state.players)))]
    for p, owed in sorted(state.pending.items()):
        if owed == "abbey":
            lines.append(_("{player} may place the abbey at: {cells} (or {draw}).", player=seat(p),
                           cells=", ".join(at(x, y) for x, y in holes(state)), draw=localize("draw")))
        elif owed == WAGON:
            lines.append(_("{player} moves the wagon: {moves}", player=seat(p), moves=", ".join(
                localize(describe_wagon(m)) for m in legal_wagon(state, p))))
    return lines


OWED_TEXTS.update(
    abbey=lambda state, player: _("may place the abbey instead of drawing (or pass)"),
    wagon=lambda state, player: _("may move a wagon (or pass)"),
)
