"""Bridges, Castles & Bazaars: text notation, event sentences, views and the text board.

The help's lines (``notation.help_for``):

    place X,Y rR bridge X2,Y2 NS      a bridge N-S (or WE) with the placement,
                                      on that tile or next to it, before
                                      the figure (... NS follower road N)
    castle X,Y city N | no castle     when offered: the city becomes a castle,
                                      or not
    castle points X,Y road W          when your castle may score one of
                                      several features: the one it scores,
                                      named by a segment of it
    bazaar N bid B                    when you host: tile N (from 0), your bid
    bazaar N                          the draft (bazaar_mode draft): when you
                                      choose, tile N (from 0), no bid
    bid B | pass                      when it is your bid
    buy | sell                        the host's choice after the bids
"""
from __future__ import annotations

import re

from ....base import ParseError
from ...notation import EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, describe_move, parse_move
from ...segwords import XY, segment_words
from . import bazaar, castles
from .bridges import left as bridges_left

_BRIDGE = re.compile(r"^(.*?)\s+bridge\s+" + XY + r"\s+(ns|we|n-s|w-e|sn|ew)\b\s*(.*)$", re.IGNORECASE)
_CASTLE = re.compile(r"^\s*castle\s+" + XY + r"\s+(.*?)\s*$", re.IGNORECASE)
_CASTLE_POINTS = re.compile(r"^\s*castle\s+(?:points|scores?)\s+" + XY + r"\s+(.*?)\s*$", re.IGNORECASE)
_NO_CASTLE = re.compile(r"^\s*(?:no\s+castle|castle\s+(?:no|none|pass))\s*$", re.IGNORECASE)
_PICK = re.compile(r"^\s*bazaar\s+(\d+)\s+bid\s+(\d+)\s*$", re.IGNORECASE)
_DRAFT = re.compile(r"^\s*bazaar\s+(\d+)\s*$", re.IGNORECASE)
_BID = re.compile(r"^\s*(?:bid\s+(\d+)|(pass|no\s+bid))\s*$", re.IGNORECASE)
_DEAL = re.compile(r"^\s*(buy|sell)\s*$", re.IGNORECASE)
_AXES = {"ns": "NS", "n-s": "NS", "sn": "NS", "we": "WE", "w-e": "WE", "ew": "WE"}


def parse(game, text: str, state, player):
    t = text.replace("\u2212", "-")
    owed = state.pending.get(player) if state is not None else None
    m = _BRIDGE.match(t)
    if m and re.match(r"^\s*(?:place|play|put|tile)?\s*\(?\s*-?\d", m.group(1), re.IGNORECASE):
        head = m.group(1) + (" " + m.group(5) if m.group(5) else "")
        move = parse_move(game, head, state, player)
        move["bridge"] = [int(m.group(2)), int(m.group(3)), _AXES[m.group(4).lower()]]
        return move
    m = _CASTLE_POINTS.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        label, rest = segment_words(m.group(3).lower().split(), state, (x, y))
        if label is None or rest:
            raise ParseError("bad_castle_feature", "name the feature by a segment of it: castle points X,Y road W",
                             expected="castle points X,Y road W",
                             examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]]
                             or ["castle points 1,0 road W"])
        return {"type": castles.CHOOSE, "x": x, "y": y, "on": label}
    if _NO_CASTLE.match(t):
        return {"type": castles.CASTLE, "pass": True}
    m = _CASTLE.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        label, rest = segment_words(m.group(3).lower().split(), state, (x, y))
        if label is None or rest:
            raise ParseError("bad_castle", "name the city: castle X,Y city N", expected="castle X,Y city N | no castle",
                             examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]] or ["no castle"])
        return {"type": castles.CASTLE, "x": x, "y": y, "on": label}
    if owed == bazaar.MOVE:
        m = _PICK.match(t)
        if m:
            return {"type": bazaar.MOVE, "tile": int(m.group(1)), "bid": int(m.group(2))}
        m = _DRAFT.match(t)
        if m and state.options.get("bazaar_mode", "auction") == "draft":
            return {"type": bazaar.MOVE, "tile": int(m.group(1))}
        m = _BID.match(t)
        if m:
            return {"type": bazaar.MOVE, "pass": True} if m.group(2) else {"type": bazaar.MOVE, "bid": int(m.group(1))}
        m = _DEAL.match(t)
        if m:
            return {"type": bazaar.MOVE, "deal": m.group(1).lower()}
    if t.strip().lower().startswith(("bazaar", "bid ")):
        if state is not None and state.options.get("bazaar_mode", "auction") == "draft":
            raise ParseError("bad_bid", "at the bazaar (the draft, no bids): bazaar N", expected="bazaar N",
                             examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]]
                             or ["bazaar 0"])
        raise ParseError("bad_bid", "at the bazaar: bazaar N bid B, bid B, pass, buy or sell",
                         expected="bazaar N bid B | bid B | pass | buy | sell",
                         examples=[game.describe(mv) for mv in game.legal_moves(state, player)[:4]] or ["pass"])
    return None


def describe_place(move: dict) -> str:
    """The placement with its bridge: the bridge before the figure."""
    if "bridge" not in move:
        return describe_move(move)
    x, y, axis = move["bridge"]
    plain = describe_move({k: v for k, v in move.items() if k not in ("bridge", "figure", "on")})
    figure = describe_move(move)[len(plain):]
    return f"{plain} bridge {x},{y} {axis}{figure}"


def describe_castle(move: dict) -> str:
    return "no castle" if move.get("pass") else f"castle {move.get('x')},{move.get('y')} {move.get('on')}"


def describe_choice(move: dict) -> str:
    return f"castle points {move.get('x')},{move.get('y')} {move.get('on')}"


def describe_bazaar(move: dict) -> str:
    if "tile" in move:
        return f"bazaar {move['tile']}" if "bid" not in move else f"bazaar {move['tile']} bid {move['bid']}"
    if move.get("pass"):
        return "pass"
    if "bid" in move:
        return f"bid {move['bid']}"
    return str(move.get("deal"))


MOVE_TEXTS["place_tile"] = describe_place      # the same text as before for a move without a bridge
MOVE_TEXTS[castles.CASTLE] = describe_castle
MOVE_TEXTS[castles.CHOOSE] = describe_choice
MOVE_TEXTS[bazaar.MOVE] = describe_bazaar
EVENT_TEXTS.update(
    BridgeBuilt=lambda e: f"seat {e['player']} builds a bridge {e['axis']} at {e['x']},{e['y']}.",
    CastleOffered=lambda e: f"seat {e['player']} may turn the city ({e['on']} at {e['x']},{e['y']}) into a castle.",
    CastleDeclined=lambda e: f"seat {e['player']} keeps the city as a city.",
    CastleBuilt=lambda e: f"seat {e['player']}'s knight holds a castle at {e['x']},{e['y']} ({e['on']}).",
    CastleFeatureOffered=lambda e: (f"seat {e['player']} is to choose what the castle at {e['x']},{e['y']} scores: "
                                    + "; ".join(f"{on} at {x},{y} ({p} points)" for x, y, on, p in e["options"])
                                    + "."),
    CastleFeatureChosen=lambda e: (f"seat {e['player']}'s castle scores the {e['on']} at {e['x']},{e['y']} "
                                   f"({e['points']} points)."),
    CastleScored=lambda e: f"The castle at {e['x']},{e['y']}: {e['points']} points to seat {e['player']}.",
    BazaarCalled=lambda e: f"seat {e['player']} placed a bazaar: a bazaar follows the turn.",
    BazaarCancelled=lambda e: f"No bazaar: {e['reason']}.",
    BazaarOpened=lambda e: "The bazaar shows " + ", ".join(f"{i}: {t}" for i, t in enumerate(e["tiles"]))
                           + (f"; seat {e['host']} chooses first." if e.get("draft") else f"; seat {e['host']} hosts first."),
    BazaarHostOwed=lambda e: (f"seat {e['player']} is to choose a tile (the draft: no bids)." if e.get("draft") else
                              f"seat {e['player']} is to host: pick a tile and bid."),
    BazaarTileDrafted=lambda e: f"seat {e['player']} takes tile {e['tile']}.",
    BazaarTilePicked=lambda e: f"seat {e['player']} offers tile {e['tile']}, bidding {e['bid']}.",
    BazaarBidOwed=lambda e: f"seat {e['player']} may bid or pass.",
    BazaarBid=lambda e: f"seat {e['player']} bids {e['bid']}.",
    BazaarBidPassed=lambda e: f"seat {e['player']} passes.",
    BazaarDealOwed=lambda e: f"seat {e['player']} is to buy the tile or sell it.",
    BazaarDealt=lambda e: (f"seat {e['host']} buys tile {e['tile']} for {e['price']}" if e["buy"] else
                           f"seat {e['host']} sells tile {e['tile']} to seat {e['bidder']} for {e['price']}") + ".",
    BazaarNextHost=lambda e: "" if e["host"] is None else f"seat {e['host']} hosts next.",
    BazaarTileTakenFree=lambda e: f"seat {e['player']} takes the last tile, tile {e['tile']}, for nothing.",
    BazaarClosed=lambda e: "The bazaar closes: the tiles are played from the first host on.",
    BazaarTileTaken=lambda e: f"seat {e['player']} plays the bazaar tile {e['tile']}.",
)


def view(state, viewer, view: dict) -> None:
    m = castles.mine(state)
    view["bridges"] = [bridges_left(state, p) for p in range(state.players)]
    view["castles"] = list(m["castles_left"])
    view["castles_built"] = [{k: c[k] for k in ("player", "x", "y", "on", "tiles", "scored")}
                             for c in m.get("castles") or ()]
    view["castle_decision"] = None if not m.get("offer") else dict(zip(("player", "x", "y", "on"), m["offer"]))
    ch = m.get("choice")
    view["castle_feature_decision"] = None if not ch else {
        "player": m["castles"][ch["index"]]["player"], "x": ch["x"], "y": ch["y"], "on": ch["on"],
        "options": [{"x": x, "y": y, "on": on, "points": p} for x, y, on, p in ch["options"]]}
    a = bazaar.auction(state)
    view["bazaar"] = None if not a else {
        "mode": state.options.get("bazaar_mode", "auction"),
        "tiles": list(a["tiles"]), "owners": list(a["owners"]), "host": a["host"], "phase": a["phase"],
        "tile": a["tile"], "price": a["price"], "bidder": a["bidder"]}
    held = bazaar.held(state)
    view["bazaar_tiles"] = [held.get(str(p)) for p in range(state.players)]


def render(state, viewer) -> list:
    m = castles.mine(state)
    lines = ["Bridges, castles in supply: " + ", ".join(
        f"seat {p} {bridges_left(state, p)}/{m['castles_left'][p]}" for p in range(state.players))]
    built = [f"{c['x']},{c['y']} seat {c['player']}" + (" (scored)" if c["scored"] else "")
             for c in m.get("castles") or ()]
    if built:
        lines.append("Castles: " + "; ".join(built))
    a = bazaar.auction(state)
    if a:
        lines.append("Bazaar: " + ", ".join(f"{i}: {t}" + ("" if a["owners"][i] is None else f" (seat {a['owners'][i]})")
                                            for i, t in enumerate(a["tiles"]))
                     + (f"; tile {a['tile']} at {a['price']} (seat {a['bidder']})" if a["tile"] is not None else ""))
    if bazaar.held(state):
        lines.append("Bazaar tiles to play: " + ", ".join(f"seat {k} {v}" for k, v in sorted(bazaar.held(state).items())))
    return lines


def _owed_bazaar(state, player: int) -> str:
    """What the seat owing the bazaar's decision may do now, by the auction's phase."""
    a = bazaar.auction(state)
    free = ", ".join(str(i) for i, o in enumerate(a["owners"]) if o is None)
    if a["phase"] == "pick" and state.options.get("bazaar_mode", "auction") == "draft":
        return f"chooses a tile at the bazaar (the draft, no bids): bazaar N (N: {free})"
    if a["phase"] == "pick":
        return (f"hosts the bazaar: picks a tile and bids for it, bazaar N bid B (N: {free}; "
                f"B: 0 to {bazaar._cap(state, player)})")
    if a["phase"] == "bid":
        return (f"may outbid seat {a['bidder']}'s {a['price']} for tile {a['tile']}: bid B (more than "
                f"{a['price']}), or pass")
    return (f"buys tile {a['tile']} for {a['price']} points (paid to seat {a['bidder']}), or sells it to "
            f"seat {a['bidder']} for {a['price']} points: buy, sell")


def _owed_castle(state, player: int) -> str:
    _p, x, y, on = castles.mine(state)["offer"]
    return f"may turn the city ({on} at {x},{y}) into a castle: castle {x},{y} {on}, or no castle"


def _owed_castle_feature(state, player: int) -> str:
    ch = castles.mine(state)["choice"]
    return (f"chooses what the castle at {ch['x']},{ch['y']} scores: "
            + "; ".join(f"castle points {x},{y} {on} ({p} points)" for x, y, on, p in ch["options"]))


OWED_TEXTS.update(castle=_owed_castle, choose_castle_feature=_owed_castle_feature, bazaar=_owed_bazaar)
