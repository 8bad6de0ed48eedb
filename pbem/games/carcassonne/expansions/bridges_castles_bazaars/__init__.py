"""Bridges, Castles & Bazaars (rules digest §3.8, the published rules as JCZ plays them),
option ``expansions: ["bridges_castles_bazaars"]``.

* **Tiles.** BB1-BB11 (``tiles.py``, 12 tiles, 8 bazaars).
* **Bridges** (``bridges.py``): with the placement, on the new tile or the next one.
* **Castles** (``castles.py``): a completed city of two caps may become a castle
  (decision ``castle`` of the knight's owner), scored later with a neighbouring feature
  (with ``castle_feature_choice`` = ``owner_choice``, decision ``choose_castle_feature`` of
  the castle's owner between features of different values).
* **Bazaar** (``bazaar.py``): after the turn an auction of as many tiles as seats
  (decision ``bazaar``, one seat at a time), played at the seats' next turns;
  ``bazaar_mode`` = ``draft``: the same hosts just pick, no bids.

Bridges and castles: 3 a seat with 2-4 players, 2 with 5-6. Modules: ``tiles``,
``bridges``, ``castles``, ``bazaar``, ``text``; this one installs them.
"""
from __future__ import annotations

from ...actions import install_pass
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from . import bazaar, bridges, castles, text
from .tiles import BB_TILES, EXPANSION, bb_pile, pieces

add_tiles(BB_TILES)


def _initial(state) -> None:
    n = pieces(state.players)
    state.ext = {**state.ext, EXPANSION: {"bridges": [n] * state.players, "castles_left": [n] * state.players,
                                          "castles": [], "offer": None, "decided": [], "auction": None,
                                          "held": {}, "called": False, "from_bazaar": False}}


class BridgesCastlesBazaars(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(bb_pile())
        rules.initial.append(_initial)
        rules.legal["place_tile"] = bridges.legal_place(rules.legal["place_tile"])
        rules.validators["place_tile"] = bridges.validate_place(rules.validators["place_tile"])
        rules.placeable_with.append(bridges.placeable)
        rules.restore.append(castles.restore)
        farmer = rules.field_city_points
        rules.field_city_points = lambda state, f: castles.FARMER_POINTS if f.marks.get("castle") else farmer(state, f)
        for name, legal, validate, step in ((castles.CASTLE, castles.legal_castle, castles.validate_castle,
                                             "resolve_figures"),
                                            (castles.CHOOSE, castles.legal_choice, castles.validate_choice,
                                             "end_turn"),
                                            (bazaar.MOVE, bazaar.legal_bazaar, bazaar.validate_bazaar, "end_turn")):
            rules.moves[name] = step
            rules.legal[name] = legal
            rules.validators[name] = validate
        rules.pass_moves[castles.CASTLE] = {"type": castles.CASTLE, "pass": True}
        install_pass(rules)
        rules.evolvers.update(castles.EVOLVERS)
        rules.evolvers.update(bazaar.EVOLVERS)
        rules.evolvers["BridgeBuilt"] = bridges._built
        placed = rules.evolvers["TilePlaced"]
        rules.evolvers["TilePlaced"] = lambda state, event: castles.clear_decided(placed(state, event), event)
        rules.evolvers["TileDrawn"] = bazaar.drawn(rules.evolvers["TileDrawn"])
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.on("start_turn", bazaar.take, first=True)
        rules.on("place_tile", bridges.build, first=True)
        rules.on("place_tile", bazaar.note)
        rules.on_discard.append(bazaar.note_discarded)
        rules.on("resolve_figures", castles.offer)
        rules.on("score", castles.score)
        rules.on("end_turn", castles.resume_choice, first=True)   # castle_feature_choice = owner_choice
        rules.on("end_turn", bazaar.hold, last=True)


BRIDGES_CASTLES_BAZAARS = register_expansion(BridgesCastlesBazaars())
