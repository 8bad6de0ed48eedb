"""The Tunnel: text notation, event sentences, the view and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["tunnel"]``) lists it:

    tunnel X,Y road E red         when offered: a token of that colour on the
                                  tunnel mouth of that road
    no tunnel                     ... or none (also: pass)
"""
from __future__ import annotations

import re

from ....i18n import N_, _
from ...glyphs import EDGE_ANCHOR, EDGE_CELLS, INNER
from ...notation import (EVENT_TEXTS, EXPANSION_TEXT, MOVE_TEXTS, OWED_TEXTS, at, examples_now,
                         parse_error, seat, segment)
from ...segwords import XY, segment_words
from ...words import localize
from ...orient import oriented
from .tokens import COLOURS, TUNNEL, colour_name, colours_of, left, mine, tunnel_moves

_TUNNEL = re.compile(r"^\s*tunnel\s+" + XY + r"\s+(.*?)\s*$", re.IGNORECASE)
_NO = re.compile(r"^\s*(?:no\s+tunnel|tunnel\s+(?:pass|none|no))\s*$", re.IGNORECASE)
_EXAMPLES = ["tunnel 1,0 road E red", "no tunnel"]


def parse(game, text: str, state, player):
    if _NO.match(text):
        return {"type": TUNNEL, "pass": True}
    m = _TUNNEL.match(text.replace("\u2212", "-"))
    if not m:
        if text.strip().lower().startswith(TUNNEL):
            raise parse_error("bad_tunnel", _("could not read “{value}”", value=text.strip()[:60]),
                              "tunnel X,Y road E COLOUR | no tunnel", examples_now(game, state, player, _EXAMPLES))
        return None
    x, y = int(m.group(1)), int(m.group(2))
    words = m.group(3).lower().split()
    colour = words.pop() if words and words[-1] in COLOURS else None
    label, rest = segment_words(words, state, (x, y))
    if label is None and len(words) == 1 and words[0].upper() in ("N", "E", "S", "W"):
        label, rest = f"road {words[0].upper()}", []
    if label is None or rest or colour is None:
        raise parse_error("bad_tunnel", _("name the mouth's road and a colour ({colours}): {move}",
                                          colours=", ".join(localize(c) for c in COLOURS),
                                          move=localize("tunnel 1,0 road E red")),
                          "tunnel X,Y road E COLOUR | no tunnel", examples_now(game, state, player, _EXAMPLES))
    return {"type": TUNNEL, "x": x, "y": y, "on": label, "colour": colour}


def describe(move: dict) -> str:
    if move.get("pass"):
        return "no tunnel"
    return f"tunnel {move.get('x')},{move.get('y')} {move.get('on')} {move.get('colour')}"


def _placed_text(e) -> str:
    if "joins" in e:
        j = e["joins"]
        return _("{player} places a {colour} tunnel token on {on} at {at}: the road joins {other} at {other_at} "
                 "underground.", player=seat(e["player"]), colour=colour_name(e["colour"]), on=segment(e["on"]),
                 at=at(e["x"], e["y"]), other=segment(j[2]), other_at=at(j[0], j[1]))
    return _("{player} places a {colour} tunnel token on {on} at {at}.", player=seat(e["player"]),
             colour=colour_name(e["colour"]), on=segment(e["on"]), at=at(e["x"], e["y"]))


MOVE_TEXTS[TUNNEL] = describe
EVENT_TEXTS.update(
    TunnelOffered=lambda e: _("{player} may place a tunnel token.", player=seat(e["player"])),
    TunnelDeclined=lambda e: _("{player} places no tunnel token.", player=seat(e["player"])),
    TunnelTokenPlaced=_placed_text)
OWED_TEXTS[TUNNEL] = lambda state, player: _("may place a tunnel token on a free tunnel mouth (or pass)")
EXPANSION_TEXT[TUNNEL] = (N_("The Tunnel"), (
    ("tunnel X,Y road E red", N_("when offered: a token of that colour (red, blue, green, yellow, black, grey: "
                                 "one you hold) on the tunnel mouth of that road")),
    ("no tunnel", N_("... or none (also: pass)")),
), ("tunnel 1,0 road E red", "no tunnel", "pass"))


# -- the view and the text board ---------------------------------------------------------------


def view(state, viewer, out: dict) -> None:
    """``tunnel``: the tokens on the board (``x``, ``y``, ``on``, ``colour``, ``player``: who holds
    the colour), each seat's tokens left by colour and its colours."""
    part = mine(state)
    owner = {COLOURS[c]: p for p in range(state.players) for c in colours_of(state.players, p)}
    out["tunnel"] = {
        "tokens": [{"x": x, "y": y, "on": on, "colour": c, "player": owner.get(c)}
                   for x, y, on, c in part.get("tokens") or ()],
        "supply": [left(state, p) for p in range(state.players)],
    }


#: the text board's marks at the mouths: a token by its colour's letter (none of them a
#: letter the glyphs use already: G is grain, so green is E); a free mouth is the tile's
#: own ``~`` (``glyphs.MOUTH_MARKS``)
TOKEN_CHARS = {"red": "R", "blue": "B", "green": "E", "yellow": "Y", "black": "K", "grey": "A"}
FREE_MOUTH = "~"
BOARD_MARKS = {" ".join(TOKEN_CHARS.values()): N_("tunnel tokens by colour (their letters under the board)")}


def mouth_cells(state, x: int, y: int, label: str) -> tuple:
    """The glyph cells of the mouth of road ``label`` at x,y, nearest the mouth first: the
    road's inner cell, its edge cell (where a thief stands there), then beside the edge."""
    letter, rot, _n = state.board[(x, y)]
    o = oriented(letter, rot)
    d = o.ports[o.label_index[label]][0]
    return (INNER[d], EDGE_ANCHOR[d], *(c for c in EDGE_CELLS[d] if c != EDGE_ANCHOR[d]))


def board_marks(state) -> list:
    """Every token on the board (``Rules.board_marks``): its colour's letter at its mouth,
    over the tile's ``~``."""
    return [(x, y, TOKEN_CHARS[c], mouth_cells(state, x, y, on)) for x, y, on, c in mine(state).get("tokens") or ()]


def legend(state) -> str:
    """The letters of the colours in play, by the seat holding them."""
    return _("Tunnel tokens on the text board: {list}; {free} a free mouth", free=FREE_MOUTH, list=_("; ").join(
        _("{colours} ({player})", player=seat(p), colours=_(", ").join(
            _("{letter} {colour}", letter=TOKEN_CHARS[COLOURS[c]], colour=colour_name(COLOURS[c]))
            for c in colours_of(state.players, p)))
        for p in range(state.players)))


def render(state, viewer) -> list:
    lines = [legend(state)]
    lines += [_("Tunnel tokens in supply: {list}", list=_("; ").join(
        _("{player} {tokens}", player=seat(p), tokens=_(", ").join(
            _("{colour} {n}", colour=colour_name(c), n=n) for c, n in left(state, p).items()))
        for p in range(state.players)))]
    placed = mine(state).get("tokens") or ()
    if placed:
        lines.append(_("Tunnel tokens on the board: {list}", list=_("; ").join(
            _("{colour} on {on} at {at}", colour=colour_name(c), on=segment(on), at=at(x, y))
            for x, y, on, c in placed)))
    for p, owed in sorted(state.pending.items()):
        if owed == TUNNEL:
            moves = [localize(describe(m)) for m in tunnel_moves(state, p)]
            shown = ", ".join(moves[:6]) + (", …" if len(moves) > 6 else "")
            lines.append(_("{player} may place a tunnel token: {moves}, or {none}.", player=seat(p),
                           moves=shown, none=localize("no tunnel")))
    return lines
