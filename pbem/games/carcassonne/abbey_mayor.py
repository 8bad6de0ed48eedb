"""Abbey & Mayor (rules digest §3.5), option ``expansions: ["abbey_mayor"]``.

Installed into a :class:`~.rules.Rules` like every expansion:

* **Tiles.** AM1-AM12 (``am_tiles.py``) join the draw pile.
* **Abbey (step 2.1).** Each seat holds one abbey tile ``AB``. At the start
  of its turn, if it still holds it and some empty cell has all 4 orthogonal
  neighbours filled (a hole; Cult placement checks apply), the seat owes the
  decision ``abbey`` (``AbbeyOffered``): place the abbey there instead of
  drawing, optionally with a follower, big follower or wagon on it
  (``{"type": "abbey", "x": 1, "y": 1}``, ``... "figure": "follower", "on":
  "cloister"``; notation ``abbey 1,1`` / ``abbey 1,1 monk`` / ``abbey 1,1
  wagon``), or draw (``{"type": "abbey", "pass": true}``, notation ``draw``).
  The abbey matches every edge and closes every road and city it touches; it
  is a monastery (9 complete, 1 + neighbours at the end). It has no roads or
  cities, so it never extends the builder's feature.
  ``abbey_after_last_tile`` (default true): when the pile is empty, every
  seat still holding an abbey, from the seat that would draw next, gets one
  abbey decision (a mini-turn: placement, figure, scoring); then final scoring.
* **Mayor (step 4).** ``place X,Y rR mayor city N``: only on a city segment
  whose city is unoccupied. Its strength is the number of pennants in the city
  at each evaluation (``Rules.strength_of``), 0 without pennants.
* **Wagon (step 4).** ``place X,Y rR wagon road E`` (road, city or cloister,
  unoccupied; strength 1). When its feature is scored in play, its owner
  (active seat first, then clockwise) owes the decision ``wagon`` if an
  eligible target exists (``WagonOffered``): move it to an incomplete,
  unoccupied road, city or cloister (``wagon X,Y road E``) or take it home
  (``wagon home``, the timeout default). Targets: ``wagon_move`` =
  ``along_road`` (default): features touching the scored feature at a road
  end (a road ending on a tile meets its cloister, else the other roads of a
  junction, else the tile's cities; AM4 from its table); ``adjacent_tiles``:
  features with a segment on the wagon's tile or its 4 neighbours.
  [HOUSE] the wagon decisions are taken after the whole of step 8 (8.4
  records, 8.5 escape), just before followers return (9.1).
* **Barn (step 5).** ``place X,Y rR barn NE`` (corner NE SE SW NW of the new
  tile): the 4 tiles around the corner exist and all 4 corner quadrants are
  field; [HOUSE] not into a field that already holds a barn; with
  ``barn_placement`` = ``no_farmers`` not into a field with farmers. On
  placement the field's farmers score for their majority (``field_city_points``
  per completed city, +``pig_city_points`` with their pig) and go home with
  their pigs (``BarnFarmersScored``). Farmers cannot be deployed into a barn
  field (it is occupied). When a tile joins farmers to a barn field, those
  farmers' majority scores 1 per completed city (2 with pig) in step 8.1 and
  they go home. At the end the barn majority scores ``field_city_points`` +
  ``pig_city_points`` per completed city (4; 8 besieged) with no pig bonus.

The module imports only the standard library and the engine.
"""
from __future__ import annotations

import re

from ..base import IllegalMove, ParseError
from .base_rules import draw_tile, finish
from .evolve import EVOLVERS
from .features import is_complete, label_of, sid_at
from .geometry import DELTA, EDGE_INDEX, opposite_half
from .moves import refusal
from .notation import EVENT_TEXTS, MOVE_TEXTS, describe_move
from .am_tiles import ABBEY, ABBEY_TILES, AM_TILES, EXPANSION, MEETS, am_pile
from .orient import add_tiles, oriented
from .rules import FINAL_SCORING, Expansion, Rules, Turn, register_expansion
from .scoring import completed_by_last_tile
from .state import SEG_BITS

add_tiles(AM_TILES)
add_tiles(ABBEY_TILES)

MAYOR, WAGON, BARN = "mayor", "wagon", "barn"
FIGURES = ("abbey", MAYOR, WAGON, BARN)
FARMERS = ("follower", "big")
#: corner name -> the two half-edges of a tile at that corner
CORNERS = {"NW": (7, 0), "NE": (1, 2), "SE": (3, 4), "SW": (5, 6)}
_CORNER_DELTA = {"NW": (-1, -1), "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1)}


def _mine(state) -> dict:
    return state.ext.get(EXPANSION) or {}


def left(state, player: int, figure: str) -> int:
    row = _mine(state).get(figure)
    return row[player] if row else 0


def _initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {f: [1] * state.players for f in FIGURES}}


def _set(state, **changes):
    new = state.copy()
    new.ext = {**state.ext, EXPANSION: {**_mine(state), **changes}}
    return new


def _supply(state, player: int, figure: str, delta: int):
    row = list(_mine(state).get(figure) or [0] * state.players)
    row[player] += delta
    return _set(state, **{figure: row})


# -- the abbey -------------------------------------------------------------------------


def holes(state) -> list:
    """Empty cells with all 4 orthogonal neighbours filled where an abbey may go."""
    out = []
    for cell in sorted(state.frontier, key=lambda c: (c[1], c[0])):
        if "." in state.frontier[cell]:
            continue
        if state.rules.placement_checks and refusal(state, ABBEY, cell, 0):
            continue
        out.append(cell)
    return out


def _abbey_figures(state, player, cell):
    o = oriented(ABBEY, 0)
    out = []
    if state.supply[player] > 0:
        out.append(("follower", "cloister"))
    for fn in state.rules.figure_options:
        for figure, label in fn(state, player, cell, o, 0):
            if label == "cloister":
                out.append((figure, label))
    return out


def legal_abbey(state, player: int) -> list:
    if state.over or state.pending.get(player) != "abbey":
        return []
    out = [{"type": "abbey", "pass": True}]
    for x, y in holes(state):
        out.append({"type": "abbey", "x": x, "y": y})
        for figure, label in _abbey_figures(state, player, (x, y)):
            out.append({"type": "abbey", "x": x, "y": y, "figure": figure, "on": label})
    return out


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_abbey(state, player: int, move: dict) -> dict:
    keys = set(move)
    if "pass" in move:
        if keys != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", 'drawing instead is {"type": "abbey", "pass": true}')
        return {"type": "abbey", "pass": True}
    if not keys <= {"type", "x", "y", "figure", "on"} or not {"x", "y"} <= keys:
        raise IllegalMove("malformed_move", "an abbey names its cell: x and y (e.g. abbey 1,1)")
    x, y = move["x"], move["y"]
    if not (_int(x) and _int(y)):
        raise IllegalMove("bad_position", "x and y must be integers, e.g. abbey 1,1")
    if left(state, player, "abbey") <= 0:
        raise IllegalMove("no_abbey_left", "you have already placed your abbey")
    if (x, y) not in holes(state):
        raise IllegalMove("not_a_hole", f"{x},{y} is not an empty cell with 4 neighbouring tiles")
    clean = {"type": "abbey", "x": x, "y": y, "rotation": 0}
    if "figure" in move or "on" in move:
        figure, on = move.get("figure"), move.get("on")
        if (figure, on) not in _abbey_figures(state, player, (x, y)):
            raise IllegalMove("bad_figure", "on the abbey only a follower, big follower or wagon may "
                              "stand (on the cloister), if you have one")
        clean.update(figure=figure, on=on)
    return clean


def offer_abbey(turn: Turn) -> None:
    """Start of turn (step 2.1): a seat holding its abbey with a hole on the board decides."""
    st = turn.state
    if st.tile is not None or _mine(st).get("round") is not None:
        return
    if left(st, turn.player, "abbey") > 0 and _pile_left(st) and holes(st):
        turn.emit({"type": "AbbeyOffered", "player": turn.player})


def _pile_left(state) -> bool:
    if state.order is not None:
        return bool(state.order)
    return any(v > 0 for v in state.pile.values())


def take_abbey(turn: Turn) -> None:
    """Step 2 (first): the answer to the abbey decision."""
    m = turn.move
    if not m or m.get("type") != "abbey":
        return
    turn.player = turn.state.active
    if m.get("pass"):
        turn.emit({"type": "AbbeyDeclined", "player": turn.player})
        if _mine(turn.state).get("round") is not None:
            _next_in_round(turn)
        return
    turn.emit({"type": "AbbeyTaken", "player": turn.player})


def gated_draw(turn: Turn) -> None:
    """The base draw, skipped when the abbey was taken or in the end round;
    with the pile empty and ``abbey_after_last_tile``, the end round starts."""
    st = turn.state
    if st.tile is not None or st.pending or _mine(st).get("round") is not None:
        return
    if not _pile_left(st) and st.options.get("abbey_after_last_tile", True):
        n = st.players
        seats = [(turn.player + i) % n for i in range(n)]
        seats = [p for p in seats if left(st, p, "abbey") > 0]
        if seats:
            turn.emit({"type": "AbbeyRoundStarted", "seats": seats})
            _next_in_round(turn)
            return
    draw_tile(turn)


def _next_in_round(turn: Turn) -> None:
    """End round: offer the next seat its abbey; finish when none is left."""
    while True:
        st = turn.state
        seats = _mine(st).get("round") or []
        if not seats:
            finish(turn)
            return
        p = seats[0]
        if holes(st):
            turn.player = p
            turn.emit({"type": "AbbeyOffered", "player": p, "final": True})
            return
        turn.emit({"type": "AbbeyRoundSkipped", "player": p})


def round_turn(turn: Turn) -> None:
    """Start of a turn during the end round: the next seat's abbey decision."""
    if _mine(turn.state).get("round") is not None and not turn.state.pending:
        _next_in_round(turn)


def _offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: "abbey"}
    new.active = event["player"]
    new.step = "draw_tile"
    if event.get("final"):
        new = _set(new, round=[p for p in _mine(state).get("round") or [] if p != event["player"]])
    return new


def _declined(state, event):
    new = state.copy()
    new.pending = {}
    return new


def _taken(state, event):
    new = _supply(state, event["player"], "abbey", -1)
    new.tile = ABBEY
    new.pending = {}
    new.step = "place_tile"
    return new


def _round_started(state, event):
    return _set(state, round=list(event["seats"]))


def _round_skipped(state, event):
    return _set(state, round=[p for p in _mine(state).get("round") or [] if p != event["player"]])


# -- mayor, wagon, barn: placement choices --------------------------------------------


def _touching(state, cell, o, k) -> set:
    """Feature ids of neighbour segments that segment k joins."""
    out = set()
    x, y = cell
    board = state.board
    if o.kinds[k] == "field":
        for h in o.ports[k]:
            dx, dy = DELTA[h // 2]
            nb = board.get((x + dx, y + dy))
            if nb is None:
                continue
            j = oriented(nb[0], nb[1]).half_seg[opposite_half(h)]
            if j >= 0:
                out.add(state.seg_feature[(nb[2] << SEG_BITS) + j])
    else:
        for d in o.ports[k]:
            dx, dy = DELTA[d]
            nb = board.get((x + dx, y + dy))
            if nb is None:
                continue
            j = oriented(nb[0], nb[1]).edge_seg[(d + 2) % 4]
            if j >= 0:
                out.add(state.seg_feature[(nb[2] << SEG_BITS) + j])
    return out


def _joined(state, cell, o, k) -> set:
    mine = _touching(state, cell, o, k)
    others = [_touching(state, cell, o, j) for j in range(o.nseg) if j != k and o.kinds[j] == o.kinds[k]]
    grown = bool(mine)
    while grown:
        grown = False
        for s in others:
            if s & mine and not s <= mine:
                mine |= s
                grown = True
    return mine


def _barn_corner(state, cell, o, corner):
    """The field segment index of the new tile at ``corner`` if a barn may go there, else None."""
    a, b = CORNERS[corner]
    k = o.half_seg[a]
    if k < 0 or o.half_seg[b] < 0:
        return None
    x, y = cell
    dx, dy = _CORNER_DELTA[corner]
    for cx, cy in ((x + dx, y), (x, y + dy), (x + dx, y + dy)):
        t = state.board.get((cx, cy))
        if t is None:
            return None
        # the corner of that tile touching the shared vertex
        vert = "S" if (y + dy / 2) > cy else "N"
        horiz = "E" if (x + dx / 2) > cx else "W"
        ta, tb = CORNERS[vert + horiz]
        no = oriented(t[0], t[1])
        if no.half_seg[ta] < 0 or no.half_seg[tb] < 0:
            return None
    return k


def _field_has(state, fids, figures) -> bool:
    return any(fig in figures for fid in fids for _p, _s, fig in state.features[fid].meeples)


def _options(state, player: int, cell, o, mask: int):
    out = []
    if left(state, player, MAYOR) > 0:
        out += [(MAYOR, lab) for lab in o.free_labels(mask) if lab.startswith("city")]
    if left(state, player, WAGON) > 0:
        out += [(WAGON, lab) for lab in o.free_labels(mask) if not lab.startswith("field")]
    if left(state, player, BARN) > 0 and o.letter != ABBEY:
        for corner in CORNERS:
            if _barn_ok(state, cell, o, corner):
                out.append((BARN, f"corner {corner}"))
    return out


def _barn_ok(state, cell, o, corner) -> bool:
    k = _barn_corner(state, cell, o, corner)
    if k is None:
        return False
    fids = _joined(state, cell, o, k)
    if _field_has(state, fids, (BARN,)):
        return False
    if state.options.get("barn_placement", "any") == "no_farmers" and _field_has(state, fids, FARMERS):
        return False
    return True


def _figure_validator(figure: str):
    def validate(state, player: int, cell, o, on: str) -> int:
        if left(state, player, figure) <= 0:
            raise IllegalMove(f"no_{figure}_left", f"your {figure} is not in your supply")
        if figure == BARN:
            corner = on[7:] if on.startswith("corner ") else ""
            if corner not in CORNERS or not _barn_ok(state, cell, o, corner):
                raise IllegalMove("bad_barn", "a barn goes on a corner (NE SE SW NW) of the new tile where "
                                  "4 tiles meet, all 4 corners field, in a field without a barn")
            return _barn_corner(state, cell, o, corner)
        if (figure, on) not in _options(state, player, cell, o, _occupancy(state, cell)):
            what = "an unoccupied city" if figure == MAYOR else "an unoccupied road, city or cloister"
            raise IllegalMove("bad_segment", f"the {figure} goes on {what}, not on {on!r}")
        return o.labels.index(on)
    return validate


def _occupancy(state, cell):
    from .features import occupancy_mask
    return occupancy_mask(state, cell)


def deploy(turn: Turn) -> None:
    """Steps 4 (mayor, wagon) and 5 (barn: the farmers already there score and go home)."""
    m = turn.move
    if not m or m.get("figure") not in (MAYOR, WAGON, BARN):
        return
    if m["figure"] != BARN:
        turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": m["figure"],
                   "x": m["x"], "y": m["y"], "on": m["on"]})


def deploy_barn(turn: Turn) -> None:
    m = turn.move
    if not m or m.get("figure") != BARN:
        return
    st = turn.state
    corner = m["on"].split()[-1]
    t = st.board[(m["x"], m["y"])]
    o = oriented(t[0], t[1])
    k = o.half_seg[CORNERS[corner][0]]
    turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": BARN,
               "x": m["x"], "y": m["y"], "on": o.labels[k], "corner": corner})
    st = turn.state
    fid = st.seg_feature[(t[2] << SEG_BITS) + k]
    _score_farmers(turn, fid, connected=False)


def _score_farmers(turn: Turn, fid: int, connected: bool) -> None:
    """The farmers of a barn field score (placement: the full farmer values;
    a later connection: 1 per city, 2 with pig) and go home with their pigs."""
    st = turn.state
    f = st.features[fid]
    farmers = [(p, s, fig) for p, s, fig in f.meeples if fig in FARMERS]
    if not farmers:
        return
    strength = st.rules.strength
    total: dict = {}
    for p, _s, fig in farmers:
        total[p] = total.get(p, 0) + strength.get(fig, 1)
    best = max(total.values())
    winners = sorted(p for p, v in total.items() if v == best)
    done = [st.features[c] for c in {st.seg_feature[c] for c in f.cities} if st.features[c].open == 0]
    rules = st.rules
    x, y, label = label_of(st, min(f.segs))
    for p in winners:
        has_pig = any(q == p and fig == "pig" for q, _s, fig in f.meeples)
        if connected:
            points = (2 if has_pig else 1) * len(done)
        else:
            points = sum(rules.field_city_points(st, c) + (rules.pig_city_points(st, c) if has_pig else 0)
                         for c in done)
        turn.emit({"type": "BarnFarmersScored", "x": x, "y": y, "on": label, "cities": len(done),
                   "points": points, "winners": [p], "pig": has_pig, "connected": connected,
                   "category": "field"})
    back = []
    for p, s, fig in f.meeples:
        if fig in FARMERS or fig == "pig":
            bx, by, blabel = label_of(st, s)
            back.append({"player": p, "figure": fig, "x": bx, "y": by, "on": blabel})
    turn.emit({"type": "FollowersReturned", "followers": back})


def barn_connections(turn: Turn) -> None:
    """Step 8.1: farmers the new tile joined to a barn field score 1 per city (2 with pig)."""
    st = turn.state
    cell = st.placed[-1]
    t = st.board[cell]
    o = oriented(t[0], t[1])
    seen = set()
    for k in range(o.nseg):
        if o.kinds[k] != "field":
            continue
        fid = st.seg_feature[(t[2] << SEG_BITS) + k]
        if fid in seen:
            continue
        seen.add(fid)
        f = turn.state.features[fid]
        figs = {fig for _p, _s, fig in f.meeples}
        if BARN in figs and figs & set(FARMERS):
            _score_farmers(turn, fid, connected=True)


def barn_final(turn: Turn) -> None:
    """Final scoring: each barn field's barn majority scores per completed city."""
    st = turn.state
    rules = st.rules
    for sid, fid in sorted((min(f.segs), fid) for fid, f in st.features.items()
                           if f.kind == "field" and any(fig == BARN for _p, _s, fig in f.meeples)):
        f = st.features[fid]
        count: dict = {}
        for p, _s, fig in f.meeples:
            if fig == BARN:
                count[p] = count.get(p, 0) + 1
        best = max(count.values())
        winners = sorted(p for p, v in count.items() if v == best)
        done = [st.features[c] for c in {st.seg_feature[c] for c in f.cities} if st.features[c].open == 0]
        x, y, label = label_of(st, sid)
        turn.emit({"type": "BarnScored", "x": x, "y": y, "on": label, "cities": len(done),
                   "points": sum(rules.field_city_points(st, c) + rules.pig_city_points(st, c) for c in done),
                   "winners": winners, "category": "barn"})


# -- the wagon -------------------------------------------------------------------------


def _eligible(state, f) -> bool:
    return f.kind in ("road", "city", "cloister") and not f.meeples and not is_complete(state, f)


def _segs_on(state, cell):
    t = state.board.get(cell)
    if t is None:
        return []
    o = oriented(t[0], t[1])
    return [(o, k, (t[2] << SEG_BITS) + k) for k in range(o.nseg)]


def _meets(state, cell, o, k) -> list:
    """Segment indices on the tile that the dead-end road k meets (along_road)."""
    special = MEETS.get(o.letter)
    if special is not None:
        unrot = (o.ports[k][0] - o.rot) % 4
        edge = special.get(unrot)
        if edge is None:
            return []
        return [o.edge_seg[(edge + o.rot) % 4]]
    if o.cloister >= 0:
        return [o.cloister]
    ends = [j for j in range(o.nseg) if j != k and o.kinds[j] == "road" and len(o.ports[j]) == 1]
    if ends:
        return ends
    return [j for j in range(o.nseg) if o.kinds[j] == "city"]


def wagon_targets(state, wsid: int, fid: int) -> list:
    """Feature-representative segment ids the wagon at ``wsid`` (on scored feature ``fid``) may move to."""
    f = state.features[fid]
    found: dict = {}
    if state.options.get("wagon_move", "along_road") == "adjacent_tiles":
        x, y = state.cell_of(wsid)
        for cx, cy in ((x, y), (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            for o, k, sid in _segs_on(state, (cx, cy)):
                g = state.seg_feature[sid]
                if g != fid and _eligible(state, state.features[g]):
                    found.setdefault(g, sid)
    else:
        for cell in sorted(f.tiles if f.kind != "cloister" else {state.cell_of(f.segs[0])}):
            for o, k, sid in _segs_on(state, cell):
                mine = state.seg_feature[sid] == fid
                if o.kinds[k] == "road" and len(o.ports[k]) == 1:
                    # a dead-end road: it meets segments on this tile
                    for j in _meets(state, cell, o, k):
                        other = sid - k + j
                        g = state.seg_feature[other]
                        if mine and g != fid and _eligible(state, state.features[g]):
                            found.setdefault(g, other)
                        if state.seg_feature[other] == fid and not mine:
                            g = state.seg_feature[sid]
                            if _eligible(state, state.features[g]):
                                found.setdefault(g, sid)
    out = []
    for g, sid in found.items():
        x, y, label = label_of(state, sid)
        out.append({"type": WAGON, "x": x, "y": y, "on": label})
    out.sort(key=lambda m: (m["y"], m["x"], m["on"]))
    return out


def _waiting_wagons(turn: Turn) -> list:
    st = turn.state
    n = st.players
    out = []
    for fid in turn.completed:
        f = st.features.get(fid)
        if f is None:
            continue
        for p, sid, fig in f.meeples:
            if fig == WAGON:
                out.append(((p - st.active) % n, sid, p, fid))
    out.sort()
    return out


def wagons(turn: Turn) -> None:
    """Step 8.2 (after the rest of step 8): wagons on scored features move or go home."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == WAGON:
        turn.player = st.active
        turn.completed = [fid for fid, _ in completed_by_last_tile(st)]
        turn.data = dict(_mine(st).get("turn_data") or {})
        who = st.ext[EXPANSION]["wagon_at"]
        if m.get("home"):
            turn.emit({"type": "WagonReturned", "player": who[0],
                       "followers": [{"player": who[0], "figure": WAGON, "x": who[1], "y": who[2],
                                      "on": who[3]}]})
        else:
            turn.emit({"type": "WagonMoved", "player": who[0], "from": who[1:],
                       "x": m["x"], "y": m["y"], "on": m["on"]})
    if not turn.completed:
        return
    while True:
        st = turn.state
        waiting = _waiting_wagons(turn)
        if not waiting:
            return
        _, sid, p, fid = waiting[0]
        x, y, label = label_of(st, sid)
        if wagon_targets(st, sid, fid):
            turn.emit({"type": "WagonOffered", "player": p, "at": [p, x, y, label],
                       "turn_data": dict(turn.data)})
            return
        turn.emit({"type": "WagonReturned", "player": p,
                   "followers": [{"player": p, "figure": WAGON, "x": x, "y": y, "on": label}]})


def legal_wagon(state, player: int) -> list:
    if state.over or state.pending.get(player) != WAGON:
        return []
    p, x, y, label = _mine(state)["wagon_at"]
    sid = sid_at(state, (x, y), label)
    return [{"type": WAGON, "home": True}, *wagon_targets(state, sid, state.seg_feature[sid])]


def validate_wagon(state, player: int, move: dict) -> dict:
    if "home" in move:
        if set(move) != {"type", "home"} or move["home"] is not True:
            raise IllegalMove("malformed_move", 'taking the wagon home is {"type": "wagon", "home": true}')
        return {"type": WAGON, "home": True}
    if set(move) != {"type", "x", "y", "on"}:
        raise IllegalMove("malformed_move", "a wagon move names x, y and on (e.g. wagon 1,0 road E)")
    x, y, on = move["x"], move["y"], move["on"]
    if not (_int(x) and _int(y)) or not isinstance(on, str):
        raise IllegalMove("bad_position", "x and y must be integers and on a segment, e.g. wagon 1,0 road E")
    sid = sid_at(state, (x, y), on)
    if sid is None:
        raise IllegalMove("bad_segment", f"there is no segment {on!r} at {x},{y}")
    x, y, label = label_of(state, sid)
    clean = {"type": WAGON, "x": x, "y": y, "on": label}
    targets = legal_wagon(state, player)[1:]
    want = state.seg_feature[sid]
    for t in targets:
        if state.seg_feature[sid_at(state, (t["x"], t["y"]), t["on"])] == want:
            return clean
    raise IllegalMove("bad_wagon_target", "the wagon may go only to an incomplete, unoccupied road, city or "
                      "cloister next to its scored feature: " + ", ".join(describe_wagon(t) for t in targets))


def _wagon_offered(state, event):
    new = state.copy()
    new.pending = {event["player"]: WAGON}
    new.step = "end_turn"
    return _set(new, wagon_at=list(event["at"]), turn_data=event.get("turn_data") or {})


def _clear(state):
    new = state.copy()
    new.pending = {}
    mine = {k: v for k, v in _mine(state).items() if k not in ("wagon_at", "turn_data")}
    new.ext = {**state.ext, EXPANSION: mine}
    return new


def _wagon_returned(state, event):
    return EVOLVERS["FollowersReturned"](_clear(state), event)


def _wagon_moved(state, event):
    new = _clear(state)
    p = event["player"]
    fx, fy, flabel = event["from"]
    old = sid_at(state, (fx, fy), flabel)
    sid = sid_at(state, (event["x"], event["y"]), event["on"])
    features = dict(new.features)
    f = features[state.seg_feature[old]]
    meeples = list(f.meeples)
    meeples.remove((p, old, WAGON))
    features[state.seg_feature[old]] = f.with_meeples(tuple(meeples))
    g = features[state.seg_feature[sid]]
    features[state.seg_feature[sid]] = g.with_meeples(g.meeples + ((p, sid, WAGON),))
    new.features = features
    return new


# -- notation -------------------------------------------------------------------------

_XY = r"\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?"
_ABBEY = re.compile(rf"^\s*(?:place\s+)?abbey\s+{_XY}\s*(.*?)\s*$", re.IGNORECASE)
_DRAW = re.compile(r"^\s*(?:draw|no\s+abbey|abbey\s+(?:pass|no|none))\s*$", re.IGNORECASE)
_WAGON = re.compile(rf"^\s*wagon\s+{_XY}\s*(.*?)\s*$", re.IGNORECASE)
_HOME = re.compile(r"^\s*(?:wagon\s+(?:home|back|return|supply)|wagon\s+pass)\s*$", re.IGNORECASE)
_BARN = re.compile(r"^(.*?)\s+barn\s+(?:corner\s+)?(NE|NW|SE|SW)\s*$", re.IGNORECASE)


def _bad(game, state, player, code, msg, expected, fallback):
    return ParseError(code, msg, expected=expected,
                      examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]] or fallback)


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    if _DRAW.match(t):
        return {"type": "abbey", "pass": True}
    if _HOME.match(t):
        return {"type": WAGON, "home": True}
    m = _ABBEY.match(t)
    if m:
        move = {"type": "abbey", "x": int(m.group(1)), "y": int(m.group(2))}
        words = [w.lower() for w in m.group(3).split()]
        if words:
            figure = {"monk": "follower", "follower": "follower", "big": "big", "wagon": WAGON}.get(words[0])
            if figure is None or any(w not in ("cloister", "monastery", "abbey", "monk") for w in words[1:]):
                raise _bad(game, state, player, "bad_abbey", f"could not read {text.strip()[:60]!r}",
                           "abbey X,Y [monk | big | wagon] | draw", ["draw", "abbey 1,1 monk"])
            move.update(figure=figure, on="cloister")
        return move
    m = _WAGON.match(t)
    if m:
        words = [w.lower() for w in m.group(3).split()]
        kinds = {"road": "road", "city": "city", "cloister": "cloister", "monastery": "cloister",
                 "abbey": "cloister", "shrine": "cloister"}
        if not words or words[0] not in kinds or (kinds[words[0]] != "cloister" and len(words) != 2) \
                or (kinds[words[0]] == "cloister" and len(words) != 1):
            raise _bad(game, state, player, "bad_wagon", f"could not read {text.strip()[:60]!r}",
                       "wagon X,Y road EDGE | wagon X,Y city EDGE | wagon X,Y cloister | wagon home",
                       ["wagon home", "wagon 1,0 road E"])
        label = "cloister" if kinds[words[0]] == "cloister" else f"{kinds[words[0]]} {words[1].upper()}"
        x, y = int(m.group(1)), int(m.group(2))
        if state is not None and (x, y) in state.board:
            sid = sid_at(state, (x, y), label)
            if sid is not None:
                label = label_of(state, sid)[2]
        return {"type": WAGON, "x": x, "y": y, "on": label}
    m = _BARN.match(t)
    if m and re.match(r"^\s*(?:place|play|put|tile)?\s*\(?\s*-?\d", m.group(1), re.IGNORECASE):
        from .notation import parse_move
        move = parse_move(game, m.group(1), state, player)
        if move.get("figure"):
            raise _bad(game, state, player, "two_figures", "one figure per move", "place X,Y rR barn CORNER",
                       ["place 1,1 r0 barn NE"])
        move.update(figure=BARN, on=f"corner {m.group(2).upper()}")
        return move
    return None


def describe_abbey(move: dict) -> str:
    if move.get("pass"):
        return "draw"
    text = f"abbey {move.get('x')},{move.get('y')}"
    fig = move.get("figure")
    if fig:
        text += " " + {"follower": "monk"}.get(fig, fig)
    return text


def describe_wagon(move: dict) -> str:
    if move.get("home"):
        return "wagon home"
    return f"wagon {move.get('x')},{move.get('y')} {move.get('on')}"


MOVE_TEXTS["abbey"] = describe_abbey
MOVE_TEXTS[WAGON] = describe_wagon
EVENT_TEXTS.update(
    AbbeyOffered=lambda e: f"seat {e['player']} may place the abbey instead of drawing"
                           + (" (end round)." if e.get("final") else "."),
    AbbeyDeclined=lambda e: f"seat {e['player']} keeps the abbey.",
    AbbeyTaken=lambda e: f"seat {e['player']} takes the abbey instead of drawing.",
    AbbeyRoundStarted=lambda e: "The pile is empty: abbey end round for seat(s) "
                                + ", ".join(str(p) for p in e["seats"]) + ".",
    AbbeyRoundSkipped=lambda e: f"seat {e['player']} has no hole for the abbey.",
    BarnFarmersScored=lambda e: (f"Barn field {e['on']} at {e['x']},{e['y']} ({e['cities']} completed "
                                 f"cities): {e['points']} points to seat {e['winners'][0]}'s farmers."),
    BarnScored=lambda e: (f"Barn in {e['on']} at {e['x']},{e['y']} ({e['cities']} completed cities): "
                          + (f"{e['points']} points to " + ", ".join(f"seat {p}" for p in e["winners"])
                             if e["winners"] else "nobody scores") + "."),
    WagonOffered=lambda e: f"seat {e['player']} may move the wagon from {e['at'][3]} at "
                           f"{e['at'][1]},{e['at'][2]}.",
    WagonReturned=lambda e: f"seat {e['player']}'s wagon goes home.",
    WagonMoved=lambda e: f"seat {e['player']}'s wagon moves to {e['on']} at {e['x']},{e['y']}.",
)


# -- views ----------------------------------------------------------------------------


def _view(state, viewer, view: dict) -> None:
    for f in FIGURES:
        view[f"{f}s" if f != "abbey" else "abbeys"] = [left(state, p, f) for p in range(state.players)]
    mine = _mine(state)
    if mine.get("wagon_at"):
        p, x, y, label = mine["wagon_at"]
        view["wagon_decision"] = {"player": p, "x": x, "y": y, "on": label}
    if mine.get("round") is not None:
        view["abbey_round"] = list(mine["round"])


def _render(state, viewer) -> list:
    lines = ["Abbeys, mayors, wagons, barns in supply: " + ", ".join(
        f"seat {p} {'/'.join(str(left(state, p, f)) for f in FIGURES)}" for p in range(state.players))]
    for p, owed in sorted(state.pending.items()):
        if owed == "abbey":
            lines.append(f"Seat {p} may place the abbey at: "
                         + ", ".join(f"{x},{y}" for x, y in holes(state)) + " (or draw).")
        elif owed == WAGON:
            lines.append(f"Seat {p} moves the wagon: " + ", ".join(describe_wagon(m) for m in legal_wagon(state, p)))
    return lines


# -- installation ---------------------------------------------------------------------


class AbbeyAndMayor(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(am_pile())
        rules.strength[MAYOR] = 0
        rules.strength_of[MAYOR] = lambda state, f: f.marks.get("pennant", 0)
        rules.strength[WAGON] = 1
        rules.strength[BARN] = 0
        for f in (MAYOR, WAGON, BARN):
            rules.supplies[f] = _supply
            rules.figure_validators[f] = _figure_validator(f)
        rules.figure_words.update(mayor=MAYOR, wagon=WAGON)
        rules.figure_options.append(_options)
        rules.initial.append(_initial)
        rules.moves["abbey"] = "draw_tile"
        rules.validators["abbey"] = validate_abbey
        rules.legal["abbey"] = legal_abbey
        rules.moves[WAGON] = "end_turn"
        rules.validators[WAGON] = validate_wagon
        rules.legal[WAGON] = legal_wagon
        rules.parsers.append(parse)
        points = EVOLVERS["FieldScored"]
        rules.evolvers.update(
            AbbeyOffered=_offered, AbbeyDeclined=_declined, AbbeyTaken=_taken,
            AbbeyRoundStarted=_round_started, AbbeyRoundSkipped=_round_skipped,
            BarnFarmersScored=points, BarnScored=points,
            WagonOffered=_wagon_offered, WagonReturned=_wagon_returned, WagonMoved=_wagon_moved)
        rules.views.append(_view)
        rules.render_lines.append(_render)
        rules.handlers["draw_tile"] = [gated_draw if h is draw_tile else h for h in rules.handlers["draw_tile"]]
        rules.on("start_turn", round_turn)
        rules.on("start_turn", offer_abbey)
        rules.on("draw_tile", take_abbey, first=True)
        rules.on("figure_phase_1", deploy)
        rules.on("figure_phase_2", deploy_barn)
        rules.on("score", barn_connections)
        rules.on("end_turn", wagons, first=True)
        rules.on(FINAL_SCORING, barn_final)


ABBEY_AND_MAYOR = register_expansion(AbbeyAndMayor())
