"""The game state: plain Python containers, copied shallowly on change.

Internally a cell is a tuple ``(x, y)`` and a placed segment is an int id
``n * 16 + k`` (n = placement index of its tile, k = segment index in the
tile type), so the hot paths hash ints and small tuples. ``dump`` turns a
state into JSON (tiles in placement order, followers, counters) and ``load``
rebuilds the features by placing the tiles again, so snapshots stay small and
always consistent.

Evolvers copy the containers they change with ``d.copy()``, not ``dict(d)``: a copy
clones a dict's table whole while few of its slots are deleted ones (features merge and
leave the dict every turn), where ``dict(d)`` then inserts every entry again (4x slower
for the features). Both keep the order.

A ``Feature`` is a connected component of segments (a road, a city, a field,
a cloister). Features are never mutated once in a state: a change makes a new
one (see ``features.py``).
"""
from __future__ import annotations

SEG_BITS = 4  # segment ids are (tile index << SEG_BITS) | segment index


class Feature:
    __slots__ = ("kind", "segs", "tiles", "open", "marks", "meeples", "cities")

    def __init__(self, kind, segs, tiles, open_, marks, meeples, cities):
        self.kind = kind          # road | city | cloister | field
        self.segs = segs          # tuple of segment ids
        self.tiles = tiles        # frozenset of cells (each tile counted once)
        self.open = open_         # road/city: edges facing an empty cell
        self.marks = marks        # dict name -> count (pennant, inn, ...), shared, never mutated
        self.meeples = meeples    # tuple of (player, segment id, figure)
        self.cities = cities      # field: frozenset of bordering city segment ids

    def with_meeples(self, meeples) -> "Feature":
        return Feature(self.kind, self.segs, self.tiles, self.open, self.marks, meeples, self.cities)

    def __repr__(self):
        return (f"Feature({self.kind}, tiles={len(self.tiles)}, open={self.open}, "
                f"marks={self.marks}, meeples={self.meeples})")


class State:
    """One version of a game. Evolvers copy it (``copy``) and replace the
    containers they change; nothing reachable from a state is mutated."""

    #: (features dict, its length, ``features.occupied`` of it), or None: kept with the
    #: state (a copy that keeps the features keeps it too), never part of its value
    occupied_memo = None

    def __init__(self):
        self.players = 0
        self.options: dict = {}
        self.rules = None                 # the Rules (base + expansions); rebuilt from options
        self.board: dict = {}             # cell -> (tile letter, quarter turns, placement index)
        self.placed: tuple = ()           # cells in placement order
        self.seg_feature: dict = {}       # segment id -> feature id
        self.features: dict = {}          # feature id -> Feature
        self.frontier: dict = {}          # empty cell next to a tile -> edge constraint "C.R."
        self.pile: dict = {}              # tile letter -> copies left to draw
        self.order: tuple | None = None   # fixed draw order still to come (option draw_order)
        self.discarded: tuple = ()        # tiles removed as unplaceable
        self.supply: tuple = ()           # followers in each player's supply
        self.scores: tuple = ()
        self.tally: dict = {}             # category -> tuple of points per player
        self.active = 0                   # the player whose turn it is
        self.tile = None                  # the drawn tile waiting to be placed
        self.pending: dict = {}           # player -> the decision they owe ("place_tile", ...)
        self.step = "setup"               # the turn step the game stands in
        self.turn = 0                     # turns played
        self.over = False
        self.ext: dict = {}               # expansion state, by expansion name (JSON-able)

    def copy(self) -> "State":
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        return new

    def cell_of(self, sid: int) -> tuple:
        return self.placed[sid >> SEG_BITS]

    def feature_of(self, sid: int) -> Feature:
        return self.features[self.seg_feature[sid]]
