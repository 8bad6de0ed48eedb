"""Kachina from a seat's view: the board, scores and own hand are shown; the
other hands and the pile are sampled from the tiles not in sight (the full
set less the board, the tiles under Eagles and this seat's hand)."""
from __future__ import annotations

import random
from collections import Counter

from pbem.games import kachina as K


def state_from_view(rules, options: dict, players: int, seat: int, view: dict, rng: random.Random):
    seen = Counter()
    board, under = [], []
    for c in view["board"]:
        board.append([c["x"], c["y"], K.KIND[c["tile"]]])
        seen[K.KIND[c["tile"]]] += 1
        if "covered" in c:
            under.append([c["x"], c["y"], K.KIND[c["covered"]]])
            seen[K.KIND[c["covered"]]] += 1
    mine = sorted(K.KIND[t] for t in view.get("hand", ()))
    seen.update(mine)
    full = [K.KIND[t.lower()] for t in options["tile_order"]] if options["tile_order"] else list(K.FULL_SET)
    left = Counter(full) - seen
    pool = list(left.elements())
    rng.shuffle(pool)
    hands = []
    for p, size in enumerate(view["hand_sizes"]):
        if p == seat:
            hands.append(mine)
        else:
            hands.append(sorted(pool[:size]))
            pool = pool[size:]
    # a fixed tile order draws from the front: what is left keeps that order where
    # it is known (the tiles dealt and returned are not tracked here: approximate)
    pile = pool[:view["pile_size"]]
    pile = pile if options["tile_order"] else sorted(pile)
    phase = view["phase"]
    to_act = view["to_act"]
    choices = [None] * players
    if phase == "redraw":
        for p, answered in enumerate(view.get("redraw_answered", ())):
            if answered:
                choices[p] = view["redraw_choice"] if p == seat and "redraw_choice" in view else False
    turn = to_act[0] if phase == "play" and to_act else view["start_player"]
    data = {
        "n": players, "opts": options, "phase": phase, "start": view["start_player"], "turn": turn,
        "board": board, "under": under, "hands": hands, "pile": pile,
        "scores": view["scores"], "reached": view["reached_at_move"], "moves": view["move_number"],
        "passes": view["passes"], "choices": choices, "last": view["last"], "reason": view.get("reason", ""),
    }
    return rules.load(data)
