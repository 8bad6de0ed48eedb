"""Points, majorities and the scoring events of the base game.

During play (step 8) every road, city and cloister the placed tile completed
scores: road 1 per tile, city 2 per tile and pennant (a 2-tile city scores
``tiny_city_scoring``: 4, or 2 in early printings), cloister 9. At the end:
road 1 per tile, city 1 per tile and pennant, cloister 1 + neighbours; each
field scores 3 per completed city it borders for its farmer majority.
Every player tied for the highest strength scores the full points.
"""
from __future__ import annotations

from .features import is_complete, label_of, neighbours_filled
from .orient import oriented
from .state import SEG_BITS, Feature, State


def road_points(state: State, f: Feature, complete: bool) -> int:
    return len(f.tiles)


def city_points(state: State, f: Feature, complete: bool) -> int:
    units = len(f.tiles) + f.marks.get("pennant", 0)
    if not complete:
        return units
    if len(f.tiles) == 2 and state.options.get("tiny_city_scoring", 4) == 2:
        return units
    return 2 * units


def cloister_points(state: State, f: Feature, complete: bool) -> int:
    if complete:
        return 9
    return 1 + neighbours_filled(state.board, next(iter(f.tiles)))


def majority(state: State, f: Feature) -> list:
    """Seats with the highest strength on a feature (all tied ones), sorted."""
    if not f.meeples:
        return []
    strength = state.rules.strength
    dynamic = getattr(state.rules, "strength_of", None)
    total: dict = {}
    for player, _sid, figure in f.meeples:
        fn = dynamic.get(figure) if dynamic else None
        total[player] = total.get(player, 0) + (fn(state, f) if fn else strength.get(figure, 1))
    best = max(total.values())
    if best <= 0:
        return []
    return sorted(p for p, v in total.items() if v == best)


def feature_scored(state: State, fid: int, sid: int, complete: bool) -> dict:
    """The FeatureScored event for a road, city or cloister (``sid`` names
    the segment the event points at)."""
    f = state.features[fid]
    points = state.rules.points[f.kind](state, f, complete)
    x, y, label = label_of(state, sid)
    event = {"type": "FeatureScored", "feature": f.kind, "x": x, "y": y, "on": label,
             "tiles": len(f.tiles), "points": points, "winners": majority(state, f),
             "complete": complete}
    if f.kind == "city":
        event["pennants"] = f.marks.get("pennant", 0)
    return event


#: (placed, board, seg_feature, features, the answer) of the last state asked about
_LAST_COMPLETED: tuple = (None, None, None, None, [])


def completed_by_last_tile(state: State) -> list:
    """(feature id, segment id) of each road, city and cloister that the
    tile just placed completed, each feature once (kept for the last state asked about:
    several steps ask, and a state's containers are never changed once it is made)."""
    global _LAST_COMPLETED
    last = _LAST_COMPLETED
    if last[0] is state.placed and last[1] is state.board and last[2] is state.seg_feature \
            and last[3] is state.features:
        return list(last[4])
    done = _completed_by_last_tile(state)
    _LAST_COMPLETED = (state.placed, state.board, state.seg_feature, state.features, tuple(done))
    return done


def _completed_by_last_tile(state: State) -> list:
    cell = state.placed[-1]
    letter, rot, n = state.board[cell]
    o = oriented(letter, rot)
    base = n << SEG_BITS
    seg_feature = state.seg_feature
    features = state.features
    done = []
    seen = set()
    for k in range(o.nseg):
        kind = o.kinds[k]
        if kind == "road" or kind == "city":
            fid = seg_feature[base + k]
            if fid not in seen:
                seen.add(fid)
                f = features[fid]
                # a castle (Bridges, Castles & Bazaars) counts as incomplete
                if f.open == 0 and not (f.marks and f.marks.get("castle")):
                    done.append((fid, base + k))
    board = state.board
    x, y = cell
    if "*" in o.edges:
        # a wildcard edge (the Abbey & Mayor abbey) closes the neighbours' roads and cities
        for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            t = board.get((x + dx, y + dy))
            if o.edges[d] != "*" or t is None:
                continue
            k = oriented(t[0], t[1]).edge_seg[(d + 2) % 4]
            if k >= 0:
                sid = (t[2] << SEG_BITS) + k
                fid = seg_feature[sid]
                if fid not in seen and features[fid].open == 0:
                    seen.add(fid)
                    done.append((fid, sid))
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            c = (x + dx, y + dy)
            t = board.get(c)
            if t is None:
                continue
            k = oriented(t[0], t[1]).cloister
            if k >= 0 and neighbours_filled(board, c) == 8:
                sid = (t[2] << SEG_BITS) + k
                done.append((seg_feature[sid], sid))
    return done


def final_feature_events(state: State) -> list:
    """Final scoring of incomplete roads, cities and cloisters with followers."""
    items = []
    for fid, f in state.features.items():
        if f.meeples and f.kind in ("road", "city", "cloister") and not is_complete(state, f):
            items.append((min(f.segs), fid))
    return [feature_scored(state, fid, sid, False) for sid, fid in sorted(items)]


def bordering_cities(state: State, f: Feature) -> list:
    """The completed city features a field borders, each once, in a fixed order: its
    tiles' cities, and those an expansion adds (``Rules.field_borders``: the City of
    Carcassonne)."""
    seg_feature = state.seg_feature
    features = state.features
    fids = {seg_feature[c] for c in f.cities}
    rules = state.rules
    if rules is not None:
        for extra in rules.field_borders:
            fids.update(extra(state, f))
    return [features[c] for c in sorted(fids) if features[c].open == 0]


def field_events(state: State, per_city: int | None = None) -> list:
    """Final scoring of fields with farmers: ``per_city`` points per completed
    city bordering the field (default: ``Rules.field_city_points``, 3 a city;
    Siege: 6 a besieged city), each city once per field, for the majority."""
    features = state.features
    out = []
    for sid, fid in sorted((min(f.segs), fid) for fid, f in features.items()
                           if f.kind == "field" and f.meeples):
        f = features[fid]
        done = bordering_cities(state, f)
        if per_city is not None or state.rules is None:
            points = (3 if per_city is None else per_city) * len(done)
        else:                           # the rules' value per city (Siege: 6 if besieged)
            points = sum(state.rules.field_city_points(state, c) for c in done)
        x, y, label = label_of(state, sid)
        out.append({"type": "FieldScored", "feature": "field", "x": x, "y": y, "on": label,
                    "cities": len(done), "points": points,
                    "winners": majority(state, f)})
    return out
