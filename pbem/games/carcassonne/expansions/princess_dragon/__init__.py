"""The Princess & the Dragon (rules digest §3.3, published C2 rules), option
``expansions: ["princess_dragon"]``.

Installed into a :class:`~...rules.Rules` like every expansion:

* **Tiles.** PD1-PD29 (``tiles.py``, 30 tiles) join the draw pile.
* **Volcano and dragon** (``dragon.py``): dragon tiles before the first volcano are
  put aside; a volcano brings the dragon, no figure on its tile; a dragon tile makes
  the dragon fly up to 6 steps, one seat a step from the active seat, eating every
  figure on the tiles it enters, before any scoring (step 6.1; ``dragon_move_timing`` =
  ``after_scoring``: after the scoring, in step 9).
* **Fairy** (``fairy.py``): moved next to one of your followers instead of a figure;
  +1 at the start of your turn, +3 when that follower's feature is scored; the dragon
  never enters its tile.
* **Princess and magic portal** (``princess_portal.py``): step 5 actions instead of a
  figure: send a knight of the city home / deploy on any free feature.

Step 5's actions away from the tile are one decision after the placement
(``actions.py``). The decision ``dragon`` is owed by each seat in turn during a
flight (strict: one seat at a time); its deadline default is the first legal step
(N, E, S, W). Modules: ``common``, ``tiles``, ``dragon``, ``fairy``,
``princess_portal``, ``text``; this one installs them. They import only the standard
library and the engine.
"""
from __future__ import annotations

from ...actions import Action, register_action
from ...orient import add_tiles
from ...rules import FINAL_SCORING, Expansion, Rules, register_expansion
from . import dragon, fairy, princess_portal as pp, text
from .common import initial
from .tiles import EXPANSION, PD_TILES, pd_pile

add_tiles(PD_TILES)


class PrincessAndDragon(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(pd_pile())
        rules.initial.append(initial)
        rules.draw_filters.append(dragon.set_aside)
        rules.tile_blocks.append(dragon.volcano_block)
        rules.no_figure_cells.append(dragon.dragon_cells)
        rules.evolvers.update(dragon.EVOLVERS)
        rules.evolvers.update(fairy.EVOLVERS)
        points = rules.evolvers["FeatureScored"]
        returned = rules.evolvers["FollowersReturned"]
        rules.evolvers.update(FairyScored=points, FiguresEaten=returned, KnightRemoved=returned)
        rules.moves[dragon.DRAGON_MOVE] = "resolve_figures"
        rules.move_starts[dragon.DRAGON_MOVE] = dragon.start_step
        rules.validators[dragon.DRAGON_MOVE] = dragon.validate_dragon
        rules.legal[dragon.DRAGON_MOVE] = dragon.legal_dragon
        register_action(rules, "fairy", Action(fairy.legal, fairy.validate, fairy.run, fairy.describe,
                                               exists=fairy.exists))
        register_action(rules, "princess", Action(pp.princess_legal, pp.princess_validate, pp.princess_run,
                                                  pp.princess_describe, required=pp.princess_required))
        register_action(rules, "portal", Action(pp.portal_legal, pp.portal_validate, pp.portal_run,
                                                pp.portal_describe))
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.board_marks.append(text.board_marks)
        rules.board_mark_keys.update(text.BOARD_MARKS)
        rules.on("start_turn", fairy.start_turn)
        rules.on("place_tile", dragon.volcano)
        rules.on("resolve_figures", dragon.fly, first=True)
        rules.on("score", fairy.scored)
        # dragon_move_timing = after_scoring: after the followers came home (and the wagons,
        # the Count's entry), before T&B's stranded figures, extra tile and the bazaar
        rules.on("end_turn", dragon.fly_after_scoring)
        rules.on(FINAL_SCORING, fairy.final)


PRINCESS_AND_DRAGON = register_expansion(PrincessAndDragon())
