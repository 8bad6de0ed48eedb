"""The Princess & the Dragon: text notation, event sentences, views and the text board.

The help's lines (``notation.help_for``; a line naming a figure only where
that figure is in play):

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

from ....base import ParseError
from ...geometry import DELTA, EDGES
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, figure_name
from ...segwords import XY, segment_words
from .common import dragon_at, fairy_follower, mine
from .dragon import DRAGON_MOVE, legal_dragon, steps_from
from .fairy import on_followers, on_tile

_DRAGON = re.compile(r"^\s*dragon\s+(?:(n|e|s|w|north|east|south|west)|" + XY + r")\s*$", re.IGNORECASE)
_ACTION = re.compile(r"^\s*(fairy|princess|portal)\s+" + XY + r"\s*(.*?)\s*$", re.IGNORECASE)
_FIGURES = ("follower", "big", "mayor", "wagon")


def _bad(game, state, player, code, expected):
    return ParseError(code, f"could not read {expected.split()[0]!r}", expected=expected,
                      examples=[game.describe(m) for m in game.legal_moves(state, player)[:4]] or [expected])


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
    return "; ".join(f"seat {i['player']}'s {figure_name(i['figure'])} on {i['on']} at {i['x']},{i['y']}" for i in items)


EVENT_TEXTS.update(
    DragonTileSetAside=lambda e: f"Dragon tile {e['tile']} waits until the dragon is in play; seat "
                                 f"{e['player']} draws again.",
    DragonPlaced=lambda e: f"The dragon lands on the volcano at {e['x']},{e['y']}.",
    DragonTilesReturned=lambda e: "The dragon tiles set aside go back into the pile: " + ", ".join(e["tiles"]) + ".",
    DragonFlightStarted=lambda e: f"The dragon takes flight from {e['x']},{e['y']}: up to 6 steps, by "
                                  + ", ".join(f"seat {p}" for p in e["movers"]) + " in turn.",
    DragonStepOwed=lambda e: f"seat {e['player']} is to move the dragon one step.",
    DragonMoved=lambda e: f"seat {e['player']} moves the dragon {e['direction']} to {e['x']},{e['y']}.",
    FiguresEaten=lambda e: f"The dragon eats at {e['x']},{e['y']}: {_who(e['followers'])}.",
    DragonFlightEnded=lambda e: f"The dragon's flight ends after {e['steps']} step{'s' if e['steps'] != 1 else ''}.",
    FairyMoved=lambda e: f"seat {e['player']} moves the fairy next to seat {e['player']}'s "
                         f"{figure_name(e['figure'])} on {e['on']} at {e['x']},{e['y']}." if "on" in e else
                         f"seat {e['player']} moves the fairy onto the tile at {e['x']},{e['y']}.",
    FairyScored=lambda e: f"The fairy: {e['points']} point{'s' if e['points'] != 1 else ''} to seat {e['player']}.",
    KnightRemoved=lambda e: f"The princess sends home {_who(e['followers'])}.",
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
BOARD_MARKS = {"&": "the dragon", "f": "the fairy"}


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
    lines = ["Dragon: " + ("not in play yet" if here is None else f"at {here[0]},{here[1]}")]
    fairy = mine(state).get("fairy")
    if fairy and fairy.get("on") is None:         # fairy_placement = on_tile
        seats = sorted({p for p, _fid in on_followers(state)})
        lines.append(f"Fairy: on the tile at {fairy['x']},{fairy['y']} (moved by seat {fairy['player']}); "
                     + ("followers there: " + ", ".join(f"seat {p}" for p in seats) if seats else "no follower there"))
    elif fairy:
        by = "" if fairy_follower(state) else " (by nobody)"
        lines.append(f"Fairy: at {fairy['x']},{fairy['y']} by seat {fairy['player']}'s {figure_name(fairy['figure'])} on "
                     f"{fairy['on']}{by}")
    if mine(state).get("set_aside"):
        lines.append("Dragon tiles set aside: " + ", ".join(mine(state)["set_aside"]))
    return lines

OWED_TEXTS[DRAGON_MOVE] = lambda state, player: ("moves the dragon: "
                                                 + ", ".join(describe_dragon(m) for m in legal_dragon(state, player)))
