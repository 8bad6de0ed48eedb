"""Cult: shrines and heretics (rules digest §3.11), option ``expansions: ["cult"]``.

Installed into a :class:`~.rules.Rules` like every expansion, without editing
the base rules:

* **Tiles.** The 6 shrine tiles CU1-CU6 (``cult_tiles.py``, set ``cult/6``)
  join the draw pile; option ``cult_set`` = 5 uses the 5-tile set ``cult/5``
  (CU1-CU5).
* **Shrine.** A cloister segment with the mark ``shrine``: it is scored like a
  monastery (9 when its 8 neighbours are there, at the end 1 + neighbours);
  its follower is a heretic. Notation: ``follower shrine``, ``heretic`` (as
  ``follower cloister`` / ``monk``); the segment's label stays ``cloister``.
* **Placement (step 3).** A shrine may not have more than one monastery in
  its 8-neighbourhood, and a monastery not more than one shrine: a tile whose
  placement would break this (for the new tile or for a neighbour) is not a
  legal placement (``Rules.placement_checks``; code ``cult_neighbourhood``);
  a drawn tile that can only go where it breaks this counts as unplaceable.
* **Challenge (step 8.1).** When an *occupied* monastery or shrine is
  completed and scored, its rival of the other kind in its 8-neighbourhood, if
  occupied and still incomplete, loses: its followers go home with 0 points
  (event ``ChallengeLost``). If both complete on the same tile, both score.
  At the end, incomplete ones score as monasteries do (no challenge).

The module imports only the standard library and the engine.
"""
from __future__ import annotations

from .cult_tiles import CU_TILES, EXPANSION
from ..evolve import EVOLVERS
from ..features import label_of, neighbours_filled
from ..geometry import RING
from ...i18n import _
from ..notation import EVENT_TEXTS, at, feature_name, seats
from ..orient import TILES, add_tiles, oriented
from ..rules import Expansion, Rules, Turn, register_expansion
from ..state import SEG_BITS

add_tiles(CU_TILES)

_KIND: dict = {}


def cloister_kind(letter: str):
    """"shrine", "monastery" or None for a tile type."""
    kind = _KIND.get(letter, 0)
    if kind == 0:
        kind = None
        for seg in TILES[letter].segments:
            if seg.kind == "cloister":
                kind = "shrine" if seg.mark("shrine") else "monastery"
        _KIND[letter] = kind
    return kind


RIVAL = {"shrine": "monastery", "monastery": "shrine"}


def _around(board, cell, kind: str) -> list:
    """Cells of the 8-neighbourhood of ``cell`` holding a ``kind`` (shrine / monastery)."""
    x, y = cell
    out = []
    kinds = _KIND
    for dx, dy in RING:
        c = (x + dx, y + dy)
        t = board.get(c)
        if t is not None:
            k = kinds.get(t[0], 0)          # ``cloister_kind``, read from its table when known
            if (cloister_kind(t[0]) if k == 0 else k) == kind:
                out.append(c)
    return out


def neighbourhood_check(state, letter: str, cell, r: int):
    """Placement restriction: None if allowed, else (code, message)."""
    kind = cloister_kind(letter)
    if kind is None:
        return None
    rival = RIVAL[kind]
    rivals = _around(state.board, cell, rival)
    if len(rivals) > 1:
        return ("cult_neighbourhood",
                (f"a {kind} may not have more than one {rival} around it "
                 f"({len(rivals)} next to {cell[0]},{cell[1]})"))
    for c in rivals:
        if _around(state.board, c, kind):
            return ("cult_neighbourhood",
                    f"the {rival} at {c[0]},{c[1]} already has a {kind} around it")
    return None


neighbourhood_check.relevant = lambda letter: cloister_kind(letter) is not None
#: its answer does not depend on the rotation (``moves.legal_moves`` asks once a cell)
neighbourhood_check.by_cell = True


def _cloister_feature(state, cell):
    t = state.board[cell]
    k = oriented(t[0], t[1]).cloister
    sid = (t[2] << SEG_BITS) + k
    return sid, state.features[state.seg_feature[sid]]


def challenge(turn: Turn) -> None:
    """Step 8.1: an occupied monastery / shrine completed this turn beats its
    occupied, incomplete rival: the rival's followers go home with 0 points."""
    st = turn.state
    for fid in list(turn.completed):
        f = st.features.get(fid)
        if f is None or f.kind != "cloister" or not f.meeples:
            continue
        cell = next(iter(f.tiles))
        kind = cloister_kind(st.board[cell][0])
        for c in _around(st.board, cell, RIVAL[kind]):
            _sid, rf = _cloister_feature(st, c)
            if not rf.meeples or neighbours_filled(st.board, c) == 8:
                continue
            back = []
            for player, msid, figure in rf.meeples:
                x, y, label = label_of(st, msid)
                back.append({"player": player, "figure": figure, "x": x, "y": y, "on": label})
            turn.emit({"type": "ChallengeLost", "feature": RIVAL[kind], "x": c[0], "y": c[1],
                       "by": kind, "by_x": cell[0], "by_y": cell[1], "points": 0,
                       "followers": back})
            st = turn.state


def _challenge_text(e: dict) -> str:
    return _("The {winner} at {winner_at} wins the challenge: the {loser} at {loser_at} stays incomplete, and its "
             "followers ({players}) go home with 0 points.", winner=feature_name(e["by"]),
             winner_at=at(e["by_x"], e["by_y"]), loser=feature_name(e["feature"]), loser_at=at(e["x"], e["y"]),
             players=seats([i["player"] for i in e["followers"]]))


EVENT_TEXTS["ChallengeLost"] = _challenge_text


class Cult(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update({label: t.count for label, t in CU_TILES.items()})
        rules.placement_checks.append(neighbourhood_check)
        rules.evolvers["ChallengeLost"] = EVOLVERS["FollowersReturned"]
        rules.on("score", challenge)


CULT = register_expansion(Cult())
