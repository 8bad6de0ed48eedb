"""Wakanda from a seat's view: poles, claims, headdresses are public; the
villages this seat cannot see (the two back in the box, face-down ones in
the advanced variant), the hidden hands and the bag are sampled from what is
unseen (the view's ``unseen`` counts are exactly the bag plus hidden hands)."""
from __future__ import annotations

import random

from pbem.games import wakanda as W


def state_from_view(rules, options: dict, players: int, seat: int, view: dict, rng: random.Random):
    villages = view["villages"]
    row = [v["village"] for v in villages]
    known = [v for v in row if v is not None]
    if view.get("removed_villages") is not None:
        removed = list(view["removed_villages"])
    else:
        pool = [v for v in W.VILLAGES if v not in known]
        rng.shuffle(pool)
        for i, v in enumerate(row):
            if v is None:
                row[i] = pool.pop()
        removed = pool
    unseen = [piece for piece, n in view["unseen"].items() for _i in range(n)]
    rng.shuffle(unseen)
    held = []
    for p in view["players"]:
        if p["held"] is not None:
            held.append(list(p["held"]))
        else:
            held.append(unseen[:p["held_count"]])
            unseen = unseen[p["held_count"]:]
    bag = [0] * len(W.PIECES)
    for piece in unseen:
        bag[W.PIECE_INDEX[piece]] += 1
    opened = max((v["position"] for v in villages if v["state"] != "closed"), default=0)
    state = {
        "options": options,
        "row": row,
        "removed": removed,
        "opened": opened,
        "poles": [list(v["pole"]) for v in villages],
        "owner": [v["owner"] for v in villages],
        "held": held,
        "headdresses": [p["headdresses"] for p in view["players"]],
        "bag": bag,
        "current": view["current"],
        "start_player": view["start_player"],
        "turn": view["turn"],
        "passes": view["passes_in_a_row"],
        "claims": [[c["seat"], c["village"], c["turn"]] for c in view["claims"]],
        "stopped": list(view.get("stopped", ())),
        "finished": view["finished"],
        "end_reason": view["end_reason"],
    }
    return rules.load(state)
