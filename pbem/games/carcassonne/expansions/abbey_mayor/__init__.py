"""Abbey & Mayor (rules digest §3.5), option ``expansions: ["abbey_mayor"]``.

Installed into a :class:`~.rules.Rules` like every expansion:

* **Tiles.** AM1-AM12 (``tiles.py``) join the draw pile.
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

Modules: ``common`` (supplies, the expansion's state), ``abbey`` (the abbey and
its end round), ``figures`` (mayor, wagon, barn on the placement move), ``barn``
(the barn's scoring), ``wagon`` (the wagon's move after scoring), ``text``
(notation, event sentences, views), ``tiles``; this one installs them.
They import only the standard library and the engine.
"""
from __future__ import annotations

from ...evolve import EVOLVERS
from ...rules import FINAL_SCORING, Expansion, Rules, register_expansion
from .abbey import (_declined, _offered, _round_skipped, _round_started, _taken, gated_draw, legal_abbey,
                    offer_abbey, round_turn, take_abbey, validate_abbey)
from ...base_rules import draw_tile
from .barn import barn_connections, barn_final, deploy_barn
from .common import BARN, MAYOR, WAGON, _initial, _supply, left
from .figures import _figure_validator, deploy, provider
from .text import _render, _view, parse
from .tiles import EXPANSION, am_pile
from .wagon import _wagon_moved, _wagon_offered, _wagon_returned, legal_wagon, validate_wagon, wagons


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
            rules.supply_count[f] = (lambda fig: lambda state, player: left(state, player, fig))(f)
            rules.figure_validators[f] = _figure_validator(f)
        rules.figure_words.update(mayor=MAYOR, wagon=WAGON)
        rules.figure_providers.append(provider)
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
