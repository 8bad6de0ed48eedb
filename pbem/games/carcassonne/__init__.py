"""Carcassonne (base game), built to take the expansions, which live in
``expansions/``, one module each with its tiles as data beside it:
Inns & Cathedrals (``expansions/inns_cathedrals.py``, ``inns_cathedrals_tiles.py``;
2 to 6 players then), Traders & Builders (``traders_builders.py``,
``traders_builders_tiles.py``: goods, builder, pig), King & Robber
(``king_robber.py``, ``king_robber_tiles.py``), Cult (``cult.py``,
``cult_tiles.py``: shrines), Siege (``siege.py``, ``siege_tiles.py``: besieged
cities, the escape), Abbey & Mayor (the subpackage ``abbey_mayor/``: abbey,
mayor, wagon, barn), and the subpackages ``princess_dragon/`` (volcano, dragon,
fairy, princess, magic portal), ``tower/`` (floors, capture, prisoners),
``count/`` (the City of Carcassonne) and ``bridges_castles_bazaars/``, enabled
with ``options={"expansions": [...]}`` (any combination of their names).

Rules: ``docs/rules/carcassonne.md``. Modules of the base game: ``geometry``
(edges, halves, rotation), ``segments`` / ``tiles`` (tiles as segments, the 72
base tiles as data), ``orient`` (precomputed rotated tiles and fits),
``state`` / ``features`` (state, incremental feature tracking), ``rules`` (the
turn's named steps with hooks, expansion registry), ``base_rules`` (the base
game's handlers), ``evolve`` (event evolvers), ``scoring``, ``moves`` (legal
moves, validation, grouping), ``actions`` (step 5's actions away from the tile),
``removal`` (figures taken off the board), ``segwords``, ``notation``,
``render``, ``catalog`` (codes, view fields, options) and ``game``.

Driving a game from Python without the server (a scripted draw order, a
fixed start player, moves in notation, then the scores)::

    >>> import random
    >>> from pbem import games
    >>> g = games.get("carcassonne")
    >>> opts = g.check_options(2, {"draw_order": ["E", "U", "B"], "start_player": 0})
    >>> state = g.start(2, opts)
    >>> state = g.apply(state, g.setup(state, random.Random(1)))
    >>> state.tile, sorted(g.to_act(state))
    ('E', [0])
    >>> def play(state, text):
    ...     player = next(iter(g.to_act(state)))
    ...     move = g.parse(text, state, player)
    ...     events = g.decide(state, player, move, random.Random(0))
    ...     for e in events:
    ...         if e["type"] in ("FeatureScored", "FieldScored"):
    ...             print(g.describe(e))
    ...     return g.apply(state, events)
    >>> state = play(state, "place 0,-1 r180 follower city S")
    Completed city at 0,-1 (city S, 2 tiles): 4 points to seat 0.
    >>> state = play(state, "place 1,0 r0 farmer NL")
    >>> state = play(state, "place 1,-1 r0 follower cloister")
    Incomplete cloister at 1,-1 (cloister, 1 tile): 4 points to seat 0.
    Field EL at 0,0 borders 1 completed city: 3 points to seat 1.
    >>> g.result(state).scores  # 4 + monk 1+3 neighbours; the farmer: 1 city
    (8, 3)
"""
from .. import register
from .game import Carcassonne, CarcassonneV1

GAME = register(Carcassonne())
register(CarcassonneV1())  # carcassonne@1: the games begun before carcassonne@2

__all__ = ["Carcassonne", "CarcassonneV1", "GAME"]
