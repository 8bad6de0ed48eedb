"""The Princess & the Dragon: text notation, event sentences, views and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["princess_dragon"]``, in the reader's
language: ``words.localize``) lists it:

    dragon N | E | S | W              the dragon's step, when it is yours
                                      (also dragon X,Y: the tile it moves to)
    fairy X,Y road E                  step 5: the fairy next to your follower
    fairy X,Y road E big              ... next to your big follower
    fairy X,Y road E mayor            ... your mayor (fairy X,Y road E wagon)
    fairy X,Y                         with fairy_placement = on_tile: the
                                      fairy onto a tile with your follower
    princess X,Y city N seat P        step 5: the princess sends seat P's
                                      knight in that city home
    princess X,Y city N seat P big    ... seat P's big follower
    princess X,Y city N seat P mayor  ... seat P's mayor (or wagon)
    portal X,Y follower road E        step 5: a follower through the portal
                                      (portal X,Y farmer NL, portal X,Y cloister)
    portal X,Y big city N             ... the big follower (big farmer NL)
    portal X,Y mayor city N           ... the mayor (portal X,Y wagon road E)
"""
from __future__ import annotations

import re

from ....i18n import N_, _, ngettext
from ...geometry import DELTA, EDGES
from ...notation import (EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, examples_now, figure_name, parse_error, points,
                         seat, seats, segment)
from ...segwords import XY, segment_words
from ...words import localize
from .common import dragon_at, fairy_follower, mine
from .dragon import DRAGON_MOVE, legal_dragon, steps_from
from .fairy import on_followers, on_tile

_DRAGON = re.compile(r"^\s*dragon\s+(?:(n|e|s|w|north|east|south|west)|" + XY + r")\s*$", re.IGNORECASE)
_ACTION = re.compile(r"^\s*(fairy|princess|portal)\s+" + XY + r"\s*(.*?)\s*$", re.IGNORECASE)
_FIGURES = ("follower", "big", "mayor", "wagon")


def _bad(game, state, player, code, expected):
    return parse_error(code, _("could not read this move; it is written {expected}", expected=localize(expected)),
                       expected, examples_now(game, state, player, [expected]))


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    m = _DRAGON.match(t)
    if m:
        if m.group(1):
            return {"type": DRAGON_MOVE, "direction": m.group(1)[0].upper()}
        here = dragon_at(state) if state is not None else None
        cell = (int(m.group(2)), int(m.group(3)))
        for d, (dx, dy) in enumerate(DELTA):
            if here and (here[0] + dx, here[1] + dy) == cell:
                return {"type": DRAGON_MOVE, "direction": EDGES[d]}
        raise _bad(game, state, player, "bad_dragon", "dragon N | E | S | W")
    m = _ACTION.match(t)
    if not m:
        word = t.strip().split()[0].lower() if t.strip() else ""
        if word == "dragon":
            raise _bad(game, state, player, "bad_dragon", "dragon N | E | S | W")
        if word == "fairy":
            raise _bad(game, state, player, "bad_fairy", "fairy X,Y road E")
        if word == "princess":
            raise _bad(game, state, player, "bad_princess", "princess X,Y city N seat P")
        if word == "portal":
            raise _bad(game, state, player, "bad_portal", "portal X,Y follower road E")
        return None
    what, x, y = m.group(1).lower(), int(m.group(2)), int(m.group(3))
    words = m.group(4).lower().split()
    if what == "portal":
        figure = "follower"
        if words and words[0] in (*_FIGURES, "meeple"):
            figure = {"meeple": "follower"}.get(words[0], words[0])
            words = words[1:]
        label, rest = segment_words(words, state, (x, y))
        if label is None or rest:
            raise _bad(game, state, player, "bad_portal", "portal X,Y follower road E")
        return {"type": "action", "do": "portal", "figure": figure, "x": x, "y": y, "on": label}
    if what == "fairy" and not words:           # fairy_placement = on_tile: the tile alone
        return {"type": "action", "do": "fairy", "x": x, "y": y}
    label, rest = segment_words(words, state, (x, y))
    if label is None:
        if what == "fairy":
            raise _bad(game, state, player, "bad_fairy", "fairy X,Y" if state is not None and on_tile(state)
                       else "fairy X,Y road E")
        raise _bad(game, state, player, "bad_princess", "princess X,Y city N seat P")
    if what == "princess":
        if len(rest) < 2 or rest[0] != "seat" or not rest[1].isdigit() or len(rest) > 3 \
                or (len(rest) == 3 and rest[2] not in _FIGURES):
            raise _bad(game, state, player, "bad_princess", "princess X,Y city N seat P [big]")
        figure = rest[2] if len(rest) == 3 else "follower"
        return {"type": "action", "do": "princess", "x": x, "y": y, "on": label, "player": int(rest[1]),
                "figure": figure}
    if len(rest) > 1 or (rest and rest[0] not in _FIGURES):
        raise _bad(game, state, player, "bad_fairy", "fairy X,Y road E [big | mayor | wagon]")
    figure = rest[0] if rest else "follower"
    return {"type": "action", "do": "fairy", "x": x, "y": y, "on": label, "figure": figure}


def describe_dragon(move: dict) -> str:
    return f"dragon {move.get('direction')}"


MOVE_TEXTS[DRAGON_MOVE] = describe_dragon


def _who(items) -> str:
    return _("; ").join(_("{player}'s {figure} on {on} at {at}", player=seat(i["player"]),
                          figure=figure_name(i["figure"]), on=segment(i["on"]), at=at(i["x"], i["y"]))
                        for i in items)


#: the directions as the texts name them
DIRECTIONS = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}


def _fairy_moved(e) -> str:
    if "on" in e:
        return _("{player} moves the fairy next to their {figure} on {on} at {at}.", player=seat(e["player"]),
                 figure=figure_name(e["figure"]), on=segment(e["on"]), at=at(e["x"], e["y"]))
    return _("{player} moves the fairy onto the tile at {at}.", player=seat(e["player"]), at=at(e["x"], e["y"]))


EVENT_TEXTS.update(
    DragonTileSetAside=lambda e: _("Dragon tile {tile} waits until the dragon is in play; {player} draws again.",
                                   tile=e["tile"], player=seat(e["player"])),
    DragonPlaced=lambda e: _("The dragon lands on the volcano at {at}.", at=at(e["x"], e["y"])),
    DragonTilesReturned=lambda e: _("The dragon tiles set aside go back into the pile: {tiles}.",
                                    tiles=", ".join(e["tiles"])),
    DragonFlightStarted=lambda e: _("The dragon takes flight from {at}: up to 6 steps, moved by {players} in "
                                    "turn.", at=at(e["x"], e["y"]), players=seats(e["movers"])),
    DragonStepOwed=lambda e: _("{player} is to move the dragon one step.", player=seat(e["player"])),
    DragonMoved=lambda e: _("{player} moves the dragon {direction} to {at}.", player=seat(e["player"]),
                            direction=_(DIRECTIONS.get(e["direction"], e["direction"])), at=at(e["x"], e["y"])),
    FiguresEaten=lambda e: _("The dragon eats at {at}: {figures}.", at=at(e["x"], e["y"]),
                             figures=_who(e["followers"])),
    DragonFlightEnded=lambda e: ngettext("The dragon's flight ends after {n} step.",
                                         "The dragon's flight ends after {n} steps.", e["steps"]),
    FairyMoved=_fairy_moved,
    FairyScored=lambda e: _("The fairy: {points} to {player}.", points=points(e["points"]), player=seat(e["player"])),
    KnightRemoved=lambda e: _("The princess sends home {figures}.", figures=_who(e["followers"])),
)


def view(state, viewer, view: dict) -> None:
    m = mine(state)
    here = dragon_at(state)
    view["dragon"] = None if here is None else {"x": here[0], "y": here[1]}
    fairy = m.get("fairy")
    view["fairy"] = None if not fairy else {**fairy, "standing_by": (
        bool(on_followers(state)) if fairy.get("on") is None else fairy_follower(state) is not None)}
    flight = m.get("flight")
    view["dragon_flight"] = None if not flight else {
        "movers": list(flight["movers"][flight["steps"]:]), "steps": flight["steps"],
        "visited": [list(c) for c in flight["visited"]],
        "steps_now": [{"direction": d, "x": c[0], "y": c[1]} for d, c in steps_from(state)]}
    view["dragon_tiles_set_aside"] = list(m.get("set_aside") or [])


#: the dragon and the fairy on the text board (``Rules.board_marks``)
BOARD_MARKS = {"&": N_("the dragon"), "f": N_("the fairy")}


def board_marks(state) -> list:
    out = []
    here = dragon_at(state)
    if here is not None:
        out.append((here[0], here[1], "&"))
    fairy = mine(state).get("fairy")
    if fairy:
        out.append((fairy["x"], fairy["y"], "f"))
    return out


def render(state, viewer) -> list:
    here = dragon_at(state)
    lines = [_("Dragon: not in play yet") if here is None else _("Dragon: at {at}", at=at(*here))]
    fairy = mine(state).get("fairy")
    if fairy and fairy.get("on") is None:         # fairy_placement = on_tile
        players = sorted({p for p, _fid in on_followers(state)})
        args = dict(at=at(fairy["x"], fairy["y"]), player=seat(fairy["player"]), players=seats(players))
        lines.append(_("Fairy: on the tile at {at} (moved by {player}); followers there: {players}", **args)
                     if players else _("Fairy: on the tile at {at} (moved by {player}); no follower there", **args))
    elif fairy:
        args = dict(at=at(fairy["x"], fairy["y"]), player=seat(fairy["player"]), figure=figure_name(fairy["figure"]),
                    on=segment(fairy["on"]))
        lines.append(_("Fairy: at {at} by {player}'s {figure} on {on}", **args) if fairy_follower(state) else
                     _("Fairy: at {at}, where {player}'s {figure} on {on} was", **args))
    if mine(state).get("set_aside"):
        lines.append(_("Dragon tiles set aside: {tiles}", tiles=", ".join(mine(state)["set_aside"])))
    return lines


OWED_TEXTS[DRAGON_MOVE] = lambda state, player: _("moves the dragon: {moves}", moves=", ".join(
    localize(describe_dragon(m)) for m in legal_dragon(state, player)))
