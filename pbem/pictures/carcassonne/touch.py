"""Every Carcassonne decision but the tile's placement, made by touching the
picture (the touch contract, ``docs/pages.md``):

    touch(view, legal, viewer, names) -> {"paths", "labels", "offboard"} | None

``legal`` is the seat's legal moves as the API lists them (``[{"move", "text"}]``);
``paths[i]`` is the sequence of keys the player touches to make ``legal[i]``.
A decision that places a tile (``place_tile`` among its moves: the base game's
placement, with a bridge, or the ransom offered beside it) returns **None**: the
page's own chooser (``pbem/web/static/carcassonne.js`` with ``chooser.py``) makes
those, so the generic ``touch.js`` stays away.

Keys (drawn with ``data-pick`` by ``board.Board`` or ``panel.Panel`` when ``legal``
is given, or listed in ``offboard`` for the page to show as buttons):

* ``cell:X,Y`` (drawn): a tile of the board, or a hole (the abbey), or where the
  dragon may step; the first touch of every move that names a place.
* ``seg:X,Y:LABEL`` (drawn, a ring): a segment of a placed tile (``city N``...), or
  ``seg:X,Y:tower`` the follower on top of a tower.
* ``district:Q`` (drawn on the City of Carcassonne's district tiles; offboard when
  they are not on the board): a district of the Count's City.
* ``pass`` (offboard): the decision's "no" (pass, draw instead of the abbey, capture
  nobody, stay out, no castle, no escape).
* ``home``: the wagon goes home. ``ransom:C:F``: buy back a prisoner from seat C.
* ``do:tower``, ``do:tower:top:F``, ``do:fairy``, ``do:fairy:F``, ``do:princess:P:F``,
  ``do:portal:F``: which action, where one place offers several.
* ``fig:P:F`` (capture: whose figure), ``figure:F`` (the abbey's figure or
  ``figure:none``; the figure entering or leaving the City; the exchange),
  ``count:Q`` (where the Count goes).
* ``bazaar:I`` (drawn in the panel: the bazaar's tile I), ``bids:D`` (bids D to D+9, when there are
  many), ``bid:B``, ``deal:buy`` / ``deal:sell``.
* ``move:I``: a move of a kind this module does not know (an expansion added later).

Each move first gets a *full* path naming everything that tells it apart (no full
path is a prefix of another); a touch that would offer one choice only is skipped
(after the first), and the path given is the shortest prefix that only this move
has (at least one key): where one tile offers one move, touching the tile is
enough, the page asking to confirm before sending.
"""
from __future__ import annotations

from collections import Counter

from ...games.carcassonne.expansions.count.text import district as district_name
from ...games.carcassonne.notation import at, figure_name, seat_name, segment
from ...games.carcassonne.notation import points as points_text
from ...games.i18n import N_, _

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
#: how many bids are shown at once before they are grouped by tens
BIDS_AT_ONCE = 12
#: what "pass" does, by decision
PASS = {"action": N_("Pass (no action away from the tile)"), "abbey": N_("Draw a tile (keep the abbey)"),
        "capture": N_("Capture nobody"), "count": N_("Stay out of the City"),
        "count_move": N_("Move nobody"), "castle": N_("Keep the city (no castle)"),
        "escape": N_("No escape"), "bazaar": N_("Pass (no higher bid)"), "shot": N_("No shot")}


def touch(view: dict, legal: list, viewer, names) -> dict | None:
    """The touches making each of ``legal`` (see the module's doc), or None for a placement."""
    moves = [entry.get("move") if isinstance(entry, dict) and "move" in entry else entry for entry in legal or ()]
    texts = [entry.get("text", "") if isinstance(entry, dict) else "" for entry in legal or ()]
    if not moves or any(not isinstance(mv, dict) for mv in moves):
        return None
    if any(mv.get("type") == "place_tile" for mv in moves):
        return None
    full = full_paths(view, moves, names)
    keys = [tuple(k for k, _label in path) for path in full]
    if len(set(keys)) != len(keys) or _some_prefix(keys):
        return None           # cannot happen with the moves the rules list; the list still works
    paths = shortest(skip_forced(keys))
    labels: dict = {}
    for path in full:
        for k, label in path:
            labels.setdefault(k, label)
    used = {k for p in paths for k in p}
    out_labels = {k: labels[k] for k in sorted(used)}
    # a key that ends one move's path only says which move, for a screen reader
    ends = Counter(p[-1] for p in paths)
    for p, text in zip(paths, texts):
        if ends[p[-1]] == 1 and text and text != out_labels[p[-1]]:
            out_labels[p[-1]] = _("{place}: {move}", place=out_labels[p[-1]], move=text)
    drawn = board_keys(view, moves)
    offboard = sorted(k for k in used if k not in drawn)
    return {"paths": paths, "labels": out_labels, "offboard": offboard}


def board_keys(view: dict, moves: list) -> set:
    """The keys of these moves' paths that the board draws (``Board`` marks them)."""
    if not moves or any(not isinstance(mv, dict) or mv.get("type") == "place_tile" for mv in moves):
        return set()
    has_city = bool(district_cells(view))
    out = set()
    for path in full_paths(view, moves, None):
        for k, _label in path:
            if k.startswith(("cell:", "seg:", "bazaar:")) or (has_city and k.startswith("district:")):
                out.add(k)
    return out


def district_cells(view: dict) -> list:
    """The cells of the City's two district tiles (CO6, CO7), west first, or []."""
    cells = sorted((t["x"], t["y"]) for t in view.get("board") or () if t.get("tile") in ("CO6", "CO7"))
    return cells if len(cells) == 2 and cells[0][1] == cells[1][1] and cells[1][0] == cells[0][0] + 1 else []


def skip_forced(keys: list) -> list:
    """The full paths without the touches that offer one choice only (after the first
    touch: a district whose followers are all of one kind goes straight on to the Count);
    unique and prefix-free paths stay so (every path through that step loses it)."""
    children: dict = {}
    for p in keys:
        for n in range(len(p)):
            children.setdefault(p[:n], set()).add(p[n])
    return [tuple(k for n, k in enumerate(p) if n == 0 or n == len(p) - 1 or len(children[p[:n]]) > 1)
            for p in keys]


def shortest(keys: list) -> list:
    """Each full path cut to its shortest prefix no other path shares (one key at least).
    With full paths unique and none a prefix of another, the cut ones are too."""
    seen = Counter(p[:n] for p in keys for n in range(1, len(p) + 1))
    out = []
    for p in keys:
        n = 1
        while n < len(p) and seen[p[:n]] > 1:
            n += 1
        out.append(list(p[:n]))
    return out


def _some_prefix(keys: list) -> bool:
    whole = set(keys)
    return any(p[:n] in whole for p in keys for n in range(1, len(p)))


# -- the full paths ---------------------------------------------------------------------------


def full_paths(view: dict, moves: list, names) -> list:
    """[(key, label), ...] for each move: everything that tells it apart."""
    many_bids = len({mv["bid"] for mv in moves if mv.get("type") == "bazaar" and "bid" in mv}) > BIDS_AT_ONCE
    return [_full(view, mv, i, names, many_bids) for i, mv in enumerate(moves)]


def _cell(x, y, label=None):
    return (f"cell:{x},{y}", label or _("Tile at {at}", at=at(x, y)))


def _seg(x, y, on):
    return (f"seg:{x},{y}:{on}", _("{on} at {at}", on=segment(on), at=at(x, y)))


def _place(mv):
    return [_cell(mv["x"], mv["y"]), _seg(mv["x"], mv["y"], mv["on"])]


def _full(view, mv, i, names, many_bids) -> list:
    kind = mv.get("type")
    if mv.get("pass") is True:
        return [("pass", _(PASS[kind]) if kind in PASS else _("Pass"))]
    try:
        build = _BUILDERS.get(kind)
        path = build(view, mv, names, many_bids) if build else None
    except (KeyError, TypeError, ValueError):
        path = None
    return path or [(f"move:{i}", _("Move {n}", n=i + 1))]


def _figure_of(player, figure, names) -> str:
    return _("{player}'s {figure}", player=seat_name(player, names), figure=figure_name(figure))


def _ransom(view, mv, names, many):
    return [(f"ransom:{mv['from']}:{mv['figure']}",
             _("Pay 3 points to {player} to take back your {figure}", player=seat_name(mv["from"], names),
               figure=figure_name(mv["figure"])))]


def _abbey(view, mv, names, many):
    figure = mv.get("figure")
    return [_cell(mv["x"], mv["y"], _("Hole at {at}", at=at(mv["x"], mv["y"]))),
            (f"figure:{figure}:{mv['on']}", _("{figure} on {on}", figure=figure_name(figure), on=segment(mv["on"])))
            if figure else ("figure:none", _("No figure"))]


def _wagon(view, mv, names, many):
    if mv.get("home"):
        return [("home", _("Take the wagon home"))]
    return _place(mv)


def _segment_move(view, mv, names, many):
    return _place(mv)


def _castle_feature(view, mv, names, many):
    """What the castle may score: the feature's segment, its points said."""
    cell, seg = _place(mv)
    options = (view.get("castle_feature_decision") or {}).get("options") or ()
    points = next((o["points"] for o in options if (o["x"], o["y"], o["on"]) == (mv["x"], mv["y"], mv["on"])), None)
    if points is not None:
        seg = (seg[0], _("{place}: {points}", place=seg[1], points=points_text(points)))
    return [cell, seg]


def _capture(view, mv, names, many):
    return _place(mv) + [(f"fig:{mv['player']}:{mv['figure']}", _("Capture {figure}", figure=_figure_of(
        mv["player"], mv["figure"], names)))]


def _dragon(view, mv, names, many):
    d = view.get("dragon") or {}
    dx, dy = STEPS[mv["direction"]]
    x, y = d["x"] + dx, d["y"] + dy
    return [_cell(x, y, _("Move the dragon {direction} to {at}", direction=mv["direction"], at=at(x, y)))]


def _action(view, mv, names, many):
    do = mv.get("do")
    if do == "tower":
        cell = _cell(mv["x"], mv["y"], _("Tower at {at}", at=at(mv["x"], mv["y"])))
        if "top" in mv:
            return [cell, (f"do:tower:top:{mv['top']}", _("Close the tower with your {figure}",
                                                          figure=figure_name(mv["top"])))]
        return [cell, ("do:tower", _("Add a floor to the tower"))]
    if do == "fairy" and "on" not in mv:
        return [_cell(mv["x"], mv["y"]), ("do:fairy", _("Move the fairy onto this tile"))]
    if do == "fairy":
        return _place(mv) + [(f"do:fairy:{mv['figure']}", _("Move the fairy next to your {figure}",
                                                              figure=figure_name(mv["figure"])))]
    if do == "princess":
        return _place(mv) + [(f"do:princess:{mv['player']}:{mv['figure']}", _(
            "Princess: send {figure} home", figure=_figure_of(mv["player"], mv["figure"], names)))]
    if do == "portal":
        return _place(mv) + [(f"do:portal:{mv['figure']}", _("Through the magic portal: your {figure} here",
                                                              figure=figure_name(mv["figure"])))]
    return None


def _district(q):
    return (f"district:{q}", district_name(q))


def _figure(figure):
    return (f"figure:{figure}", _("Your {figure}", figure=figure_name(figure)))


def _count(view, mv, names, many):
    return [_district(mv["quarter"]), _figure(mv["figure"]),
            (f"count:{mv['count_to']}", _("The Count to the {district}", district=district_name(mv["count_to"])))]


def _count_move(view, mv, names, many):
    return [_district(mv["quarter"]), _figure(mv["figure"]), *_place(mv)]


def _exchange(view, mv, names, many):
    return [(f"figure:{mv['figure']}", _("Take back your {figure}", figure=figure_name(mv["figure"])))]


def _bazaar(view, mv, names, many):
    if "deal" in mv:
        return [("deal:buy", _("Buy the tile (pay the bid)")) if mv["deal"] == "buy" else
                ("deal:sell", _("Sell the tile (take the bid)"))]
    out = []
    if "tile" in mv:
        tiles = (view.get("bazaar") or {}).get("tiles") or []
        letter = tiles[mv["tile"]] if 0 <= mv["tile"] < len(tiles) else "?"
        out.append((f"bazaar:{mv['tile']}", _("Bazaar tile {index}: {tile}", index=mv["tile"], tile=letter)))
    if "bid" in mv:
        b = mv["bid"]
        if many:
            low = b // 10 * 10
            out.append((f"bids:{low}", _("Bid {low} to {high}", low=low, high=low + 9)))
        out.append((f"bid:{b}", _("Bid {n}", n=b)))
    return out


_BUILDERS = {"ransom": _ransom, "abbey": _abbey, "wagon": _wagon, "escape": _segment_move,
             "castle": _segment_move, "choose_castle_feature": _castle_feature, "capture": _capture,
             "dragon": _dragon, "action": _action, "count": _count, "count_move": _count_move,
             "exchange": _exchange, "bazaar": _bazaar, "shot": _segment_move,
             "catapult": lambda view, mv, names, many: [(f"catapult:{mv['kind']}", _("Knock-out") if mv["kind"] ==
                                                         "knockout" else _("Seduction"))]}
