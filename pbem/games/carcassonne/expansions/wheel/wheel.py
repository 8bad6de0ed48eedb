"""The Wheel of Fortune's rules (rules digest §3.9; house data in ``data.py``).

* **Step 2.2** (``spin``, a handler of ``draw_tile`` after the draw): a drawn tile
  with a wheel number turns the big pink pig clockwise by that many sectors; the
  event of the sector it lands on is resolved, then the followers on that sector's
  crown spaces score and go home; then the turn goes on (the tile is placed). A
  tile that fits nowhere is removed by the draw before it is kept, so it turns no
  wheel [HOUSE: the order of 2.2 and 2.3 matters only there].
* **Plague** is a decision of every seat with a follower on a land tile, all at once
  (the decision ``plague``, one window: ``window``): which of its followers goes
  home. Deadline default: the first legal answer, the follower on the latest
  placed tile.
* **Step 5** (the action ``wheel``): instead of a figure on the board, a follower
  from supply onto a free crown space of a sector.

The pig, the crowns and the Plague under way live in ``state.ext["wheel_of_fortune"]``:
``pig`` (a sector), ``crowns`` (sector -> a seat or None per crown space),
``spun`` (the pig turned for the tile in hand), ``plague`` (the seats still to
answer, or None).
"""
from __future__ import annotations

from ....base import IllegalMove
from ....i18n import _
from ...evolve import followers_returned
from ...features import label_of, occupied
from ...removal import return_stranded
from ...scoring import bordering_cities, majority
from ...segwords import is_int
from ...state import SEG_BITS
from ..ext_state import part_of, with_part
from .data import CROWNS, EXPANSION, FOLLOWERS, HOUSE, ICON_NUMBERS, KNIGHTS, SECTORS

PLAGUE = "plague"
EVENTS = HOUSE["events"]


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {
        "pig": HOUSE["start"], "crowns": {s: [None] * n for s, n in CROWNS.items() if n},
        "spun": False, "plague": None}}


def number_of(letter) -> int:
    """The wheel number a tile shows (0: none)."""
    if not letter:
        return 0
    return ICON_NUMBERS.get(letter.split("~", 1)[0], 0)


def landing(sector: str, number: int) -> str:
    return SECTORS[(SECTORS.index(sector) + number) % len(SECTORS)]


# -- who stands where ----------------------------------------------------------


def followers_of(state, player: int) -> list:
    """The seat's followers on land tiles (Plague's choices), the one on the latest
    placed tile first (the deadline default), then by cell and segment."""
    out = []
    for _fid, f in occupied(state):   # the features holding a figure
        for p, sid, figure in f.meeples:
            if p == player and figure in FOLLOWERS:
                x, y, label = label_of(state, sid)
                out.append((-(sid >> SEG_BITS), y, x, label, figure))
    out.sort()
    return [{"x": x, "y": y, "on": label, "figure": figure} for _n, y, x, label, figure in out]


def _tax(state) -> list:
    ev = EVENTS["tax"]
    pts = [0] * state.players
    for _fid, f in occupied(state):   # the features holding a figure
        if f.kind != "city" or not f.meeples:
            continue
        knights = [p for p, _s, fig in f.meeples if fig in KNIGHTS]
        pennants = (f.marks or {}).get("pennant", 0)
        for p in knights:
            pts[p] += ev["per_pennant"] * pennants + ev["per_own_knight"] * knights.count(p)
    return pts


def _famine(state) -> list:
    ev = EVENTS["famine"]
    pts = [0] * state.players
    for _fid, f in occupied(state):   # the features holding a figure
        if f.kind != "field" or not f.meeples:
            continue
        cities = bordering_cities(state, f)
        if not cities:
            continue
        worth = sum(ev["per_castle"] if (c.marks or {}).get("castle") else ev["per_city"] for c in cities)
        for p in majority(state, f):
            farmers = sum(1 for q, _s, fig in f.meeples if q == p and fig in KNIGHTS)
            pig = any(q == p and fig == "pig" for q, _s, fig in f.meeples)
            pts[p] += farmers * worth + (ev["pig_per_city"] * len(cities) if pig else 0)
    return pts


def _inquisition(state) -> list:
    pts = [0] * state.players
    for _fid, f in occupied(state):   # the features holding a figure
        if f.kind == "cloister" and not (f.marks or {}).get("shrine"):
            for p, _s, fig in f.meeples:
                if fig in KNIGHTS:
                    pts[p] += EVENTS["inquisition"]["per_monk"]
    return pts


def event_points(state, sector: str, active: int) -> list:
    """Points per seat of a sector's event (Plague: none)."""
    if sector == "fortune":
        return [EVENTS["fortune"]["active"] if p == active else 0 for p in range(state.players)]
    if sector == "tax":
        return _tax(state)
    if sector == "famine":
        return _famine(state)
    if sector == "storm":
        return [EVENTS["storm"]["per_follower"] * n for n in state.supply]
    if sector == "inquisition":
        return _inquisition(state)
    return [0] * state.players


# -- step 2.2 ------------------------------------------------------------------


def spin(turn) -> None:
    """Step 2.2 (after the draw): turn the pig, resolve the event, score the crowns;
    also where a Plague answer comes back."""
    st = turn.state
    m = turn.move
    if m is not None and m.get("type") == PLAGUE:
        item = {"player": turn.mover, **{k: m[k] for k in ("x", "y", "on", "figure")}}
        turn.emit({"type": "FollowerPlagued", **item})
        return_stranded(turn)
        if mine(turn.state)["plague"]:
            return                      # the others still answer
        _crowns(turn)
        return
    if st.over or st.tile is None or mine(st).get("spun"):
        return
    number = number_of(st.tile)
    if not number:
        return
    old = mine(st)["pig"]
    sector = landing(old, number)
    turn.emit({"type": "WheelTurned", "player": turn.player, "tile": st.tile, "number": number,
               "previous": old, "sector": sector})
    if sector == PLAGUE:
        seats = [p for p in _from_active(turn) if followers_of(turn.state, p)]
        if seats:
            turn.emit({"type": "PlagueStruck", "players": seats})
            return
    else:
        pts = event_points(turn.state, sector, turn.player)
        if any(pts):
            turn.emit({"type": "WheelEventScored", "sector": sector, "points": pts})
    _crowns(turn)


def after_draw(draw):
    """The step 2 handler ``draw`` followed by step 2.2."""
    def draw_and_spin(turn) -> None:
        draw(turn)
        spin(turn)
    draw_and_spin.__doc__ = draw.__doc__
    return draw_and_spin


def _from_active(turn) -> list:
    n = turn.state.players
    return [(turn.player + i) % n for i in range(n)]


def _crowns(turn) -> None:
    w = mine(turn.state)
    sector = w["pig"]
    seats = [p for p in w["crowns"].get(sector, ()) if p is not None]
    if seats:
        turn.emit({"type": "CrownsScored", "sector": sector, "players": seats, "points": HOUSE["crown_points"]})


# -- the Plague decision ---------------------------------------------------------


def legal_plague(state, player: int) -> list:
    if state.over or state.pending.get(player) != PLAGUE:
        return []
    return [{"type": PLAGUE, **item} for item in followers_of(state, player)]


def validate_plague(state, player: int, move: dict) -> dict:
    if not set(move) <= {"type", "x", "y", "on", "figure"}:
        raise IllegalMove("malformed_move", _("the Plague's answer has the fields type, x, y, on and figure"))
    clean = {"type": PLAGUE, "x": move.get("x"), "y": move.get("y"), "on": move.get("on"),
             "figure": move.get("figure", "follower")}
    # true == 1 in Python: a boolean coordinate would match a follower at 1
    if not (is_int(clean["x"]) and is_int(clean["y"])) or clean not in legal_plague(state, player):
        raise IllegalMove("bad_plague", _("the Plague sends home one of your followers on a land tile: name it by its "
                                          "tile and segment (plague X,Y road E)"))
    return clean


# -- step 5: a follower on a crown space -------------------------------------------


def legal_crown(state, player: int) -> list:
    if state.supply[player] <= 0:
        return []
    crowns = mine(state)["crowns"]
    return [{"type": "action", "do": "wheel", "sector": s} for s in SECTORS if None in crowns.get(s, ())]


def exists_crown(state, player: int) -> bool:
    return state.supply[player] > 0 and any(None in c for c in mine(state)["crowns"].values())


def validate_crown(state, player: int, move: dict) -> dict:
    if set(move) != {"type", "do", "sector"}:
        raise IllegalMove("malformed_move", _("a follower on the Wheel is the action with the fields do and sector"))
    clean = {"type": "action", "do": "wheel", "sector": move.get("sector")}
    if clean not in legal_crown(state, player):
        raise IllegalMove("bad_crown", _("a follower from your supply goes on a free crown space of a sector "
                                         "(wheel tax, wheel famine, wheel storm, wheel inquisition, wheel plague)"))
    return clean


def run_crown(turn, move: dict) -> None:
    turn.emit({"type": "CrownTaken", "player": turn.player, "sector": move["sector"]})


# -- evolvers --------------------------------------------------------------------


def _turned(state, e):
    return with_part(state, EXPANSION, pig=e["sector"], spun=True)


def _placed(evolve):
    """TilePlaced also ends the pig's turn for that tile (the next drawn may turn it)."""
    def placed(state, e):
        new = evolve(state, e)
        return with_part(new, EXPANSION, spun=False) if mine(new).get("spun") else new
    return placed


def _scored(state, e):
    new = state.copy()
    scores = list(state.scores)
    row = list(state.tally.get("wheel", (0,) * state.players))
    for p, v in enumerate(e["points"]):
        scores[p] += v
        row[p] += v
    new.scores = tuple(scores)
    new.tally = {**state.tally, "wheel": tuple(row)}
    return new


def _struck(state, e):
    new = with_part(state, EXPANSION, plague=list(e["players"]))
    new.pending = {p: PLAGUE for p in e["players"]}
    new.step = "draw_tile"
    return new


def _plagued(state, e):
    item = {k: e[k] for k in ("player", "figure", "x", "y", "on")}
    new = followers_returned(state, {"followers": [item]})
    left = [p for p in mine(state)["plague"] if p != e["player"]]
    new = with_part(new, EXPANSION, plague=left or None)
    if left:
        new.pending = {p: PLAGUE for p in left}
    else:                                   # back to the placement of the tile in hand
        new.pending = {state.active: "place_tile"}
        new.step = "place_tile"
    return new


def _crowns_scored(state, e):
    pts = [0] * state.players
    for p in e["players"]:
        pts[p] += e["points"]
    new = _scored(state, {"points": pts})
    supply = list(new.supply)
    for p in e["players"]:
        supply[p] += 1
    new.supply = tuple(supply)
    crowns = dict(mine(state)["crowns"])
    crowns[e["sector"]] = [None] * len(crowns[e["sector"]])
    return with_part(new, EXPANSION, crowns=crowns)


def _crown_taken(state, e):
    crowns = dict(mine(state)["crowns"])
    row = list(crowns[e["sector"]])
    row[row.index(None)] = e["player"]
    crowns[e["sector"]] = row
    new = with_part(state, EXPANSION, crowns=crowns)
    supply = list(new.supply)
    supply[e["player"]] -= 1
    new.supply = tuple(supply)
    return new


EVOLVERS = {"WheelTurned": _turned, "WheelEventScored": _scored, "PlagueStruck": _struck,
            "FollowerPlagued": _plagued, "CrownsScored": _crowns_scored, "CrownTaken": _crown_taken}


def window(state):
    """The Plague is the one window: every seat owing it answers at once; one seat's
    answer removes only its own follower, so the others' choices stand."""
    plague = mine(state).get("plague") if EXPANSION in state.ext else None
    return ["plague", state.turn] if plague else None
