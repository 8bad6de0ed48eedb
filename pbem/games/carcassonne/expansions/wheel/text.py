"""The Wheel of Fortune: text notation, event sentences, views and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["wheel_of_fortune"]``, in the
reader's language: ``words.localize``) lists it:

    wheel tax                         step 5: a follower from your supply on a
                                      free crown space of that sector (tax,
                                      famine, storm, inquisition, plague)
    plague X,Y road E                 when the Plague strikes: which of your
                                      followers goes home (plague X,Y city N
                                      big: your big follower there)
"""
from __future__ import annotations

import re

from ....i18n import N_, _
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, figure_name, parse_error, seat, seats, \
    segment
from ...segwords import XY, segment_words
from ...words import localize
from .data import CROWNS, HOUSE, SECTORS
from .wheel import PLAGUE, legal_plague, mine, number_of

#: the sectors as the texts name them
SECTOR_NAMES = {"fortune": N_("Fortune"), "tax": N_("Tax"), "famine": N_("Famine"), "storm": N_("Storm"),
                "inquisition": N_("Inquisition"), "plague": N_("Plague")}


def sector_name(name) -> str:
    return _(SECTOR_NAMES[name]) if name in SECTOR_NAMES else str(name)


_SECTOR = "(" + "|".join(SECTORS) + ")"
_WHEEL = re.compile(r"^\s*wheel\s+" + _SECTOR + r"\s*$", re.IGNORECASE)
_PLAGUE = re.compile(r"^\s*plague\s+" + XY + r"\s+(.*?)\s*$", re.IGNORECASE)
_FIGURES = ("follower", "big", "mayor", "wagon")


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    m = _WHEEL.match(t)
    if m:
        return {"type": "action", "do": "wheel", "sector": m.group(1).lower()}
    m = _PLAGUE.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        words = m.group(3).lower().split()
        figure = "follower"
        if words and words[-1] in _FIGURES:
            figure = words.pop()
        label, rest = segment_words(words, state, (x, y))
        if label is None or rest:
            raise parse_error("bad_plague", _("could not read this move; it is written {expected}",
                                              expected=localize("plague X,Y road E")),
                              "plague X,Y road E", examples_now(game, state, player, ["plague 1,0 road E"]))
        return {"type": PLAGUE, "x": x, "y": y, "on": label, "figure": figure}
    word = t.strip().split()[0].lower() if t.strip() else ""
    if word == "wheel":
        raise parse_error("bad_crown", _("could not read this move; it is written {expected}",
                                         expected=localize("wheel tax")),
                          "wheel tax", examples_now(game, state, player, ["wheel tax"]))
    return None


def describe_crown(move: dict) -> str:
    return f"wheel {move.get('sector')}"


def describe_plague(move: dict) -> str:
    figure = move.get("figure")
    return f"plague {move.get('x')},{move.get('y')} {move.get('on')}" + ("" if figure == "follower" else f" {figure}")


MOVE_TEXTS[PLAGUE] = describe_plague


def _points_list(pts) -> str:
    return _(", ").join(_("{player} {points}", player=seat(p), points=f"+{v}") for p, v in enumerate(pts) if v)


EVENT_TEXTS.update(
    WheelTurned=lambda e: _("The tile shows wheel number {n}: the pink pig turns from {old} to {new}.", n=e["number"],
                            old=sector_name(e["previous"]), new=sector_name(e["sector"])),
    WheelEventScored=lambda e: _("{sector}: {list}.", sector=sector_name(e["sector"]), list=_points_list(e["points"])),
    PlagueStruck=lambda e: _("The Plague: {players} each send one of their followers home.",
                             players=seats(e["players"])),
    FollowerPlagued=lambda e: _("The Plague sends {player}'s {figure} on {on} at {at} home.", player=seat(e["player"]),
                                figure=figure_name(e["figure"]), on=segment(e["on"]), at=at(e["x"], e["y"])),
    CrownsScored=lambda e: _("The crowns of {sector}: {players} score {points} each and go home.",
                             sector=sector_name(e["sector"]), players=seats(e["players"]), points=e["points"]),
    CrownTaken=lambda e: _("{player} puts a follower on a crown space of {sector}.", player=seat(e["player"]),
                           sector=sector_name(e["sector"])),
)

OWED_TEXTS[PLAGUE] = lambda state, player: _("must send one of their followers home (the Plague): {moves}",
                                             moves=", ".join(localize(describe_plague(m))
                                                             for m in legal_plague(state, player)[:4]))


def view(state, viewer, view: dict) -> None:
    w = mine(state)
    view["wheel"] = {
        "pig": w["pig"],
        "sectors": [{"sector": s, "crowns": list(w["crowns"].get(s, ()))} for s in SECTORS],
        "tile_number": number_of(state.tile),
        "plague": list(w["plague"]) if w.get("plague") else None,
    }


def _crowns_text(w) -> str:
    parts = []
    for s in SECTORS:
        if not CROWNS[s]:
            continue
        spots = [_("free") if p is None else seat(p) for p in w["crowns"][s]]
        parts.append(_("{sector} {list}", sector=sector_name(s), list=_(", ").join(spots)))
    return _("; ").join(parts)


def render(state, viewer) -> list:
    w = mine(state)
    order = " > ".join(("[" + sector_name(s) + "]") if s == w["pig"] else sector_name(s) for s in SECTORS)
    lines = [_("Wheel of Fortune (house reading), clockwise: {order}; the pink pig stands on {sector}.",
               order=order, sector=sector_name(w["pig"])),
             _("Crown spaces: {list}", list=_crowns_text(w))]
    n = number_of(state.tile)
    if n:
        lines.append(_("The tile in hand shows wheel number {n}.", n=n))
    return lines
