"""The Count of Carcassonne (rules digest §3.6, the published rules), option
``expansions: ["count"]``.

* **The City** (``tiles.py``): 12 tiles laid out at the start instead of the start
  tile; its fields border the City, one completed city (``Rules.field_borders``);
  the Count starts in the castle district.
* **Entering, leaving, the end** (``city.py``): decisions ``count`` (the active seat,
  after the scoring) and ``count_move`` (seat after seat from the one left of the active
  seat, before the scoring; at the end before the final scoring). Strict: one seat at a
  time. Deadline defaults: stay out; move nobody.

Modules: ``tiles``, ``city``, ``text``; this one installs them.
"""
from __future__ import annotations

from ...actions import install_pass
from ...orient import add_tiles
from ...rules import Expansion, Rules, register_expansion
from ...state import SEG_BITS
from . import city, text
from .tiles import CO_TILES, EXPANSION, LAYOUT

add_tiles(CO_TILES)


def _city_fid(state):
    for cell, t in state.board.items():
        if t[0] == "CO7":
            return state.seg_feature[t[2] << SEG_BITS]
    return None


def _borders(state, f):
    if f.marks.get("coc"):
        fid = _city_fid(state)
        return () if fid is None else (fid,)
    return ()


class Count(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.start_tiles = list(LAYOUT)
        rules.initial.append(city.initial)
        rules.field_borders.append(_borders)
        for name, legal, validate, step in ((city.ENTER, city.legal_entry, city.validate_entry, "end_turn"),
                                            (city.LEAVE, city.legal_leave, city.validate_leave, "before_scoring")):
            rules.moves[name] = step
            rules.legal[name] = legal
            rules.validators[name] = validate
            rules.pass_moves[name] = {"type": name, "pass": True}
        install_pass(rules)
        rules.evolvers.update(city.EVOLVERS)
        rules.parsers.append(text.parse)
        rules.views.append(text.view)
        rules.render_lines.append(text.render)
        rules.before_finish.append(city.before_finish)
        rules.on("before_scoring", city.leaving, first=True)
        rules.on("score", city.note_scoring)
        rules.on("end_turn", city.offer_entry)


COUNT = register_expansion(Count())
