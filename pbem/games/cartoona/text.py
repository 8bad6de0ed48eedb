"""Cartoona in words, in the reader's language: the notation help, event
sentences, the plain-text board and the result. The notation itself (the
words a move is typed with, both languages) is ``notation.py``; tiles and
cards by what they are, ``names.py``."""
from __future__ import annotations

import unicodedata

from ..base import OMNISCIENT, name_seat
from ..i18n import CHINESE, N_, _, join_words, language, ngettext, pgettext
from .data import C_KIND
from .names import (
    card_name, card_names, colour_name, kind_name, needed_parts, part_name, points, tile_name, tile_names,
)
from .notation import colour_word, describe_move, order_word, word

#: Each way to play as a short title (the board, the picture, the log).
MODE_TITLES = {
    "full": N_("Cartoona"),
    "basic": N_("Cartoona, basic game"),
    "basic_team": N_("Cartoona, basic team game"),
    "solo": N_("Cartoona, solo game"),
    "kids": N_("Cartoona, kids' game"),
}

#: a result's reason in words
END_WORDS = {
    "target": N_("the target score was reached"),
    "tiles_ran_out": N_("the tiles ran out, in the stack and in the discard"),
    "last_tile_drawn": N_("the last tile was drawn"),
    "won": N_("a creature of every colour is complete"),
    "lost": N_("the stack ran out before a creature of every colour was complete"),
    "solo_won": N_("a creature of every colour is complete"),
    "solo_stack_empty": N_("the stack ran out before a creature of every colour was complete"),
    "kids_target": N_("a creature met the goal"),
    "kids_time_up": N_("time is up"),
    "forfeit": N_("a player forfeited"),
}

#: What each standing order does, for the texts saying one was set.
ORDER_WHAT = {
    "always_pass": N_("always pass (never asked to answer a card or to play out of turn)"),
    "block_steal": N_("block every Steal aimed at their side's creatures, while holding a Block"),
    "block_swap": N_("block every Swap aimed at their side's creatures, while holding a Block"),
    "block_minus": N_("block every minus card aimed at their side's creatures, while holding a Block"),
}


def mode_title(mode) -> str:
    return _(MODE_TITLES[mode]) if mode in MODE_TITLES else _(MODE_TITLES["full"])


def end_words(reason) -> str:
    return _(END_WORDS[reason]) if reason in END_WORDS else str(reason or "")


def sentences(*parts) -> str:
    """Whole sentences one after another (Chinese sets none of the spaces)."""
    return ("" if language() == CHINESE else " ").join(p for p in parts if p)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# ---------------------------------------------------------------- help


def _lines(options: dict) -> list:
    """(example, what it does) for every move of this mode and options."""
    w = word
    mode = options.get("mode", "full")
    place_new = (f"{w('place')} t17 {w('new')}", _("start a new creature with tile 17"))
    place_on = (f"{w('place')} t17 {w('on')} c3",
                _("plug tile 17 into creature 3 (on c3+c5: a tile that fits both joins them into one)")
                if options.get("allow_creature_merge", True) else _("plug tile 17 into creature 3"))
    end = (w("end_turn"), _("end your turn"))
    if mode == "full":
        together = f"{w('score')} c4+c6"
        out = [place_new, place_on,
               (f"{w('score')} c3", _("score a complete creature of yours (“{more}”: single-tile creatures "
                                      "together, for a bonus)", more=together)),
               (f"{w('play')} k12 {w('on')} t17", _("play a point card or a Special on a tile; a Steal the same "
                                                    "way, on an opponent's tile")),
               (f"{w('play')} k36 {w('on')} t4 {w('for')} t17",
                _("play a Swap: your tile 4 for an opponent's tile 17 of the same kind")),
               (f"{w('play')} k60", _("play an Instant: draw a tile you may place at once")),
               (f"{w('block')} k52", _("answer a card with a Block")),
               (w("pass"), _("let the card be; out of turn: play nothing more this turn")),
               (w("keep"), _("keep the tile an Instant drew instead of placing it")),
               end,
               (f"{w('order')} {order_word('always_pass')} {w('order_on')}",
                _("a standing order, “{on}” or “{off}”: “{always}” (never asked to answer or to play out of "
                  "turn); “{steal}”, “{swap}”, “{minus}” (block such cards aimed at your side, while you hold "
                  "a Block)", on=w("order_on"), off=w("order_off"), always=order_word("always_pass"),
                  steal=order_word("block_steal"), swap=order_word("block_swap"),
                  minus=order_word("block_minus")))]
        if options.get("cheat_cards"):
            out += [(f"{w('cheat')} t17 {w('using')} k66", _("steal tile 17 in secret with a Cheat card")),
                    (f"{w('cheat')} t17 {w('bluff')}",
                     _("steal it without one: a bluff (25 points off, and every card, if caught)")),
                    (f"{w('call')} {w('seat')} 2 {w('forfeit')} k5",
                     _("call cheat on a player, by name or seat number; the card named last is the one you give "
                       "up if you are wrong"))]
        return out
    if mode in ("basic", "basic_team"):
        out = [place_new, place_on]
        if mode == "basic":
            out.append((f"{w('discard')} t17", _("after placing, discard a tile from your hand, face down")))
        out += [(f"{w('score')} c3", _("score a complete creature")), end]
        if not options.get("basic_must_place", True):
            out.append((w("pass"), _("place nothing this turn")))
        return out
    if mode == "solo":
        blue = colour_word("B")
        return [(f"{w('place')} t17 {w('new')} {w('as')} {blue}",
                 _("start a creature with the drawn tile, in the colour chosen (a two-colour tile has two)")),
                (f"{w('place')} t17 {w('on')} c2 {w('as')} {blue}", _("plug it into the creature of that colour")),
                (f"{w('discard')} t17 {w('as')} {blue}", _("set the drawn tile aside"))]
    return [(w("draw"), _("draw the top tile of the stack, for everyone to see")),
            (f"{w('take')} t17", _("take a tile from the centre")),
            (f"{w('place')} t17 {w('new')}", _("start your creature with the tile you hold")),
            (f"{w('place')} t17 {w('on')} c1", _("plug the tile you hold into your creature")),
            (w("pool"), _("put the tile you hold in the centre")),
            (f"{w('remove')} t17", _("move a tile at an end of your creature to the centre"))]


def help_for(options: dict) -> str:
    """The notation with only the moves of this mode and options, in the
    reader's language, the examples in the notation language."""
    mode = options.get("mode", "full")
    lines = _lines(options)
    column = max(_width(example) for example, _what in lines) + 2
    out = [_("How to write a move: a tile is tN, a creature cN, a card kN, by the numbers the board shows.")
           if mode == "full" else
           _("How to write a move: a tile is tN, a creature cN, by the numbers the board shows.")]
    out += [f"  {example}{' ' * (column - _width(example))}{what}" for example, what in lines]
    if mode == "full":
        out.append(_("Out of turn you may play only Instant and Special cards, and answer another player's card "
                     "with a Block.") if options.get("block_out_of_turn", True) else
                   _("Out of turn you may play only Instant and Special cards; a Block answers only a card played "
                     "during your own turn."))
    out.append(key_text(mode))
    return "\n".join(out)


def examples_for(options: dict) -> list:
    return [example for example, _what in _lines(options)]


def key_text(mode) -> str:
    if mode == "full":
        return _("Tiles read tN (colour, part, the parts it joins; points), cards kN (kind); a move names them "
                 "by tN and kN.")
    return _("Tiles read tN (colour, part, the parts it joins; points); a move names them by tN.")


HELP = help_for({"mode": "full", "cheat_cards": True}) + "\nOther modes: see docs/rules/cartoona.md."


# ---------------------------------------------------------------- events


def order_what(order) -> str:
    return _(ORDER_WHAT[order]) if order in ORDER_WHAT else str(order)


def card_play(who: str, card, kind, tile=None, other=None) -> str:
    """What a card played does, as a sentence (a window waits on it)."""
    c = card_name(card)
    if kind == "steal" and tile is not None:
        return _("{name} played {card} to take {tile}.", name=who, card=c, tile=tile_name(tile))
    if kind == "swap" and tile is not None and other is not None:
        return _("{name} played {card} to swap {tile} for {other}.", name=who, card=c, tile=tile_name(tile),
                 other=tile_name(other))
    if kind == "instant":
        return _("{name} played {card} to draw a tile.", name=who, card=c)
    if tile is not None:
        return _("{name} played {card} on {tile}.", name=who, card=c, tile=tile_name(tile))
    return _("{name} played {card}.", name=who, card=c)


def _creatures_words(ids) -> str:
    return join_words([f"c{x}" for x in ids])


def describe_event(e, viewer, names=None) -> str:
    """An event in words, seats by their players' names (``name_seat``)."""
    t = e["type"]

    def w(q):
        return name_seat(q, names)

    secret = e.get("secret", {})
    p = e.get("player")
    if t == "GameStarted":
        return ngettext("{game} for {n} player began; {name} starts.", "{game} for {n} players began; {name} starts.",
                        e["players"], game=mode_title(e.get("mode")), name=w(e["start"]))
    if t == "TilesShuffled":
        return ngettext("{n} tile was shuffled face down into the stack.",
                        "{n} tiles were shuffled face down into the stack.", e["count"])
    if t == "CardsShuffled":
        return ngettext("{n} card was shuffled face down into the deck.",
                        "{n} cards were shuffled face down into the deck.", e["count"])
    if t == "TilesReshuffled":
        return ngettext("The {n} tile of the discard was shuffled into the stack.",
                        "The {n} tiles of the discard were shuffled into the stack.", e["count"])
    if t == "CardsReshuffled":
        return ngettext("The {n} discarded card was shuffled into the deck.",
                        "The {n} discarded cards were shuffled into the deck.", e["count"])
    if t in ("TilesDealt", "TileDrawn"):
        got = secret.get("tiles")
        if got:
            return _("{name} drew {tiles}.", name=w(p), tiles=tile_names(got))
        return ngettext("{name} drew {n} tile.", "{name} drew {n} tiles.", e["count"], name=w(p))
    if t == "CardsDealt":
        got = secret.get("cards")
        if got:
            return _("{name} drew {cards}.", name=w(p), cards=card_names(got))
        return ngettext("{name} drew {n} card.", "{name} drew {n} cards.", e["count"], name=w(p))
    if t == "CardDrawn":
        if "card" in secret:
            return _("{name} drew {card}.", name=w(p), card=card_name(secret["card"]))
        return _("{name} drew a card.", name=w(p))
    if t == "TilesRanOut":
        return _("No tile is left to draw, in the stack or the discard: this is the last turn.")
    if t == "TurnStarted":
        return _("Turn {turn}: {name} to play.", turn=e["turn"], name=w(p))
    if t == "PhaseChanged":
        if e.get("phase") == "discard":
            return _("Next: discard a tile from the hand, face down.")
        return _("Next: score a complete creature, or end the turn.")
    if t == "TilePlaced":
        return _placed(e, w(p))
    if t == "TileDiscarded":
        tile = e.get("tile", secret.get("tile"))
        if e.get("from") == "drawn":
            return _("{name} set {tile} aside.", name=w(p), tile=tile_name(tile))
        if tile is None:
            return _("{name} discarded a tile face down.", name=w(p))
        return _("{name} discarded {tile} face down.", name=w(p), tile=tile_name(tile))
    if t == "CreatureScored":
        return _scored(e, w)
    if t == "TurnEnded":
        return _("{name} ended the turn.", name=w(p))
    if t == "GameEnded":
        return _("The game is over: {reason}.", reason=end_words(e.get("reason")))
    if t == "CardPlayed":
        out = card_play(w(p), e["card"], e.get("kind"), e.get("tile"), e.get("with"))
        waiting = [w(q) for q in e["responders"]]
        return sentences(out, _("Waiting for {names} to block it or pass.", names=join_words(waiting))
                         if waiting else "")
    if t == "ReactionAnswered":
        if "block" in secret:
            if secret["block"] is None:
                return _("{name} answered: no block.", name=w(p))
            return _("{name} answered with a Block, {card}.", name=w(p), card=card_name(secret["block"]))
        return _("{name} answered.", name=w(p))
    if t == "CardBlocked":
        return _("{name} blocked {owner}'s {card} with {block}; both cards are discarded.", name=w(e["by"]),
                 card=card_name(e["card"]), owner=w(p), block=card_name(e["block"]))
    if t == "CardAttached":
        return _("{card} now lies on {tile}.", card=card_name(e["card"]), tile=tile_name(e["tile"]))
    if t == "TilesSwapped":
        return _("{name} swapped {tile} and {other}.", name=w(p), tile=tile_name(e["tile"]),
                 other=tile_name(e["with"]))
    if t == "TileStolen":
        return sentences(_("{name} stole {tile} from {victim}'s creature c{creature}.", name=w(p),
                           tile=tile_name(e["tile"]), creature=e["creature"], victim=w(e["victim"])),
                         _dropped(e.get("dropped")))
    if t == "InstantDrawn":
        if "tile" in secret:
            return _("{name} drew {tile} with an Instant.", name=w(p), tile=tile_name(secret["tile"]))
        return _("{name} drew a tile with an Instant.", name=w(p))
    if t == "InstantFizzled":
        return _("The Instant found no tile to draw.")
    if t == "InstantKept":
        return _("{name} kept the tile the Instant drew.", name=w(p))
    if t == "OutOfTurnPassed":
        return _("{name} will play nothing more out of turn this turn.", name=w(p))
    if t == "OrderSet":
        if e["on"]:
            return _("{name} set a standing order: {what}.", name=w(p), what=order_what(e["order"]))
        return _("{name} dropped the standing order: {what}.", name=w(p), what=order_what(e["order"]))
    if t == "TileVanished":
        gone = _("{tile} vanished from {victim}'s creature c{creature}!", tile=tile_name(e["tile"]),
                 creature=e["creature"], victim=w(e["victim"]))
        mine = ""
        if "thief" in secret:
            mine = (_("(You took it with {card}.)", card=card_name(secret["card"]))
                    if secret.get("card") is not None else _("(You took it with a bluff, no Cheat card.)"))
        return sentences(gone, _dropped(e.get("dropped")), mine)
    if t == "CheatSafe":
        return _("{name} got away with {tile}: it joins their hand.", name=w(e["thief"]), tile=tile_name(e["tile"]))
    if t == "CheatCaught":
        if e["back"] is not None:
            caught = _("{caller} caught {thief} cheating: {tile} goes back to creature c{creature}.",
                       caller=w(e["caller"]), thief=w(e["thief"]), tile=tile_name(e["tile"]), creature=e["back"])
        else:
            caught = _("{caller} caught {thief} cheating: {tile} goes to {victim}'s hand.",
                       caller=w(e["caller"]), thief=w(e["thief"]), tile=tile_name(e["tile"]),
                       victim=w(e["to_hand"]))
        penalty = _("It was a bluff: {name} loses {points} and discards every card.", name=w(e["thief"]),
                    points=points(e["penalty"])) if e["penalty"] else ""
        return sentences(caught, penalty)
    if t == "CheatCallFailed":
        if e["forfeit"] is not None:
            return _("{caller} wrongly called cheat on {target} and discards {card}.", caller=w(e["caller"]),
                     target=w(e["target"]), card=card_name(e["forfeit"]))
        return _("{caller} wrongly called cheat on {target}.", caller=w(e["caller"]), target=w(e["target"]))
    if t == "SoloTileDrawn":
        return _("{name} drew {tile}.", name=w(p), tile=tile_name(e["tile"]))
    if t == "TileTaken":
        if e.get("source") == "pool":
            return _("{name} took {tile} from the centre.", name=w(p), tile=tile_name(e["tile"]))
        return _("{name} drew {tile} from the stack.", name=w(p), tile=tile_name(e["tile"]))
    if t == "TilePooled":
        return _("{name} put {tile} in the centre.", name=w(p), tile=tile_name(e["tile"]))
    if t == "TileRemoved":
        return _("{name} moved {tile} from their creature to the centre.", name=w(p), tile=tile_name(e["tile"]))
    return t


def _placed(e, who) -> str:
    tile, ids = tile_name(e["tile"]), e["creatures"]
    if "colour" in e:
        colour = colour_name(e["colour"])
        if not ids:
            return _("{name} started the {colour} creature c{creature} with {tile}.", name=who, colour=colour,
                     creature=e["creature"], tile=tile)
        return _("{name} placed {tile} on the {colour} creature c{creature}.", name=who, tile=tile,
                 colour=colour, creature=ids[0])
    if not ids:
        return _("{name} started creature c{creature} with {tile}.", name=who, creature=e["creature"], tile=tile)
    if len(ids) == 1:
        return _("{name} placed {tile} on creature c{creature}.", name=who, tile=tile, creature=ids[0])
    return _("{name} placed {tile}, joining creatures {creatures} into c{creature}.", name=who, tile=tile,
             creatures=_creatures_words(ids), creature=ids[0])


def _scored(e, w) -> str:
    ids, total = e["creatures"], e["points"]
    if len(ids) == 1:
        if "by" in e:
            return ngettext("{name} completed creature c{creature} of {owner}: it scores {n} point.",
                            "{name} completed creature c{creature} of {owner}: it scores {n} points.", total,
                            name=w(e["by"]), creature=ids[0], owner=w(e["player"]))
        return ngettext("{name} scored creature c{creature}: {n} point.", "{name} scored creature c{creature}: "
                        "{n} points.", total, name=w(e["player"]), creature=ids[0])
    if e.get("bonus"):
        return ngettext("{name} scored creatures {creatures} together: {n} point, {bonus} of them a bonus.",
                        "{name} scored creatures {creatures} together: {n} points, {bonus} of them a bonus.",
                        total, name=w(e["player"]), creatures=_creatures_words(ids), bonus=e["bonus"])
    return ngettext("{name} scored creatures {creatures}: {n} point.", "{name} scored creatures {creatures}: "
                    "{n} points.", total, name=w(e["player"]), creatures=_creatures_words(ids))


def _dropped(cards) -> str:
    if not cards:
        return ""
    return ngettext("The card on it is discarded.", "The {n} cards on it are discarded.", len(cards))


def describe(item, viewer, names=None) -> str:
    if not isinstance(item, dict):
        return str(item)
    t = item.get("type", "")
    if t and t[0].isupper():
        return describe_event(item, viewer, names)
    return describe_move(item, names)


# ---------------------------------------------------------------- board


def kids_goal(target) -> str:
    """The kids' goal in words ("a complete creature of at least 4 tiles")."""
    kind, _sep, arg = str(target or "").partition(":")
    if kind == "min_tiles" and arg.isdigit():
        return ngettext("a complete creature of at least {n} tile", "a complete creature of at least {n} tiles",
                        int(arg))
    if kind == "single_colour":
        return _("a complete creature all of one colour")
    if kind == "parts":
        return _("a complete creature with {parts}",
                 parts=join_words([part_name(x) for x in arg.split(",") if x]))
    return str(target)


# A board writes every creature on the table, and most creatures stay as
# they are for many turns, boards and readers: each line is kept, keyed by
# everything it is built from (the reader's language, the creature's view
# as text, its owner's label, the solo heading), so a hit is the very text
# the build would give. Bounded: emptied when full.
_LINES: dict = {}
_LINES_KEPT = 4096


def creature_line(c, who, solo=False) -> str:
    """One creature of the view: whose, its tiles by what they are, and
    whether it is complete (its points) or what it still needs."""
    solo = bool(solo and "colour" in c)
    owner = None if solo else who[c["owner"]]  # (the solo heading names no owner)
    key = (language(), repr(c), owner, solo)
    line = _LINES.get(key)
    if line is None:
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        line = _LINES[key] = _creature_line(c, owner, solo)
    return line


def _creature_line(c, owner, solo) -> str:
    if solo:
        head = _("c{id}, the {colour} creature", id=c["id"], colour=colour_name(c["colour"]))
    else:
        head = _("c{id}, {name}'s creature", id=c["id"], name=owner)
    tiles = [t for _part, t in c["tiles"].items()]  # the view's order: the parts'
    out = [_("{creature}: {tiles}.", creature=head, tiles=tile_names(tiles))]
    if c["complete"]:
        out.append(ngettext("Complete: {n} point.", "Complete: {n} points.", c.get("points", 0)))
    else:
        out.append(_("Not complete, so it scores nothing yet: it still needs {parts}.",
                     parts=join_words(needed_parts(c["tiles"], c["open"])) or pgettext("cartoona", "none")))
    if c.get("cards"):
        on = [_("{card} on t{tile}", card=kind_name(C_KIND[k]), tile=tile) for tile, ks in c["cards"].items()
              for k in ks]
        out.append(_("Cards on it: {cards}.", cards=_(", ").join(on)))
    return sentences(*out)


def render(game, state, viewer, names=None) -> str:
    v = game.view(state, viewer)
    n = v["players"]
    who = [name_seat(q, names) for q in range(n)]
    me = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < n else None
    full = v["mode"] == "full"
    title = mode_title(v["mode"])
    if v["end"] is not None:
        lines = [_("{game}, turn {turn}: the game is over.", game=title, turn=v["turn"])]
    else:
        lines = [_("{game}, turn {turn}: {name}'s turn; to act now: {names}.", game=title, turn=v["turn"],
                   name=who[v["active"]], names=join_words([who[q] for q in v["to_act"]]))]
    lines.append(_("Scores: {scores}.", scores=_(", ").join(f"{who[q]} {x}" for q, x in enumerate(v["scores"]))))
    if "team_scores" in v:
        teams = [_("team {n} ({names}) {score}", n=t + 1, score=x,
                   names=join_words([who[q] for q in range(n) if v["teams"][q] == t]))
                 for t, x in enumerate(v["team_scores"])]
        lines.append(_("Teams: {teams}.", teams=_(", ").join(teams)))
    if v["mode"] in ("full", "basic", "basic_team"):
        lines.append(_("Tiles in hand: {counts}.", counts=_(", ").join(f"{who[q]} {c}"
                                                                       for q, c in enumerate(v["hand_sizes"]))))
        if full:
            lines.append(_("Cards in hand: {counts}.", counts=_(", ").join(f"{who[q]} {c}"
                                                                           for q, c in enumerate(v["card_counts"]))))
    stock = [ngettext("Stack: {n} tile", "Stack: {n} tiles", v["stack"])]
    if "tile_discard" in v:
        stock.append(_("tile discard: {n} face down", n=v["tile_discard"]))
        if v.get("set_aside"):
            stock.append(ngettext("set aside: {n} tile", "set aside: {n} tiles", v["set_aside"]))
    if full:
        stock.append(ngettext("deck: {n} card", "deck: {n} cards", v["deck"]))
    lines.append(_("; ").join(stock))
    if full:
        lines.append(_("Card discard: {cards}.", cards=card_names(v["card_discard"])))
        if v["face_down_cards"]:
            lines.append(ngettext("Face down in the card discard: {n} card.",
                                  "Face down in the card discard: {n} cards.", v["face_down_cards"]))
        if v["end"] is None:
            lines.append(_this_turn(v, who, me))
            out = [who[q] for q in v["out_of_turn_used"]]
            passed = [who[q] for q in v["out_of_turn_passed"]]
            if out:
                lines.append(_("Played out of turn this turn: {names}.", names=join_words(out)))
            if passed:
                lines.append(_("Will play nothing more out of turn this turn: {names}.", names=join_words(passed)))
        if v["target_score"]:
            lines.append(_("The first team to reach {n} points wins at once.", n=v["target_score"])
                         if "team_scores" in v else
                         _("The first to reach {n} points wins at once.", n=v["target_score"]))
    if v["creatures"]:
        lines.append(_("Creatures:"))
    for c in v["creatures"]:
        lines.append("  " + creature_line(c, who, solo=v["mode"] == "solo"))
    if "hand" in v and v["mode"] != "solo" and v["mode"] != "kids":
        lines.append(_("Your tiles: {tiles}.", tiles=tile_names(v["hand"])))
    if "cards" in v:
        lines.append(_("Your cards: {cards}.", cards=card_names(v["cards"])))
    if v.get("window"):
        win = v["window"]
        block = f"{word('block')} kN"
        lines.append(sentences(
            card_play(who[win["player"]], win["card"], win.get("kind"), win.get("tile"), win.get("with")),
            _("Waiting for {names} to answer: “{block}” or “{pass_word}”.",
              names=join_words([who[q] for q in win["pending"]]), block=block, pass_word=word("pass"))))
    if v.get("instant"):
        inst = v["instant"]
        lines.append(_("{name} drew {tile} with an Instant: place it, or keep it.", name=who[inst["player"]],
                       tile=tile_name(inst["tile"])) if "tile" in inst else
                     _("{name} is placing the tile an Instant drew, or keeping it.", name=who[inst["player"]]))
    if v.get("thefts"):
        thefts = [_("{tile} from {victim}'s creature c{creature}", tile=tile_name(th["tile"]),
                    creature=th["creature"], victim=who[th["victim"]]) for th in v["thefts"]]
        thefts = pgettext("cartoona", "; ").join(thefts)
        if v["end"] is None:
            lines.append(_("Secret thefts not yet safe: {thefts}. Call cheat on the thief before the thief's next "
                           "turn.", thefts=thefts))
        else:
            lines.append(_("Secret thefts never caught: {thefts}.", thefts=thefts))
    if v.get("drawn") is not None:
        lines.append(_("Drawn tile: {tile}.", tile=tile_name(v["drawn"])))
    if v["mode"] == "solo" and v.get("discarded"):
        lines.append(_("Set aside: {tiles}.", tiles=tile_names(v["discarded"])))
    if v["mode"] == "kids":
        lines.append(_("Goal: {goal}.", goal=kids_goal(v["target"])))
        lines.append(_("In the centre: {tiles}.", tiles=tile_names(v["pool"])))
        if v["held"] is not None:
            lines.append(_("{name} holds {tile}.", name=who[v["active"]], tile=tile_name(v["held"])))
    if viewer == OMNISCIENT and "hands" in v:
        for q, h in enumerate(v["hands"]):
            lines.append(_("{name}'s tiles: {tiles}.", name=who[q], tiles=tile_names(h)))
    if v["end"] is not None:
        lines.append(game.describe_result(game.result(state), names))
    lines.append(key_text(v["mode"]))
    return "\n".join(lines)


def _this_turn(v, who, me) -> str:
    name = who[v["active"]]
    if me == v["active"]:
        name = _("{name} (you)", name=name)
    if v["placed"] and v["played"]:
        return _("This turn {name} has placed a tile and played a card.", name=name)
    if v["placed"]:
        return _("This turn {name} has placed a tile and not played a card yet.", name=name)
    if v["played"]:
        return _("This turn {name} has played a card and not placed a tile yet.", name=name)
    return _("This turn {name} has neither placed a tile nor played a card yet.", name=name)

