"""The Tower (rules digest §3.4, published C2 rules), option ``expansions: ["tower"]``.

* **Tiles.** TO1-TO17 (``tiles.py``, 18 tiles, each with a tower foundation).
* **Floors per seat** by the number of players: 2: 10, 3: 9, 4: 7, 5: 6, 6: 5.
* **Step 5 actions** (``towers.py``, through ``actions.py``): a floor on any open tower
  (then the capture decision), or a follower on top of one (closing it).
* **Prisoners** (``prisoners.py``): exchanged at once between two captors (the captor
  picks which of its own comes back when it can choose), or bought back for 3 points
  at any time of the owner's own turn, once a turn (``Rules.anytime``).

The decisions ``capture`` and ``exchange`` are the active seat's (strict concurrency);
their deadline defaults are to capture nobody and to take back the follower captured
earliest. Modules: ``tiles``, ``state`` (the part of the state both others change), ``towers``,
``prisoners``, ``text``; this one installs them.
"""
from __future__ import annotations

from ...actions import Action, install_pass, register_action
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from . import prisoners, text, towers
from .tiles import EXPANSION, TO_TILES, to_pile

add_tiles(TO_TILES)


class Tower(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(to_pile())
        rules.initial.append(towers.initial)
        register_action(rules, "tower", Action(towers.legal, towers.validate, towers.run, towers.describe))
        for name, legal, validate in ((towers.CAPTURE, towers.legal_capture, towers.validate_capture),
                                      (prisoners.EXCHANGE, prisoners.legal_exchange, prisoners.validate_exchange)):
            rules.moves[name] = "figure_phase_2"
            rules.legal[name] = legal
            rules.validators[name] = validate
        rules.pass_moves[towers.CAPTURE] = {"type": towers.CAPTURE, "pass": True}
        install_pass(rules)
        rules.anytime[prisoners.RANSOM] = (prisoners.legal_ransom, prisoners.validate_ransom,
                                           prisoners.ransom_events)
        rules.evolvers.update(towers.EVOLVERS)
        rules.evolvers.update(prisoners.EVOLVERS)
        rules.evolvers["TilePlaced"] = prisoners.turn_marker(rules.evolvers["TilePlaced"])
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.on("figure_phase_2", towers.capture)
        rules.on("figure_phase_2", prisoners.exchange)


TOWER = register_expansion(Tower())
