"""Carcassonne from a seat's view. Nothing is hidden (tiles are drawn by
chance events, one at a time): the view holds the board, the followers, the
pile's counts and the turn's step, and the state is rebuilt by ``load``.

Expansions keep more state (``ext``) than their views show in a form that
rebuilds it; only the base game is rebuilt here (``Unsupported`` otherwise).
"""
from __future__ import annotations

import random

from . import Unsupported

#: the decision each step owes (``pending``'s value for the seats to act)
_OWED = {"place_tile": "place_tile", "figure_phase_2": "action"}


def supports(options: dict) -> bool:
    return not options["expansions"]


def state_from_view(rules, options: dict, players: int, seat: int, view: dict, rng: random.Random):
    if not supports(options):
        raise Unsupported("Carcassonne with expansions")
    step = view["step"]
    order = None
    if options["draw_order"]:
        left = view["tiles_left"]
        order = list(options["draw_order"][len(options["draw_order"]) - left:]) if left else []
    data = {
        "players": players,
        "options": options,
        "tiles": [[t["x"], t["y"], t["tile"], t["rotation"]] for t in view["board"]],
        "followers": [[f["player"], f["x"], f["y"], f["on"], f["figure"]] for f in view["followers"]],
        "pile": view["pile"],
        "order": order,
        "discarded": view["discarded"],
        "supply": view["supply"],
        "scores": view["scores"],
        "tally": view["by_category"],
        "active": view["active"],
        "tile": view["tile"],
        "pending": [[p, _OWED.get(step, step)] for p in view["to_act"]],
        "step": step,
        "turn": view["turn"],
        "over": view["over"],
        "ext": {},
        # followers come in the view's order: only the order of events naming several
        # followers of one feature could differ from the real state's (the bot's loss: none)
        "format": 2,
    }
    return rules.load(data)
