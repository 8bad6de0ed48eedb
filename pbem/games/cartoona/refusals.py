"""Why a Cartoona move is refused, in words, with legal moves in notation.

``moves.validate`` accepts a move only if it is one of the legal ones; when
it is not, this module says why: ``not_now`` (no move of that type is legal
now: whose turn it is, what the turn waits for) or ``illegal_<type>`` (this
one is not: the tile is not in the hand, the creature is not yours, the
card may not be played out of turn...), and what may be done instead, as
the player would type it. Seats are numbers here: the rules do not know
the players' names.
"""
from __future__ import annotations

from . import creatures as cr
from .data import C_KIND, T_PART, T_VARIANT
from .rules import creature_of_tile, same_team, team_game

#: what a move type does, for the messages
DOING = {"place_tile": "place a tile", "discard_tile": "discard a tile", "score": "score a creature",
         "end_turn": "end the turn", "pass": "pass", "play_card": "play a card", "block": "block",
         "keep": "keep a drawn tile", "cheat": "steal in secret", "call_cheat": "call cheat",
         "set_order": "set a standing order", "draw": "draw a tile", "take": "take a tile",
         "pool_tile": "put a tile in the centre", "remove_tile": "move a tile to the centre"}


def _seat(q) -> str:
    return f"seat {q}"


def not_your_turn(s, p) -> str:
    """Why ``p`` is not to act at all now."""
    full = s["mode"] == "full"
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < s["n"]:
        return f"there is no {_seat(p)}"
    if full and s["window"] is not None:
        w = s["window"]
        return (f"{_seat(w['player'])}'s card waits for answers from " + ", ".join(map(_seat, w["pending"]))
                + ("; you have answered" if str(p) in w["answers"] else "; it is not yours to answer"))
    if full and s["instant"] is not None:
        return f"{_seat(s['instant']['player'])} is placing the tile an Instant drew"
    why = f"it is {_seat(s['active'])}'s turn"
    if full:
        if p in s["used"]:
            why += "; you have played out of turn this turn already"
        elif p in s["passed"]:
            why += "; you passed on playing out of turn this turn"
        elif "always_pass" in s["orders"][p]:
            why += "; your standing order always_pass is on (on your turn: order always_pass off)"
    return why


def not_now(s, p, kind, blocks_out_of_turn: bool) -> str:
    """Why no ``kind`` move is legal for ``p`` now."""
    full = s["mode"] == "full"
    w = s["window"] if full else None
    if w is not None:
        if p in w["pending"]:
            return f"{_seat(w['player'])}'s card waits for your answer: block with a Block card, or pass"
        return f"a card of {_seat(w['player'])} waits for answers from " + ", ".join(map(_seat, w["pending"]))
    if full and s["instant"] is not None:
        if s["instant"]["player"] == p:
            return "place the tile your Instant drew, or keep it"
        return f"{_seat(s['instant']['player'])} is placing the tile an Instant drew"
    active = s["active"]
    if p != active:
        if not full:
            return f"it is {_seat(active)}'s turn"
        if kind == "block":
            return "there is no card to answer" if blocks_out_of_turn else (
                "a Block is played only during your own turn (out of turn only Instant and Special cards)")
        if kind == "play_card":
            return (f"it is {_seat(active)}'s turn: out of turn you may play only an Instant or a Special card, "
                    "and you hold none you may play now, or you have played out of turn this turn")
        return f"it is {_seat(active)}'s turn (out of turn you may play only Instant and Special cards)"
    if full:
        if kind == "place_tile" and s["placed"]:
            return "you have placed a tile this turn already"
        if kind == "play_card" and s["played"]:
            return "you have played a card this turn already"
        if kind == "play_card":
            return "none of your cards has a target on the table"
        if kind == "score":
            return "none of your creatures is complete"
        if kind in ("block", "keep"):
            return "there is no card to answer" if kind == "block" else "no Instant has drawn a tile"
        if kind == "pass":
            return "it is your turn: end it with 'end turn'"
        if kind == "cheat":
            if any(th["thief"] == p for th in s["thefts"]):
                return "your last secret theft is still open"
            return "you hold no Cheat card" if not s["opts"]["allow_bluff_steal"] else "there is nothing to take"
        if kind == "call_cheat":
            return "there is no theft to call" if not s["thefts"] else "you have called cheat this turn already"
    if s["mode"] in ("basic", "basic_team"):
        phase = s["phase"]
        if kind == "place_tile":
            return "you have placed this turn" if phase != "place" else "no tile of yours fits"
        if kind == "discard_tile":
            return "place a tile first" if phase == "place" else "you have discarded this turn"
        if kind == "end_turn":
            return "place a tile first" if phase == "place" else "discard a tile first"
        if kind == "pass":
            return "you must place a tile when you can"
    if s["mode"] == "kids":
        return "take a tile first (draw, take or remove)" if s["phase"] == "take" else \
            "place the tile you hold, or put it in the centre (pool)"
    return f"you cannot {DOING.get(kind, kind)} now"


def illegal(s, p, move, legal: list) -> str:
    """Why this move of a type that has legal moves now is not one of them."""
    kind = move["type"]
    hand = s["hands"][p] if 0 <= p < s["n"] else []
    if kind in ("place_tile", "discard_tile"):
        tile = move.get("tile")
        offered = {m.get("tile") for m in legal}
        if tile not in offered:
            if s["mode"] == "solo":
                return f"the tile to place is t{s['drawn']}"
            if s["mode"] == "kids":
                return f"the tile you hold is t{s['held']}"
            if s["mode"] == "full" and s["instant"] is not None:
                return f"place the tile your Instant drew, t{s['instant']['tile']}"
            return f"t{tile} is not in your hand (you hold " + (", ".join(f"t{t}" for t in hand) or "none") + ")"
        if kind == "place_tile":
            return _placement(s, p, move)
        return "name a colour the tile has: ... as yellow" if s["mode"] == "solo" else "that is not a legal discard"
    if kind == "score":
        ids = move.get("creatures")
        for cid in ids if isinstance(ids, list) else ():
            c = s["cre"].get(str(cid))
            if c is None:
                return f"there is no creature c{cid}"
            if c["owner"] != p and not (team_game(s) and same_team(s, p, c["owner"])):
                return f"c{cid} is {_seat(c['owner'])}'s"
            if not cr.is_complete(c["tiles"]):
                return f"c{cid} is not complete (open: {' '.join(cr.open_sockets(c['tiles'])) or 'a gap'})"
        return "only your complete creatures score (single-tile creatures up to 3 together)"
    if kind in ("play_card", "block", "cheat"):
        return _card(s, p, move)
    if kind == "call_cheat":
        q = move.get("target")
        if not isinstance(q, int) or not 0 <= q < s["n"]:
            return f"there is no {_seat(q)}"
        if q == p or same_team(s, p, q):
            return "call cheat on an opponent"
        return "name a card of yours to give up if the call is wrong (forfeit kN)"
    if kind == "set_order":
        return "the standing orders are always_pass, block_steal, block_swap and block_minus; each is on or off"
    if kind == "take":
        return "take a tile that is in the centre: " + (", ".join(f"t{t}" for t in s["pool"]) or "(none)")
    if kind == "remove_tile":
        return "move a tile at an end of your creature"
    return "it is not one of the legal ones"


def _placement(s, p, move) -> str:
    tile, ids = move.get("tile"), move.get("creatures")
    if not isinstance(ids, list):
        return "say 'new' or 'on cN'"
    for cid in ids:
        c = s["cre"].get(str(cid))
        if c is None:
            return f"there is no creature c{cid}"
        if c["owner"] != p and not team_game(s):
            return f"c{cid} is {_seat(c['owner'])}'s: build on your own creatures"
        if not cr.fits(tile, c["tiles"]):
            return (f"t{tile} ({T_PART[tile].replace('_', ' ')}) does not fit c{cid}; its open sockets: "
                    + (" ".join(cr.open_sockets(c["tiles"])) or "none"))
    if not ids:
        return "you have as many unfinished creatures as you may (plug this tile into one instead)"
    return "these creatures cannot be joined by this tile"


def _card(s, p, move) -> str:
    kind = move["type"]
    card = move.get("card")
    cards = s["chands"][p] if 0 <= p < s["n"] else []
    if kind == "cheat" and card is None:
        return "a bluff needs the allow_bluff_steal option"
    if card not in cards:
        return f"k{card} is not in your hand (you hold " + (", ".join(f"k{c}" for c in cards) or "none") + ")"
    what = C_KIND[card]
    if kind == "block":
        return f"k{card} is a {what} card, not a Block"
    if kind == "cheat":
        return f"k{card} is a {what} card, not a Cheat" if what != "cheat" else "take a tile of an opponent's creature"
    if p != s["active"] and what not in ("instant", "special"):
        return "out of turn you may play only Instant and Special cards"
    if what == "block":
        return "a Block answers a card: it is played in a reaction window"
    if what == "cheat":
        return "a Cheat card makes a secret theft: cheat tN with kN"
    if what == "instant":
        return "an Instant takes no tile: play kN"
    tile = move.get("tile")
    if tile is None:
        return f"say which tile: play k{card} on tN"
    owner = creature_of_tile(s, tile)
    if owner is None:
        return f"t{tile} is not on the table"
    if what == "steal" and same_team(s, p, owner["owner"]):
        return "steal from an opponent's creature"
    if what == "swap":
        other = move.get("with")
        theirs = creature_of_tile(s, other) if other is not None else None
        if theirs is None:
            return "a Swap names your tile and theirs: play kN on tN with tN"
        if not same_team(s, p, owner["owner"]) or same_team(s, p, theirs["owner"]):
            return "a Swap gives a tile of yours for one of an opponent's"
        if T_VARIANT[tile] != T_VARIANT[other]:
            return f"a Swap exchanges tiles of the same code ({T_VARIANT[tile]} is not {T_VARIANT[other]})"
    if "with" in move and what != "swap":
        return f"only a Swap takes 'with': play k{card} on t{tile}"
    return "that card play is not legal here"
