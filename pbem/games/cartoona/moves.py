"""Cartoona legal moves and decisions (``decide``) for every mode.

Every move type has a generator listing its legal instances; ``decide``
accepts a move only if it is one of them (compared canonically), so the
legal list and the validation can never disagree.
"""
from __future__ import annotations

from itertools import combinations

from ..base import IllegalMove, canonical
from ..i18n import CHINESE, _, language
from . import creatures as cr
from .data import (
    C_KIND, CHEAT_PENALTY, POINT_KINDS, T_COLOURS, T_PART, T_VARIANT,
)
from .rules import (
    BLOCK_ORDERS, ORDERS, creature_of_tile, creature_points, evolve, pending_cards, same_team,
    table_tiles, team_game, team_score,
)

# ---------------------------------------------------------------- who acts


def anytime(s) -> list:
    """Seats other than the active one who may still act out of turn now."""
    a = s["active"]
    used, passed, orders = s["used"], s["passed"], s["orders"]
    return [q for q in range(s["n"])
            if q != a and q not in used and q not in passed and "always_pass" not in orders[q]]


def to_act(s) -> frozenset:
    if s["end"] is not None:
        return frozenset()
    if s["mode"] == "full":
        if s["window"] is not None:
            return frozenset(s["window"]["pending"])
        if s["instant"] is not None:
            return frozenset((s["instant"]["player"],))
        return frozenset([s["active"], *anytime(s)])
    return frozenset((s["active"],))


def free_phase(s) -> bool:
    return s["window"] is None and s["instant"] is None


# ---------------------------------------------------------------- placement


def can_build_on(s, p: int, c) -> bool:
    if c["owner"] == p:
        return True
    return team_game(s) and s["mode"] in ("full", "basic_team") and same_team(s, p, c["owner"])


def unfinished(s, p: int) -> int:
    counts_completed = s["opts"]["limit_counts_completed"]
    k = 0
    for c in s["cre"].values():
        if c["owner"] != p or "single" in c["tiles"]:
            continue
        if counts_completed or not cr.is_complete(c["tiles"]):
            k += 1
    return k


def creature_limit(s) -> int:
    return 1 if team_game(s) else 2


def placements(s, p: int, tile: int) -> list:
    """Lists of creature ids the tile may plug into ([] = a new creature)."""
    if T_PART[tile] == "single":
        return [[]]
    if s["mode"] == "kids":
        own = [c for c in s["cre"].values() if c["owner"] == p]
        if not own:
            return [[]]
        return [[own[0]["id"]]] if cr.fits(tile, own[0]["tiles"]) else []
    targets = [c for c in sorted(s["cre"].values(), key=lambda c: c["id"])
               if can_build_on(s, p, c) and cr.fits(tile, c["tiles"])]
    out = [[c["id"]] for c in targets]
    if len(targets) > 1 and s["opts"]["allow_creature_merge"]:
        for size in range(2, len(targets) + 1):
            for combo in combinations(targets, size):
                union = {T_PART[tile]: tile}
                ok = True
                for c in combo:
                    for part, t in c["tiles"].items():
                        if part in union:
                            ok = False
                            break
                        union[part] = t
                    if not ok:
                        break
                if ok and cr.consistent(union):
                    out.append([c["id"] for c in combo])
    if unfinished(s, p) < creature_limit(s):
        out.append([])
    return out


def solo_options(s, tile: int) -> list:
    """(colour, target) pairs for the solo game's drawn tile; target is None
    (must start), a creature id (may place or discard) or "discard"."""
    out = []
    for colour in T_COLOURS[tile]:
        mine = [c for c in s["cre"].values() if c.get("colour") == colour]
        if not mine:
            out.append((colour, None))
        elif cr.fits(tile, mine[0]["tiles"]):
            out.append((colour, mine[0]["id"]))
        else:
            out.append((colour, "discard"))
    return out


# ---------------------------------------------------------------- scoring


def scoreable(s, p: int) -> list:
    """Lists of creature ids ``p`` may score now (singles may be combined)."""
    any_member = s["opts"]["team_any_member_scores"]
    normal, own_singles, team_singles = [], [], []
    for c in sorted(s["cre"].values(), key=lambda c: c["id"]):
        mine = c["owner"] == p or (any_member and team_game(s) and same_team(s, p, c["owner"]))
        if "single" in c["tiles"]:
            if mine:
                own_singles.append(c["id"])
            elif team_game(s) and same_team(s, p, c["owner"]):
                team_singles.append(c["id"])
        elif mine and cr.is_complete(c["tiles"]):
            normal.append([c["id"]])
    out = list(normal)
    pool = sorted(own_singles + team_singles)
    for size in range(1, min(3, len(pool)) + 1):
        for combo in combinations(pool, size):
            if any(x in own_singles for x in combo):
                out.append(list(combo))
    return out


def score_event(s, p: int, ids: list) -> dict:
    parts, cards, singles = [], [], 0
    for cid in ids:
        c = s["cre"][str(cid)]
        parts.append(creature_points(s, c)["total"])
        singles += "single" in c["tiles"]
        for t in c["tiles"].values():
            cards.extend(s["att"].get(str(t), ()))
    bonus = cr.singles_bonus(singles)
    return {"type": "CreatureScored", "player": p, "creatures": list(ids), "each": parts,
            "bonus": bonus, "points": sum(parts) + bonus, "cards": cards}


# ---------------------------------------------------------------- generators


def g_place(s, p):
    mode = s["mode"]
    if mode == "full":
        if s["window"] is not None:
            return []
        if s["instant"] is not None:
            if s["instant"]["player"] != p:
                return []
            t = s["instant"]["tile"]
            return [{"type": "place_tile", "tile": t, "creatures": cs} for cs in placements(s, p, t)]
        if p != s["active"] or s["placed"]:
            return []
    elif mode in ("basic", "basic_team"):
        if p != s["active"] or s["phase"] != "place":
            return []
    elif mode == "solo":
        t = s["drawn"]
        if t is None:
            return []
        out = []
        for colour, target in solo_options(s, t):
            if target is None:
                out.append({"type": "place_tile", "tile": t, "creatures": [], "colour": colour})
            elif target != "discard":
                out.append({"type": "place_tile", "tile": t, "creatures": [target], "colour": colour})
        return out
    else:  # kids
        if s["phase"] != "hold" or p != s["active"]:
            return []
        t = s["held"]
        return [{"type": "place_tile", "tile": t, "creatures": cs} for cs in placements(s, p, t)]
    out = []
    for t in s["hands"][p]:
        for cs in placements(s, p, t):
            out.append({"type": "place_tile", "tile": t, "creatures": cs})
    return out


def g_discard(s, p):
    if s["mode"] == "basic" and s["phase"] == "discard" and p == s["active"]:
        return [{"type": "discard_tile", "tile": t} for t in s["hands"][p]]
    if s["mode"] == "solo" and s["drawn"] is not None:
        t = s["drawn"]
        return [{"type": "discard_tile", "tile": t, "colour": colour}
                for colour, target in solo_options(s, t) if target is not None]
    return []


def g_score(s, p):
    if p != s["active"]:
        return []
    if s["mode"] == "full":
        if not free_phase(s):
            return []
    elif s["mode"] not in ("basic", "basic_team") or s["phase"] not in ("place", "discard", "finish"):
        return []
    return [{"type": "score", "creatures": ids} for ids in scoreable(s, p)]


def g_end(s, p):
    if p != s["active"]:
        return []
    if s["mode"] == "full":
        return [{"type": "end_turn"}] if free_phase(s) else []
    if s["mode"] in ("basic", "basic_team") and s["phase"] == "finish":
        return [{"type": "end_turn"}]
    return []


def g_pass(s, p):
    mode = s["mode"]
    if mode == "full":
        w = s["window"]
        if w is not None:
            return [{"type": "pass"}] if p in w["pending"] else []
        if s["instant"] is None and p != s["active"] and p in anytime(s):
            return [{"type": "pass"}]
        return []
    if mode in ("basic", "basic_team") and s["phase"] == "place" and p == s["active"] \
            and not s["opts"]["basic_must_place"]:
        return [{"type": "pass"}]
    return []


def usable_cards(s, p):
    pend = pending_cards(s, p) if s["thefts"] else ()
    return [c for c in s["chands"][p] if c not in pend]


def g_block(s, p):
    w = s["window"]
    if s["mode"] != "full" or w is None or p not in w["pending"]:
        return []
    return [{"type": "block", "card": c} for c in usable_cards(s, p) if C_KIND[c] == "block"]


def g_keep(s, p):
    if s["mode"] == "full" and s["window"] is None and s["instant"] is not None and s["instant"]["player"] == p:
        return [{"type": "keep"}]
    return []


def card_moves(s, p, card):
    kind = C_KIND[card]
    if kind in POINT_KINDS or kind == "special":
        return [{"type": "play_card", "card": card, "tile": t} for t, _c in table_tiles(s)]
    if kind == "instant":
        return [{"type": "play_card", "card": card}]
    if kind == "steal":
        return [{"type": "play_card", "card": card, "tile": t}
                for t, c in table_tiles(s) if not same_team(s, p, c["owner"])]
    if kind == "swap":
        tiles = table_tiles(s)
        mine = [t for t, c in tiles if same_team(s, p, c["owner"])]
        theirs = [t for t, c in tiles if not same_team(s, p, c["owner"])]
        return [{"type": "play_card", "card": card, "tile": m, "with": o}
                for m in mine for o in theirs if T_VARIANT[m] == T_VARIANT[o]]
    return []


def g_play(s, p):
    if s["mode"] != "full" or not free_phase(s):
        return []
    if p == s["active"]:
        if s["played"]:
            return []
        kinds = None
    elif p in anytime(s):
        kinds = ("instant", "special")
    else:
        return []
    out = []
    for c in usable_cards(s, p):
        if kinds is None or C_KIND[c] in kinds:
            out.extend(card_moves(s, p, c))
    return out


def can_act_freely(s, p) -> bool:
    return s["mode"] == "full" and free_phase(s) and (p == s["active"] or p in anytime(s))


def g_cheat(s, p):
    o = s["opts"]
    if not o["cheat_cards"] or not can_act_freely(s, p):
        return []
    if any(th["thief"] == p for th in s["thefts"]):
        return []
    if o["cheat_timing"] == "own_turn" and (p != s["active"] or s["played"]):
        return []
    cards = [c for c in usable_cards(s, p) if C_KIND[c] == "cheat"]
    if o["allow_bluff_steal"]:
        cards.append(None)
    if not cards:
        return []
    return [{"type": "cheat", "tile": t, "card": c}
            for t, cre in table_tiles(s) if not same_team(s, p, cre["owner"]) for c in cards]


def g_call(s, p):
    o = s["opts"]
    if not o["cheat_cards"] or not s["thefts"] or p in s["called"] or not can_act_freely(s, p):
        return []
    forfeits = [None]
    if o["false_call_penalty"] == "discard_one":
        forfeits = usable_cards(s, p) or [None]
    return [{"type": "call_cheat", "target": q, "forfeit": f}
            for q in range(s["n"]) if not same_team(s, p, q) for f in forfeits]


def g_order(s, p):
    if not can_act_freely(s, p):
        return []
    mine = s["orders"][p]
    return [{"type": "set_order", "order": o, "on": o not in mine} for o in ORDERS]


def g_draw(s, p):
    if s["mode"] == "kids" and s["phase"] == "take" and p == s["active"] and s["stack"]:
        return [{"type": "draw"}]
    return []


def g_take(s, p):
    if s["mode"] == "kids" and s["phase"] == "take" and p == s["active"]:
        return [{"type": "take", "tile": t} for t in s["pool"]]
    return []


def g_pool(s, p):
    if s["mode"] == "kids" and s["phase"] == "hold" and p == s["active"]:
        return [{"type": "pool_tile"}]
    return []


def g_remove(s, p):
    if s["mode"] == "kids" and s["phase"] == "take" and p == s["active"]:
        own = [c for c in s["cre"].values() if c["owner"] == p]
        if own:
            return [{"type": "remove_tile", "tile": t} for t in cr.leaves(own[0]["tiles"])]
    return []


GENERATORS = {
    "place_tile": g_place, "discard_tile": g_discard, "score": g_score, "end_turn": g_end,
    "pass": g_pass, "play_card": g_play, "block": g_block, "keep": g_keep, "cheat": g_cheat,
    "call_cheat": g_call, "set_order": g_order, "draw": g_draw, "take": g_take,
    "pool_tile": g_pool, "remove_tile": g_remove,
}
MODE_TYPES = {
    "full": ("place_tile", "play_card", "score", "end_turn", "pass", "block", "keep", "cheat",
             "call_cheat", "set_order"),
    "basic": ("place_tile", "discard_tile", "score", "end_turn", "pass"),
    "basic_team": ("place_tile", "score", "end_turn", "pass"),
    "solo": ("place_tile", "discard_tile"),
    "kids": ("draw", "take", "remove_tile", "place_tile", "pool_tile"),
}


def legal_moves(s, p) -> list:
    if s["end"] is not None or p not in to_act(s):
        return []
    out = []
    for kind in MODE_TYPES[s["mode"]]:
        out.extend(GENERATORS[kind](s, p))
    return out


# ---------------------------------------------------------------- decide


class Emitter:
    """Collects events and keeps the state they lead to."""

    def __init__(self, s, rng):
        self.s = s
        self.rng = rng
        self.events = []

    def __call__(self, e):
        self.events.append(e)
        self.s = evolve(self.s, e)


def validate(s, p, move):
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("malformed_move", _("A move is an object with a string “type”."))
    kind = move["type"]
    if kind not in MODE_TYPES[s["mode"]]:
        raise IllegalMove("unknown_move", _("This way to play Cartoona has no move “{kind}”; its moves: {moves}.",
                                            kind=kind, moves=", ".join(MODE_TYPES[s["mode"]])))
    legal = GENERATORS[kind](s, p)
    wanted = canonical(move)
    for candidate in legal:
        if canonical(candidate) == wanted:
            return candidate
    # Refused: say why in words, and what may be done, as it is typed.
    from . import refusals
    from .notation import describe_move
    now = legal_moves(s, p)
    of_kind = legal or now
    examples = []
    for m in of_kind[:3] + [m for m in now if m["type"] != kind][:2]:
        text = describe_move(m)
        if text not in examples:
            examples.append(text)
    try:
        why = (refusals.not_now(s, p, kind, blocks_out_of_turn(s)) if not legal
               else refusals.illegal(s, p, move, legal))
    except Exception:  # noqa: BLE001 - a move of any shape gets a refusal, never a crash
        why = _("it is not one of the legal moves")
    hint = _("For example: {moves}.", moves="; ".join(examples)) if examples else ""
    if not legal:
        raise IllegalMove("not_now", sentences(_("You cannot {doing} now: {why}.", doing=refusals.doing(kind),
                                                 why=why), hint), examples=examples)
    raise IllegalMove(f"illegal_{kind}", sentences(_("You cannot {doing} that way: {why}.",
                                                     doing=refusals.doing(kind), why=why), hint),
                      move=move, examples=examples)


def sentences(*parts) -> str:
    """Whole sentences one after another (Chinese sets no space between)."""
    return ("" if language() == CHINESE else " ").join(p for p in parts if p)


def decide(s, p, move, rng):
    move = validate(s, p, move)
    em = Emitter(s, rng)
    HANDLERS[move["type"]](em, p, move)
    return em.events


def next_seat(s):
    return (s["active"] + 1) % s["n"]


def begin_turn(em, p):
    s = em.s
    turn = s["turn"] + 1
    mode = s["mode"]
    if mode == "full":
        em({"type": "TurnStarted", "player": p, "turn": turn})
        for th in em.s["thefts"]:
            if th["thief"] == p:
                ev = {"type": "CheatSafe", "thief": p, "theft": th["id"], "tile": th["tile"],
                      "with_card": th["card"] is not None}
                if th["card"] is not None:
                    ev["secret"] = {"card": th["card"]}
                    ev["to"] = [p]
                em(ev)
        draw_tiles(em, p, 1, reshuffle=True)
        s = em.s
        if not s["deck"] and (s["cdisc"] or s["cdown"]):
            order = s["cdisc"] + s["cdown"]
            em.rng.shuffle(order)
            em({"type": "CardsReshuffled", "count": len(order), "secret": {"order": order}, "to": []})
        if em.s["deck"]:
            em({"type": "CardDrawn", "player": p, "secret": {"card": em.s["deck"][0]}, "to": [p]})
    elif mode in ("basic", "basic_team"):
        em({"type": "TurnStarted", "player": p, "turn": turn, "phase": "place"})
        draw_tiles(em, p, 2 if mode == "basic" else 1, reshuffle=False)
        if not g_place(em.s, p):
            finish_or_end(em, p)
    elif mode == "solo":
        em({"type": "TurnStarted", "player": p, "turn": turn, "phase": "solo"})
        em({"type": "SoloTileDrawn", "player": p, "tile": em.s["stack"][0]})
    else:
        em({"type": "TurnStarted", "player": p, "turn": turn, "phase": "take"})
        s = em.s
        if not (g_draw(s, p) or g_take(s, p) or g_remove(s, p)):
            end_turn_flow(em)


def draw_tiles(em, p, k, reshuffle):
    s = em.s
    if reshuffle and not s["stack"] and s["tdisc"]:
        order = list(s["tdisc"])
        em.rng.shuffle(order)
        em({"type": "TilesReshuffled", "count": len(order), "secret": {"order": order}, "to": []})
        s = em.s
    k = min(k, len(s["stack"]))
    if k:
        em({"type": "TileDrawn", "player": p, "count": k, "secret": {"tiles": s["stack"][:k]}, "to": [p]})
    elif s["mode"] == "full":
        em({"type": "TilesRanOut", "player": p})


def finish_or_end(em, p):
    if scoreable(em.s, p):
        em({"type": "PhaseChanged", "phase": "finish"})
    else:
        end_turn_flow(em)


def end_turn_flow(em):
    s = em.s
    p = s["active"]
    em({"type": "TurnEnded", "player": p})
    s = em.s
    mode = s["mode"]
    if mode in ("full", "basic", "basic_team") and s["last"]:
        em({"type": "GameEnded", "reason": "tiles_ran_out" if mode == "full" else "last_tile_drawn"})
        return
    if mode == "kids":
        o = s["opts"]
        if s["n"] == 1 and s["turn"] >= o["kids_solo_turn_limit"]:
            em({"type": "GameEnded", "reason": "kids_time_up", "winner": None})
            return
        if s["n"] > 1 and o["kids_turn_limit"] and s["turn"] >= o["kids_turn_limit"] * s["n"]:
            em({"type": "GameEnded", "reason": "kids_time_up", "winner": None})
            return
    begin_turn(em, next_seat(s))


# -- handlers


def h_place(em, p, move):
    s = em.s
    tile, cs = move["tile"], move["creatures"]
    ev = {"type": "TilePlaced", "player": p, "tile": tile, "creatures": cs,
          "creature": cs[0] if cs else s["next_cid"]}
    mode = s["mode"]
    if mode == "full" and s["instant"] is not None:
        ev["free"] = True
    if mode == "solo":
        ev["colour"] = move["colour"]
        ev["from"] = "drawn"
    if mode == "kids":
        ev["from"] = "held"
    em(ev)
    s = em.s
    c = s["cre"][str(ev["creature"])]
    if mode in ("basic", "basic_team"):
        if s["opts"]["basic_auto_score"] and "single" not in c["tiles"] and cr.is_complete(c["tiles"]):
            sc = score_event(s, c["owner"], [c["id"]])
            if c["owner"] != p:
                sc["by"] = p
            em(sc)
        if mode == "basic" and em.s["hands"][p]:
            em({"type": "PhaseChanged", "phase": "discard"})
        else:
            finish_or_end(em, p)
    elif mode == "solo":
        solo_after(em)
    elif mode == "kids":
        if kids_goal(s, c):
            em({"type": "GameEnded", "reason": "kids_target", "winner": p})
        else:
            end_turn_flow(em)


def solo_after(em):
    s = em.s
    done = {c.get("colour") for c in s["cre"].values() if cr.is_complete(c["tiles"])}
    if done >= {"Y", "B", "M", "P"}:
        em({"type": "GameEnded", "reason": "solo_won", "won": True})
    elif not s["stack"]:
        em({"type": "GameEnded", "reason": "solo_stack_empty", "won": False})
    else:
        begin_turn(em, 0)


def kids_goal(s, c) -> bool:
    tiles = c["tiles"]
    if not cr.is_complete(tiles):
        return False
    kind, _sep, arg = s["opts"]["kids_target"].partition(":")
    if kind == "min_tiles":
        return len(tiles) >= int(arg or 4)
    if kind == "single_colour":
        return bool(cr.common_colours(tiles))
    return all(part in tiles for part in arg.split(","))


def h_discard(em, p, move):
    if em.s["mode"] == "solo":
        em({"type": "TileDiscarded", "player": p, "tile": move["tile"], "colour": move["colour"], "from": "drawn"})
        solo_after(em)
        return
    em({"type": "TileDiscarded", "player": p, "secret": {"tile": move["tile"]}, "to": [p]})
    finish_or_end(em, p)


def h_score(em, p, move):
    s = em.s
    em(score_event(s, p, move["creatures"]))
    s = em.s
    if s["mode"] == "full":
        if team_score(s, p) >= s["opts"]["target_score"]:
            em({"type": "GameEnded", "reason": "target", "winner": p})
    elif s["phase"] == "finish" and not scoreable(s, p):
        end_turn_flow(em)


def h_end(em, p, move):
    end_turn_flow(em)


def h_pass(em, p, move):
    s = em.s
    if s["mode"] == "full":
        if s["window"] is not None:
            answer(em, p, None)
        else:
            em({"type": "OutOfTurnPassed", "player": p})
    else:
        finish_or_end(em, p)


def h_block(em, p, move):
    answer(em, p, move["card"])


def answer(em, p, card):
    w = em.s["window"]
    em({"type": "ReactionAnswered", "player": p, "window": w["id"], "secret": {"block": card}, "to": [p]})
    if not em.s["window"]["pending"]:
        resolve(em)


def target_owner(s, w):
    key = "with" if w["kind"] == "swap" else "tile"
    c = creature_of_tile(s, w[key]) if key in w else None
    return None if c is None else c["owner"]


def auto_block(s, q, w, owner):
    order = BLOCK_ORDERS.get(w["kind"])
    if order is None or order not in s["orders"][q] or owner is None or not same_team(s, q, owner):
        return None
    blocks = [c for c in usable_cards(s, q) if C_KIND[c] == "block"]
    return blocks[0] if blocks else None


def blocks_out_of_turn(s) -> bool:
    """Whether a Block may answer a card out of its player's turn: the
    digest's reading (cartoona@1, whose options lack the key, and the
    ``block_out_of_turn`` option). The source (the default since
    cartoona@2): only Instant and Special cards are played out of turn, so
    only the active player may block, an Instant or Special another seat
    played during its turn."""
    return s["opts"].get("block_out_of_turn", True)


def window_seats(s, p, card, move):
    """Who may react to a card (eligible) and who must answer by hand (responders)."""
    kind = C_KIND[card]
    eligible = []
    out_of_turn = blocks_out_of_turn(s)
    for k in range(1, s["n"]):
        q = (p + k) % s["n"]
        if same_team(s, p, q):
            continue
        if q == s["active"]:
            if s["played"]:
                continue
        elif q in s["used"] or not out_of_turn:
            continue
        eligible.append(q)
    w = {"kind": kind, **{k: move[k] for k in ("tile", "with") if k in move}}
    owner = target_owner(s, w)
    responders = []
    for q in eligible:
        order = BLOCK_ORDERS.get(kind)
        applies = order in s["orders"][q] and owner is not None and same_team(s, q, owner)
        if not applies and "always_pass" not in s["orders"][q]:
            responders.append(q)
    return eligible, responders


def h_play(em, p, move):
    s = em.s
    card = move["card"]
    eligible, responders = window_seats(s, p, card, move)
    ev = {"type": "CardPlayed", "player": p, "card": card, "kind": C_KIND[card], "window": s["next_window"]}
    for k in ("tile", "with"):
        if k in move:
            ev[k] = move[k]
    ev["eligible"] = eligible
    ev["responders"] = responders
    em(ev)
    if not responders:
        resolve(em)


def resolve(em):
    s = em.s
    w = s["window"]
    owner = target_owner(s, w)
    for q in w["eligible"]:
        key = str(q)
        block = w["answers"][key] if key in w["answers"] else auto_block(s, q, w, owner)
        if block is not None:
            em({"type": "CardBlocked", "player": w["player"], "card": w["card"], "by": q, "block": block})
            return
    p, card, kind = w["player"], w["card"], w["kind"]
    if kind in POINT_KINDS or kind == "special":
        em({"type": "CardAttached", "player": p, "card": card, "tile": w["tile"]})
    elif kind == "steal":
        c = creature_of_tile(s, w["tile"])
        em({"type": "TileStolen", "player": p, "card": card, "tile": w["tile"], "creature": c["id"],
            "victim": c["owner"], "dropped": list(s["att"].get(str(w["tile"]), ()))})
    elif kind == "swap":
        a, b = creature_of_tile(s, w["tile"]), creature_of_tile(s, w["with"])
        em({"type": "TilesSwapped", "player": p, "card": card, "tile": w["tile"], "with": w["with"],
            "creatures": [a["id"], b["id"]]})
    elif kind == "instant":
        if not s["stack"] and s["tdisc"]:
            order = list(s["tdisc"])
            em.rng.shuffle(order)
            em({"type": "TilesReshuffled", "count": len(order), "secret": {"order": order}, "to": []})
        if em.s["stack"]:
            em({"type": "InstantDrawn", "player": p, "card": card,
                "secret": {"tile": em.s["stack"][0]}, "to": [p]})
        else:
            em({"type": "InstantFizzled", "player": p, "card": card})


def h_keep(em, p, move):
    em({"type": "InstantKept", "player": p})


def h_cheat(em, p, move):
    s = em.s
    tile = move["tile"]
    c = creature_of_tile(s, tile)
    em({"type": "TileVanished", "theft": s["next_theft"], "tile": tile, "creature": c["id"],
        "victim": c["owner"], "dropped": list(s["att"].get(str(tile), ())),
        "secret": {"thief": p, "card": move["card"]}, "to": [p]})


def h_call(em, p, move):
    s = em.s
    q = move["target"]
    theft = next((th for th in s["thefts"] if th["thief"] == q), None)
    if theft is None:
        em({"type": "CheatCallFailed", "caller": p, "target": q, "forfeit": move["forfeit"]})
        return
    tile = theft["tile"]
    c = s["cre"].get(str(theft["creature"]))
    back = c["id"] if c is not None and cr.fits(tile, c["tiles"]) else None
    bluff = theft["card"] is None
    discarded = [x for x in s["chands"][q]] if bluff else []
    em({"type": "CheatCaught", "caller": p, "thief": q, "theft": theft["id"], "tile": tile,
        "card": theft["card"], "back": back, "to_hand": None if back is not None else theft["victim"],
        "penalty": CHEAT_PENALTY if bluff else 0, "discarded": discarded})


def h_order(em, p, move):
    em({"type": "OrderSet", "player": p, "order": move["order"], "on": move["on"]})


def h_draw(em, p, move):
    em({"type": "TileTaken", "player": p, "tile": em.s["stack"][0], "source": "stack"})


def h_take(em, p, move):
    em({"type": "TileTaken", "player": p, "tile": move["tile"], "source": "pool"})


def h_pool(em, p, move):
    em({"type": "TilePooled", "player": p, "tile": em.s["held"]})
    end_turn_flow(em)


def h_remove(em, p, move):
    em({"type": "TileRemoved", "player": p, "tile": move["tile"]})
    end_turn_flow(em)


HANDLERS = {
    "place_tile": h_place, "discard_tile": h_discard, "score": h_score, "end_turn": h_end,
    "pass": h_pass, "play_card": h_play, "block": h_block, "keep": h_keep, "cheat": h_cheat,
    "call_cheat": h_call, "set_order": h_order, "draw": h_draw, "take": h_take,
    "pool_tile": h_pool, "remove_tile": h_remove,
}
