"""The Tunnel (rules digest §3.12), option ``expansions: ["tunnel"]``.

* **Tiles.** TU1-TU4 (``tiles.py``), 10 tunnel mouths; with ``tunnel_other_expansions``
  also P&D's PD25 and A&M's AM12 cut into two mouths each.
* **Tokens** (``tokens.py``): 12, 2 in each of 6 colours, shared out by player count;
  one a tile placed, after the figure phases and before step 6 (decision ``tunnel``);
  the second token of a colour joins the two roads underground; only the visible
  segments score (each tile once). ``tunnel_claim_requires_follower``: a seat claims
  only a mouth whose road holds one of its figures.
* **Text** (``text.py``): notation ``tunnel X,Y road E red`` / ``no tunnel``, event
  sentences, the view's ``tunnel`` and the text board's lines; on the text board each
  mouth shows its token's letter (R B E Y K A: red blue green yellow black grey) or ``~``.
"""
from __future__ import annotations

from ...actions import install_pass
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from . import text, tokens
from .tiles import EXPANSION, TU_TILES, UNDERPASS_TILES, tunnel_pile

add_tiles(TU_TILES)
add_tiles(UNDERPASS_TILES)


class Tunnel(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(tunnel_pile())
        rules.initial.append(tokens.initial)
        rules.rejoin.append(tokens.rejoin)
        rules.moves[tokens.TUNNEL] = "resolve_figures"
        rules.legal[tokens.TUNNEL] = tokens.legal_tunnel
        rules.validators[tokens.TUNNEL] = tokens.validate_tunnel
        rules.pass_moves[tokens.TUNNEL] = {"type": tokens.TUNNEL, "pass": True}
        install_pass(rules)
        rules.evolvers.update(tokens.EVOLVERS)
        rules.evolvers["TilePlaced"] = tokens.placed(rules.evolvers["TilePlaced"])
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.board_marks.append(text.board_marks)
        rules.board_mark_keys.update(text.BOARD_MARKS)
        rules.on("resolve_figures", tokens.offer, first=True)
        # right after the base game's scoring of the new tile's features
        score = rules.handlers["score"]
        at = next((i + 1 for i, h in enumerate(score) if h.__name__ == "score_completed"), len(score))
        score.insert(at, tokens.score_joined)


TUNNEL = register_expansion(Tunnel())
