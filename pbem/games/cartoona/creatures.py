"""Creature geometry and scoring (all modes).

A creature is ``{"id": int, "owner": seat, "tiles": {part: tile_id}, ...}``.
Because every socket joins exactly two part kinds and the kinds form a tree
(ears/nose - head - body front - feet / body back - feet / tail), a creature
holds at most one tile per part and its shape is fully given by which tile
sits on which part. A tile stolen out of a creature simply leaves the
neighbours' sockets open: that is the "gap", and only a tile with every
socket those neighbours need can fill it.
"""
from __future__ import annotations

from .data import PART_EDGES, PARTS, SINGLE_BONUS, SOCKETS, T_COLOURS, T_PART, T_SOCKETS, T_VALUE

ALL_COLOURS = frozenset("YBMP")
SOCKET_ORDER = {socket: i for i, socket in enumerate(SOCKETS)}
PART_ORDER = {part: i for i, part in enumerate(PARTS)}


def fits(tile: int, tiles: dict) -> bool:
    """Can ``tile`` plug into a creature whose tiles are ``tiles``? It must
    connect through at least one socket, and match every present neighbour
    (socket on both sides, or on neither)."""
    part = T_PART[tile]
    if part in tiles or part == "single" or "single" in tiles:
        return False
    mine = T_SOCKETS[tile]
    connected = False
    for socket, other in PART_EDGES[part]:
        u = tiles.get(other)
        if u is None:
            continue
        a, b = socket in mine, socket in T_SOCKETS[u]
        if a != b:
            return False
        if a:
            connected = True
    return connected


def consistent(tiles: dict) -> bool:
    """Every pair of neighbouring parts present has the joining socket on both or neither."""
    for part, u in tiles.items():
        for socket, other in PART_EDGES[part]:
            v = tiles.get(other)
            if v is not None and (socket in T_SOCKETS[u]) != (socket in T_SOCKETS[v]):
                return False
    return True


def open_sockets(tiles: dict) -> list:
    """The sockets still open, in the order of ``SOCKETS`` (not of the
    tiles: that order is the creature's history, and a view must not
    depend on it)."""
    out = []
    for part, u in tiles.items():
        for socket, other in PART_EDGES[part]:
            if socket in T_SOCKETS[u] and other not in tiles:
                out.append(socket)
    return sorted(out, key=SOCKET_ORDER.__getitem__)


def in_part_order(tiles: dict) -> list:
    """(part, tile) pairs in the order of ``PARTS``, for what is shown."""
    return sorted(tiles.items(), key=lambda item: PART_ORDER[item[0]])


def is_complete(tiles: dict) -> bool:
    if not tiles:
        return False
    for part, u in tiles.items():
        for socket, other in PART_EDGES[part]:
            if other not in tiles and socket in T_SOCKETS[u]:
                return False
    return True


def is_single(tiles: dict) -> bool:
    return "single" in tiles


def neighbours(tiles: dict, part: str) -> list:
    """Parts of the creature connected to ``part`` by a socket."""
    u = tiles[part]
    return [o for s, o in PART_EDGES[part] if o in tiles and s in T_SOCKETS[u]]


def leaves(tiles: dict) -> list:
    """Tiles whose removal leaves the rest connected (at most one connected neighbour)."""
    return [t for p, t in tiles.items() if len(neighbours(tiles, p)) <= 1]


def common_colours(tiles: dict, special: frozenset = frozenset(), fixed: dict | None = None) -> frozenset:
    """Colours shared by every tile (a tile carrying Special counts as every colour;
    ``fixed`` maps a tile to the one colour chosen for it, as in the solo game)."""
    common = ALL_COLOURS
    for t in tiles.values():
        if t in special:
            continue
        if fixed and t in fixed:
            common = common & {fixed[t]}
        else:
            common = common & frozenset(T_COLOURS[t])
        if not common:
            break
    return common


def score_breakdown(tiles: dict, card_values: list, special: frozenset = frozenset(),
                    double_includes_cards: bool = False, fixed: dict | None = None) -> dict:
    """Points for one completed creature: tile values, doubled if some colour is
    common to every tile (single-tile creatures are never doubled), plus cards."""
    base = sum(T_VALUE[t] for t in tiles.values())
    cards = sum(card_values)
    single = is_single(tiles)
    doubled = (not single) and bool(common_colours(tiles, special, fixed))
    if doubled:
        total = (base + cards) * 2 if double_includes_cards else base * 2 + cards
    else:
        total = base + cards
    return {"base": base, "doubled": doubled, "cards": cards, "total": total}


def singles_bonus(count: int) -> int:
    return SINGLE_BONUS.get(count, 0)
