"""Cartoona's notation: the words a move is typed with, in English and in
Chinese (the glossary's terms, shared/rules/glossary-zh-Hant.md).

``describe_move`` writes the words of ``notation_language()``; ``parse``
reads both languages always, in any mix, word by word: each Chinese word
(and its usual synonyms) is read as its English one, then the English
reading applies. Ids (``t17``, ``c3``, ``k12``), numbers and the players'
names stay as they are. Chinese typed without spaces (``擺放t17到c3``,
``出牌偷竊k9到t17``) is cut into the words below first.
"""
from __future__ import annotations

import re

from ..base import ParseError, name_seat, seat_from_text, seat_names
from ..i18n import CHINESE, _, notation_language
from .data import C_KIND, CARD_LABEL, T_COLOURS
from .rules import ORDERS

#: The words describe writes: a word's key -> (English, Chinese).
WORDS = {
    "place": ("place", "擺放"),
    "new": ("new", "新"),
    "on": ("on", "到"),            # place on a creature, play a card on a tile
    "as": ("as", "當"),            # the solo game's colour: 「要當這兩個顏色中的哪一個」
    "discard": ("discard", "棄置"),
    "score": ("score", "計分"),
    "end_turn": ("end turn", "結束回合"),
    "pass": ("pass", "跳過"),
    "keep": ("keep", "保留"),
    "play": ("play", "出牌"),
    "for": ("with", "換"),         # a Swap: your tile, then theirs
    "block": ("block with", "阻擋"),
    "cheat": ("cheat", "作弊"),
    "using": ("with", "用"),       # a secret theft's Cheat card
    "bluff": ("bluff", "虛張"),
    "call": ("call cheat on", "喊出作弊"),
    "forfeit": ("forfeit", "押"),
    "seat": ("seat", "座位"),
    "order": ("order", "指令"),
    "order_on": ("on", "開"),
    "order_off": ("off", "關"),
    "draw": ("draw", "抽"),
    "take": ("take", "拿"),
    "pool": ("pool", "放中央"),
    "remove": ("remove", "移除"),
}
COLOUR_WORDS = {"Y": ("yellow", "黃色"), "B": ("blue", "藍色"), "M": ("magenta", "紫紅色"),
                "P": ("purple", "紫色")}
#: card kinds by name (point cards are "+3", "-2" in both languages)
KIND_WORDS = {"swap": ("swap", "交換"), "steal": ("steal", "偷竊"), "block": ("block", "阻擋"),
              "instant": ("instant", "及時"), "special": ("special", "特殊"), "cheat": ("cheat", "作弊")}
ORDER_WORDS = {"always_pass": ("always pass", "一律跳過"), "block_steal": ("block steal", "阻擋偷竊"),
               "block_swap": ("block swap", "阻擋交換"), "block_minus": ("block minus", "阻擋扣分")}

#: What parse reads each Chinese word as (English words; "" is a word that
#: adds nothing): the words above, and what else a player may type.
READ = {zh: en for en, zh in (*WORDS.values(), *COLOUR_WORDS.values(), *KIND_WORDS.values(),
                              *ORDER_WORDS.values())}
READ.update({
    "阻擋": "block", "作弊": "cheat",
    "放置": "place", "打出": "place", "開始": "start", "新生物": "new",
    "在": "on", "於": "on", "上": "on",
    "當作": "as", "作為": "as",
    "棄掉": "discard", "棄牌": "discard",
    "紀錄分數": "score",
    "結束": "end", "回合": "", "結束本回合": "end turn",
    "不阻擋": "pass",
    "使用": "play", "用牌": "play",
    "和": "with", "與": "with", "跟": "with",
    "即時": "instant", "虛張聲勢": "bluff",
    "抓作弊": "call cheat", "喊作弊": "call cheat", "抓到作弊": "call cheat", "喊": "call",
    "對": "on", "賠": "forfeit",
    "常設指令": "order", "開啟": "on", "打開": "on", "關閉": "off", "關掉": "off",
    "一律": "always", "扣分": "minus",
    "拿取": "take", "放到中央": "pool", "放回中央": "pool",
    "座位": "seat", "玩家": "player", "號": "",
    "黃": "yellow", "藍": "blue", "紫紅": "magenta", "洋紅": "magenta", "紫": "purple",
})

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_IS_CJK = re.compile(f"^[{_CJK}]+$")
_BOUNDARY = re.compile(f"(?<=[{_CJK}])(?=[^{_CJK}\\s])|(?<=[^{_CJK}\\s])(?=[{_CJK}])")
#: punctuation that separates words (after plain_width: 、，；：（）are ASCII already)
_MARKS = re.compile(r"[,;:()\[\]。「」『』!?]")


def word(key: str) -> str:
    """A notation word in the language move lines are written in now."""
    return WORDS[key][notation_language() == CHINESE]


def _in_language(pair) -> str:
    return pair[notation_language() == CHINESE]


def colour_word(colour: str) -> str:
    return _in_language(COLOUR_WORDS[colour])


def kind_word(kind: str) -> str:
    return _in_language(KIND_WORDS[kind]) if kind in KIND_WORDS else CARD_LABEL[kind]


def order_word(order: str) -> str:
    return _in_language(ORDER_WORDS[order])


def _seat_words(seat, names) -> str:
    """A seat as a move names it: its player's name, else "seat 2" in the
    notation's words (座位 2)."""
    text = name_seat(seat, names)
    number = re.fullmatch(r"seat (\d+)", text)
    return f"{word('seat')} {number.group(1)}" if number else text


def _creatures(ids) -> str:
    return "+".join(f"c{x}" for x in ids)


# ---------------------------------------------------------------- writing


def describe_move(m, names=None) -> str:
    """A move as it is typed, in the notation language's words."""
    t = m["type"]
    w = word
    if t == "place_tile":
        where = f"{w('on')} {_creatures(m['creatures'])}" if m["creatures"] else w("new")
        tail = f" {w('as')} {colour_word(m['colour'])}" if "colour" in m else ""
        return f"{w('place')} t{m['tile']} {where}{tail}"
    if t == "discard_tile":
        tail = f" {w('as')} {colour_word(m['colour'])}" if "colour" in m else ""
        return f"{w('discard')} t{m['tile']}{tail}"
    if t == "score":
        return f"{w('score')} {_creatures(m['creatures'])}"
    if t in ("end_turn", "pass", "keep", "draw"):
        return w(t)
    if t == "pool_tile":
        return w("pool")
    if t == "play_card":
        out = f"{w('play')} {kind_word(C_KIND[m['card']])} k{m['card']}"
        if "tile" in m:
            out += f" {w('on')} t{m['tile']}"
        if "with" in m:
            out += f" {w('for')} t{m['with']}"
        return out
    if t == "block":
        return f"{w('block')} k{m['card']}"
    if t == "cheat":
        return f"{w('cheat')} t{m['tile']} " + (f"{w('using')} k{m['card']}" if m["card"] is not None else w("bluff"))
    if t == "call_cheat":
        out = f"{w('call')} {_seat_words(m['target'], names)}"
        return out + (f" {w('forfeit')} k{m['forfeit']}" if m["forfeit"] is not None else "")
    if t == "set_order":
        return f"{w('order')} {order_word(m['order'])} {w('order_on') if m['on'] else w('order_off')}"
    if t == "take":
        return f"{w('take')} t{m['tile']}"
    if t == "remove_tile":
        return f"{w('remove')} t{m['tile']}"
    return str(m)


def expected_forms() -> list:
    """The forms of every move, for a parse error's ``expected``."""
    w = word
    name = _("NAME")
    return [f"{w('place')} tN {w('new')}", f"{w('place')} tN {w('on')} cN", f"{w('discard')} tN",
            f"{w('score')} cN", f"{w('play')} kN [{w('on')} tN] [{w('for')} tN]", f"{w('block')} kN",
            w("pass"), w("keep"), w("end_turn"), f"{w('cheat')} tN {w('using')} kN",
            f"{w('call')} {name}", f"{w('order')} {name} {w('order_on')}|{w('order_off')}",
            w("draw"), f"{w('take')} tN", w("pool"), f"{w('remove')} tN"]


# ---------------------------------------------------------------- reading


def _segment(run: str, vocabulary) -> list:
    """A run of Chinese characters cut into known words, longest first, from
    its start; what follows the last word found stays one word (a name)."""
    out, i = [], 0
    longest = max((len(v) for v in vocabulary), default=1)
    while i < len(run):
        for size in range(min(longest, len(run) - i), 0, -1):
            if run[i:i + size] in vocabulary:
                out.append(run[i:i + size])
                i += size
                break
        else:
            out.append(run[i:])
            break
    return out


def read_words(text: str, players: int = 0, names=None) -> tuple[list, list]:
    """The words of a move line as the English reading takes them, and the
    words as typed (for messages). With ``players``, a name written in
    Chinese characters is read as its seat ("seat 2") first, so a line
    typed without spaces (``喊出作弊小明押k5``) is cut around it."""
    text = text.strip().lower()
    for seat, name in enumerate(seat_names(players, names) if players else ()):
        key = name.lower()
        if re.search(f"[{_CJK}]", key) and key not in READ and key in text:
            text = text.replace(key, f" seat {seat} ")
    text = _BOUNDARY.sub(" ", _MARKS.sub(" ", text))
    typed = text.split()
    vocabulary = set(READ)
    words = []
    for token in typed:
        pieces = [token]
        if token not in READ and _IS_CJK.match(token):
            pieces = _segment(token, vocabulary)
        for piece in pieces:
            words.extend(READ.get(piece, piece).split())
    return words, typed


def _fail(game, state, player, code, message, names=None):
    legal = game.legal_moves(state, player)
    raise ParseError(code, message, expected=expected_forms(),
                     examples=[describe_move(m, names) for m in legal[:6]])


COLOUR_OF = {en: letter for letter, (en, zh) in COLOUR_WORDS.items()}
COLOUR_OF.update({letter.lower(): letter for letter in COLOUR_WORDS})
KIND_OF = {label: kind for kind, label in CARD_LABEL.items()}


def parse(game, text, state, player, names=None):
    def _parse_fail(code, message):
        _fail(game, state, player, code, message, names)

    if not isinstance(text, str):
        _parse_fail("not_text", _("A move is a line of text."))
    words, typed = read_words(text)
    if not words:
        _parse_fail("empty", _("No move was given."))
    if words[0] == "call":  # names only where a seat is named: a name may look like a word
        words, typed = read_words(text, state["n"], names)
    norm = " ".join(words)
    cmd = words[0]
    tiles = [int(x) for x in re.findall(r"\bt(\d+)\b", norm)]
    cres = [int(x) for x in re.findall(r"\bc(\d+)\b", norm)]
    cards = [int(x) for x in re.findall(r"\bk(\d+)\b", norm)]
    colour = None
    if "as" in words:
        after = words[words.index("as") + 1:]
        if not after or after[0] not in COLOUR_OF:
            _parse_fail("bad_colour", _("After “{as_word}” name a colour: {colours}.", as_word=word("as"),
                                 colours=", ".join(colour_word(c) for c in COLOUR_WORDS)))
        colour = COLOUR_OF[after[0]]

    def one_tile():
        if len(tiles) != 1:
            _parse_fail("tile_expected", _("“{command}” needs exactly one tile, like t17.", command=typed[0]))
        return tiles[0]

    if cmd in ("place", "put", "start", "add"):
        tile = one_tile()
        if "new" in words or cmd == "start":
            cs = []
        elif cres:
            cs = sorted(cres)
        else:
            _parse_fail("creature_expected", _("Say where: “{new}” for a new creature, or “{on} cN” (cN+cN "
                                               "joins two).", new=word("new"), on=word("on")))
        move = {"type": "place_tile", "tile": tile, "creatures": cs}
        if state["mode"] == "solo":
            move["colour"] = colour if colour else _only_colour(game, state, player, tile, names)
        return move
    if cmd == "discard":
        move = {"type": "discard_tile", "tile": one_tile()}
        if state["mode"] == "solo":
            move["colour"] = colour if colour else _only_colour(game, state, player, move["tile"], names)
        return move
    if cmd == "score":
        if not cres:
            example = f"{word('score')} c3"
            _parse_fail("creature_expected", _("Score which creature? Like: {example}", example=example))
        return {"type": "score", "creatures": sorted(cres)}
    if cmd in ("end", "done", "finish"):
        return {"type": "end_turn"}
    if cmd in ("pass", "no"):
        return {"type": "pass"}
    if cmd == "keep":
        return {"type": "keep"}
    if cmd == "block":
        card = cards[0] if cards else _card_of_kind(game, state, player, ("block",), names)
        return {"type": "block", "card": card}
    if cmd in ("play", "use"):
        card = cards[0] if cards else _card_of_kind(game, state, player, _kinds_named(words[1:]), names)
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
            card = _card_of_kind(game, state, player, ("cheat",), names)
        return {"type": "cheat", "tile": tile, "card": card}
    if cmd == "call":
        return _call(game, state, player, words, names)
    if cmd in ("order", "always"):
        rest = "_".join(w for w in words[1:] if w not in ("on", "off"))
        if cmd == "always":
            rest = "always_" + rest
        name = rest.replace("steals", "steal").replace("swaps", "swap").replace("-", "_")
        if name not in ORDERS:
            _parse_fail("bad_order", _("The standing orders are {orders}.",
                                orders=", ".join(f"“{order_word(o)}”" for o in ORDERS)))
        return {"type": "set_order", "order": name, "on": "off" not in words}
    if cmd == "draw":
        return {"type": "draw"}
    if cmd == "take":
        return {"type": "take", "tile": one_tile()}
    if cmd == "pool":
        return {"type": "pool_tile"}
    if cmd == "remove":
        return {"type": "remove_tile", "tile": one_tile()}
    _parse_fail("unknown_command", _("“{command}” is not a move of Cartoona.", command=typed[0]))


def _call(game, state, player, words, names):
    """``call cheat on NAME [forfeit kN]``: the seat by name or number."""
    rest = words[1:]
    rest = rest[1:] if rest[:1] == ["cheat"] else rest
    rest = rest[1:] if rest[:1] in (["on"], ["against"]) else rest
    named = rest[:rest.index("forfeit")] if "forfeit" in rest else rest
    target = seat_from_text(" ".join(named), state["n"], names) if named else None
    if target is None:  # a number out of range, or "seat2": read as written, refused by the rules
        m = re.search(r"(?:seat|player|p|#)?\s*(\d+)\b", " ".join(named))
        target = int(m.group(1)) if m else None
    example = describe_move({"type": "call_cheat", "target": 2, "forfeit": 5})
    if target is None:
        _fail(game, state, player, "seat_expected",
              _("Call cheat on whom? A player's name or seat number, like: {example}", example=example), names)
    forfeit = None
    f = re.search(r"\bforfeit\s+k(\d+)", " ".join(words))
    if f:
        forfeit = int(f.group(1))
    elif state["opts"]["false_call_penalty"] == "discard_one" and 0 <= player < state["n"] \
            and any(m["type"] == "call_cheat" and m["forfeit"] is not None
                    for m in game.legal_moves(state, player)):
        _fail(game, state, player, "forfeit_expected",
              _("Name the card you give up if the call is wrong, like: {example}", example=example), names)
    return {"type": "call_cheat", "target": target, "forfeit": forfeit}


def _only_colour(game, state, player, tile, names):
    if isinstance(tile, int) and 0 <= tile < len(T_COLOURS) and len(T_COLOURS[tile]) == 1:
        return T_COLOURS[tile][0]
    _fail(game, state, player, "colour_expected",
          _("A two-colour tile needs its colour, like: … {as_word} {colour}", as_word=word("as"),
            colour=colour_word("Y")), names)


def _kinds_named(words):
    for w in words:
        if w in KIND_OF:
            return (KIND_OF[w],)
    return ()


def _card_of_kind(game, state, player, kinds, names):
    if kinds and 0 <= player < state["n"]:
        for c in state["chands"][player]:
            if C_KIND[c] in kinds:
                return c
    if kinds:
        from .names import kind_name
        _fail(game, state, player, "card_expected",
              _("Which card? Name it like k12 (you hold no {kind}).", kind=kind_name(kinds[0])), names)
    _fail(game, state, player, "card_expected", _("Which card? Name it like k12."), names)
