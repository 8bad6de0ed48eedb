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

from ..i18n import N_, _, join_words, pgettext
from . import creatures as cr
from .data import C_KIND, T_VARIANT
from .names import card_name, needed_parts, tile_name
from .notation import WORDS, colour_word, describe_move, word
from .rules import creature_of_tile, same_team, team_game

#: what a move type does, for the messages ("you cannot place a tile now")
DOING = {"place_tile": N_("place a tile"), "discard_tile": N_("discard a tile"), "score": N_("score a creature"),
         "end_turn": N_("end the turn"), "pass": N_("pass"), "play_card": N_("play a card"),
         "block": N_("block a card"), "keep": N_("keep a drawn tile"), "cheat": N_("steal in secret"),
         "call_cheat": N_("call cheat"), "set_order": N_("set a standing order"), "draw": N_("draw a tile"),
         "take": N_("take a tile"), "pool_tile": N_("put a tile in the centre"),
         "remove_tile": N_("move a tile to the centre")}


def typed(*parts) -> str:
    """A move's form as typed: notation words (by their keys) and ids."""
    return " ".join(word(p) if p in WORDS else p for p in parts)


def doing(kind) -> str:
    return _(DOING[kind]) if kind in DOING else str(kind)


def _seat(q) -> str:
    return _("seat {n}", n=q)


def _seats(qs) -> str:
    return join_words([_seat(q) for q in qs])


def _tiles(tiles) -> str:
    return join_words([f"t{t}" for t in tiles]) if tiles else pgettext("cartoona", "none")


def _cards(cards) -> str:
    return join_words([card_name(c) for c in cards]) if cards else pgettext("cartoona", "none")


def not_your_turn(s, p) -> str:
    """Why ``p`` is not to act at all now."""
    full = s["mode"] == "full"
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < s["n"]:
        return _("There is no {seat}.", seat=_seat(p))
    if full and s["window"] is not None:
        w = s["window"]
        if str(p) in w["answers"]:
            return _("{seat}'s card waits for answers from {seats}; you have answered.",
                     seat=_seat(w["player"]), seats=_seats(w["pending"]))
        return _("{seat}'s card waits for answers from {seats}; it is not yours to answer.",
                 seat=_seat(w["player"]), seats=_seats(w["pending"]))
    if full and s["instant"] is not None:
        return _("{seat} is placing the tile an Instant drew.", seat=_seat(s["instant"]["player"]))
    seat = _seat(s["active"])
    if full:
        if p in s["used"]:
            return _("It is {seat}'s turn; you have played out of turn this turn already.", seat=seat)
        if p in s["passed"]:
            return _("It is {seat}'s turn; you passed on playing out of turn this turn.", seat=seat)
        if "always_pass" in s["orders"][p]:
            return _("It is {seat}'s turn; your standing order to always pass is on (on your turn: {move}).",
                     seat=seat, move=describe_move({"type": "set_order", "order": "always_pass", "on": False}))
    return _("It is {seat}'s turn.", seat=seat)


def not_now(s, p, kind, blocks_out_of_turn: bool) -> str:
    """Why no ``kind`` move is legal for ``p`` now."""
    full = s["mode"] == "full"
    w = s["window"] if full else None
    if w is not None:
        if p in w["pending"]:
            return _("{seat}'s card waits for your answer: “{block}” with a Block card, or “{pass_word}”",
                     seat=_seat(w["player"]), block=typed("block", "kN"), pass_word=word("pass"))
        return _("{seat}'s card waits for answers from {seats}", seat=_seat(w["player"]),
                 seats=_seats(w["pending"]))
    if full and s["instant"] is not None:
        if s["instant"]["player"] == p:
            return _("place the tile your Instant drew, or keep it")
        return _("{seat} is placing the tile an Instant drew", seat=_seat(s["instant"]["player"]))
    active = s["active"]
    if p != active:
        if not full:
            return _("it is {seat}'s turn", seat=_seat(active))
        if kind == "block":
            return _("there is no card to answer") if blocks_out_of_turn else (
                _("a Block is played only during your own turn (out of turn only Instant and Special cards)"))
        if kind == "play_card":
            return _("it is {seat}'s turn: out of turn you may play only an Instant or a Special card, "
                     "and you hold none you may play now, or you have played out of turn this turn",
                     seat=_seat(active))
        return _("it is {seat}'s turn (out of turn you may play only Instant and Special cards)",
                 seat=_seat(active))
    if full:
        if kind == "place_tile" and s["placed"]:
            return _("you have placed a tile this turn already")
        if kind == "play_card" and s["played"]:
            return _("you have played a card this turn already")
        if kind == "play_card":
            return _("none of your cards has a target on the table")
        if kind == "score":
            return _("none of your creatures is complete")
        if kind == "block":
            return _("there is no card to answer")
        if kind == "keep":
            return _("no Instant has drawn a tile")
        if kind == "pass":
            return _("it is your turn: end it with “{move}”", move=word("end_turn"))
        if kind == "cheat":
            if any(th["thief"] == p for th in s["thefts"]):
                return _("your last secret theft is still open")
            return _("you hold no Cheat card") if not s["opts"]["allow_bluff_steal"] else \
                _("there is nothing to take")
        if kind == "call_cheat":
            return _("there is no theft to call") if not s["thefts"] else _("you have called cheat this turn already")
    if s["mode"] in ("basic", "basic_team"):
        phase = s["phase"]
        if kind == "place_tile":
            return _("you have placed a tile this turn") if phase != "place" else _("no tile of yours fits")
        if kind == "discard_tile":
            return _("place a tile first") if phase == "place" else _("you have discarded a tile this turn")
        if kind == "end_turn":
            return _("place a tile first") if phase == "place" else _("discard a tile first")
        if kind == "pass":
            return _("you must place a tile when you can")
    if s["mode"] == "kids":
        if s["phase"] == "take":
            return _("take a tile first: “{draw}”, “{take} tN” or “{remove} tN”", draw=word("draw"),
                     take=word("take"), remove=word("remove"))
        return _("place the tile you hold, or put it in the centre (“{pool}”)", pool=word("pool"))
    return _("you cannot {doing} now", doing=doing(kind))


def illegal(s, p, move, legal: list) -> str:
    """Why this move of a type that has legal moves now is not one of them."""
    kind = move["type"]
    hand = s["hands"][p] if 0 <= p < s["n"] else []
    if kind in ("place_tile", "discard_tile"):
        tile = move.get("tile")
        offered = {m.get("tile") for m in legal}
        if tile not in offered:
            if s["mode"] == "solo":
                return _("the tile to place is {tile}", tile=tile_name(s["drawn"]))
            if s["mode"] == "kids":
                return _("the tile you hold is {tile}", tile=tile_name(s["held"]))
            if s["mode"] == "full" and s["instant"] is not None:
                return _("place the tile your Instant drew, {tile}", tile=tile_name(s["instant"]["tile"]))
            return _("t{tile} is not in your hand (you hold {tiles})", tile=tile, tiles=_tiles(hand))
        if kind == "place_tile":
            return _placement(s, p, move)
        if s["mode"] == "solo":
            return _("name a colour the tile has, like: … {as_word} {colour}", as_word=word("as"),
                     colour=colour_word("Y"))
        return _("that is not a legal discard")
    if kind == "score":
        ids = move.get("creatures")
        for cid in ids if isinstance(ids, list) else ():
            c = s["cre"].get(str(cid))
            if c is None:
                return _("there is no creature c{id}", id=cid)
            if c["owner"] != p and not (team_game(s) and same_team(s, p, c["owner"])):
                return _("c{id} is {seat}'s creature", id=cid, seat=_seat(c["owner"]))
            if not cr.is_complete(c["tiles"]):
                return _("c{id} is not complete: it still needs {parts}", id=cid,
                         parts=join_words(needed_parts(c["tiles"], cr.open_sockets(c["tiles"]))))
        return _("only your complete creatures score (single-tile creatures up to 3 together)")
    if kind in ("play_card", "block", "cheat"):
        return _card(s, p, move)
    if kind == "call_cheat":
        q = move.get("target")
        if not isinstance(q, int) or not 0 <= q < s["n"]:
            return _("there is no {seat}", seat=_seat(q))
        if q == p or same_team(s, p, q):
            return _("call cheat on an opponent")
        return _("name a card of yours to give up if the call is wrong (“{forfeit} kN”)", forfeit=word("forfeit"))
    if kind == "set_order":
        return _("each standing order is on or off")
    if kind == "take":
        return _("take a tile that is in the centre: {tiles}", tiles=_tiles(s["pool"]))
    if kind == "remove_tile":
        return _("move a tile at an end of your creature")
    return _("it is not one of the legal moves")


def _placement(s, p, move) -> str:
    tile, ids = move.get("tile"), move.get("creatures")
    if not isinstance(ids, list):
        return _("say “{new}” or “{on} cN”", new=word("new"), on=word("on"))
    for cid in ids:
        c = s["cre"].get(str(cid))
        if c is None:
            return _("there is no creature c{id}", id=cid)
        if c["owner"] != p and not team_game(s):
            return _("c{id} is {seat}'s creature: build on your own creatures", id=cid, seat=_seat(c["owner"]))
        if not cr.fits(tile, c["tiles"]):
            return _("{tile} does not fit c{id}, which needs {parts}", tile=tile_name(tile), id=cid,
                     parts=join_words(needed_parts(c["tiles"], cr.open_sockets(c["tiles"])))
                     or pgettext("cartoona", "none"))
    if not ids:
        return _("you have as many unfinished creatures as you may (plug this tile into one instead)")
    return _("this tile cannot join these creatures")


def _card(s, p, move) -> str:
    kind = move["type"]
    card = move.get("card")
    cards = s["chands"][p] if 0 <= p < s["n"] else []
    if kind == "cheat" and card is None:
        return _("a bluff is not allowed in this game")
    if card not in cards:
        return _("k{card} is not in your hand (you hold {cards})", card=card, cards=_cards(cards))
    what = C_KIND[card]
    if kind == "block":
        return _("{card} is not a Block", card=card_name(card))
    if kind == "cheat":
        return _("{card} is not a Cheat card", card=card_name(card)) if what != "cheat" else \
            _("take a tile of an opponent's creature")
    if p != s["active"] and what not in ("instant", "special"):
        return _("out of turn you may play only Instant and Special cards")
    if what == "block":
        return _("a Block answers a card another player plays")
    if what == "cheat":
        return _("a Cheat card makes a secret theft: {move}", move=typed("cheat", "tN", "using", "kN"))
    if what == "instant":
        return _("an Instant takes no tile: {move}", move=typed("play", f"k{card}"))
    tile = move.get("tile")
    if tile is None:
        return _("say which tile: {move}", move=typed("play", f"k{card}", "on", "tN"))
    owner = creature_of_tile(s, tile)
    if owner is None:
        return _("t{tile} is not on the table", tile=tile)
    if what == "steal" and same_team(s, p, owner["owner"]):
        return _("steal from an opponent's creature")
    if what == "swap":
        other = move.get("with")
        theirs = creature_of_tile(s, other) if other is not None else None
        if theirs is None:
            return _("a Swap names your tile and theirs: {move}",
                     move=typed("play", f"k{card}", "on", "tN", "for", "tN"))
        if not same_team(s, p, owner["owner"]) or same_team(s, p, theirs["owner"]):
            return _("a Swap gives a tile of yours for one of an opponent's")
        if T_VARIANT[tile] != T_VARIANT[other]:
            return _("a Swap exchanges tiles of the same kind: {tile} and {other} are not",
                     tile=tile_name(tile), other=tile_name(other))
    if "with" in move and what != "swap":
        return _("only a Swap takes a second tile: {move}", move=typed("play", f"k{card}", "on", f"t{tile}"))
    return _("that is not a play {card} allows here", card=card_name(card))
