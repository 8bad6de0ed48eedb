"""Touching Cartoona's picture: how each legal move is made by touching the
hand and the table (the pages' generic chooser, ``pbem/web/static/touch.js``;
the contract is in ``pbem/pictures/__init__.py``).

Keys (drawn with ``data-pick`` in the picture of the seat to act, unless
"off the board": a button beside it):

- ``hand:T``: the viewer's tile tT: in hand, drawn with an Instant, the solo
  game's drawn tile, the tile a child holds;
- ``slot:C:PART``: the dashed place an open socket of creature cC leaves
  for a part (``slot:4:head``), also a gap left by a Steal;
- ``new`` (solo: ``new:Y``...): a new creature (of that colour);
- ``tile:T``: tile tT on the table (a card's target, a tile a child removes);
- ``creature:C``: creature cC (to score it);
- ``card:K``: the viewer's card kK;
- ``pool``: the kids' centre (to put the held tile there); ``pool:T``: tile
  tT in the centre (to take it);
- off the board: ``discard`` (``discard:Y`` for the solo game's two-colour
  tile), ``end``, ``pass``, ``keep``, ``draw``, ``bluff`` (a secret theft
  without a Cheat card), ``call:Q`` (call cheat on seat Q), ``order:NAME``
  (turn a standing order on or off), and ``done``: "no more", where one
  move's touches would otherwise be the start of another's (scoring one
  single-tile creature or two; plugging a tile into one creature or merging
  two).

Paths: a tile then where it goes (``hand:T``, then ``slot:C:PART`` for each
creature it plugs into, or ``new``); a tile then ``discard``; a card, then
the tile it goes on (a Swap: your tile, then theirs); a Block card; a card
given up when calling cheat; the creatures scored together.
"""
from __future__ import annotations

from ..games.cartoona.data import T_COLOURS, T_PART
from ..games.cartoona.names import card_name, colour_name, part_name, tile_name
from ..games.cartoona.text import order_what
from ..games.i18n import _
from .svgkit import seat_name

#: keys the page shows as buttons beside the picture (``call:``, ``order:``
#: and ``discard:`` keys too)
OFFBOARD = frozenset({"discard", "end", "pass", "keep", "draw", "bluff", "done"})
OFFBOARD_KINDS = ("call", "order", "discard")


def offboard(key: str) -> bool:
    return key in OFFBOARD or key.split(":", 1)[0] in OFFBOARD_KINDS


def moves_of(legal) -> list:
    """The moves of ``legal`` as the API lists them (``{"move", "text"}``) or bare."""
    return [m["move"] if isinstance(m, dict) and isinstance(m.get("move"), dict) else m for m in legal or ()]


def move_path(m: dict) -> list:
    """The touches that make move ``m`` (before ``done`` is added where needed)."""
    kind = m.get("type")
    if kind == "place_tile":
        t = m["tile"]
        first = f"hand:{t}"
        if not m.get("creatures"):
            return [first, f"new:{m['colour']}" if "colour" in m else "new"]
        return [first, *[f"slot:{c}:{T_PART[t]}" for c in m["creatures"]]]
    if kind == "discard_tile":
        t = m["tile"]
        if "colour" in m and len(T_COLOURS[t]) > 1:
            return [f"hand:{t}", f"discard:{m['colour']}"]
        return [f"hand:{t}", "discard"]
    if kind == "score":
        return [f"creature:{c}" for c in m["creatures"]]
    if kind == "play_card":
        return [f"card:{m['card']}", *[f"tile:{m[k]}" for k in ("tile", "with") if k in m]]
    if kind == "block":
        return [f"card:{m['card']}"]
    if kind == "cheat":
        return ["bluff" if m.get("card") is None else f"card:{m['card']}", f"tile:{m['tile']}"]
    if kind == "call_cheat":
        return [f"call:{m['target']}", *([f"card:{m['forfeit']}"] if m.get("forfeit") is not None else [])]
    if kind == "set_order":
        return [f"order:{m['order']}"]
    if kind == "take":
        return [f"pool:{m['tile']}"]
    if kind == "remove_tile":
        return [f"tile:{m['tile']}"]
    return [{"end_turn": "end", "pool_tile": "pool"}.get(kind, str(kind))]


def paths_of(moves: list, view: dict) -> list:
    """One path per move; a path that is the start of another gets ``done``."""
    paths = []
    for m in moves:
        path = move_path(m)
        if m.get("type") == "pool_tile":
            held = view.get("held")
            path = [f"hand:{held}", "pool"]
        paths.append(path)
    starts = {tuple(p[:i]) for p in paths for i in range(1, len(p))}
    return [p + ["done"] if tuple(p) in starts else p for p in paths]


def seat_to_touch(view: dict, viewer, legal) -> bool:
    n = view.get("players", 0)
    return bool(legal) and isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < n \
        and view.get("end") is None


def pick_keys(view: dict, viewer, legal) -> frozenset:
    """The keys the picture draws with ``data-pick`` (only for a seat with moves)."""
    if not seat_to_touch(view, viewer, legal):
        return frozenset()
    return frozenset(k for p in paths_of(moves_of(legal), view) for k in p if not offboard(k))


def _tile_places(view: dict) -> dict:
    """tile id -> creature id, for the tiles on the table."""
    out = {}
    for c in view.get("creatures") or ():
        for t in (c.get("tiles") or {}).values():
            out[t] = c.get("id")
    return out


def label(key: str, view: dict, names, places: dict, moves: list) -> str:
    kind, _sep, arg = key.partition(":")
    if kind == "hand":
        return _("your tile {tile}", tile=tile_name(int(arg)))
    if kind == "slot":
        c, part = arg.split(":")
        return _("the place for the {part} in c{creature}", part=part_name(part), creature=c)
    if kind == "new":
        return _("a new {colour} creature", colour=colour_name(arg)) if arg else _("a new creature")
    if kind == "tile":
        t = int(arg)
        return _("{tile} in c{creature}", tile=tile_name(t), creature=places.get(t, "?"))
    if kind == "creature":
        return _("score c{creature}", creature=arg)
    if kind == "card":
        return _("your card {card}", card=card_name(int(arg)))
    if kind == "pool":
        return _("take {tile} from the centre", tile=tile_name(int(arg))) if arg else _("put it in the centre")
    if kind == "discard":
        return _("discard it as {colour}", colour=colour_name(arg)) if arg else _("discard it")
    if kind == "call":
        return _("call cheat on {name}", name=seat_name(names, int(arg)))
    if kind == "order":
        on = next((m.get("on") for m in moves if m.get("type") == "set_order" and m.get("order") == arg), True)
        what = order_what(arg)
        return _("standing order on: {order}", order=what) if on else _("standing order off: {order}", order=what)
    return {"end": lambda: _("end your turn"), "pass": lambda: _("pass"), "keep": lambda: _("keep the tile"),
            "draw": lambda: _("draw from the stack"), "done": lambda: _("no more"),
            "bluff": lambda: _("a secret theft without a Cheat card")}.get(key, lambda: key)()


def touch(view: dict, legal: list, viewer, names) -> dict:
    """The touch paths of ``legal`` (the API's ``[{"move", "text"}]``), the
    labels of their keys, and the keys shown off the board."""
    moves = moves_of(legal)
    paths = paths_of(moves, view)
    places = _tile_places(view)
    keys = sorted({k for p in paths for k in p})
    labels = {k: label(k, view, names, places, moves) for k in keys}
    return {"paths": paths, "labels": labels, "offboard": [k for k in keys if offboard(k)]}
