"""Naming a segment of a placed tile in the text notation of the expansions'
moves: ``road E``, ``city N``, ``cloister``, ``farmer NL`` / ``field NL``,
``NL`` (a half-edge is a field), ``N`` (the edge's segment on that tile)."""
from __future__ import annotations

from .features import label_of, sid_at
from .geometry import EDGE_INDEX, HALF_INDEX
from .orient import oriented

XY = r"\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?"
KINDS = {"road": "road", "city": "city", "field": "field", "farm": "field", "farmer": "field",
         "cloister": "cloister", "monastery": "cloister", "abbey": "cloister", "shrine": "cloister",
         "monk": "cloister", "knight": "city", "thief": "road"}
INNER = {"I", "II", "III", "IV"}


def segment_words(words: list, state, cell):
    """Read a segment from the front of ``words`` (lower case); returns (label, rest)
    or (None, words) if they do not name one. The label is canonical when the tile
    at ``cell`` has that segment."""
    if not words:
        return None, words
    kind = KINDS.get(words[0])
    rest = words[1:] if kind else words
    if kind == "cloister":
        return "cloister", rest
    if not rest:
        return None, words
    port = rest[0].upper()
    if port not in EDGE_INDEX and port not in HALF_INDEX and port not in INNER:
        return None, words
    if kind is None:
        if port in HALF_INDEX or port in INNER:
            kind = "field"
        else:
            t = state.board.get(cell) if state is not None else None
            k = oriented(t[0], t[1]).edge_seg[EDGE_INDEX[port]] if t else -1
            kind = oriented(t[0], t[1]).kinds[k] if t and k >= 0 else "city"
    label = f"{kind} {port}"
    if state is not None and cell in state.board:
        sid = sid_at(state, cell, label)
        if sid is not None:
            label = label_of(state, sid)[2]
    return label, rest[1:]


def describe_segment(on: str) -> str:
    """``field NL`` is written ``farmer NL``; the other labels as they are."""
    return "farmer " + on[6:] if on.startswith("field ") else on


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def cell_sid(state, move: dict):
    """The segment id ``move["x"], move["y"], move["on"]`` names, or None (also for
    values of the wrong type)."""
    x, y, on = move.get("x"), move.get("y"), move.get("on")
    if not (is_int(x) and is_int(y) and isinstance(on, str)):
        return None
    return sid_at(state, (x, y), on)


def typed(move: dict, ints=(), strs=()) -> bool:
    """Whether the move's fields have exactly these types (``True`` is no integer,
    though ``True == 1``: a move compared with a legal one must be checked first)."""
    return all(is_int(move.get(k)) for k in ints) and all(isinstance(move.get(k), str) for k in strs)
