"""The Wheel of Fortune (rules digest §3.9), option ``expansions: ["wheel_of_fortune"]``:
a HOUSE READING, off by default. The published tile data, the Wheel board's edges and
the exact event formulas are in no source we could read, so everything the sources
leave open is one table of house data, ``data.HOUSE`` (marked [HOUSE] in the rules
notes).

* **Tiles** (``tiles.py``): the Wheel board (16 tiles, instead of the start tile, or
  below the City of Carcassonne with the Count) and 19 wheel-number copies of base
  tiles, taken out of the base pile.
* **Rules** (``wheel.py``): step 2.2 (the pig, the event, the crowns), the Plague
  decision of every seat at once (one window), step 5's follower on a crown space
  (the action ``wheel``).
* **Texts** (``text.py``): notation, event sentences, view, text board.

The dragon never enters the Wheel (the board's tiles carry the tag ``wheel``).
"""
from __future__ import annotations

from ...actions import Action, register_action
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from . import text, wheel
from .tiles import EXPANSION, WHEEL_TILES, layout, wheel_pile

add_tiles(WHEEL_TILES)


class WheelOfFortune(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.start_tiles = layout(rules.start_tiles)
        rules.pile.update(wheel_pile(rules.pile))
        rules.initial.append(wheel.initial)
        register_action(rules, "wheel", Action(wheel.legal_crown, wheel.validate_crown, wheel.run_crown,
                                               text.describe_crown, exists=wheel.exists_crown))
        rules.moves[wheel.PLAGUE] = "draw_tile"
        rules.legal[wheel.PLAGUE] = wheel.legal_plague
        rules.validators[wheel.PLAGUE] = wheel.validate_plague
        rules.evolvers.update(wheel.EVOLVERS)
        rules.evolvers["TilePlaced"] = wheel._placed(rules.evolvers["TilePlaced"])
        rules.windows.append(wheel.window)
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        # the draw asks for the placement, which ends the step's run: the wheel turns in
        # the same handler, right after the draw (and there the Plague's answers come back)
        steps = rules.handlers["draw_tile"]
        steps[-1] = wheel.after_draw(steps[-1])


WHEEL_OF_FORTUNE = register_expansion(WheelOfFortune())
