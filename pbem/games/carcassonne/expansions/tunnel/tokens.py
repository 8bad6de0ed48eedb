"""The Tunnel's tokens (rules digest §3.12): who holds which colour, the mouths still
free, the decision ``tunnel`` and what a token does to the roads.

* **Colours.** 6 colours, 2 tokens each. With 2 players each seat takes 3 colours, with
  3 players 2, with 4-6 one: seat ``p`` holds the colours ``p``, ``p + n``, ``p + 2n``
  while below 6 (seat 0 of 2: red, green, black; seat 1: blue, yellow, grey).
* **When.** [HOUSE] after step 3 and before step 6 (the figure phases done, before the
  dragon, the tower and the castles, so roads are joined before the scoring): if the
  active seat has a token left and a mouth is free (with
  ``tunnel_claim_requires_follower``: a mouth whose road holds one of its figures), it
  owes the decision ``tunnel``: one token on a free mouth, in a colour it holds, or
  none (the timeout default). One token a turn: a builder's extra tile (Traders &
  Builders) is the same turn, so it gets no decision after a token placed with the first
  tile; each other placement (a bazaar tile) is a turn of its own.
* **Joining.** A mouth is an open end of its road (``features.place_tile_into`` counts
  it) until the second token of its colour is placed: then the two roads become one
  feature and both mouths close. The road's tiles are counted once each, so only the
  visible segments score.

The tokens live in ``state.ext["tunnel"]["tokens"]``: ``[x, y, on, colour]`` in the
order placed; ``load`` joins the pairs again (``Rules.rejoin``) before the followers
go back, so a snapshot holds its features as the live state does.
"""
from __future__ import annotations

from ....base import IllegalMove
from ....i18n import N_, _
from ...features import _merge, label_of, sid_at
from ...orient import marked_segments, oriented
from ...rules import Turn
from ...scoring import feature_scored
from ...segwords import typed
from ..ext_state import part_of, with_part
from .tiles import EXPANSION

TUNNEL = "tunnel"
COLOURS = ("red", "blue", "green", "yellow", "black", "grey")
PER_COLOUR = 2
#: the colours as sentences name them (the notation's words are ``words.WORDS``)
COLOUR_NAMES = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
                "black": N_("black"), "grey": N_("grey")}


def colour_name(colour) -> str:
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else str(colour)


def mine(state) -> dict:
    return part_of(state, EXPANSION)


def colours_of(players: int, player: int) -> list:
    """The colour indices a seat holds (digest §3.12's table)."""
    each = 3 if players == 2 else 2 if players == 3 else 1
    return [c for c in (player + i * players for i in range(each)) if c < len(COLOURS)]


def placed_count(state) -> list:
    """Tokens placed per colour."""
    out = [0] * len(COLOURS)
    for _x, _y, _on, colour in mine(state).get("tokens") or ():
        out[COLOURS.index(colour)] += 1
    return out


def left(state, player: int) -> dict:
    """colour name -> tokens the seat still holds of it."""
    done = placed_count(state)
    return {COLOURS[c]: PER_COLOUR - done[c] for c in colours_of(state.players, player)}


def mouths(state) -> list:
    """(x, y, label) of every tunnel mouth on the board, cells by (y, x) (kept in
    ``state.ext``: the placements add theirs, ``placed``)."""
    return mine(state).get("mouths") or []


def mouth_segments(letter: str) -> tuple:
    """Indices of the tile's road segments that end at a tunnel mouth."""
    return marked_segments(letter, "road", "tunnel")


def placed(base):
    """Wrap the ``TilePlaced`` evolver: a tile with mouths adds them to the list."""
    def evolve(state, event):
        new = base(state, event)
        ks = mouth_segments(new.board[(event["x"], event["y"])][0])
        if not ks:
            return new
        letter, rot, _n = new.board[(event["x"], event["y"])]
        labels = oriented(letter, rot).labels
        found = [*mouths(new), *([event["x"], event["y"], labels[k]] for k in ks)]
        found.sort(key=lambda m: (m[1], m[0], m[2]))
        return with_part(new, EXPANSION, mouths=found)
    return evolve


def free_mouths(state, player: int) -> list:
    """The mouths the seat may claim now: no token on them (with
    ``tunnel_claim_requires_follower``: its road holds a figure of the seat)."""
    claimed = {(x, y, on) for x, y, on, _c in mine(state).get("tokens") or ()}
    need = state.options.get("tunnel_claim_requires_follower", False)
    out = []
    for x, y, on in mouths(state):
        if (x, y, on) in claimed:
            continue
        if need and not any(p == player for p, _s, _f in state.feature_of(sid_at(state, (x, y), on)).meeples):
            continue
        out.append((x, y, on))
    return out


def _may_place(state, player: int) -> bool:
    """Whether ``tunnel_moves`` lists anything (a token left and a free mouth), without
    listing: asked each time a decision runs step 6 (most turns offer nothing)."""
    mouths_now = mouths(state)
    if not mouths_now or not any(n > 0 for n in left(state, player).values()):
        return False
    return bool(free_mouths(state, player))


def tunnel_moves(state, player: int) -> list:
    colours = [c for c, n in left(state, player).items() if n > 0]
    if not colours:
        return []
    return [{"type": TUNNEL, "x": x, "y": y, "on": on, "colour": c}
            for x, y, on in free_mouths(state, player) for c in colours]


def legal_tunnel(state, player: int) -> list:
    if state.over or state.pending.get(player) != TUNNEL:
        return []
    return [{"type": TUNNEL, "pass": True}, *tunnel_moves(state, player)]


def validate_tunnel(state, player: int, move: dict) -> dict:
    if "pass" in move:
        if set(move) != {"type", "pass"} or move["pass"] is not True:
            raise IllegalMove("malformed_move", _('placing no tunnel token is {"type": "tunnel", "pass": true}'))
        return {"type": TUNNEL, "pass": True}
    if set(move) != {"type", "x", "y", "on", "colour"} or not typed(move, ints=("x", "y"),
                                                                       strs=("on", "colour")):
        raise IllegalMove("malformed_move", _("a tunnel token names its mouth and colour: x, y, on, colour "
                                              "(e.g. tunnel 1,0 road E red)"))
    colour = move["colour"]
    if colour not in COLOURS:
        raise IllegalMove("bad_tunnel", _("the colours are: {list}", list=", ".join(COLOURS)))
    if left(state, player).get(colour, 0) <= 0:
        raise IllegalMove("no_tunnel_token_left", _("you hold no {colour} tunnel token", colour=colour_name(colour)))
    sid = sid_at(state, (move["x"], move["y"]), move["on"])
    if sid is None:
        raise IllegalMove("bad_segment", _("there is no segment “{on}” at {x},{y}", on=move["on"],
                                           x=move["x"], y=move["y"]))
    x, y, label = label_of(state, sid)
    if (x, y, label) not in free_mouths(state, player):
        raise IllegalMove("bad_tunnel", _("{on} at {x},{y} is not a free tunnel mouth you may claim",
                                          on=label, x=x, y=y))
    return {"type": TUNNEL, "x": x, "y": y, "on": label, "colour": colour}


# -- the turn ---------------------------------------------------------------------------------


def offer(turn: Turn) -> None:
    """Before step 6: the answer to the decision, or the decision itself (once a tile)."""
    st = turn.state
    m = turn.move
    if m and m.get("type") == TUNNEL:
        # the rest of the turn runs as if it had not stopped here: its scratch data, and the
        # move that placed the tile (Traders & Builders: a builder placed with it does not
        # trigger in its own turn)
        turn.data = dict(mine(st).get("turn_data") or {})
        resumed = mine(st).get("turn_move")
        if m.get("pass"):
            turn.emit({"type": "TunnelDeclined", "player": turn.player})
        else:
            event = {"type": "TunnelTokenPlaced", "player": turn.player, "x": m["x"], "y": m["y"],
                     "on": m["on"], "colour": m["colour"]}
            first = _first_of(st, m["colour"])
            if first is not None:
                event["joins"] = list(first[:3])
            turn.emit(event)
        turn.move = resumed
        return
    part = mine(st)
    if part.get("asked") == st.turn:
        return
    if part.get("placed_at") == st.turn - 1 and (st.ext.get("traders_builders") or {}).get("extra") == st.turn:
        return       # the builder's extra tile is the same turn: a token was placed with its first
    if _may_place(st, turn.player):
        turn.emit({"type": "TunnelOffered", "player": turn.player, "turn_data": dict(turn.data),
                   "turn_move": turn.move})


def _first_of(state, colour: str):
    for token in mine(state).get("tokens") or ():
        if token[3] == colour:
            return token
    return None


def score_joined(turn: Turn) -> None:
    """Step 8, after the new tile's features: a road the tunnel completed this turn away
    from the new tile scores too (its followers go home in step 9)."""
    st = turn.state
    joined = mine(st).get("joined")
    if not joined or joined[0] != st.turn:
        return
    sid = sid_at(st, (joined[1], joined[2]), joined[3])
    fid = st.seg_feature[sid]
    f = st.features[fid]
    if f.open or fid in turn.completed:
        return
    turn.completed = [*turn.completed, fid]
    turn.emit(feature_scored(st, fid, min(f.segs), True))


# -- evolvers ---------------------------------------------------------------------------------


def _offered(state, event):
    new = with_part(state, EXPANSION, asked=state.turn, turn_data=event.get("turn_data") or {},
                    turn_move=event.get("turn_move"))
    new.pending = {event["player"]: TUNNEL}
    new.step = "resolve_figures"
    return new


def _close(state):
    part = {k: v for k, v in mine(state).items() if k not in ("turn_data", "turn_move")}
    new = state.copy()
    new.ext = {**state.ext, EXPANSION: part}
    new.pending = {}
    new.step = "resolve_figures"
    return new


def _declined(state, event):
    return _close(state)


def join(state, a: tuple, b: tuple):
    """A new state with the roads at mouths ``a`` and ``b`` ((x, y, on)) joined underground."""
    sa, sb = sid_at(state, a[:2], a[2]), sid_at(state, b[:2], b[2])
    new = state.copy()
    seg_feature = state.seg_feature.copy()
    features = state.features.copy()
    _merge(seg_feature, features, sa, sb, 2)
    new.seg_feature, new.features = seg_feature, features
    return new


def _placed(state, event):
    new = _close(state)
    token = [event["x"], event["y"], event["on"], event["colour"]]
    changes = {"tokens": [*(mine(state).get("tokens") or []), token], "placed_at": state.turn}
    if "joins" in event:
        new = join(new, tuple(event["joins"]), tuple(token[:3]))
        changes["joined"] = [state.turn, *token[:3]]
    return with_part(new, EXPANSION, **changes)


EVOLVERS = {"TunnelOffered": _offered, "TunnelDeclined": _declined, "TunnelTokenPlaced": _placed}


def initial(state) -> None:
    """The tokens' part of the fresh state; with ``tunnel_other_expansions`` the underpass
    tiles of the other expansions cut into two mouths each."""
    state.ext = {**state.ext, EXPANSION: {"tokens": [], "mouths": []}}
    if state.options.get("tunnel_other_expansions", False):
        from .tiles import UNDERPASS
        pile = dict(state.pile)
        for old, new in UNDERPASS.items():
            if old in pile:
                pile[new] = pile.pop(old)
        state.pile = pile
        if state.order is not None:
            state.order = tuple(UNDERPASS.get(t, t) for t in state.order)


def rejoin(state) -> None:
    """``Rules.rejoin`` (``load``, the features rebuilt from the tiles): join the pairs again,
    in the order they were joined."""
    firsts: dict = {}
    for x, y, on, colour in mine(state).get("tokens") or ():
        if colour in firsts:
            joined = join(state, firsts[colour], (x, y, on))
            state.seg_feature, state.features = joined.seg_feature, joined.features
        else:
            firsts[colour] = (x, y, on)
