"""King & Robber (rules digest §3.7), option ``expansions: ["king_robber"]``.

Installed into a :class:`~.rules.Rules` like every expansion, without editing
the base rules:

* **Tiles.** The 5 tiles KR1-KR5 (``king_robber_tiles.py``) join the draw pile.
* **The King (step 8.4).** When the *active* player's tile completes a city
  with more tiles than any city completed before, the active player takes the
  King (event ``KingTaken``: player, previous holder, size, where). The first
  completed city always qualifies; a city of equal size does not take it.
  Several cities completed by one tile: the largest counts.
* **The Robber Baron (step 8.4)** likewise for roads (``RobberTaken``).
  Both events are logged for every new record, also when the holder keeps
  the figure (``previous`` = the player).
* **At the end** (``king_robber_scoring`` = ``per_feature``): the King's holder
  scores 1 per completed city on the board, the Robber Baron's 1 per completed
  road (``KingScored`` / ``RobberScored``, category ``king_robber``).
* **JCloisterZone's variants** (carcassonne@2): ``fixed_10_20`` 10 to each holder at
  the end; ``fixed_15_40`` 15 to each, 40 once to a seat holding both; ``continuous``
  each turn, before the records, 1 per city (road) the tile completed to the holder
  from before the change. carcassonne@1 keeps its own readings under the names
  ``king_10_robber_20``, ``king_15_robber_40``, ``continuous_new_holder``.
* Holders and record sizes are public: ``view["king_robber"]`` and a line of
  the text board (``state.ext["king_robber"]``).

The house rule about castles (a castle counts as incomplete) concerns only
Bridges, Castles & Bazaars, which is not implemented.

The module imports only the standard library and the engine.
"""
from __future__ import annotations

from ...i18n import _, ngettext
from ..features import label_of
from .king_robber_tiles import EXPANSION, KR_TILES, kr_pile
from ..notation import EVENT_TEXTS, at, points, seat, segment
from ..orient import add_tiles
from ..rules import FINAL_SCORING, Expansion, Rules, Turn, register_expansion

add_tiles(KR_TILES)

#: kind of feature -> (the figure, its event names)
FIGURES = {"city": ("king", "KingTaken", "KingScored"),
           "road": ("robber", "RobberTaken", "RobberScored")}
NAMES = {"king": "the King", "robber": "the Robber Baron"}


def _mine(state) -> dict:
    return state.ext.get(EXPANSION) or {"king": None, "king_size": 0,
                                        "robber": None, "robber_size": 0}


def holder(state, figure: str):
    """The seat holding the King / Robber Baron (``figure`` = king | robber), or None."""
    return _mine(state)[figure]


def record(state, figure: str) -> int:
    """The size (tiles) of the largest city / road completed so far (0: none yet)."""
    return _mine(state)[figure + "_size"]


def _initial(state) -> None:
    state.ext = {**state.ext, EXPANSION: {"king": None, "king_size": 0,
                                          "robber": None, "robber_size": 0}}


def _taken(figure: str):
    def evolve(state, event: dict):
        new = state.copy()
        new.ext = {**state.ext, EXPANSION: {**_mine(state), figure: event["player"],
                                            figure + "_size": event["size"]}}
        return new
    return evolve


# -- step 8.4 --------------------------------------------------------------------------


def take_records(turn: Turn) -> None:
    """Step 8.4: a completed city (road) larger than any before gives the
    active player the King (Robber Baron)."""
    st = turn.state
    for kind, (figure, taken, _scored) in FIGURES.items():
        best = None
        for fid in turn.completed:
            f = st.features.get(fid)
            if f is None or f.kind != kind:
                continue
            if best is None or len(f.tiles) > len(best[1].tiles):
                best = (fid, f)
        if best is None or len(best[1].tiles) <= record(st, figure):
            continue
        x, y, label = label_of(st, min(best[1].segs))
        turn.emit({"type": taken, "player": turn.player, "previous": holder(st, figure),
                   "size": len(best[1].tiles), "x": x, "y": y, "on": label})
        st = turn.state


#: king_robber_scoring -> the points each holder scores at the end, the same for both
#: figures (JCloisterZone's "10/20": 10 a card, so 20 for both), or (one card, both cards
#: held by one seat) for "15/40" (JCZ: 15 for one, 40 for both, paid once)
FIXED_PER_CARD = {"fixed_10_20": 10}
FIXED_ONE_OR_BOTH = {"fixed_15_40": (15, 40)}
#: the readings of carcassonne@1 (its games keep them; ``game.CarcassonneV1`` names its
#: values so): the King's holder scores A at the end, the Robber Baron's B
FIXED_V1 = {"king_10_robber_20": {"king": 10, "robber": 20}, "king_15_robber_40": {"king": 15, "robber": 40}}
#: continuous scoring: JCZ pays the holder from before the turn's change of hands
#: (``continuous``); carcassonne@1 paid the holder after it (``continuous_new_holder``)
CONTINUOUS = ("continuous", "continuous_new_holder")


def _mode(state) -> str:
    return state.options.get("king_robber_scoring", "per_feature")


def continuous_before(turn: Turn) -> None:
    """Step 8.4 with king_robber_scoring = continuous (JCloisterZone's reading), before the
    records: the holder from before this turn's change of hands scores 1 for each city
    (road) the tile completed; a figure nobody holds yet pays nobody."""
    if _mode(turn.state) == "continuous":
        _pay_holders(turn)


def continuous_after(turn: Turn) -> None:
    """Step 8.4 with king_robber_scoring = continuous_new_holder (carcassonne@1's
    ``continuous``): after the records, so the seat that just took the figure scores for
    the feature that won it."""
    if _mode(turn.state) == "continuous_new_holder":
        _pay_holders(turn)


def _pay_holders(turn: Turn) -> None:
    st = turn.state
    for kind, (figure, _taken, scored) in FIGURES.items():
        p = holder(st, figure)
        n = sum(1 for fid in turn.completed if fid in st.features and st.features[fid].kind == kind)
        if p is not None and n:
            turn.emit({"type": scored, "player": p, "features": n, "points": n, "winners": [p],
                       "category": EXPANSION, "continuous": True})


def _fixed(turn: Turn, p: int, scored: str, points: int, **more) -> None:
    turn.emit({"type": scored, "player": p, "features": None, "points": points, "winners": [p],
               "category": EXPANSION, "fixed": True, **more})


def final_scoring(turn: Turn) -> None:
    """At the end (per_feature): 1 per completed city to the King, 1 per completed road
    to the Robber Baron (nothing if nobody holds it); fixed_10_20: 10 to each holder;
    fixed_15_40: 15 to each holder, or 40 once to a seat holding both; continuous: nothing
    more. (carcassonne@1's king_10_robber_20 / king_15_robber_40: A to the King, B to the
    Robber Baron.)"""
    st = turn.state
    mode = _mode(st)
    if mode in CONTINUOUS:
        return
    if mode in FIXED_ONE_OR_BOTH:
        one, both = FIXED_ONE_OR_BOTH[mode]
        king, robber = holder(st, "king"), holder(st, "robber")
        if king is not None and king == robber:
            _fixed(turn, king, "KingScored", both, both=True)
            return
    for kind, (figure, _taken, scored) in FIGURES.items():
        p = holder(st, figure)
        if p is None:
            continue
        if mode in FIXED_PER_CARD:
            _fixed(turn, p, scored, FIXED_PER_CARD[mode])
            continue
        if mode in FIXED_ONE_OR_BOTH:
            _fixed(turn, p, scored, FIXED_ONE_OR_BOTH[mode][0])
            continue
        if mode in FIXED_V1:
            _fixed(turn, p, scored, FIXED_V1[mode][figure])
            continue
        n = sum(1 for f in st.features.values() if f.kind == kind and f.open == 0)
        turn.emit({"type": scored, "player": p, "features": n, "points": n, "winners": [p],
                   "category": EXPANSION})


# -- text, views -----------------------------------------------------------------------


def _taken_text(figure: str, what: str):
    def text(e: dict) -> str:
        prev = e.get("previous")
        args = dict(player=seat(e["player"]), previous=seat(prev), size=e["size"], on=segment(e["on"]),
                    at=at(e["x"], e["y"]))
        if figure == "king":
            if prev == e["player"]:
                return _("{player} keeps the King: a completed city of {size} tiles ({on} at {at}) is the largest "
                         "so far.", **args)
            if prev is None:
                return _("{player} takes the King: a completed city of {size} tiles ({on} at {at}) is the largest "
                         "so far.", **args)
            return _("{player} takes the King from {previous}: a completed city of {size} tiles ({on} at {at}) is "
                     "the largest so far.", **args)
        if prev == e["player"]:
            return _("{player} keeps the Robber Baron: a completed road of {size} tiles ({on} at {at}) is the "
                     "longest so far.", **args)
        if prev is None:
            return _("{player} takes the Robber Baron: a completed road of {size} tiles ({on} at {at}) is the "
                     "longest so far.", **args)
        return _("{player} takes the Robber Baron from {previous}: a completed road of {size} tiles ({on} at {at}) "
                 "is the longest so far.", **args)
    return text


def _scored_text(figure: str, one: str, many: str):
    def text(e: dict) -> str:
        n = e["features"]
        args = dict(points=points(e["points"]), player=seat(e["player"]))
        if figure == "king":
            if e.get("both"):
                return _("The King and the Robber Baron, held together: {points} to {player}.", **args)
            if n is None:
                return _("The King: {points} to {player}.", **args)
            return ngettext("The King: {n} completed city: {points} to {player}.",
                            "The King: {n} completed cities: {points} to {player}.", n, **args)
        if n is None:
            return _("The Robber Baron: {points} to {player}.", **args)
        return ngettext("The Robber Baron: {n} completed road: {points} to {player}.",
                        "The Robber Baron: {n} completed roads: {points} to {player}.", n, **args)
    return text


EVENT_TEXTS.update(KingTaken=_taken_text("king", "city"), RobberTaken=_taken_text("robber", "road"),
                   KingScored=_scored_text("king", "city", "cities"),
                   RobberScored=_scored_text("robber", "road", "roads"))


def _view(state, viewer, view: dict) -> None:
    m = _mine(state)
    view["king_robber"] = {"king": m["king"], "king_size": m["king_size"],
                           "robber": m["robber"], "robber_size": m["robber_size"]}


def _render(state, viewer) -> list:
    m = _mine(state)
    return [_("King: {king} (largest completed city: {king_size} tiles); Robber Baron: {robber} (longest "
              "completed road: {robber_size} tiles)", king=seat(m["king"]), king_size=m["king_size"],
              robber=seat(m["robber"]), robber_size=m["robber_size"])]


# -- installation ----------------------------------------------------------------------


class KingAndRobber(Expansion):
    name = EXPANSION

    def install(self, rules: Rules) -> None:
        rules.pile.update(kr_pile())
        rules.initial.append(_initial)
        rules.views.append(_view)
        rules.render_lines.append(_render)
        points = rules.evolvers["FeatureScored"]
        rules.evolvers.update(KingTaken=_taken("king"), RobberTaken=_taken("robber"),
                              KingScored=points, RobberScored=points)
        rules.on("score", continuous_before)
        rules.on("score", take_records)
        rules.on("score", continuous_after)
        rules.on(FINAL_SCORING, final_scoring)


KING_AND_ROBBER = register_expansion(KingAndRobber())
