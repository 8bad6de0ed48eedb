"""The Catapult (rules digest §3.10), option ``expansions: ["catapult"]``.

* **Tiles** (``tiles.py``): 12 fair tiles CA1-CA12 on [HOUSE] geometry (no text
  source gives the published ones). The fair ends every road that reaches it,
  and a wagon never passes it (wagon ``along_road``: no road end on a fair tile
  meets anything).
* **The round** (``round.py``): with ``catapult_mode`` = ``tiles_only`` (the
  default) the fair tiles are plain tiles. With ``abstract`` [HOUSE], step 9.2
  after a fair tile: the active seat chooses knock-out or seduction (decision
  ``catapult``), then every seat at once owes one secret shot (decision
  ``shot``, one window: ``Carcassonne.window``), resolved in seat order from
  the active seat once all are in.
* **Text** (``text.py``): notation ``catapult knockout`` / ``catapult
  seduction``, ``shoot X,Y road E`` / ``no shot``; the view's ``catapult``; the
  text board's lines.

Shots are secret until the last is in: ``ShotAimed`` carries the shot in
``secret`` to the shooter alone, the view shows a seat its own shot only,
``Carcassonne.redact_move`` withholds a shot move from the other seats, and
``Carcassonne.resample`` re-deals the others' shots for the contract suite.
"""
from __future__ import annotations

from ...actions import install_pass
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from ..abbey_mayor.tiles import MEETS
from . import round as catapult_round, text
from .tiles import CA_TILES, EXPANSION, ca_pile

add_tiles(CA_TILES)
# the wagon never passes a fair: a road end on a fair tile meets nothing (along_road)
MEETS.update({letter: {} for letter in CA_TILES})


class Catapult(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(ca_pile())
        rules.initial.append(catapult_round.initial)
        for name, legal, validate in ((catapult_round.CHOOSE, catapult_round.legal_choice,
                                       catapult_round.validate_choice),
                                      (catapult_round.SHOT, catapult_round.legal_shot,
                                       catapult_round.validate_shot)):
            rules.moves[name] = "end_turn"
            rules.legal[name] = legal
            rules.validators[name] = validate
        rules.pass_moves[catapult_round.SHOT] = {"type": catapult_round.SHOT, "pass": True}
        install_pass(rules)
        rules.evolvers.update(catapult_round.EVOLVERS)
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.on("end_turn", catapult_round.catapult_round)


CATAPULT = register_expansion(Catapult())
