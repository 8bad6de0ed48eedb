"""Legal moves, their validation and grouping.

A move places the drawn tile and optionally deploys one follower on one of
its segments (steps 3 and 4 of the turn in one decision):

    {"type": "place_tile", "x": 2, "y": -1, "rotation": 90}
    {"type": "place_tile", "x": 2, "y": -1, "rotation": 90, "figure": "follower", "on": "city N"}

``on`` is the segment's canonical label in board orientation (after
rotation): ``road E``, ``city N``, ``field NL``, ``cloister``. Moves are listed
by cell (y, then x), rotation, then no figure first, so the first legal move
is the digest's canonical timeout move.
"""
from __future__ import annotations

from ..base import IllegalMove
from .features import occupancy_mask, port_sids, sid_mask
from .geometry import EDGES
from .orient import DEPLOYABLE, fits, oriented

MOVE_KEYS = {"type", "x", "y", "rotation", "figure", "on"}
FIGURES = ("follower",)


def _yx(cell):
    return (cell[1], cell[0])


def sorted_cells(frontier) -> list:
    """The frontier's cells by (y, x) (sorting pairs, not calling a key function)."""
    return [(x, y) for y, x in sorted([(y, x) for x, y in frontier])]


def legal_placements(state, letter=None) -> list:
    """(cell, quarter turns) of every legal placement of the tile, in order."""
    letter = letter or state.tile
    frontier = state.frontier
    checks = state.rules.placement_checks if state.rules is not None else ()
    out = []
    for cell in sorted(frontier, key=_yx):
        for r in fits(letter, frontier[cell]):
            if checks and refusal(state, letter, cell, r):
                continue
            out.append((cell, r))
    return out


def relevant_checks(state, letter: str) -> list:
    """The placement checks that may refuse this tile at all (a check may say which tiles
    it concerns: ``check.relevant(letter)``; Cult: those with a cloister)."""
    return [c for c in state.rules.placement_checks
            if getattr(c, "relevant", None) is None or c.relevant(letter)]


def refusal(state, letter: str, cell, r: int):
    """The first expansion restriction refusing the placement: (code, message), or None."""
    for check in state.rules.placement_checks:
        why = check(state, letter, cell, r)
        if why:
            return why
    return None


def legal_moves(state, player: int) -> list:
    if state.over or state.pending.get(player) != "place_tile":
        return []
    letter = state.tile
    frontier = state.frontier
    checks = relevant_checks(state, letter)
    cells = []
    for cell in sorted_cells(frontier):
        rots = fits(letter, frontier[cell])
        if not rots:
            continue
        if checks:
            rots = [r for r in rots if not any(check(state, letter, cell, r) for check in checks)]
            if not rots:
                continue
        cells.append((cell, rots))
    return placement_moves(state, player, letter, cells)


def placement_moves(state, player: int, letter: str, cells, more: dict | None = None) -> list:
    """The place_tile moves of tile ``letter`` at each (cell, rotations) of ``cells``:
    no figure first, then each figure choice; ``more`` is added to every move (a
    bridge). The expansions' choices come from ``Rules.figure_providers`` (prepared
    once here) and ``Rules.figure_options``."""
    has_follower = state.supply[player] > 0
    rules = state.rules
    extra = list(rules.figure_options)
    providers = [fn for fn in (make(state, player) for make in rules.figure_providers) if fn]
    block = tile_block(state, letter)
    if block:
        # the volcano: no figure on the tile (a barn on its corner only with "tile")
        has_follower = False
        if block == "all":
            extra, providers = [], []
        else:
            extra = [_corners_only(fn) for fn in extra]
            providers = [_corners_only_provider(fn) for fn in providers]
    out = []
    append = out.append
    if not extra and not providers and not more:
        # the base game's own loop (no expansion figure): as fast as before them
        for cell, rots in cells:
            x, y = cell
            mask = occupancy_mask(state, cell) if has_follower else 0
            for r in rots:
                rotation = r * 90
                append({"type": "place_tile", "x": x, "y": y, "rotation": rotation})
                if has_follower:
                    for label in oriented(letter, r).free_labels(mask):
                        append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                                "figure": "follower", "on": label})
        return out
    seg_feature = state.seg_feature
    for cell, rots in cells:
        x, y = cell
        sids = port_sids(state, cell)
        mask = sid_mask(state, sids)
        ports = [(bit, seg_feature[sid]) for bit, sid in sids] if mask else ()
        for r in rots:
            rotation = r * 90
            if more:
                head = {"type": "place_tile", "x": x, "y": y, "rotation": rotation, **more}
            else:
                head = {"type": "place_tile", "x": x, "y": y, "rotation": rotation}
            append(head)
            o = oriented(letter, r)
            if has_follower:
                for label in o.free_labels(mask):
                    append({**head, "figure": "follower", "on": label})
            for fn in providers:
                for figure, label in fn(cell, o, mask, ports):
                    append({**head, "figure": figure, "on": label})
            for fn in extra:
                for figure, label in fn(state, player, cell, o, mask):
                    append({**head, "figure": figure, "on": label})
    return out


def tile_block(state, letter) -> str | None:
    """What an expansion forbids on the new tile (``Rules.tile_blocks``): None, "tile"
    (no figure on its segments) or "all" (no figure at all this turn)."""
    for fn in state.rules.tile_blocks:
        block = fn(state, letter)
        if block:
            return block
    return None


def _corners_only_provider(fn):
    def options(cell, o, mask, ports):
        return [(figure, label) for figure, label in fn(cell, o, mask, ports) if label.startswith("corner ")]
    return options


def _corners_only(fn):
    def options(state, player, cell, o, mask):
        return [(figure, label) for figure, label in fn(state, player, cell, o, mask)
                if label.startswith("corner ")]
    return options


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_place(state, player: int, move: dict) -> dict:
    """Check a place_tile move completely; returns it cleaned (only its own
    fields). Raises IllegalMove with a stable code."""
    check_place(state, player, move)
    return {k: move[k] for k in ("type", "x", "y", "rotation", "figure", "on") if k in move}


def check_place(state, player: int, move: dict):
    """Validation of a place_tile move; returns (cell, quarter turns, segment
    index or None)."""
    extra = set(move) - MOVE_KEYS
    if extra:
        raise IllegalMove("malformed_move", f"unknown field(s) {sorted(extra)} in place_tile")
    x, y, rotation = move.get("x"), move.get("y"), move.get("rotation")
    if not (_int(x) and _int(y)):
        raise IllegalMove("bad_position", "x and y must be integers, e.g. place 1,-2 r90")
    if not _int(rotation) or rotation not in (0, 90, 180, 270):
        raise IllegalMove("bad_rotation", "rotation must be 0, 90, 180 or 270 (clockwise)")
    cell = (x, y)
    if cell in state.board:
        raise IllegalMove("cell_taken", f"there is already a tile at {x},{y}")
    constraint = state.frontier.get(cell)
    if constraint is None:
        raise IllegalMove("not_adjacent", f"{x},{y} does not touch any tile")
    letter = state.tile
    r = rotation // 90
    if r not in fits(letter, constraint):
        o = oriented(letter, r)
        bad = [EDGES[d] for d in range(4) if constraint[d] not in (".", o.edges[d])]
        raise IllegalMove("edges_do_not_match",
                          f"tile {letter} at {x},{y} r{rotation} does not match on edge(s) {' '.join(bad)}")
    if state.rules.placement_checks:
        why = refusal(state, letter, cell, r)
        if why:
            raise IllegalMove(*why)
    figure, on = move.get("figure"), move.get("on")
    if figure is None and on is None and "figure" not in move and "on" not in move:
        return cell, r, None
    if not isinstance(figure, str) or not isinstance(on, str):
        raise IllegalMove("bad_figure", "a deployment names a figure and a segment, e.g. follower city N")
    o = oriented(letter, r)
    block = tile_block(state, letter) if state.rules.tile_blocks else None
    if block and (block == "all" or not on.startswith("corner ")):
        raise IllegalMove("figure_blocked", "no figure may be deployed on this tile (the dragon's volcano)")
    validators = state.rules.figure_validators
    if figure in validators:
        return cell, r, validators[figure](state, player, cell, o, on)
    if figure not in FIGURES:
        raise IllegalMove("unknown_figure", f"unknown figure {figure!r}; the base game has: follower")
    if state.supply[player] <= 0:
        raise IllegalMove("no_followers_left", "you have no follower left in your supply")
    if on not in o.labels:
        raise IllegalMove("bad_segment", f"tile {letter} r{rotation} has no segment {on!r}; "
                          f"choose one of: {', '.join(o.labels)}")
    k = o.labels.index(on)
    if o.kinds[k] not in DEPLOYABLE:
        raise IllegalMove("bad_segment", f"a follower cannot stand on {on}")
    if o.masks[k] & occupancy_mask(state, cell):
        raise IllegalMove("feature_occupied",
                          f"the {o.kinds[k]} that {on} joins already holds a follower")
    return cell, r, k


def group_moves(moves: list) -> list:
    """Group place_tile moves by placement: [((x, y, rotation), [move, ...]), ...]
    in order, so a help message can list each placement once with its
    follower choices."""
    groups: dict = {}
    for m in moves:
        groups.setdefault((m["x"], m["y"], m["rotation"]), []).append(m)
    return list(groups.items())
