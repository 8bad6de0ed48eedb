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

from ..i18n import _, ngettext
from .notation import feature_name, segment
from ..base import IllegalMove
from .features import Frontier, _port_sids, cell_ports, frontier_order, occupancy_mask
from .geometry import EDGES
from .orient import DEPLOYABLE, fit_table, fits, orientations, oriented

MOVE_KEYS = {"type", "x", "y", "rotation", "figure", "on"}
FIGURES = ("follower",)


def _yx(cell):
    return (cell[1], cell[0])


#: (the frontier, its cells by (y, x)) of the last frontier asked about (a state's frontier
#: is not changed once the state is built: the abbey's holes are read at every turn's start).
#: One tuple, replaced whole, so concurrent readers see a consistent entry.
_LAST_FRONTIER: tuple = ({}, [])


def frontier_cells(frontier) -> list:
    """The frontier's cells by (y, x) (kept for the last frontier)."""
    global _LAST_FRONTIER
    last = _LAST_FRONTIER
    if last[0] is frontier and len(last[1]) == len(frontier):
        return last[1]
    cells = [cell for _y, _x, cell, _c in frontier_order(frontier)]
    _LAST_FRONTIER = (frontier, cells)
    return cells


def fitting_cells(frontier, letter: str) -> list:
    """(cell, rotations) of each frontier cell where ``letter`` fits by its edges, cells
    by (y, x), rotations ascending (no placement check applied), read off the frontier's
    kept order (``features.frontier_order``)."""
    memo = getattr(frontier, "fitting", None)
    if memo is not None and memo[0] == letter:
        return memo[1]
    out = []
    append = out.append
    table = fit_table(letter)
    for _y, _x, cell, c in frontier_order(frontier):
        rots = table.get(c)
        if rots:
            append((cell, rots))
    if isinstance(frontier, Frontier):
        frontier.fitting = (letter, out)     # the draw asks, then the listing of the moves
    return out


def _kept_ports(ports_of: dict, board: dict, cell) -> tuple:
    """``features.port_sids`` of a frontier cell, noted in ``ports_of`` (``cell_ports``)."""
    x, y = cell
    sids = ports_of[cell] = _port_sids((board.get((x, y - 1)), board.get((x + 1, y)),
                                        board.get((x, y + 1)), board.get((x - 1, y))))
    return sids


def _occupancy(ports_of: dict, board: dict, features: dict, seg_feature: dict, cell) -> tuple:
    """(mask of the cell's half-edge ports whose feature holds a figure, and
    those ports with their features, or () when none does)."""
    sids = ports_of.get(cell)
    if sids is None:
        sids = _kept_ports(ports_of, board, cell)
    mask = 0
    for bit, sid in sids:
        if features[seg_feature[sid]].meeples:
            mask |= bit
    return mask, ([(bit, seg_feature[sid]) for bit, sid in sids] if mask else ())


def legal_placements(state, letter=None) -> list:
    """(cell, quarter turns) of every legal placement of the tile, in order."""
    letter = letter or state.tile
    checks = state.rules.placement_checks if state.rules is not None else ()
    out = []
    for cell, rots in fitting_cells(state.frontier, letter):
        for r in rots:
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
    cells = fitting_cells(state.frontier, letter)
    checks = relevant_checks(state, letter)
    if checks:
        # a check that says its answer does not depend on the rotation (``by_cell``: the
        # Cult's neighbourhood) is asked once a cell
        by_cell = [c for c in checks if getattr(c, "by_cell", False)]
        by_rot = [c for c in checks if not getattr(c, "by_cell", False)]
        kept = []
        for cell, rots in cells:
            if by_cell and any(check(state, letter, cell, rots[0]) for check in by_cell):
                continue
            if by_rot:
                rots = [r for r in rots if not any(check(state, letter, cell, r) for check in by_rot)]
            if rots:
                kept.append((cell, rots))
        cells = kept
    return placement_moves(state, player, letter, cells)


def figure_choices(state, player: int, letter: str) -> tuple:
    """What ``placement_moves`` offers besides the placement itself, prepared once for a
    listing: (follower in supply, ``Rules.figure_options``, the ``Rules.figure_providers``
    made for this state and seat), the volcano's block applied."""
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
    return has_follower, extra, providers


def placement_moves(state, player: int, letter: str, cells, more: dict | None = None,
                    choices: tuple | None = None, out: list | None = None) -> list:
    """The place_tile moves of tile ``letter`` at each (cell, rotations) of ``cells``:
    no figure first, then each figure choice; ``more`` is added to every move (a
    bridge). The expansions' choices come from ``Rules.figure_providers`` (prepared
    once here, or given as ``choices`` from ``figure_choices`` for this state, seat and
    tile) and ``Rules.figure_options``. The moves are appended to ``out`` if given."""
    has_follower, extra, providers = choices or figure_choices(state, player, letter)
    if out is None:
        out = []
    append = out.append
    orients = orientations(letter)
    board = state.board
    features = state.features
    seg_feature = state.seg_feature
    if not extra and not providers and not more:
        # the base game's own loop (no expansion figure): as fast as before them
        ports_of = cell_ports(state) if has_follower else None
        for cell, rots in cells:
            x, y = cell
            mask = 0
            if has_follower:                  # ``occupancy_mask``, from the kept port segments
                sids = ports_of.get(cell)
                if sids is None:
                    sids = _kept_ports(ports_of, board, cell)
                for bit, sid in sids:
                    if features[seg_feature[sid]].meeples:
                        mask |= bit
            for r in rots:
                rotation = r * 90
                append({"type": "place_tile", "x": x, "y": y, "rotation": rotation})
                if has_follower:
                    for label in orients[r].free_labels(mask):
                        append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                                "figure": "follower", "on": label})
        return out
    plan = None if more or extra else _pure_plan(has_follower, providers)
    if plan is not None:
        # the choices that depend only on the oriented tile and the occupancy mask (follower,
        # big follower, mayor, wagon) come from one kept tuple; the rest are asked for
        keys, pure, calls = plan
        # an asked part may say when it has nothing for a whole cell: ``needs_mask`` (none
        # without a follower next to the cell), ``cell_ok(cell)`` (False: none there)
        asks = [(fn, getattr(fn, "needs_mask", False), getattr(fn, "cell_ok", None)) for fn in calls]
        # whether some asked part may have nothing for a cell (else all are asked everywhere)
        picky = any(needs_mask or cell_ok is not None for _fn, needs_mask, cell_ok in asks)
        known = _PURE.get(keys)
        if known is None:
            known = _PURE[keys] = {}
        # this tile's choices by (mask << 2 | quarter turns): int keys and tuples of strings,
        # which the garbage collector stops tracking once seen (a kept (oriented, mask)
        # key stays on its lists for the whole process)
        known = known.get(letter) or known.setdefault(letter, {})
        ports_of = cell_ports(state)
        for cell, rots in cells:
            x, y = cell
            sids = ports_of.get(cell)        # ``_occupancy``, inline: asked for every cell
            if sids is None:
                sids = _kept_ports(ports_of, board, cell)
            mask = 0
            for bit, sid in sids:
                if features[seg_feature[sid]].meeples:
                    mask |= bit
            ports = [(bit, seg_feature[sid]) for bit, sid in sids] if mask else ()
            if picky:
                calls = []
                for fn, needs_mask, cell_ok in asks:
                    if (mask or not needs_mask) and (cell_ok is None or cell_ok(cell)):
                        calls.append(fn)
            if not keys and not calls:
                for r in rots:                # nothing here but the placements
                    append({"type": "place_tile", "x": x, "y": y, "rotation": r * 90})
                continue
            for r in rots:
                rotation = r * 90
                o = orients[r]
                append({"type": "place_tile", "x": x, "y": y, "rotation": rotation})
                if keys:
                    key = mask << 2 | r
                    choices = known.get(key)
                    if choices is None:
                        choices = _pure_choices(known, key, o, mask, pure, keys)
                    for figure, label in choices:
                        append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                                "figure": figure, "on": label})
                for fn in calls:
                    for figure, label in fn(cell, o, mask, ports):
                        append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                                "figure": figure, "on": label})
        return out
    ports_of = cell_ports(state)
    for cell, rots in cells:
        x, y = cell
        mask, ports = _occupancy(ports_of, board, features, seg_feature, cell)
        for r in rots:
            rotation = r * 90
            o = orients[r]
            if more:
                head = {"type": "place_tile", "x": x, "y": y, "rotation": rotation, **more}
                append(head)
                if has_follower:
                    for label in o.free_labels(mask):
                        append({**head, "figure": "follower", "on": label})
                for fn in providers:
                    for figure, label in fn(cell, o, mask, ports):
                        append({**head, "figure": figure, "on": label})
                for fn in extra:
                    for figure, label in fn(state, player, cell, o, mask):
                        append({**head, "figure": figure, "on": label})
                continue
            append({"type": "place_tile", "x": x, "y": y, "rotation": rotation})
            if has_follower:
                for label in o.free_labels(mask):
                    append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                            "figure": "follower", "on": label})
            for fn in providers:
                for figure, label in fn(cell, o, mask, ports):
                    append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                            "figure": figure, "on": label})
            for fn in extra:
                for figure, label in fn(state, player, cell, o, mask):
                    append({"type": "place_tile", "x": x, "y": y, "rotation": rotation,
                            "figure": figure, "on": label})
    return out


#: the pure parts' keys -> tile letter -> occupancy mask << 2 | quarter turns -> the
#: (figure, label) choices of those parts, in order (see ``_pure_plan``).
_PURE: dict = {}


def _follower_choices(o, mask) -> list:
    return [("follower", label) for label in o.free_labels(mask)]


def _pure_plan(has_follower: bool, providers: list):
    """How ``placement_moves`` may list the figure choices from kept tuples, or None.

    A provider may say that the first part of its choices depends only on the labels the
    mask leaves free on the oriented tile (``o.free_labels(mask)``: ``_BY_FREE``): attributes
    ``pure_key`` (hashable, naming that part: which figures the seat has) and
    ``pure(o, mask)``, and ``rest`` (None, or fn(cell, o, mask, ports)
    for the remaining choices). That works when every pure part comes before every asked
    one (the follower first, as always): returns (keys, pure fns, asked fns)."""
    keys, pure, calls = [], [], []
    if has_follower:
        keys.append("follower")
        pure.append(_follower_choices)
    for fn in providers:
        key = getattr(fn, "pure_key", None)
        if key is None:
            calls.append(fn)
            continue
        if calls:
            return None
        keys.append(key)
        pure.append(fn.pure)
        if fn.rest is not None:
            calls.append(fn.rest)
    return tuple(keys), pure, calls


#: the pure parts' keys -> the free labels (``Oriented.free_labels``) -> their choices:
#: what a pure part lists depends on the mask only through the labels it leaves free (the
#: follower, the big follower, the mayor and the wagon go on a free segment), and many
#: (tile, mask) pairs leave the same labels free, so a new pair is most often known here
_BY_FREE: dict = {}


def _pure_choices(known: dict, key, o, mask, pure, keys=None) -> tuple:
    free = o.free_labels(mask)
    by_free = _BY_FREE.get(keys)
    if by_free is None:
        by_free = _BY_FREE[keys] = {}
    out = by_free.get(free)
    if out is None:
        out = []
        for fn in pure:
            out.extend(fn(o, mask))
        out = tuple(out)
        if len(by_free) > 100000:          # a long-lived process: start again
            by_free.clear()
        by_free[free] = out
    if len(known) > 100000:                # a long-lived process: start again
        known.clear()
    known[key] = out
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
        raise IllegalMove("malformed_move", _("a placement has no field {list}", list=", ".join(sorted(extra))))
    x, y, rotation = move.get("x"), move.get("y"), move.get("rotation")
    if not (_int(x) and _int(y)):
        raise IllegalMove("bad_position", _("x and y must be integers, e.g. place 1,-2 r90"))
    if not _int(rotation) or rotation not in (0, 90, 180, 270):
        raise IllegalMove("bad_rotation", _("rotation must be 0, 90, 180 or 270 (clockwise)"))
    cell = (x, y)
    if cell in state.board:
        raise IllegalMove("cell_taken", _("there is already a tile at {x},{y}", x=x, y=y))
    constraint = state.frontier.get(cell)
    if constraint is None:
        raise IllegalMove("not_adjacent", _("{x},{y} does not touch any tile", x=x, y=y))
    letter = state.tile
    r = rotation // 90
    if r not in fits(letter, constraint):
        o = oriented(letter, r)
        bad = [EDGES[d] for d in range(4) if constraint[d] not in (".", o.edges[d])]
        raise IllegalMove("edges_do_not_match",
                          ngettext("tile {letter} at {x},{y} r{rotation} does not match its neighbour on edge {list}",
                                   "tile {letter} at {x},{y} r{rotation} does not match its neighbours on edges {list}",
                                   len(bad), letter=letter, x=x, y=y, rotation=rotation, list=' '.join(bad)))
    if state.rules.placement_checks:
        why = refusal(state, letter, cell, r)
        if why:
            raise IllegalMove(*why)
    figure, on = move.get("figure"), move.get("on")
    if figure is None and on is None and "figure" not in move and "on" not in move:
        return cell, r, None
    if not isinstance(figure, str) or not isinstance(on, str):
        raise IllegalMove("bad_figure", _("a deployment names a figure and a segment, e.g. follower "
                                          "city N"))
    o = oriented(letter, r)
    block = tile_block(state, letter) if state.rules.tile_blocks else None
    if block and (block == "all" or not on.startswith("corner ")):
        raise IllegalMove("figure_blocked", _("no figure may be deployed on this tile (the dragon's "
                                              "volcano)"))
    validators = state.rules.figure_validators
    if figure in validators:
        return cell, r, validators[figure](state, player, cell, o, on)
    if figure not in FIGURES:
        raise IllegalMove("unknown_figure", _("unknown figure “{figure}”; the base game has: follower", figure=figure))
    if state.supply[player] <= 0:
        raise IllegalMove("no_followers_left", _("you have no follower left in your supply"))
    if on not in o.labels:
        raise IllegalMove("bad_segment", _("tile {letter} r{rotation} has no segment “{on}”; choose "
                                           "one of: {list}", letter=letter, rotation=rotation, on=on, list=', '.join(o.labels)))
    k = o.labels.index(on)
    if o.kinds[k] not in DEPLOYABLE:
        raise IllegalMove("bad_segment", _("a follower cannot stand on {on}", on=on))
    if o.masks[k] & occupancy_mask(state, cell):
        raise IllegalMove("feature_occupied",
                          _("the {feature} that {on} joins already holds a follower", feature=feature_name(o.kinds[k]),
                            on=segment(on)))
    return cell, r, k


def group_moves(moves: list) -> list:
    """Group place_tile moves by placement: [((x, y, rotation), [move, ...]), ...]
    in order, so a help message can list each placement once with its
    follower choices."""
    groups: dict = {}
    for m in moves:
        groups.setdefault((m["x"], m["y"], m["rotation"]), []).append(m)
    return list(groups.items())
