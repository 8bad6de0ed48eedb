"""Bridges, Castles & Bazaars: the bazaar (after the turn; the published rules as JCZ plays them).

When a bazaar tile is placed (not one bought at a bazaar, nor while bazaar tiles are
still to be played, nor with fewer tiles left than seats), after the turn (after a
builder's extra tile) as many tiles as seats are drawn and shown (``BazaarOpened``).
Then, auction after auction, a host (first the seat left of the active seat, then the
next seat without a tile) picks one of the tiles and opens with a bid (0 or more); each
other seat without a tile, in turn, raises or passes, once; the host then buys it at
the highest bid (paying the bidder; nothing if the host's own bid stood, it goes to the
bank) or sells it to the bidder (who pays the host). The last seat without a tile takes
the last tile for nothing. Each seat then plays its tile at its next turn instead of
drawing, in turn order from the first host (an unplaceable one is removed and the seat
draws). One decision ``bazaar`` a seat at a time (strict): pick, bid, or buy/sell.
Defaults: the first tile at 0; pass; sell when someone else bid.

Bids are whole points from 0 to 99 (``bazaar_bid_cap`` = ``none``: a finite list of
moves needs a ceiling, [HOUSE]) or to the bidder's own score (``current_score``).
With ``allow_negative_scores`` = false nobody pays points it does not have ([HOUSE]):
a bid is at most the bidder's score (and 99), and the host may buy only when its score
covers the highest bid (else it sells; ``buy`` is refused, ``not_enough_points``).

``bazaar_mode`` = ``draft``: no bids. Each host in the same order (first the seat left
of the active seat, then the next seat without a tile) picks one of the tiles left
(``bazaar N``, ``BazaarTileDrafted``; default the first tile left); no points change;
the last seat takes the last tile; the tiles are played as after an auction.
"""
from __future__ import annotations

from ....i18n import _
from ....base import IllegalMove
from ...base_rules import placeable
from ...orient import TILES
from ...rules import Turn
from ...segwords import is_int
from .tiles import BAZAAR, EXPANSION
from ..ext_state import part_of, with_part

MOVE = "bazaar"
CEILING = 99


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def put(state, **changes):
    return with_part(state, EXPANSION, **changes)


def auction(state):
    return mine(state).get("auction")


def held(state) -> dict:
    return mine(state).get("held") or {}


# -- the trigger ------------------------------------------------------------------------------


def note(turn: Turn) -> None:
    """Step 3: a bazaar tile placed now calls a bazaar after the turn."""
    m = turn.move
    if not m or m.get("type") not in ("place_tile",):
        return
    st = turn.state
    letter = st.board[st.placed[-1]][0].split("~")[0]
    if BAZAAR not in TILES[letter].tags or mine(st).get("from_bazaar") or held(st) or auction(st):
        return
    turn.emit({"type": "BazaarCalled", "player": turn.player})


def note_discarded(turn: Turn, letter: str) -> None:
    """Step 2 (``Rules.on_discard``): a drawn bazaar tile that fits nowhere and is removed
    still calls a bazaar after the turn with ``unplaceable_bazaar`` = ``auction`` (the
    published text: the bazaar is held when the tile is drawn, placed or not); with
    ``discard`` (as JCloisterZone plays it, and the games begun before carcassonne@2, whose
    options lack the key) it is removed with no bazaar. The same conditions as a placed one."""
    st = turn.state
    if st.options.get("unplaceable_bazaar", "discard") != "auction":
        return
    if BAZAAR not in TILES[letter.split("~")[0]].tags or mine(st).get("from_bazaar") or held(st) \
            or auction(st) or mine(st).get("called"):
        return
    turn.emit({"type": "BazaarCalled", "player": turn.player, "discarded": letter})


def _pile_size(state) -> int:
    return len(state.order) if state.order is not None else sum(state.pile.values())


def _draw(state, rng, n) -> list:
    if state.order is not None:
        return list(state.order[:n])
    pile = state.pile.copy()
    out = []
    for _i in range(n):
        letters = sorted((k, v) for k, v in pile.items() if v > 0)
        r = rng.randrange(sum(v for _k, v in letters))
        for letter, v in letters:
            if r < v:
                break
            r -= v
        out.append(letter)
        pile[letter] -= 1
    return out


def hold(turn: Turn) -> None:
    """After the turn (late in step 9): open a called bazaar, or answer its decisions."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == MOVE:
        _answer(turn, m)
        return
    if not mine(st).get("called") or turn.next_player == turn.player:
        return                           # not called, or a builder's extra tile comes first
    n = st.players
    if _pile_size(st) < n:
        turn.emit({"type": "BazaarCancelled", "reason": "fewer tiles left than seats"})
        return
    opened = {"type": "BazaarOpened", "tiles": _draw(st, turn.rng, n), "host": (turn.player + 1) % n}
    if _draft(st):
        opened["draft"] = True           # the text says who chooses first, not who hosts
    turn.emit(opened)
    _next_host(turn)


def _next_host(turn: Turn) -> None:
    a = auction(turn.state)
    owners = a["owners"]
    free = [i for i, o in enumerate(owners) if o is None]
    without = [p for p in range(turn.state.players) if p not in owners]
    if len(free) == 1:
        turn.emit({"type": "BazaarTileTakenFree", "player": without[0], "tile": free[0]})
        turn.emit({"type": "BazaarClosed"})
        return
    if turn.state.options.get("bazaar_mode", "auction") == "draft":
        turn.emit({"type": "BazaarHostOwed", "player": a["host"], "draft": True})
        return
    turn.emit({"type": "BazaarHostOwed", "player": a["host"]})


def _bidders(state, host) -> list:
    owners = auction(state)["owners"]
    n = state.players
    return [(host + k) % n for k in range(1, n) if (host + k) % n not in owners]


def _cap(state, player) -> int:
    if state.options.get("bazaar_bid_cap", "none") == "current_score":
        return max(0, state.scores[player])
    if not state.options.get("allow_negative_scores", True):
        return min(CEILING, max(0, state.scores[player]))    # [HOUSE] no bid one cannot pay
    return CEILING


def _draft(state) -> bool:
    return state.options.get("bazaar_mode", "auction") == "draft"


def _can_buy(state, player) -> bool:
    """The host may pay the highest bid (always, unless ``allow_negative_scores`` is false)."""
    return state.options.get("allow_negative_scores", True) or state.scores[player] >= auction(state)["price"]


def legal_bazaar(state, player: int) -> list:
    if state.over or state.pending.get(player) != MOVE:
        return []
    a = auction(state)
    if a["phase"] == "pick" and _draft(state):
        return [{"type": MOVE, "tile": i} for i, o in enumerate(a["owners"]) if o is None]
    cap = _cap(state, player)
    if a["phase"] == "pick":
        return [{"type": MOVE, "tile": i, "bid": b}
                for i, o in enumerate(a["owners"]) if o is None for b in range(cap + 1)]
    if a["phase"] == "bid":
        return [{"type": MOVE, "pass": True},
                *({"type": MOVE, "bid": b} for b in range(a["price"] + 1, cap + 1))]
    if not _can_buy(state, player):
        return [{"type": MOVE, "deal": "sell"}]
    return [{"type": MOVE, "deal": "sell"}, {"type": MOVE, "deal": "buy"}]


def _short(state, player: int, move: dict) -> None:
    """``allow_negative_scores`` = false: a bid or a purchase the seat cannot pay."""
    if state.options.get("allow_negative_scores", True):
        return
    score = state.scores[player]
    a = auction(state)
    if a["phase"] == "deal" and move.get("deal") == "buy" and not _can_buy(state, player):
        raise IllegalMove("not_enough_points", _("you have {score} points and cannot pay the bid of "
                                                 "{price}: sell", score=score, price=a['price']))
    bid = move.get("bid")
    if not is_int(bid) or bid <= score:
        return
    if bid > CEILING and state.options.get("bazaar_bid_cap", "none") != "current_score":
        return                                   # over the ceiling anyway: a bad bid
    if a["phase"] == "pick":
        tile = move["tile"]
        fair = 0 <= tile < len(a["owners"]) and a["owners"][tile] is None
    else:
        fair = bid > a["price"]
    if fair:
        raise IllegalMove("not_enough_points", _("you have {score} points: you cannot bid {bid}", score=score, bid=bid))


def validate_bazaar(state, player: int, move: dict) -> dict:
    a = auction(state)
    keys = set(move)
    if a["phase"] == "pick" and _draft(state):
        if keys != {"type", "tile"} or not is_int(move["tile"]) or move not in legal_bazaar(state, player):
            free = ", ".join(str(i) for i, o in enumerate(a["owners"]) if o is None)
            raise IllegalMove("bad_bid", _("at the bazaar now: bazaar N, one of the tiles left "
                                           "({free}); no bids", free=free))
        return dict(move)
    if a["phase"] == "pick":
        ok = keys == {"type", "tile", "bid"} and is_int(move["tile"]) and is_int(move["bid"])
    elif a["phase"] == "bid":
        ok = (keys == {"type", "pass"} and move["pass"] is True) or (keys == {"type", "bid"} and is_int(move["bid"]))
    else:
        ok = keys == {"type", "deal"} and move["deal"] in ("buy", "sell")
    bad = not ok or move not in legal_bazaar(state, player)
    if bad and ok:
        _short(state, player, move)
    if bad:
        expected = {"pick": "bazaar N bid B (a free tile, a bid from 0)",
                    "bid": f"bid B (more than {a.get('price')}) or pass", "deal": "buy | sell"}[a["phase"]]
        raise IllegalMove("bad_bid", _("at the bazaar now: {expected}", expected=expected))
    return dict(move)


def _answer(turn: Turn, m: dict) -> None:
    st = turn.state
    a = auction(st)
    mover = turn.mover
    if a["phase"] == "pick" and "bid" not in m:          # bazaar_mode = draft
        turn.emit({"type": "BazaarTileDrafted", "player": mover, "tile": m["tile"]})
        _after(turn, mover)
        return
    if a["phase"] == "pick":
        turn.emit({"type": "BazaarTilePicked", "player": mover, "tile": m["tile"], "bid": m["bid"]})
    elif a["phase"] == "bid":
        if m.get("pass"):
            turn.emit({"type": "BazaarBidPassed", "player": mover})
        else:
            turn.emit({"type": "BazaarBid", "player": mover, "bid": m["bid"]})
    else:
        _deal(turn, m["deal"] == "buy")
        return
    a = auction(turn.state)
    if a["bidders"]:
        turn.emit({"type": "BazaarBidOwed", "player": a["bidders"][0]})
    elif a["bidder"] == a["host"]:
        _deal(turn, True)
    else:
        turn.emit({"type": "BazaarDealOwed", "player": a["host"]})


def _deal(turn: Turn, buy: bool) -> None:
    a = auction(turn.state)
    host, bidder, price = a["host"], a["bidder"], a["price"]
    turn.emit({"type": "BazaarDealt", "host": host, "bidder": bidder, "price": price, "buy": buy,
               "tile": a["tile"], "player": host if buy else bidder})
    _after(turn, host)


def _after(turn: Turn, host: int) -> None:
    """A tile has its owner: the next host is the next seat after ``host`` without a tile."""
    n = turn.state.players
    owners = auction(turn.state)["owners"]
    nxt = next(((host + k) % n for k in range(1, n + 1) if (host + k) % n not in owners), None)
    turn.emit({"type": "BazaarNextHost", "host": nxt})
    _next_host(turn)


# -- playing the tiles --------------------------------------------------------------------------


def take(turn: Turn) -> None:
    """Start of a turn: a seat holding a bazaar tile plays it instead of drawing."""
    st = turn.state
    if st.tile is not None or st.pending or turn.player not in {int(k) for k in held(st)}:
        return
    letter = held(st)[str(turn.player)]
    turn.emit({"type": "BazaarTileTaken", "player": turn.player, "tile": letter})
    if not placeable(turn.state, letter):
        turn.emit({"type": "TileDiscarded", "player": turn.player, "tile": letter})


# -- evolvers -------------------------------------------------------------------------------------


def _called(state, event):
    return put(state, called=True)


def _cancelled(state, event):
    return put(state, called=False)


def _opened(state, event):
    tiles = list(event["tiles"])
    pile = state.pile.copy()
    for letter in tiles:
        left = pile.get(letter, 0) - 1
        if left > 0:
            pile[letter] = left
        else:
            pile.pop(letter, None)
    new = put(state, called=False, auction={"tiles": tiles, "owners": [None] * len(tiles), "host": event["host"],
                                            "phase": "pick", "tile": None, "price": None, "bidder": None,
                                            "bidders": [], "first_host": event["host"]})
    new.pile = pile
    if state.order is not None:
        new.order = state.order[len(tiles):]
    return new


def _owed(phase):
    def evolve(state, event):
        new = put(state, auction={**auction(state), "phase": phase})
        new.pending = {event["player"]: MOVE}
        new.step = "end_turn"
        return new
    return evolve


def _picked(state, event):
    a = auction(state)
    new = put(state, auction={**a, "tile": event["tile"], "price": event["bid"], "bidder": event["player"],
                              "bidders": _bidders(state, a["host"])})
    new.pending = {}
    return new


def _bid(state, event):
    a = auction(state)
    new = put(state, auction={**a, "price": event["bid"], "bidder": event["player"], "bidders": a["bidders"][1:]})
    new.pending = {}
    return new


def _passed(state, event):
    a = auction(state)
    new = put(state, auction={**a, "bidders": a["bidders"][1:]})
    new.pending = {}
    return new


def _dealt(state, event):
    a = auction(state)
    owners = list(a["owners"])
    owners[event["tile"]] = event["player"]
    new = put(state, auction={**a, "owners": owners, "tile": None, "price": None, "bidder": None, "bidders": []})
    new.pending = {}
    host, bidder, price = event["host"], event["bidder"], event["price"]
    delta = [0] * state.players
    if event["buy"]:
        delta[host] -= price
        if bidder != host:
            delta[bidder] += price
    else:
        delta[host] += price
        delta[bidder] -= price
    if any(delta):
        new.scores = tuple(s + d for s, d in zip(state.scores, delta))
        tally = dict(state.tally)
        row = tally.get(EXPANSION, (0,) * state.players)
        tally[EXPANSION] = tuple(r + d for r, d in zip(row, delta))
        new.tally = tally
    return new


def _drafted(state, event):
    a = auction(state)
    owners = list(a["owners"])
    owners[event["tile"]] = event["player"]
    new = put(state, auction={**a, "owners": owners})
    new.pending = {}
    return new


def _next(state, event):
    return put(state, auction={**auction(state), "host": event["host"]})


def _free(state, event):
    a = auction(state)
    owners = list(a["owners"])
    owners[event["tile"]] = event["player"]
    return put(state, auction={**a, "owners": owners})


def _closed(state, event):
    a = auction(state)
    return put(state, auction=None, held={str(p): a["tiles"][i] for i, p in enumerate(a["owners"])})


def _taken(state, event):
    new = put(state, held={k: v for k, v in held(state).items() if k != str(event["player"])},
              from_bazaar=True)
    new.tile = event["tile"]
    new.active = event["player"]
    new.pending = {event["player"]: "place_tile"}
    new.step = "place_tile"
    return new


def drawn(base):
    """Wrap the TileDrawn evolver: a tile from the pile again clears the bazaar mark."""
    def evolve(state, event):
        new = base(state, event)
        return put(new, from_bazaar=False) if mine(state).get("from_bazaar") else new
    return evolve


EVOLVERS = {"BazaarCalled": _called, "BazaarCancelled": _cancelled, "BazaarOpened": _opened,
            "BazaarHostOwed": _owed("pick"), "BazaarBidOwed": _owed("bid"), "BazaarDealOwed": _owed("deal"),
            "BazaarTilePicked": _picked, "BazaarBid": _bid, "BazaarBidPassed": _passed, "BazaarDealt": _dealt,
            "BazaarTileDrafted": _drafted,
            "BazaarNextHost": _next, "BazaarTileTakenFree": _free, "BazaarClosed": _closed,
            "BazaarTileTaken": _taken}
