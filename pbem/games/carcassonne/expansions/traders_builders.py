"""Traders & Builders (rules digest §3.2), option ``expansions: ["traders_builders"]``.

Installed into a :class:`~.rules.Rules` like every expansion, without editing
the base rules:

* **Tiles.** The 24 tiles TB1-TB24 (``traders_builders_tiles.py``) join the draw pile; 20
  of their city segments carry a goods symbol (``(wine)``, ``(grain)``,
  ``(cloth)`` marks, summed over a city like pennants).
* **Goods (step 7.1).** When a city is completed, the *active* player takes
  one token per goods symbol in it, whoever occupies it (also nobody):
  event ``GoodsTaken``. Tokens are public (``view["goods"]``). At the end,
  after the fields, the player(s) with the most tokens of each good score 10
  each (ties all score; 0 tokens never score): event ``GoodsScored``.
* **Builder (step 5).** One per player (supply in
  ``state.ext["traders_builders"]["builder"]``). Placed instead of a follower
  (the move carries one figure, so step 5 only happens when step 4 deployed
  nothing) on a road or city segment of the new tile whose feature, once the
  tile has joined its neighbours, holds a follower (or big follower) of the
  player. It never counts for majorities (strength 0). **Trigger (step
  9.3):** when on a later turn the player places a tile with a segment in the
  builder's feature, event ``BuilderTriggered``: the same player plays one
  extra tile (steps 2-9.2 again); the extra tile never grants another
  (``state.ext[...]["extra"]`` holds the turn number of the extra tile). The
  builder returns with the followers when its feature is scored (step 9.1),
  or as soon as its owner has no follower left in the feature.
* **Pig (step 5).** One per player, on a field segment of the new tile whose
  field holds a farmer of the player; strength 0, stays to the end like a
  farmer (it returns early only if its owner has no farmer left in the
  field). At the end, after each field's ``FieldScored``, the field's winners
  who have their pig there score +1 per completed city (``PigScored``, so 4
  instead of 3). Pigs do not stack.

Moves: ``"figure": "builder", "on": "road E"`` / ``"city N"``;
``"figure": "pig", "on": "field NL"``. Notation: ``place X,Y rR builder road E``
(``builder city N``, ``builder E``), ``place X,Y rR pig NL`` (``pig field NL``,
``pig farmer NL``).

The module imports only the standard library and the engine.
"""
from __future__ import annotations

from ...i18n import _
from ..notation import feature_name, figure_name, good_name, seat, segment
from ...base import IllegalMove
from ..features import label_of, occupied
from ..geometry import DELTA, opposite_half
from ..orient import add_tiles, oriented
from ..rules import FINAL_SCORING, Expansion, Rules, Turn, register_expansion
from ..scoring import bordering_cities, completed_by_last_tile, majority
from ..state import SEG_BITS
from .traders_builders_tiles import EXPANSION, GOODS, TB_TILES, tb_pile

BUILDER = "builder"
PIG = "pig"
#: figures of this expansion: not followers, strength 0, never alone in a feature
SPECIAL = (BUILDER, PIG)
#: points for each good's majority at the end
GOODS_POINTS = 10

add_tiles(TB_TILES)


# -- the expansion's state --------------------------------------------------------------


def _mine(state) -> dict:
    return state.ext.get(EXPANSION, {})


def figure_left(state, player: int, figure: str) -> int:
    """How many builders / pigs (``figure``) the seat has in supply."""
    supply = _mine(state).get(figure)
    return supply[player] if supply else 0


def goods_of(state, player: int) -> dict:
    """The seat's goods tokens: {"wine": n, "grain": n, "cloth": n}."""
    goods = _mine(state).get("goods") or {}
    return {g: (goods[g][player] if g in goods else 0) for g in GOODS}


def is_extra_turn(state) -> bool:
    """Whether the tile drawn (or just placed) is a builder's extra tile."""
    extra = _mine(state).get("extra")
    if extra is None:
        return False
    # while a drawn tile waits, the turn counter has not moved on yet
    return extra == (state.turn + 1 if state.tile is not None else state.turn)


def _replace(state, **changes):
    new = state.copy()
    new.ext = {**state.ext, EXPANSION: {**_mine(state), **changes}}
    return new


def _initial(state) -> None:
    """Fresh state (mutated): a builder and a pig per seat, no goods."""
    n = state.players
    state.ext = {**state.ext, EXPANSION: {BUILDER: [1] * n, PIG: [1] * n,
                                          "goods": {g: [0] * n for g in GOODS},
                                          "extra": None}}


def _supply(state, player: int, figure: str, delta: int):
    """A builder or pig leaves (-1) or comes back to (+1) a seat's supply."""
    row = list(_mine(state).get(figure) or [0] * state.players)
    row[player] += delta
    return _replace(state, **{figure: row})


# -- events -------------------------------------------------------------------------------


def _goods_taken(state, event: dict):
    goods = {g: list(v) for g, v in (_mine(state).get("goods") or {}).items()}
    for g, n in event["goods"].items():
        row = goods.setdefault(g, [0] * state.players)
        row[event["player"]] += n
    return _replace(state, goods=goods)


def _builder_triggered(state, event: dict):
    # the extra tile will be placement number state.turn + 1
    return _replace(state, extra=state.turn + 1)


# -- where a segment of the new tile ends up -----------------------------------------------


def _touching(state, cell, o, k) -> set:
    """Ids of the neighbours' features that segment ``k`` of the oriented tile
    ``o`` at ``cell`` joins directly (by its edges or half-edges)."""
    board = state.board
    seg_feature = state.seg_feature
    x, y = cell
    kind = o.kinds[k]
    out = set()
    if kind == "field":
        for h in o.ports[k]:
            dx, dy = DELTA[h // 2]
            nb = board.get((x + dx, y + dy))
            if nb is not None:
                j = oriented(nb[0], nb[1]).half_seg[opposite_half(h)]
                if j >= 0:
                    out.add(seg_feature[(nb[2] << SEG_BITS) + j])
    elif kind in ("road", "city"):
        for d in o.ports[k]:
            dx, dy = DELTA[d]
            nb = board.get((x + dx, y + dy))
            if nb is not None:
                j = oriented(nb[0], nb[1]).edge_seg[(d + 2) % 4]
                if j >= 0:
                    out.add(seg_feature[(nb[2] << SEG_BITS) + j])
    return out


def joined_features(state, cell, o, k) -> set:
    """The existing features that segment ``k`` becomes part of once the tile
    is placed: those it touches, plus those that another segment of the tile
    touches when the two share a neighbour feature (transitively)."""
    mine = _touching(state, cell, o, k)
    if not mine:
        return mine
    others = [_touching(state, cell, o, j) for j in range(o.nseg)
              if j != k and o.kinds[j] == o.kinds[k]]
    grown = True
    while grown:
        grown = False
        for s in others:
            if s & mine and not s <= mine:
                mine |= s
                grown = True
    return mine


def has_follower(state, fids, player: int) -> bool:
    """Whether one of the features holds a follower (not a builder or pig) of the seat."""
    features = state.features
    for fid in fids:
        for p, _sid, figure in features[fid].meeples:
            if p == player and figure not in SPECIAL:
                return True
    return False


_KINDS = {BUILDER: ("road", "city"), PIG: ("field",)}


def provider(state, player: int):
    """``Rules.figure_providers``: the builder and pig choices, prepared once; a cell none
    of whose ports meets a feature with the seat's follower offers none."""
    figures = [f for f in SPECIAL if figure_left(state, player, f) > 0]
    if not figures:
        return None
    memo: dict = {}                      # feature id -> whether it holds the seat's follower

    last = [None, 0, ()]                 # the rotations of one cell share its ports
    kinds = tuple(figures)

    def options(cell, o, mask, ports):
        if not mask:
            return ()                    # no follower at all next to the cell
        if ports is not last[0]:
            own_mask = 0
            for bit, fid in ports:
                v = memo.get(fid)
                if v is None:
                    v = memo[fid] = has_follower(state, (fid,), player)
                if v:
                    own_mask |= bit
            table = None
            if own_mask:
                by_fid: dict = {}
                for bit, fid in ports:
                    by_fid[fid] = by_fid.get(fid, 0) | bit
                # which ports meet one feature: all the joining below depends on
                groups = tuple(sorted(g for g in by_fid.values() if g & (g - 1)))
                key = (own_mask, groups, kinds)
                table = _CHOICES.get(key)
                if table is None:
                    if len(_CHOICES) > 20000:        # a long-lived process: start again
                        _CHOICES.clear()
                    table = _CHOICES[key] = {}
            last[0], last[1], last[2] = ports, own_mask, table
        own_mask = last[1]
        if not own_mask:
            return ()
        table = last[2]
        out = table.get(o)
        if out is None:
            out = table[o] = tuple(_choices(figures, o, own_mask, ports))
        return out
    options.needs_mask = True            # nothing without a follower next to the cell
    return options


#: (the own-follower mask, the ports meeting one feature, figures) -> oriented tile ->
#: the builder and pig choices (``provider``): they depend on nothing else.
_CHOICES: dict = {}


#: (tile letter, quarter turns, figure) -> (segment index, its port mask) of the segments
#: the figure may stand on
_SEGS: dict = {}


def _choices(figures, o, own_mask, ports) -> list:
    out = []
    for figure in figures:
        segs = _SEGS.get((o.letter, o.rot, figure))
        if segs is None:
            kinds = _KINDS[figure]
            segs = _SEGS[(o.letter, o.rot, figure)] = tuple((k, o.masks[k]) for k in range(o.nseg)
                                                            if o.kinds[k] in kinds)
        joined = {k for k, m in segs if m & own_mask}
        if not joined:
            continue
        if len(joined) < len(segs):
            # a segment sharing a neighbour's feature with one that meets the seat's
            # follower ends up in the same feature (``joined_features``, by the ports)
            _grow(joined, segs, ports)
        out.extend((figure, o.labels[k]) for k, _m in segs if k in joined)
    return out


def _grow(joined: set, segs: tuple, ports) -> None:
    touched = {k: {fid for bit, fid in ports if bit & m} for k, m in segs}
    grown = True
    while grown:
        grown = False
        for k, _m in segs:
            if k not in joined and any(touched[k] & touched[j] for j in joined):
                joined.add(k)
                grown = True


def _validator(figure: str):
    kinds = _KINDS[figure]
    what = "road or city" if figure == BUILDER else "field"

    def validate(state, player: int, cell, o, on: str) -> int:
        if figure_left(state, player, figure) <= 0:
            raise IllegalMove(f"no_{figure}_left", _("your {figure} is not in your supply", figure=figure_name(figure)))
        if on not in o.labels:
            raise IllegalMove("bad_segment", _("tile {letter} r{rotation} has no segment “{on}”; choose one of: {list}", letter=o.letter,
                                               rotation=o.rot * 90, on=on, list=", ".join(o.labels)))
        k = o.labels.index(on)
        if o.kinds[k] not in kinds:
            raise IllegalMove("bad_segment", (_("the builder goes on a road or city, not on {on}", on=segment(on)) if figure == BUILDER
                                               else _("the pig goes on a field, not on {on}", on=segment(on))))
        if not has_follower(state, joined_features(state, cell, o, k), player):
            code = "no_own_follower" if figure == BUILDER else "no_own_farmer"
            raise IllegalMove(code, _("the {feature} that {on} joins holds no follower of yours",
                                      feature=feature_name(o.kinds[k]), on=segment(on)) if figure == BUILDER else
                              _("the field that {on} joins holds no farmer of yours", on=segment(on)))
        return k

    return validate


# -- step handlers -------------------------------------------------------------------------


def place_special(turn: Turn) -> None:
    """Step 5: the builder or the pig (the move's one figure, so step 4 did nothing)."""
    m = turn.move
    if m and m.get("figure") in SPECIAL:
        turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": m["figure"],
                   "x": m["x"], "y": m["y"], "on": m["on"]})


def take_goods(turn: Turn) -> None:
    """Step 7.1: the active player takes the goods of every city the tile completed;
    also notes whether the tile extended the player's builder's feature (step 9.3)."""
    st = turn.state
    for fid, sid in completed_by_last_tile(st):
        f = st.features[fid]
        if f.kind != "city":
            continue
        goods = {g: f.marks[g] for g in GOODS if f.marks.get(g)}
        if goods:
            x, y, label = label_of(st, sid)
            turn.emit({"type": "GoodsTaken", "player": turn.player, "goods": goods,
                       "x": x, "y": y, "on": label})
    turn.data["builder_extended"] = _builder_extended(turn)


def _builder_extended(turn: Turn) -> bool:
    st = turn.state
    if figure_left(st, turn.player, BUILDER) > 0:
        return False                     # the builder is in the supply
    if (turn.move or {}).get("figure") == BUILDER:
        return False                     # placed this turn: only a later tile triggers it
    if _mine(st).get("extra") == st.turn:
        return False                     # an extra tile never grants another
    n = len(st.placed) - 1
    base = n << SEG_BITS
    letter, rot, _bridge = st.board[st.placed[-1]]
    new_fids = {st.seg_feature[base + k] for k in range(oriented(letter, rot).nseg)}
    for fid in new_fids:
        for p, _sid, figure in st.features[fid].meeples:
            if p == turn.player and figure == BUILDER:
                return True
    return False


def return_stranded(turn: Turn) -> None:
    """Step 9.1: a builder or pig whose owner has no follower left in its
    feature goes home (after the followers of the scored features)."""
    st = turn.state
    back = []
    for fid, f in occupied(st):
        for p, sid, figure in f.meeples:
            if figure in SPECIAL and not has_follower(st, (fid,), p):
                x, y, label = label_of(st, sid)
                back.append({"player": p, "figure": figure, "x": x, "y": y, "on": label})
    if back:
        back.sort(key=lambda b: (b["player"], b["figure"], b["y"], b["x"], b["on"]))
        turn.emit({"type": "FollowersReturned", "followers": back})


def builder_extra_tile(turn: Turn) -> None:
    """Step 9.3: the builder's feature was extended: the same player plays one more tile."""
    if turn.data.get("builder_extended"):
        turn.emit({"type": "BuilderTriggered", "player": turn.player})
        turn.next_player = turn.player


def pig_bonus(turn: Turn) -> None:
    """Final scoring, fields: +1 per completed city to each winner of a field
    with their pig in it (after the field's FieldScored)."""
    st = turn.state
    features = st.features
    for sid, fid in sorted((min(f.segs), fid) for fid, f in features.items()
                           if f.kind == "field" and f.meeples):
        f = features[fid]
        pigs = {p for p, _s, figure in f.meeples if figure == PIG}
        winners = sorted(pigs & set(majority(st, f)))
        if not winners:
            continue
        done = bordering_cities(st, f)
        bonus = turn.rules.pig_city_points
        x, y, label = label_of(st, sid)
        turn.emit({"type": "PigScored", "feature": "field", "x": x, "y": y, "on": label,
                   "cities": len(done), "points": sum(bonus(st, c) for c in done),
                   "winners": winners, "category": "field"})


def goods_scoring(turn: Turn) -> None:
    """Final scoring: 10 to every seat with the most tokens of each good (none with 0)."""
    st = turn.state
    goods = _mine(st).get("goods") or {}
    for g in GOODS:
        counts = list(goods.get(g) or [0] * st.players)
        best = max(counts)
        winners = [p for p, n in enumerate(counts) if n == best] if best > 0 else []
        turn.emit({"type": "GoodsScored", "good": g, "counts": counts, "points": GOODS_POINTS,
                   "winners": winners, "category": "goods"})


# -- views ---------------------------------------------------------------------------------


def _view(state, viewer, view: dict) -> None:
    n = range(state.players)
    view["builders"] = [figure_left(state, p, BUILDER) for p in n]
    view["pigs"] = [figure_left(state, p, PIG) for p in n]
    view["goods"] = {g: [goods_of(state, p)[g] for p in n] for g in GOODS}
    view["extra_tile"] = is_extra_turn(state) and not state.over


def _render(state, viewer) -> list:
    n = range(state.players)
    lines = [
        _("Builders in supply: {list}", list=_(", ").join(
            _("{player} {n}", player=seat(p), n=figure_left(state, p, BUILDER)) for p in n)),
        _("Pigs in supply: {list}", list=_(", ").join(
            _("{player} {n}", player=seat(p), n=figure_left(state, p, PIG)) for p in n)),
        _("Goods (public): {list}", list=_("; ").join(
            _("{player}: {goods}", player=seat(p), goods=_(", ").join(
                _("{n} {good}", n=c, good=good_name(g)) for g, c in goods_of(state, p).items())) for p in n)),
    ]
    if is_extra_turn(state) and not state.over:
        lines.append(_("{player} plays an extra tile (builder).", player=seat(state.active)))
    return lines


# -- installation --------------------------------------------------------------------------


class TradersAndBuilders(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(tb_pile())
        for figure in SPECIAL:
            rules.strength[figure] = 0
            rules.supplies[figure] = _supply
            rules.supply_count[figure] = (lambda f: lambda state, player: figure_left(state, player, f))(figure)
            rules.figure_validators[figure] = _validator(figure)
        rules.figure_providers.append(provider)
        rules.figure_words.update(builder=BUILDER, pig=PIG)
        rules.initial.append(_initial)
        rules.views.append(_view)
        rules.render_lines.append(_render)
        points = rules.evolvers["FeatureScored"]
        rules.evolvers.update(GoodsTaken=_goods_taken, BuilderTriggered=_builder_triggered,
                              PigScored=points, GoodsScored=points)
        rules.on("figure_phase_2", place_special)
        rules.on("before_scoring", take_goods)
        rules.on("end_turn", return_stranded)
        rules.on("end_turn", builder_extra_tile)
        rules.on(FINAL_SCORING, pig_bonus)
        rules.on(FINAL_SCORING, goods_scoring)


TRADERS_AND_BUILDERS = register_expansion(TradersAndBuilders())
