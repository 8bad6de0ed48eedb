"""Cartoona text notation (what a player types in an email), event sentences
and the plain-text board."""
from __future__ import annotations

import re

from ..base import OMNISCIENT, ParseError, name_seat, seat_from_text
from . import creatures as cr
from .data import C_KIND, C_VALUE, CARD_LABEL, COLOUR_NAMES, T_COLOURS, T_PART, T_VALUE, T_VARIANT
from .rules import ORDERS

#: What a tile's code says: its part, then after the dash the parts it
#: plugs into (its sockets), one letter each.
TILE_CODES = (
    "Tile codes: the part, then the parts it plugs into. HD head: E ears, N nose, K neck\n"
    "(to the body front); BF body front: H head, F front feet, R rear (the body back);\n"
    "BB body back: F front (the body front), B back feet, T tail; EARS, NOSE, FFEET\n"
    "(front feet), BFEET (back feet), TAIL plug into one; SINGLE is a creature alone.\n"
    "HD-ENK is a head with ears, nose and neck sockets.")

_HEAD = ("Cartoona notation: tiles are tN, creatures cN, cards kN. A seat is its player's\n"
         "name or its number from 0.")
_FULL = """\
  place t17 new            start a creature with tile 17
  place t17 on c3          plug tile 17 into creature 3 (on c3+c5 merges two creatures)
  score c3                 score a completed creature (score c4+c6 scores single-tile creatures together)
  play k12 on t17          a point card or a Special on a tile; play k44 on t17: a Steal
  play k36 on t4 with t17  a Swap: your t4 for their t17;  play k60: an Instant
  block with k52 | pass    answer a card played (pass also declines to play out of turn)
  keep                     keep the tile an Instant drew instead of placing it
  end turn
  order always_pass on|off   standing orders: always_pass, block_steal, block_swap, block_minus"""
_CHEAT = """\
  cheat t17 with k66 | cheat t17 bluff      a secret theft (Cheat cards)
  call cheat on Ann forfeit k5              (or: call cheat on seat 2 forfeit k5): the card
                                            you give up if you are wrong"""
_BASIC = """\
  place t17 new            start a creature with tile 17
  place t17 on c3          plug tile 17 into creature 3 (on c3+c5 merges two creatures)
  discard t17              after placing, discard a tile face down
  score c3                 score a completed creature
  end turn"""
_SOLO = """\
  place t17 new as blue    start a creature with the drawn tile, in the colour chosen
  place t17 on c2 as blue  plug it into the creature of that colour
  discard t17 as blue      set the drawn tile aside"""
_KIDS = """\
  draw | take t17          draw a tile, or take one from the centre
  place t17 new | place t17 on c1
  pool                     put the held tile in the centre
  remove t17               move a tile of your creature to the centre"""


#: a result's reason in words
END_WORDS = {
    "target": "the target score was reached", "tiles_ran_out": "the tiles ran out",
    "last_tile_drawn": "the last tile was drawn", "won": "a creature of every colour is complete",
    "lost": "the stack ran out before a creature of every colour was complete",
    "solo_won": "a creature of every colour is complete",
    "solo_stack_empty": "the stack ran out before a creature of every colour was complete",
    "kids_target": "a creature reached the goal", "kids_time_up": "time is up",
    "forfeit": "a seat forfeited",
}


def help_for(options: dict) -> str:
    """The notation with only the moves of this mode and options."""
    mode = options.get("mode", "full")
    parts = [_HEAD]
    if mode == "full":
        parts.append(_FULL)
        if options.get("cheat_cards"):
            parts.append(_CHEAT)
        parts.append("Out of turn you may play only Instant and Special cards"
                     + (", and answer another player's card with a Block." if options.get("block_out_of_turn", True)
                        else "; a Block answers only a card played during your own turn."))
    elif mode in ("basic", "basic_team"):
        parts.append(_BASIC if mode == "basic" else _BASIC.replace(
            "  discard t17              after placing, discard a tile face down\n", ""))
        if not options.get("basic_must_place", True):
            parts.append("  pass                     place nothing this turn")
    elif mode == "solo":
        parts.append(_SOLO)
    else:
        parts.append(_KIDS)
    parts.append(TILE_CODES)
    return "\n".join(parts)


def examples_for(options: dict) -> list:
    mode = options.get("mode", "full")
    if mode == "full":
        out = ["place t17 new", "place t17 on c3", "score c3", "play k12 on t17", "play k36 on t4 with t17",
               "play k60", "block with k52", "pass", "keep", "end turn", "order always_pass on"]
        if options.get("cheat_cards"):
            out += ["cheat t17 with k66", "cheat t17 bluff", "call cheat on seat 2 forfeit k5"]
        return out
    if mode in ("basic", "basic_team"):
        return ["place t17 new", "place t17 on c3", "score c3", "end turn"] + (
            ["discard t17"] if mode == "basic" else [])
    if mode == "solo":
        return ["place t17 new as blue", "place t17 on c2 as blue", "discard t17 as blue"]
    return ["draw", "take t17", "place t17 new", "place t17 on c1", "pool", "remove t17"]


HELP = help_for({"mode": "full", "cheat_cards": True}) + "\nOther modes: see docs/rules/cartoona.md."

COLOUR_WORDS = {"y": "Y", "yellow": "Y", "b": "B", "blue": "B", "m": "M", "magenta": "M",
                "p": "P", "purple": "P"}
EXPECTED = ["place tN new", "place tN on cN", "discard tN", "score cN", "play kN [on tN] [with tN]",
            "block with kN", "pass", "keep", "end turn", "cheat tN with kN", "call cheat on NAME (or seat N)",
            "order NAME on|off", "draw", "take tN", "pool", "remove tN"]


def tile_name(t) -> str:
    if t is None:
        return "a hidden tile"
    colours = "/".join(COLOUR_NAMES[c] for c in T_COLOURS[t]) or "any colour"
    return f"t{t} ({colours} {T_VARIANT[t]}, {T_VALUE[t]})"


def card_name(c) -> str:
    if c is None:
        return "a hidden card"
    return f"k{c} ({CARD_LABEL[C_KIND[c]]})"


def _creatures(ids) -> str:
    return "+".join(f"c{x}" for x in ids)


# ---------------------------------------------------------------- moves


def describe_move(m, names=None) -> str:
    t = m["type"]
    if t == "place_tile":
        where = f"on {_creatures(m['creatures'])}" if m["creatures"] else "new"
        tail = f" as {COLOUR_NAMES[m['colour']]}" if "colour" in m else ""
        return f"place t{m['tile']} {where}{tail}"
    if t == "discard_tile":
        tail = f" as {COLOUR_NAMES[m['colour']]}" if "colour" in m else ""
        return f"discard t{m['tile']}{tail}"
    if t == "score":
        return f"score {_creatures(m['creatures'])}"
    if t == "end_turn":
        return "end turn"
    if t == "pass":
        return "pass"
    if t == "keep":
        return "keep"
    if t == "play_card":
        out = f"play {CARD_LABEL[C_KIND[m['card']]]} k{m['card']}"
        if "tile" in m:
            out += f" on t{m['tile']}"
        if "with" in m:
            out += f" with t{m['with']}"
        return out
    if t == "block":
        return f"block with k{m['card']}"
    if t == "cheat":
        return f"cheat t{m['tile']} " + (f"with k{m['card']}" if m["card"] is not None else "bluff")
    if t == "call_cheat":
        out = f"call cheat on {name_seat(m['target'], names)}"
        return out + (f" forfeit k{m['forfeit']}" if m["forfeit"] is not None else "")
    if t == "set_order":
        return f"order {m['order']} {'on' if m['on'] else 'off'}"
    if t == "draw":
        return "draw"
    if t == "take":
        return f"take t{m['tile']}"
    if t == "pool_tile":
        return "pool"
    if t == "remove_tile":
        return f"remove t{m['tile']}"
    return str(m)


def _fail(game, state, player, code, message, names=None):
    legal = game.legal_moves(state, player)
    raise ParseError(code, message, expected=EXPECTED,
                     examples=[describe_move(m, names) for m in legal[:6]])


def parse(game, text, state, player, names=None):
    def _parse_fail(code, message):
        _fail(game, state, player, code, message, names)

    if not isinstance(text, str):
        _parse_fail("not_text", "a move is a line of text")
    norm = re.sub(r"[,;()\[\]]", " ", text.strip().lower())
    words = norm.split()
    if not words:
        _parse_fail("empty", "no move given")
    cmd = words[0]
    tiles = [int(x) for x in re.findall(r"\bt(\d+)\b", norm)]
    cres = [int(x) for x in re.findall(r"\bc(\d+)\b", norm)]
    cards = [int(x) for x in re.findall(r"\bk(\d+)\b", norm)]
    colour = None
    if " as " in f" {norm} ":
        after = words[words.index("as") + 1:] if "as" in words else []
        if not after or after[0] not in COLOUR_WORDS:
            _parse_fail("bad_colour", "after 'as' name a colour: yellow, blue, magenta or purple")
        colour = COLOUR_WORDS[after[0]]

    def one_tile():
        if len(tiles) != 1:
            _parse_fail("tile_expected", f"'{cmd}' needs exactly one tile, like t17")
        return tiles[0]

    if cmd in ("place", "put", "start", "add"):
        tile = one_tile()
        if "new" in words or cmd == "start":
            cs = []
        elif cres:
            cs = sorted(cres)
        else:
            _parse_fail("creature_expected", "say 'new' or 'on cN' (on c3+c5 to merge)")
        move = {"type": "place_tile", "tile": tile, "creatures": cs}
        if state["mode"] == "solo":
            move["colour"] = colour if colour else _only_colour(game, state, player, tile)
        return move
    if cmd == "discard":
        move = {"type": "discard_tile", "tile": one_tile()}
        if state["mode"] == "solo":
            move["colour"] = colour if colour else _only_colour(game, state, player, move["tile"])
        return move
    if cmd == "score":
        if not cres:
            _parse_fail("creature_expected", "score which creature? like: score c3")
        return {"type": "score", "creatures": sorted(cres)}
    if cmd in ("end", "done", "finish"):
        return {"type": "end_turn"}
    if cmd in ("pass", "no"):
        return {"type": "pass"}
    if cmd == "keep":
        return {"type": "keep"}
    if cmd in ("block",):
        card = cards[0] if cards else _card_of_kind(game, state, player, ("block",))
        return {"type": "block", "card": card}
    if cmd in ("play", "use"):
        if cards:
            card = cards[0]
        else:
            card = _card_of_kind(game, state, player, _kinds_named(words[1:]))
        move = {"type": "play_card", "card": card}
        kind = C_KIND[card] if isinstance(card, int) and 0 <= card < len(C_KIND) else None
        if kind == "swap" and len(tiles) == 2:
            move["tile"], move["with"] = tiles[0], tiles[1]
        elif kind != "instant" and tiles:
            move["tile"] = tiles[0]
            if len(tiles) > 1:
                move["with"] = tiles[1]
        return move
    if cmd == "cheat":
        tile = one_tile()
        if "bluff" in words:
            card = None
        elif cards:
            card = cards[0]
        else:
            card = _card_of_kind(game, state, player, ("cheat",))
        return {"type": "cheat", "tile": tile, "card": card}
    if cmd == "call":
        rest = words[1:]
        rest = rest[1:] if rest[:1] == ["cheat"] else rest
        rest = rest[1:] if rest[:1] in (["on"], ["against"]) else rest
        named = rest[:rest.index("forfeit")] if "forfeit" in rest else rest
        target = seat_from_text(" ".join(named), state["n"], names) if named else None
        if target is None:  # a number out of range, or "seat2": read as written, refused by the rules
            m = re.search(r"(?:seat|player|p|on)\s*(\d+)", norm)
            target = int(m.group(1)) if m else None
        if target is None:
            _parse_fail("seat_expected",
                  "call cheat on whom? a player's name or seat number, like: call cheat on seat 2")
        forfeit = None
        f = re.search(r"forfeit\s+k(\d+)", norm)
        if f:
            forfeit = int(f.group(1))
        elif state["opts"]["false_call_penalty"] == "discard_one" and 0 <= player < state["n"] \
                and any(m["type"] == "call_cheat" and m["forfeit"] is not None
                        for m in game.legal_moves(state, player)):
            _parse_fail("forfeit_expected",
                  "name the card you give up if the call is wrong: call cheat on seat 2 forfeit k5")
        return {"type": "call_cheat", "target": target, "forfeit": forfeit}
    if cmd in ("order", "always"):
        rest = "_".join(w for w in words[1:] if w not in ("on", "off"))
        if cmd == "always":
            rest = "always_" + rest
        name = rest.replace("steals", "steal").replace("swaps", "swap")
        if name not in ORDERS:
            _parse_fail("bad_order", f"standing orders are {', '.join(ORDERS)}")
        on = "off" not in words
        return {"type": "set_order", "order": name, "on": on}
    if cmd == "draw":
        return {"type": "draw"}
    if cmd == "take":
        return {"type": "take", "tile": one_tile()}
    if cmd == "pool":
        return {"type": "pool_tile"}
    if cmd == "remove":
        return {"type": "remove_tile", "tile": one_tile()}
    _parse_fail("unknown_command", f"I do not know the command {cmd!r}")


def _only_colour(game, state, player, tile):
    if isinstance(tile, int) and 0 <= tile < len(T_COLOURS) and len(T_COLOURS[tile]) == 1:
        return T_COLOURS[tile][0]
    _fail(game, state, player, "colour_expected", "a two-colour tile needs a colour: ... as yellow")


KIND_WORDS = {label: kind for kind, label in CARD_LABEL.items()}


def _kinds_named(words):
    for w in words:
        if w in KIND_WORDS:
            return (KIND_WORDS[w],)
    return ()


def _card_of_kind(game, state, player, kinds):
    if kinds and 0 <= player < state["n"]:
        for c in state["chands"][player]:
            if C_KIND[c] in kinds:
                return c
    _fail(game, state, player, "card_expected", "which card? name it like k12"
          + (f" (you hold no {kinds[0]} card)" if kinds else ""))


# ---------------------------------------------------------------- events


def describe_event(e, viewer, names=None) -> str:
    """An event in words, seats by their players' names (``name_seat``)."""
    t = e["type"]

    def W(q):  # a seat at the start of a sentence
        return name_seat(q, names, capital=True)

    def w(q):
        return name_seat(q, names)

    secret = e.get("secret", {})
    p = e.get("player")
    if t == "GameStarted":
        return f"A {e['mode']} game of Cartoona for {e['players']} began; {w(e['start'])} starts."
    if t in ("TilesShuffled", "CardsShuffled", "TilesReshuffled", "CardsReshuffled"):
        what = "tiles" if "Tiles" in t else "cards"
        return f"{e['count']} {what} were shuffled face down."
    if t in ("TilesDealt", "TileDrawn"):
        got = secret.get("tiles")
        shown = ", ".join(tile_name(x) for x in got) if got else f"{e['count']} tile(s)"
        return f"{W(p)} drew {shown}."
    if t == "CardsDealt":
        got = secret.get("cards")
        shown = ", ".join(card_name(x) for x in got) if got else f"{e['count']} card(s)"
        return f"{W(p)} drew {shown}."
    if t == "CardDrawn":
        return f"{W(p)} drew {card_name(secret['card']) if 'card' in secret else 'a card'}."
    if t == "TilesRanOut":
        return "No tile left to draw: the game ends after this turn."
    if t == "TurnStarted":
        return f"Turn {e['turn']}: {w(p)} to play."
    if t == "PhaseChanged":
        return f"Now: {e['phase']}."
    if t == "TilePlaced":
        where = f"on {_creatures(e['creatures'])}" if e["creatures"] else f"as new creature c{e['creature']}"
        col = f" as {COLOUR_NAMES[e['colour']]}" if "colour" in e else ""
        return f"{W(p)} placed {tile_name(e['tile'])} {where}{col}."
    if t == "TileDiscarded":
        tile = e.get("tile", secret.get("tile"))
        return f"{W(p)} discarded " + (tile_name(tile) if tile is not None else "a tile face down") + "."
    if t == "CreatureScored":
        bonus = f" (+{e['bonus']} bonus)" if e.get("bonus") else ""
        return f"{W(p)} scored {_creatures(e['creatures'])} for {e['points']} points{bonus}."
    if t == "TurnEnded":
        return f"{W(p)} ended the turn."
    if t == "GameEnded":
        return f"The game is over ({e['reason']})."
    if t == "CardPlayed":
        out = f"{W(p)} played {card_name(e['card'])}"
        if "tile" in e:
            out += f" on t{e['tile']}"
        if "with" in e:
            out += f" with t{e['with']}"
        waiting = ", ".join(w(q) for q in e["responders"])
        return out + (f"; waiting for block or pass from {waiting}." if waiting else ".")
    if t == "ReactionAnswered":
        if "block" in secret:
            return f"{W(p)} answered: " + (f"block with k{secret['block']}" if secret["block"] is not None
                                                else "pass") + "."
        return f"{W(p)} answered."
    if t == "CardBlocked":
        return f"{W(e['by'])} blocked {card_name(e['card'])} with k{e['block']}."
    if t == "CardAttached":
        return f"{card_name(e['card'])} is now on t{e['tile']}."
    if t == "TilesSwapped":
        return f"{W(p)} swapped t{e['tile']} and t{e['with']}."
    if t == "TileStolen":
        return f"{W(p)} stole t{e['tile']} from c{e['creature']} ({w(e['victim'])})."
    if t == "InstantDrawn":
        return f"{W(p)} drew " + (tile_name(secret["tile"]) if "tile" in secret else "a tile") + " with an Instant."
    if t == "InstantFizzled":
        return "The Instant found no tile to draw."
    if t == "InstantKept":
        return f"{W(p)} kept the drawn tile."
    if t == "OutOfTurnPassed":
        return f"{W(p)} plays nothing out of turn this turn."
    if t == "OrderSet":
        return f"{W(p)} turned standing order {e['order']} {'on' if e['on'] else 'off'}."
    if t == "TileVanished":
        who = f" (you took it with {('k' + str(secret['card'])) if secret.get('card') is not None else 'a bluff'})" \
            if "thief" in secret else ""
        return f"t{e['tile']} vanished from c{e['creature']} ({w(e['victim'])})!{who}"
    if t == "CheatSafe":
        return f"{W(e['thief'])} got away with t{e['tile']}."
    if t == "CheatCaught":
        extra = f", loses {e['penalty']} points and discards all cards" if e["penalty"] else ""
        where = f"back to c{e['back']}" if e["back"] is not None else f"to {w(e['to_hand'])}'s hand"
        return f"{W(e['caller'])} caught {w(e['thief'])} cheating: t{e['tile']} goes {where}{extra}."
    if t == "CheatCallFailed":
        lost = f" and discards k{e['forfeit']}" if e["forfeit"] is not None else ""
        return f"{W(e['caller'])} wrongly called cheat on {w(e['target'])}{lost}."
    if t == "SoloTileDrawn":
        return f"You drew {tile_name(e['tile'])}."
    if t == "TileTaken":
        return f"{W(p)} took {tile_name(e['tile'])} from the {e['source']}."
    if t == "TilePooled":
        return f"{W(p)} put t{e['tile']} in the centre."
    if t == "TileRemoved":
        return f"{W(p)} moved t{e['tile']} to the centre."
    return t


def describe(item, viewer, names=None) -> str:
    if not isinstance(item, dict):
        return str(item)
    t = item.get("type", "")
    if t and t[0].isupper():
        return describe_event(item, viewer, names)
    return describe_move(item, names)


# ---------------------------------------------------------------- board


def render(game, state, viewer, names=None) -> str:
    v = game.view(state, viewer)
    n = v["players"]
    who = [name_seat(q, names) for q in range(n)]
    me = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < n else None
    full = v["mode"] == "full"
    head = f"Cartoona ({v['mode']}), turn {v['turn']}"
    if v["end"] is not None:
        lines = [head + ", game over"]
    else:
        lines = [head + f", {who[v['active']]}'s turn; to act: {', '.join(who[q] for q in v['to_act']) or 'nobody'}"]
    lines.append("Scores: " + ", ".join(f"{who[q]} {x}" for q, x in enumerate(v["scores"]))
                 + (f"; teams: " + ", ".join(f"team {t + 1} ({', '.join(who[q] for q in range(n) if v['teams'][q] == t)})"
                                              f" {x}" for t, x in enumerate(v["team_scores"]))
                    if "team_scores" in v else ""))
    if v["mode"] in ("full", "basic", "basic_team"):
        counts = "Tiles in hand: " + ", ".join(f"{who[q]} {c}" for q, c in enumerate(v["hand_sizes"]))
        if full:
            counts += "; cards in hand: " + ", ".join(f"{who[q]} {c}" for q, c in enumerate(v["card_counts"]))
        lines.append(counts)
    stock = f"Stack: {v['stack']} tiles"
    if "tile_discard" in v:
        stock += f"; tile discard: {v['tile_discard']} face down" + (
            f"; set aside: {v['set_aside']}" if v.get("set_aside") else "")
    if full:
        stock += f"; deck: {v['deck']} cards"
    lines.append(stock)
    if full:
        shown = ", ".join(card_name(c) for c in v["card_discard"]) or "none"
        lines.append(f"Card discard: {shown}" + (f"; {v['face_down_cards']} face down" if v["face_down_cards"] else ""))
        if v["end"] is None:
            did = [f"{'has' if v['placed'] else 'has not'} placed a tile",
                   f"{'has' if v['played'] else 'has not'} played a card"]
            lines.append(f"This turn {who[v['active']]} " + " and ".join(did)
                         + (" (you)" if me == v["active"] else "") + ".")
            out = [who[q] for q in v["out_of_turn_used"]]
            passed = [who[q] for q in v["out_of_turn_passed"]]
            if out or passed:
                lines.append("Out of turn this turn: " + "; ".join(
                    x for x in (("played: " + ", ".join(out)) if out else "",
                                ("passed: " + ", ".join(passed)) if passed else "") if x))
        if v["target_score"]:
            lines.append(f"First to {v['target_score']} points wins at once.")
    if v["creatures"]:
        lines.append("Creatures:")
    for c in v["creatures"]:
        parts = ", ".join(f"{part}={tile_name(t)}" for part, t in c["tiles"].items())  # the view's order
        state_txt = f"complete, {c['points']} pts" if c["complete"] else f"open: {' '.join(c['open']) or '-'}"
        cards = ""
        if c.get("cards"):
            cards = "; cards " + ", ".join(f"t{t}: {' '.join(CARD_LABEL[C_KIND[k]] for k in ks)}"
                                           for t, ks in c["cards"].items())
        lines.append(f"  c{c['id']} ({who[c['owner']]}{', ' + c['colour'] if 'colour' in c else ''}): "
                     f"{parts} [{state_txt}]{cards}")
    if "hand" in v:
        lines.append("Your tiles: " + (", ".join(tile_name(t) for t in v["hand"]) or "none"))
    if "cards" in v:
        lines.append("Your cards: " + (", ".join(card_name(c) for c in v["cards"]) or "none"))
    if v.get("window"):
        w = v["window"]
        lines.append(f"Reaction window: {who[w['player']]} played {card_name(w['card'])}; waiting for "
                     f"{', '.join(who[q] for q in w['pending']) or 'nobody'} (block with kN, or pass)")
    if v.get("instant"):
        lines.append(f"{who[v['instant']['player']]} is placing the tile an Instant drew"
                     + (f": {tile_name(v['instant']['tile'])} (place it, or keep it)" if "tile" in v["instant"] else ""))
    if v.get("thefts"):
        lines.append("Unsolved thefts: " + ", ".join(f"t{th['tile']} from {who[th['victim']]}" for th in v["thefts"]))
    if v.get("drawn") is not None:
        lines.append(f"Drawn: {tile_name(v['drawn'])}")
    if v["mode"] == "solo" and v.get("discarded"):
        lines.append("Set aside: " + ", ".join(f"t{t}" for t in v["discarded"]))
    if v["mode"] == "kids":
        lines.append(f"Target: {v['target']}; centre: " + (", ".join(tile_name(t) for t in v["pool"]) or "empty")
                     + (f"; holding {tile_name(v['held'])}" if v["held"] is not None else ""))
    if viewer == OMNISCIENT and "hands" in v:
        for q, h in enumerate(v["hands"]):
            lines.append(f"{name_seat(q, names, capital=True)}'s tiles: " + (", ".join(f"t{t}" for t in h) or "none"))
    if v["end"] is not None:
        lines.append(game.describe_result(game.result(state), names))
    lines.append("Key: a tile is tN (its colours, its code, its value), a card kN (what it is).")
    lines += TILE_CODES.splitlines()
    return "\n".join(lines)


_ = (C_VALUE, T_PART, cr)
