"""Bridges, Castles & Bazaars: text notation, event sentences, views and the text board.

The notation, as the help (``notation.EXPANSION_TEXT["bridges_castles_bazaars"]``, in the reader's
language: ``words.localize``) lists it:

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

from ....i18n import N_, _
from ...notation import (EVENT_TEXTS, MOVE_TEXTS, OWED_TEXTS, at, describe_move, examples_now, parse_error,
                         parse_move, points, seat, segment)
from ...segwords import XY, segment_words
from ...words import localize
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
            raise parse_error("bad_castle_feature", _("name the feature by a segment of it: {move}",
                                                      move=localize("castle points X,Y road W")),
                              "castle points X,Y road W", examples_now(game, state, player, ["castle points 1,0 road W"]))
        return {"type": castles.CHOOSE, "x": x, "y": y, "on": label}
    if _NO_CASTLE.match(t):
        return {"type": castles.CASTLE, "pass": True}
    m = _CASTLE.match(t)
    if m:
        x, y = int(m.group(1)), int(m.group(2))
        label, rest = segment_words(m.group(3).lower().split(), state, (x, y))
        if label is None or rest:
            raise parse_error("bad_castle", _("name the city: {move}", move=localize("castle X,Y city N")),
                              "castle X,Y city N | no castle", examples_now(game, state, player, ["no castle"]))
        return {"type": castles.CASTLE, "x": x, "y": y, "on": label}
    # the bazaar's words are read whenever they are typed (the rules refuse them out of the
    # bazaar); a bare "pass" only while the bazaar is owed (else it declines something else)
    m = _PICK.match(t)
    if m:
        return {"type": bazaar.MOVE, "tile": int(m.group(1)), "bid": int(m.group(2))}
    m = _DRAFT.match(t)
    if m and state is not None and state.options.get("bazaar_mode", "auction") == "draft":
        return {"type": bazaar.MOVE, "tile": int(m.group(1))}
    m = _BID.match(t)
    if m and (m.group(1) or owed == bazaar.MOVE):
        return {"type": bazaar.MOVE, "pass": True} if m.group(2) else {"type": bazaar.MOVE, "bid": int(m.group(1))}
    m = _DEAL.match(t)
    if m:
        return {"type": bazaar.MOVE, "deal": m.group(1).lower()}
    if t.strip().lower().startswith(("bazaar", "bid ")):
        if state is not None and state.options.get("bazaar_mode", "auction") == "draft":
            raise parse_error("bad_bid", _("at the bazaar (the draft, no bids): {move}", move=localize("bazaar N")),
                              "bazaar N", examples_now(game, state, player, ["bazaar 0"]))
        raise parse_error("bad_bid", _("at the bazaar: {moves}", moves=localize(
            "bazaar N bid B | bid B | pass | buy | sell")), "bazaar N bid B | bid B | pass | buy | sell",
            examples_now(game, state, player, ["pass"]))
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
#: why a bazaar does not open
CANCEL_REASONS = {"fewer tiles left than seats": N_("fewer tiles are left than there are players")}


def _feature_offered(e) -> str:
    return _("{player} is to choose what the castle at {at} scores: {list}.", player=seat(e["player"]),
             at=at(e["x"], e["y"]), list=_("; ").join(
                 _("{on} at {at} ({points})", on=segment(on), at=at(x, y), points=points(p))
                 for x, y, on, p in e["options"]))


def _opened(e) -> str:
    shown = ", ".join(f"{i}: {t}" for i, t in enumerate(e["tiles"]))
    if e.get("draft"):
        return _("The bazaar shows {tiles}; {player} chooses first.", tiles=shown, player=seat(e["host"]))
    return _("The bazaar shows {tiles}; {player} hosts first.", tiles=shown, player=seat(e["host"]))


def _dealt(e) -> str:
    if e["buy"]:
        return _("{host} buys tile {tile} for {points}.", host=seat(e["host"]), tile=e["tile"],
                 points=points(e["price"]))
    return _("{host} sells tile {tile} to {bidder} for {points}.", host=seat(e["host"]), tile=e["tile"],
             bidder=seat(e["bidder"]), points=points(e["price"]))


EVENT_TEXTS.update(
    BridgeBuilt=lambda e: _("{player} builds a bridge {axis} at {at}.", player=seat(e["player"]),
                            axis=_("north-south") if e["axis"] == "NS" else _("west-east"), at=at(e["x"], e["y"])),
    CastleOffered=lambda e: _("{player} may turn the city ({on} at {at}) into a castle.", player=seat(e["player"]),
                              on=segment(e["on"]), at=at(e["x"], e["y"])),
    CastleDeclined=lambda e: _("{player} keeps the city as a city.", player=seat(e["player"])),
    CastleBuilt=lambda e: _("{player}'s knight holds a castle at {at} ({on}).", player=seat(e["player"]),
                            at=at(e["x"], e["y"]), on=segment(e["on"])),
    CastleFeatureOffered=_feature_offered,
    CastleFeatureChosen=lambda e: _("{player}'s castle scores the {on} at {at} ({points}).",
                                    player=seat(e["player"]), on=segment(e["on"]), at=at(e["x"], e["y"]),
                                    points=points(e["points"])),
    CastleScored=lambda e: _("The castle at {at}: {points} to {player}.", at=at(e["x"], e["y"]),
                             points=points(e["points"]), player=seat(e["player"])),
    BazaarCalled=lambda e: (_("{player} drew a bazaar tile that fits nowhere: it is removed, and a bazaar follows "
                              "the turn.", player=seat(e["player"])) if e.get("discarded") else
                            _("{player} placed a bazaar: a bazaar follows the turn.", player=seat(e["player"]))),
    BazaarCancelled=lambda e: _("No bazaar: {reason}.", reason=_(CANCEL_REASONS[e["reason"]])
                                if e["reason"] in CANCEL_REASONS else e["reason"]),
    BazaarOpened=_opened,
    BazaarHostOwed=lambda e: (_("{player} is to choose a tile (the draft: no bids).", player=seat(e["player"]))
                              if e.get("draft") else
                              _("{player} is to host: pick a tile and bid.", player=seat(e["player"]))),
    BazaarTileDrafted=lambda e: _("{player} takes tile {tile}.", player=seat(e["player"]), tile=e["tile"]),
    BazaarTilePicked=lambda e: _("{player} offers tile {tile}, bidding {bid}.", player=seat(e["player"]),
                                 tile=e["tile"], bid=e["bid"]),
    BazaarBidOwed=lambda e: _("{player} may bid or pass.", player=seat(e["player"])),
    BazaarBid=lambda e: _("{player} bids {bid}.", player=seat(e["player"]), bid=e["bid"]),
    BazaarBidPassed=lambda e: _("{player} passes.", player=seat(e["player"])),
    BazaarDealOwed=lambda e: _("{player} is to buy the tile or sell it.", player=seat(e["player"])),
    BazaarDealt=_dealt,
    BazaarNextHost=lambda e: "" if e["host"] is None else _("{player} hosts next.", player=seat(e["host"])),
    BazaarTileTakenFree=lambda e: _("{player} takes the last tile, tile {tile}, for nothing.",
                                    player=seat(e["player"]), tile=e["tile"]),
    BazaarClosed=lambda e: _("The bazaar closes: the tiles are played from the first host on."),
    BazaarTileTaken=lambda e: _("{player} plays the bazaar tile {tile}.", player=seat(e["player"]), tile=e["tile"]),
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
    lines = [_("Bridges and castles in supply: {list}", list=_(", ").join(
        _("{player} {bridges}/{castles}", player=seat(p), bridges=bridges_left(state, p),
          castles=m["castles_left"][p]) for p in range(state.players)))]
    built = [_("{at} {player} (scored)", at=at(c["x"], c["y"]), player=seat(c["player"])) if c["scored"] else
             _("{at} {player}", at=at(c["x"], c["y"]), player=seat(c["player"])) for c in m.get("castles") or ()]
    if built:
        lines.append(_("Castles: {list}", list=_("; ").join(built)))
    a = bazaar.auction(state)
    if a:
        shown = ", ".join(f"{i}: {t}" if a["owners"][i] is None else
                          _("{index}: {tile} ({player})", index=i, tile=t, player=seat(a["owners"][i]))
                          for i, t in enumerate(a["tiles"]))
        lines.append(_("Bazaar: {tiles}; tile {tile} at {price} ({player})", tiles=shown, tile=a["tile"],
                       price=a["price"], player=seat(a["bidder"])) if a["tile"] is not None else
                     _("Bazaar: {tiles}", tiles=shown))
    if bazaar.held(state):
        lines.append(_("Bazaar tiles to play: {list}", list=_(", ").join(
            _("{player} {tile}", player=seat(int(k)), tile=v) for k, v in sorted(bazaar.held(state).items()))))
    return lines


def _owed_bazaar(state, player: int) -> str:
    """What the seat owing the bazaar's decision may do now, by the auction's phase."""
    a = bazaar.auction(state)
    free = ", ".join(str(i) for i, o in enumerate(a["owners"]) if o is None)
    if a["phase"] == "pick" and state.options.get("bazaar_mode", "auction") == "draft":
        return _("chooses a tile at the bazaar (the draft, no bids): {move} (N: {free})", move=localize("bazaar N"),
                 free=free)
    if a["phase"] == "pick":
        return _("hosts the bazaar: picks a tile and bids for it, {move} (N: {free}; B: 0 to {cap})",
                 move=localize("bazaar N bid B"), free=free, cap=bazaar._cap(state, player))
    if a["phase"] == "bid":
        return _("may outbid {bidder}'s {price} for tile {tile}: {move} (more than {price}), or {none}",
                 bidder=seat(a["bidder"]), price=a["price"], tile=a["tile"], move=localize("bid B"),
                 none=localize("pass"))
    return _("buys tile {tile} for {points} (paid to {bidder}), or sells it to {bidder} for {points}: {moves}",
             tile=a["tile"], points=points(a["price"]), bidder=seat(a["bidder"]),
             moves=", ".join(localize(w) for w in ("buy", "sell")))


def _owed_castle(state, player: int) -> str:
    _p, x, y, on = castles.mine(state)["offer"]
    return _("may turn the city ({on} at {at}) into a castle: {move}, or {none}", on=segment(on), at=at(x, y),
             move=localize(f"castle {x},{y} {on}"), none=localize("no castle"))


def _owed_castle_feature(state, player: int) -> str:
    ch = castles.mine(state)["choice"]
    return _("chooses what the castle at {at} scores: {moves}", at=at(ch["x"], ch["y"]), moves=_("; ").join(
        _("{move} ({points})", move=localize(f"castle points {x},{y} {on}"), points=points(p))
        for x, y, on, p in ch["options"]))


OWED_TEXTS.update(castle=_owed_castle, choose_castle_feature=_owed_castle_feature, bazaar=_owed_bazaar)
