"""Cartoona state, events (``evolve``) and helpers shared by the move logic.

The state is one JSON-able dict. Hidden collections (stacks, hands, the
face-down discards) are plain lists of ids; a redacted record replays into
the same shape with ``None`` standing for every id the viewer never saw, so
``evolve`` works on both (see ``_take``).
"""
from __future__ import annotations

from . import creatures as cr
from .data import C_KIND, C_VALUE, T_COLOURS, T_PART

BLOCK_ORDERS = {"steal": "block_steal", "swap": "block_swap",
                "minus1": "block_minus", "minus2": "block_minus", "minus3": "block_minus", "minus5": "block_minus"}
ORDERS = ("always_pass", "block_steal", "block_swap", "block_minus")


# ---------------------------------------------------------------- small helpers


def _take(lst: list, x) -> list:
    """A copy of ``lst`` without ``x`` (or without one unknown ``None`` when
    ``x`` is not there: a redacted replay)."""
    return _take_many(lst, (x,))


def _take_many(lst: list, xs) -> list:
    out = list(lst)
    for x in xs:
        if x in out:
            out.remove(x)
        elif None in out:
            out.remove(None)
        elif out:  # a redacted replay where every id left is known: keep the count right
            out.pop()
    return out


def set_at(lst: list, i: int, value) -> list:
    out = list(lst)
    out[i] = value
    return out


def team_game(s) -> bool:
    return s["opts"]["teams"] != "none"


def same_team(s, a: int, b: int) -> bool:
    return s["team"][a] == s["team"][b]


def creature_of_tile(s, tile: int):
    for c in s["cre"].values():
        if tile in c["tiles"].values():
            return c
    return None


def table_tiles(s):
    """(tile, creature) for every tile on the table, in creature order."""
    out = []
    for key in sorted(s["cre"], key=int):
        c = s["cre"][key]
        for t in c["tiles"].values():
            out.append((t, c))
    return out


def special_tiles(s) -> frozenset:
    return frozenset(int(t) for t, cards in s["att"].items() if any(C_KIND[c] == "special" for c in cards))


def creature_points(s, c) -> dict:
    cards = []
    for t in c["tiles"].values():
        for card in s["att"].get(str(t), ()):
            if C_VALUE[card]:
                cards.append(C_VALUE[card])
    fixed = {int(k): v for k, v in s["fixed"].items()} if s["fixed"] else None
    return cr.score_breakdown(c["tiles"], cards, special_tiles(s) if s["att"] else frozenset(),
                              s["opts"]["double_includes_cards"], fixed)


def team_score(s, p: int) -> int:
    return sum(s["scores"][q] for q in range(s["n"]) if s["team"][q] == s["team"][p])


def pending_cards(s, p: int) -> set:
    return {th["card"] for th in s["thefts"] if th["thief"] == p and th["card"] is not None}


def cleared_turn(s) -> dict:
    s["placed"] = False
    s["played"] = False
    s["used"] = []
    s["passed"] = []
    s["called"] = []
    return s


# ---------------------------------------------------------------- evolve


def evolve(s, e):
    handler = EVOLVE.get(e["type"])
    if handler is None:
        return s
    s = dict(s)
    handler(s, e)
    return s


def _game_started(s, e):
    s["active"] = e["start"]
    s["start_player"] = e["start"]


def _tiles_shuffled(s, e):
    order = e.get("secret", {}).get("order")
    s["stack"] = list(order) if order is not None else [None] * e["count"]


def _cards_shuffled(s, e):
    order = e.get("secret", {}).get("order")
    s["deck"] = list(order) if order is not None else [None] * e["count"]


def _tiles_dealt(s, e):
    # also a turn's draw (TileDrawn): the top ``count`` tiles of the stack
    p, k = e["player"], e["count"]
    got = e.get("secret", {}).get("tiles")
    if got is None:
        got = e.get("tiles")
    if got is None:
        got = [None] * k
    s["stack"] = s["stack"][k:]
    s["hands"] = set_at(s["hands"], p, s["hands"][p] + list(got))
    if s["mode"] in ("basic", "basic_team") and not s["stack"]:
        s["last"] = True


def _cards_dealt(s, e):
    p, k = e["player"], e["count"]
    got = e.get("secret", {}).get("cards")
    if got is None:
        got = [None] * k
    s["deck"] = s["deck"][k:]
    s["chands"] = set_at(s["chands"], p, s["chands"][p] + list(got))


def _tiles_reshuffled(s, e):
    order = e.get("secret", {}).get("order")
    s["stack"] = s["stack"] + (list(order) if order is not None else [None] * e["count"])
    s["tdisc"] = []


def _cards_reshuffled(s, e):
    order = e.get("secret", {}).get("order")
    s["deck"] = s["deck"] + (list(order) if order is not None else [None] * e["count"])
    s["cdisc"] = []
    s["cdown"] = []


def _tiles_ran_out(s, e):
    s["last"] = True


def _turn_started(s, e):
    cleared_turn(s)
    s["active"] = e["player"]
    s["turn"] = e["turn"]
    s["phase"] = e.get("phase", "turn")


def _phase_set(s, e):
    s["phase"] = e["phase"]


def _remove_tile_from_table(s, creature_id: int, tile: int, dropped: list):
    cre = dict(s["cre"])
    key = str(creature_id)
    c = dict(cre[key])
    tiles = dict(c["tiles"])
    tiles.pop(T_PART[tile], None)
    if tiles:
        c["tiles"] = tiles
        cre[key] = c
    else:
        del cre[key]
    s["cre"] = cre
    if str(tile) in s["att"]:
        att = dict(s["att"])
        del att[str(tile)]
        s["att"] = att
    if dropped:
        s["cdisc"] = s["cdisc"] + list(dropped)


def _tile_placed(s, e):
    p, tile = e["player"], e["tile"]
    if e.get("from") == "held":
        s["held"] = None
    elif e.get("from") == "drawn":
        s["drawn"] = None
    else:
        s["hands"] = set_at(s["hands"], p, _take(s["hands"][p], tile))
    cre = dict(s["cre"])
    merged = e["creatures"]
    if not merged:
        cid = e["creature"]
        c = {"id": cid, "owner": p, "tiles": {T_PART[tile]: tile}}
        if "colour" in e:
            c["colour"] = e["colour"]
        s["next_cid"] = max(s["next_cid"], cid + 1)
    else:
        first = cre[str(merged[0])]
        c = dict(first)
        tiles = dict(first["tiles"])
        for other in merged[1:]:
            tiles.update(cre.pop(str(other))["tiles"])
        tiles[T_PART[tile]] = tile
        c["tiles"] = tiles
        cid = first["id"]
    cre[str(cid)] = c
    s["cre"] = cre
    if "colour" in e:
        fixed = dict(s["fixed"])
        fixed[str(tile)] = e["colour"]
        s["fixed"] = fixed
    if e.get("free"):
        s["instant"] = None
    elif s["mode"] != "kids":
        s["placed"] = True


def _tile_discarded(s, e):
    p = e["player"]
    tile = e.get("tile", e.get("secret", {}).get("tile"))
    if e.get("from") == "drawn":
        s["drawn"] = None
        s["aside"] = s["aside"] + [tile]
    else:
        s["hands"] = set_at(s["hands"], p, _take(s["hands"][p], tile))
        s["tdisc"] = s["tdisc"] + [tile]


def _creature_scored(s, e):
    p = e["player"]
    cre = dict(s["cre"])
    att = dict(s["att"]) if s["att"] else s["att"]
    to_disc, aside = [], []
    for cid in e["creatures"]:
        c = cre.pop(str(cid))
        for t in c["tiles"].values():
            if T_PART[t] == "single" or s["mode"] != "full":
                aside.append(t)
            else:
                to_disc.append(t)
            if att and str(t) in att:
                del att[str(t)]
    s["cre"] = cre
    s["att"] = att
    if to_disc:
        s["tdisc"] = s["tdisc"] + to_disc
    if aside:
        s["aside"] = s["aside"] + aside
    if e.get("cards"):
        s["cdisc"] = s["cdisc"] + list(e["cards"])
    s["scores"] = set_at(s["scores"], p, s["scores"][p] + e["points"])


def _turn_ended(s, e):
    s["phase"] = "between"


def _game_ended(s, e):
    s["end"] = {k: v for k, v in e.items() if k != "type"}
    s["phase"] = "over"
    s["window"] = None
    s["instant"] = None


def _card_drawn(s, e):
    _cards_dealt(s, {"player": e["player"], "count": 1,
                     "secret": {"cards": [e["secret"]["card"]]} if "secret" in e else {}})


def _card_played(s, e):
    p = e["player"]
    s["chands"] = set_at(s["chands"], p, _take(s["chands"][p], e["card"]))
    if p == s["active"]:
        s["played"] = True
    else:
        s["used"] = s["used"] + [p]
    w = {"id": e["window"], "player": p, "card": e["card"], "kind": e["kind"],
         "eligible": list(e["eligible"]), "pending": list(e["responders"]), "answers": {}}
    for k in ("tile", "with"):
        if k in e:
            w[k] = e[k]
    s["window"] = w
    s["next_window"] = e["window"] + 1


def _reaction_answered(s, e):
    w = dict(s["window"])
    p = e["player"]
    w["pending"] = [q for q in w["pending"] if q != p]
    answers = dict(w["answers"])
    answers[str(p)] = e["secret"]["block"] if "secret" in e else None
    w["answers"] = answers
    s["window"] = w


def _card_blocked(s, e):
    by = e["by"]
    s["chands"] = set_at(s["chands"], by, _take(s["chands"][by], e["block"]))
    s["cdisc"] = s["cdisc"] + [e["card"], e["block"]]
    if by == s["active"]:
        s["played"] = True
    else:
        s["used"] = s["used"] + [by]
    s["window"] = None


def _card_attached(s, e):
    att = dict(s["att"])
    key = str(e["tile"])
    att[key] = att.get(key, []) + [e["card"]]
    s["att"] = att
    s["window"] = None


def _tiles_swapped(s, e):
    a, b = e["tile"], e["with"]
    ca, cb = e["creatures"]
    cre = dict(s["cre"])
    x, y = dict(cre[str(ca)]), dict(cre[str(cb)])
    xt, yt = dict(x["tiles"]), dict(y["tiles"])
    xt[T_PART[a]] = b
    yt[T_PART[b]] = a
    x["tiles"], y["tiles"] = xt, yt
    cre[str(ca)], cre[str(cb)] = x, y
    s["cre"] = cre
    s["cdisc"] = s["cdisc"] + [e["card"]]
    s["window"] = None


def _tile_stolen(s, e):
    p, tile = e["player"], e["tile"]
    _remove_tile_from_table(s, e["creature"], tile, e["dropped"])
    s["hands"] = set_at(s["hands"], p, s["hands"][p] + [tile])
    s["cdisc"] = s["cdisc"] + [e["card"]]
    s["window"] = None


def _instant_drawn(s, e):
    p = e["player"]
    tile = e.get("secret", {}).get("tile")
    s["stack"] = s["stack"][1:]
    s["hands"] = set_at(s["hands"], p, s["hands"][p] + [tile])
    s["cdisc"] = s["cdisc"] + [e["card"]]
    s["instant"] = {"player": p, "tile": tile}
    s["window"] = None


def _instant_fizzled(s, e):
    s["cdisc"] = s["cdisc"] + [e["card"]]
    s["window"] = None


def _instant_kept(s, e):
    s["instant"] = None


def _out_of_turn_passed(s, e):
    s["passed"] = s["passed"] + [e["player"]]


def _order_set(s, e):
    p = e["player"]
    mine = [o for o in s["orders"][p] if o != e["order"]]
    if e["on"]:
        mine.append(e["order"])
        mine.sort(key=ORDERS.index)
    s["orders"] = set_at(s["orders"], p, mine)


def _tile_vanished(s, e):
    secret = e.get("secret", {})
    _remove_tile_from_table(s, e["creature"], e["tile"], e["dropped"])
    # ``turn``: the seats whose turns began since then cannot be the thief
    # (theirs would have been made safe), which the re-deal check respects
    s["thefts"] = s["thefts"] + [{"id": e["theft"], "tile": e["tile"], "creature": e["creature"],
                                  "victim": e["victim"], "thief": secret.get("thief"),
                                  "card": secret.get("card"), "turn": s["turn"]}]
    s["next_theft"] = e["theft"] + 1
    if s["opts"]["cheat_timing"] == "own_turn":
        s["played"] = True


def _without_theft(s, theft_id):
    s["thefts"] = [th for th in s["thefts"] if th["id"] != theft_id]


def _cheat_safe(s, e):
    p = e["thief"]
    _without_theft(s, e["theft"])
    s["hands"] = set_at(s["hands"], p, s["hands"][p] + [e["tile"]])
    if e["with_card"]:
        card = e.get("secret", {}).get("card")
        s["chands"] = set_at(s["chands"], p, _take(s["chands"][p], card))
        s["cdown"] = s["cdown"] + [card]


def _cheat_caught(s, e):
    thief, tile = e["thief"], e["tile"]
    _without_theft(s, e["theft"])
    if e["back"] is not None:
        cre = dict(s["cre"])
        c = dict(cre[str(e["back"])])
        tiles = dict(c["tiles"])
        tiles[T_PART[tile]] = tile
        c["tiles"] = tiles
        cre[str(e["back"])] = c
        s["cre"] = cre
    else:
        v = e["to_hand"]
        s["hands"] = set_at(s["hands"], v, s["hands"][v] + [tile])
    lost = ([e["card"]] if e["card"] is not None else []) + list(e["discarded"])
    if lost:
        s["chands"] = set_at(s["chands"], thief, _take_many(s["chands"][thief], lost))
        s["cdisc"] = s["cdisc"] + lost
    if e["penalty"]:
        s["scores"] = set_at(s["scores"], thief, s["scores"][thief] - e["penalty"])
    s["called"] = s["called"] + [e["caller"]]


def _cheat_call_failed(s, e):
    c = e["caller"]
    if e["forfeit"] is not None:
        s["chands"] = set_at(s["chands"], c, _take(s["chands"][c], e["forfeit"]))
        s["cdisc"] = s["cdisc"] + [e["forfeit"]]
    s["called"] = s["called"] + [c]


def _solo_drawn(s, e):
    s["stack"] = s["stack"][1:]
    s["drawn"] = e["tile"]


def _kids_taken(s, e):
    if e["source"] == "stack":
        s["stack"] = s["stack"][1:]
    else:
        s["pool"] = _take(s["pool"], e["tile"])
    s["held"] = e["tile"]
    s["phase"] = "hold"


def _kids_pooled(s, e):
    s["held"] = None
    s["pool"] = s["pool"] + [e["tile"]]


def _kids_removed(s, e):
    c = creature_of_tile(s, e["tile"])
    _remove_tile_from_table(s, c["id"], e["tile"], [])
    s["pool"] = s["pool"] + [e["tile"]]


EVOLVE = {
    "GameStarted": _game_started,
    "TilesShuffled": _tiles_shuffled,
    "CardsShuffled": _cards_shuffled,
    "TilesDealt": _tiles_dealt,
    "TileDrawn": _tiles_dealt,
    "CardsDealt": _cards_dealt,
    "CardDrawn": _card_drawn,
    "TilesReshuffled": _tiles_reshuffled,
    "CardsReshuffled": _cards_reshuffled,
    "TilesRanOut": _tiles_ran_out,
    "TurnStarted": _turn_started,
    "PhaseChanged": _phase_set,
    "TilePlaced": _tile_placed,
    "TileDiscarded": _tile_discarded,
    "CreatureScored": _creature_scored,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
    "CardPlayed": _card_played,
    "ReactionAnswered": _reaction_answered,
    "CardBlocked": _card_blocked,
    "CardAttached": _card_attached,
    "TilesSwapped": _tiles_swapped,
    "TileStolen": _tile_stolen,
    "InstantDrawn": _instant_drawn,
    "InstantFizzled": _instant_fizzled,
    "InstantKept": _instant_kept,
    "OutOfTurnPassed": _out_of_turn_passed,
    "OrderSet": _order_set,
    "TileVanished": _tile_vanished,
    "CheatSafe": _cheat_safe,
    "CheatCaught": _cheat_caught,
    "CheatCallFailed": _cheat_call_failed,
    "SoloTileDrawn": _solo_drawn,
    "TileTaken": _kids_taken,
    "TilePooled": _kids_pooled,
    "TileRemoved": _kids_removed,
}


def colours_of(tile: int) -> tuple:
    return T_COLOURS[tile]
