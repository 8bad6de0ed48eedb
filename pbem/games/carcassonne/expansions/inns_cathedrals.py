"""Inns & Cathedrals (rules digest §3.1), option ``expansions: ["inns_cathedrals"]``.

Installed into a :class:`~.rules.Rules` like every expansion, without editing
the base rules:

* **Tiles.** The 18 tiles IC1-IC17 (``inns_cathedrals_tiles.py``) join the draw pile.
* **Big follower.** One per player (``state.ext["inns_cathedrals"]["big"]``,
  a count per seat). Deployed in step 4 instead of a follower, wherever a
  follower may go (road, city, cloister, field; the feature must hold no
  figure); strength 2 for majorities (``Rules.strength["big"]``), normal
  points; it goes home like a follower when its feature is scored (as a
  farmer it stays to the end). Move: ``"figure": "big"``; notation
  ``place X,Y rR big city N``, ``big road E``, ``big cloister``,
  ``big farmer NL`` (also ``big knight N``, ``big thief E``, ``big monk``).
* **Inn.** A road with at least one inn segment: 2 per tile when complete, 0
  if incomplete at the end (several inns do not stack).
* **Cathedral.** A city with a cathedral: 3 per tile and per pennant when
  complete, 0 if incomplete at the end (several cathedrals do not stack).
  Farm scoring is unchanged.
* **Sixth player.** With I&C the game takes 2 to 6 players
  (``Rules.max_players``).

The module imports only the standard library and the engine.
"""
from __future__ import annotations

from ...i18n import _
from ..notation import feature_name, seat, segment
from ...base import IllegalMove
from ..features import occupancy_mask
from .inns_cathedrals_tiles import EXPANSION, IC_TILES, ic_pile
from ..orient import DEPLOYABLE, add_tiles
from ..rules import Expansion, Rules, Turn, register_expansion

BIG = "big"
#: big followers per player
BIG_FOLLOWERS = 1
#: a big follower's strength in majorities
BIG_STRENGTH = 2

add_tiles(IC_TILES)


# -- the big follower's supply -------------------------------------------------------


def big_left(state, player: int) -> int:
    """How many big followers the seat has in supply."""
    big = state.ext.get(EXPANSION, {}).get("big")
    return big[player] if big else 0


def _initial(state) -> None:
    """Every seat starts with its big follower in supply (fresh state, mutated)."""
    state.ext = {**state.ext, EXPANSION: {"big": [BIG_FOLLOWERS] * state.players}}


def _supply(state, player: int, figure: str, delta: int):
    """A big follower leaves (-1) or comes back to (+1) a seat's supply."""
    new = state.copy()
    mine = dict(state.ext.get(EXPANSION, {}))
    big = list(mine.get("big") or [0] * state.players)
    big[player] += delta
    mine["big"] = big
    new.ext = {**state.ext, EXPANSION: mine}
    return new


# -- the placement move: choices and validation ------------------------------------------


def _big_pure(o, mask) -> list:
    return [(BIG, label) for label in o.free_labels(mask)]


def _big_choices(cell, o, mask, ports) -> list:
    return _big_pure(o, mask)


# ``moves._pure_plan``: the big follower's choices depend on the tile and mask alone
_big_choices.pure_key = "inns_cathedrals:big"
_big_choices.pure = _big_pure
_big_choices.rest = None


def provider(state, player: int):
    """``Rules.figure_providers``: the big follower on every free segment."""
    if big_left(state, player) <= 0:
        return None
    return _big_choices


def _validate(state, player: int, cell, o, on: str) -> int:
    if big_left(state, player) <= 0:
        raise IllegalMove("no_big_follower_left", _("your big follower is not in your supply"))
    if on not in o.labels:
        raise IllegalMove("bad_segment", _("tile {letter} r{value} has no segment “{on}”; choose one "
                                           "of: {list}", letter=o.letter, value=o.rot * 90, on=on, list=', '.join(o.labels)))
    k = o.labels.index(on)
    if o.kinds[k] not in DEPLOYABLE:
        raise IllegalMove("bad_segment", _("a big follower cannot stand on {on}", on=on))
    if o.masks[k] & occupancy_mask(state, cell):
        raise IllegalMove("feature_occupied",
                          _("the {feature} that {on} joins already holds a follower", feature=feature_name(o.kinds[k]),
                            on=segment(on)))
    return k


def deploy_big(turn: Turn) -> None:
    """Step 4: the move may deploy the big follower instead of a follower."""
    m = turn.move
    if m and m.get("figure") == BIG:
        turn.emit({"type": "FollowerDeployed", "player": turn.player, "figure": BIG,
                   "x": m["x"], "y": m["y"], "on": m["on"]})


# -- views ----------------------------------------------------------------------------


def _view(state, viewer, view: dict) -> None:
    view["big_followers"] = [big_left(state, p) for p in range(state.players)]


def _render(state, viewer) -> list:
    return [_("Big followers in supply: {list}", list=_(", ").join(
        _("{player} {n}", player=seat(p), n=big_left(state, p)) for p in range(state.players)))]


# -- installation ----------------------------------------------------------------------


class InnsAndCathedrals(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(ic_pile())
        rules.max_players = max(rules.max_players, 6)
        rules.strength[BIG] = BIG_STRENGTH
        rules.supplies[BIG] = _supply
        rules.supply_count[BIG] = big_left
        rules.figure_providers.append(provider)
        rules.figure_validators[BIG] = _validate
        rules.figure_words.update(big=BIG, large=BIG)
        rules.initial.append(_initial)
        rules.views.append(_view)
        rules.render_lines.append(_render)
        rules.on("figure_phase_1", deploy_big)

        road = rules.points["road"]
        city = rules.points["city"]

        def inn_road(state, f, complete: bool) -> int:
            if f.marks.get("inn"):
                return 2 * len(f.tiles) if complete else 0
            return road(state, f, complete)

        def cathedral_city(state, f, complete: bool) -> int:
            if f.marks.get("cathedral"):
                return 3 * (len(f.tiles) + f.marks.get("pennant", 0)) if complete else 0
            return city(state, f, complete)

        rules.points.update(road=inn_road, city=cathedral_city)


INNS_AND_CATHEDRALS = register_expansion(InnsAndCathedrals())
