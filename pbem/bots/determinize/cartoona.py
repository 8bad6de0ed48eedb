"""Cartoona from a seat's view, in every mode. Shown: the creatures (their
tiles, cards attached, colours), scores, counts, the seat's own hand and
cards, the card discard, the kids' pool and the solo discard. Sampled: the
stack, the face-down tile discard, the tiles set aside, the other hands and
an instant tile not this seat's (from the tiles not in sight), and the card
deck, the face-down cards and the other seats' cards (from the cards not in
sight). What others answered in an open reaction window is kept as a pass,
and a theft this seat did not make is given to a seat that could have made
it, without a card; the view shows neither, so neither may be read.

Approximations (the view does not show them; no legal move depends on
them): the order a creature's tiles joined it (the view lists them in part
order), the colour fixed for a two-colour tile (kept on its creature only),
the next creature and window numbers (one past the highest shown).
"""
from __future__ import annotations

import random

from pbem.games.cartoona import data as D


def _take(pool: list, n: int) -> tuple[list, list]:
    return pool[:n], pool[n:]


def state_from_view(rules, options: dict, players: int, seat: int, view: dict, rng: random.Random):
    o = dict(options)
    mode = o["mode"]
    if o["teams"] != "none":
        t, size = D.TEAM_LAYOUTS[o["teams"]]
        team = [p // size if o["team_turn_order"] == "together" else p % t for p in range(players)]
    else:
        team = list(range(players))
    # -- tiles
    all_tiles = list(D.NORMAL_IDS) + (list(D.SINGLE_IDS) if o["use_single_creatures"] else [])
    cre, att, fixed = {}, {}, {}
    seen = set()
    for c in view["creatures"]:
        tiles = {part: t for part, t in c["tiles"].items()}
        seen.update(tiles.values())
        entry = {"id": c["id"], "owner": c["owner"], "tiles": tiles}
        if "colour" in c:
            entry["colour"] = c["colour"]
        cre[str(c["id"])] = entry
        for t, cards in c.get("cards", {}).items():
            att[str(t)] = list(cards)
    hand = list(view.get("hand", ()))
    seen.update(hand)
    aside_seen = list(view.get("discarded", ())) if mode == "solo" else None
    if aside_seen:
        seen.update(aside_seen)
    for t in view.get("pool", ()) or ():
        seen.add(t)
    if view.get("held") is not None:
        seen.add(view["held"])
    if view.get("drawn") is not None:
        seen.add(view["drawn"])
    instant = None
    inst = view.get("instant")
    if inst and "tile" in inst:
        seen.add(inst["tile"])
    unseen = [t for t in all_tiles if t not in seen]
    rng.shuffle(unseen)
    if inst:
        if "tile" in inst:
            instant = {"player": inst["player"], "tile": inst["tile"]}
        else:
            tile, unseen = unseen[0], unseen[1:]
            instant = {"player": inst["player"], "tile": tile}
    hands = []
    for p, size in enumerate(view["hand_sizes"]):
        if p == seat:
            hands.append(hand)
        else:
            h, unseen = _take(unseen, size)
            hands.append(h)
    tdisc, unseen = _take(unseen, view.get("tile_discard", 0))
    if mode == "solo":
        aside = aside_seen or []
    else:
        aside, unseen = _take(unseen, view.get("set_aside", 0))
    stack, unseen = _take(unseen, view["stack"])
    # -- cards (the full game)
    deck, chands, cdisc, cdown, thefts = [], [[] for _p in range(players)], [], [], []
    window = None
    if mode == "full":
        all_cards = [c["id"] for c in D.CARDS if o["cheat_cards"] or c["kind"] != "cheat"]
        mine = list(view.get("cards", ()))
        cdisc = list(view["card_discard"])
        my_theft = view.get("my_theft")
        seen_c = set(mine) | set(cdisc) | {c for cs in att.values() for c in cs}
        if my_theft and my_theft.get("card") is not None:
            seen_c.add(my_theft["card"])
        w = view.get("window")
        if w and w.get("my_answer") is not None:
            seen_c.add(w["my_answer"])
        if w and w.get("card") is not None:
            seen_c.add(w["card"])
        cards = [c for c in all_cards if c not in seen_c]
        rng.shuffle(cards)
        for p, size in enumerate(view["card_counts"]):
            if p == seat:
                chands[p] = mine
            else:
                chands[p], cards = _take(cards, size)
        cdown, cards = _take(cards, view["face_down_cards"])
        deck, cards = _take(cards, view["deck"])
        for th in view["thefts"]:
            if my_theft and th["id"] == my_theft["id"]:
                thefts.append(dict(my_theft))
                continue
            who = [q for q in range(players) if q != seat and team[q] != team[th["victim"]]] or [None]
            thefts.append({**th, "thief": rng.choice(who), "card": None, "turn": view["turn"]})
        if w:
            window = {k: w[k] for k in ("id", "player", "card", "kind", "eligible", "pending", "tile", "with")
                      if k in w}
            window["answers"] = {str(q): (w.get("my_answer") if q == seat else None) for q in w["answered"]}
    ids = [c["id"] for c in view["creatures"]]
    state = {
        "mode": mode, "n": players, "opts": o, "team": team,
        "stack": stack, "tdisc": tdisc, "aside": aside, "hands": hands,
        "deck": deck, "chands": chands, "cdisc": cdisc, "cdown": cdown,
        "cre": cre, "next_cid": max(ids, default=0) + 1, "att": att, "fixed": fixed,
        "scores": list(view["scores"]), "active": view["active"], "start_player": view["active"],
        "turn": view["turn"], "phase": view["phase"],
        "placed": view.get("placed", False), "played": view.get("played", False),
        "used": list(view.get("out_of_turn_used", ())), "passed": list(view.get("out_of_turn_passed", ())),
        "called": list(view.get("called", ())),
        "window": window, "next_window": _next_window(view),
        "instant": instant, "thefts": thefts,
        "next_theft": max((th["id"] for th in thefts), default=0) + 1,
        "orders": [list(x) for x in view.get("orders", [[] for _p in range(players)])],
        "last": view.get("last_turn", False), "end": view["end"],
        "drawn": view.get("drawn"), "pool": list(view.get("pool", ()) or ()), "held": view.get("held"),
    }
    return rules.load({**state, "cre": {k: {**c, "tiles": list(c["tiles"].items())} for k, c in cre.items()},
                       "format": 2})



def _next_window(view: dict) -> int:
    w = view.get("window")
    return w["id"] + 1 if isinstance(w, dict) and isinstance(w.get("id"), int) else 1
