"""Cartoona's things named by what they are, in the reader's language: a
tile by its colour, its part and the parts it joins ("t17 (yellow head,
joining ears, nose/mouth and body front; 1 point)"), a card by its kind
("k44 (Steal)"). The id stays in front: it is what a move is typed with;
the words around it say what it is. Terms: the rulebook's (002), from
the glossary (shared/rules/glossary-zh-Hant.md, Cartoona section).
"""
from __future__ import annotations

from functools import lru_cache

from ..i18n import _, join_words, language, ngettext, pgettext
from .data import C_KIND, C_VALUE, PART_EDGES, SOCKETS, T_COLOURS, T_PART, T_SOCKETS, T_VALUE

# Lambdas: each name is looked up when shown, in the reader's language;
# "cartoona" keeps these short words apart from the other games' ones.
_PARTS = {
    "ears": lambda: pgettext("cartoona", "ears"),
    "nose": lambda: pgettext("cartoona", "nose/mouth"),
    "head": lambda: pgettext("cartoona", "head"),
    "body_front": lambda: pgettext("cartoona", "body front"),
    "body_back": lambda: pgettext("cartoona", "body back"),
    "front_feet": lambda: pgettext("cartoona", "front feet"),
    "back_feet": lambda: pgettext("cartoona", "back feet"),
    "tail": lambda: pgettext("cartoona", "tail"),
    "single": lambda: pgettext("cartoona", "single-tile creature"),
}
_COLOURS = {
    "Y": lambda: pgettext("cartoona", "yellow"),
    "B": lambda: pgettext("cartoona", "blue"),
    "M": lambda: pgettext("cartoona", "magenta"),
    "P": lambda: pgettext("cartoona", "purple"),
}
_KINDS = {
    "swap": lambda: pgettext("cartoona", "Swap"),
    "steal": lambda: pgettext("cartoona", "Steal"),
    "block": lambda: pgettext("cartoona", "Block"),
    "instant": lambda: pgettext("cartoona", "Instant"),
    "special": lambda: pgettext("cartoona", "Special"),
    "cheat": lambda: pgettext("cartoona", "Cheat"),
}


def part_name(part: str) -> str:
    """"head", "body front"... (the rulebook's 頭部, 身體(前半)...)."""
    return _PARTS[part]() if part in _PARTS else str(part)


def colour_name(colour: str) -> str:
    return _COLOURS[colour]() if colour in _COLOURS else str(colour)


def points(n: int) -> str:
    """"1 point", "12 points" (Chinese: "12分")."""
    return ngettext("{n} point", "{n} points", n)


def _known_tile(t) -> bool:
    return isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(T_PART)


def _known_card(c) -> bool:
    return isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(C_KIND)


def joins(t: int) -> list:
    """The parts a tile plugs into (its sockets), in the rulebook's order."""
    part = T_PART[t]
    return [other for socket, other in PART_EDGES[part] if socket in T_SOCKETS[t]]


def tile_what(t: int) -> str:
    """What a tile is: "yellow head, joining ears, nose/mouth and body
    front"; a part that plugs into one part only (ears, feet, a tail...)
    needs no list; a two-colour tile is "blue/magenta"."""
    part = T_PART[t]
    if part == "single":
        return part_name(part)
    colours = "/".join(colour_name(c) for c in T_COLOURS[t])
    what = _("{colour} {part}", colour=colours, part=part_name(part))
    if len(PART_EDGES[part]) > 1:
        what = _("{tile}, joining {parts}", tile=what, parts=join_words([part_name(p) for p in joins(t)]))
    return what


def tile_name(t) -> str:
    """A tile as texts show it: its id (the notation), then what it is and
    its points; an unknown one is "a hidden tile"."""
    if not _known_tile(t):
        return _("a hidden tile")
    return _tile_name(language(), t)


# A board names every tile of every creature and hand, text after text: each
# tile's name is built once per language (the catalogs never change in a process).
@lru_cache(maxsize=None)
def _tile_name(lang: str, t: int) -> str:
    return _("t{id} ({what}; {points})", id=t, what=tile_what(t), points=points(T_VALUE[t]))


def tile_names(tiles) -> str:
    """Several tiles, or "none"."""
    # i18n: between tiles in a list (each tile's text has commas of its own)
    return pgettext("cartoona", "; ").join(tile_name(t) for t in tiles) if tiles else pgettext("cartoona", "none")


def kind_name(kind: str) -> str:
    """A card kind: "Steal", "+3 card" (Chinese: 偷竊牌, +3分牌)."""
    if kind in _KINDS:
        return _KINDS[kind]()
    value = C_VALUE[C_KIND.index(kind)] if kind in C_KIND else 0
    signed = f"{value:+d}"
    return _("{value} card", value=signed)


def card_name(c) -> str:
    """A card as texts show it: "k44 (Steal)"; unknown: "a hidden card"."""
    if not _known_card(c):
        return _("a hidden card")
    return _card_name(language(), c)


@lru_cache(maxsize=None)
def _card_name(lang: str, c: int) -> str:
    return _("k{id} ({kind})", id=c, kind=kind_name(C_KIND[c]))


# The card discard grows through a game and every board lists it whole, for
# every reader: each list's text is kept per language, keyed by the list as
# text (a hit is the very text the join would give). Bounded: emptied when full.
_CARD_LISTS: dict = {}
_CARD_LISTS_KEPT = 2048


def card_names(cards) -> str:
    if not cards:
        return pgettext("cartoona", "none")
    if type(cards) not in (list, tuple):  # (an iterator's text does not say what it holds)
        return _(", ").join(card_name(c) for c in cards)
    key = (language(), repr(cards))
    text = _CARD_LISTS.get(key)
    if text is None:
        if len(_CARD_LISTS) >= _CARD_LISTS_KEPT:
            _CARD_LISTS.clear()
        text = _CARD_LISTS[key] = _(", ").join(card_name(c) for c in cards)
    return text


def needed_parts(tiles: dict, open_sockets) -> list:
    """The parts a creature still needs ("nose/mouth", "body front"): for
    each open socket, the one of the two parts it joins that is missing."""
    out = []
    for socket in open_sockets:
        a, b = SOCKETS.get(socket, (None, None))
        part = b if a in tiles else a
        if part is not None and part not in out:
            out.append(part)
    return [part_name(p) for p in out]
