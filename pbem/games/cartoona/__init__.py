"""Cartoona (Robert Burke, 2012-13): build cartoon creatures from body-part
tiles; all five ways to play as options of one game (``mode``: full, basic,
basic_team, solo, kids). Rules notes, options and notation:
``docs/rules/cartoona.md``; component data: ``data.py``.

Driving a game from Python, without the server:

>>> import random
>>> from pbem import games
>>> game = games.get("cartoona")
>>> options = game.check_options(2, {"mode": "basic"})
>>> state = game.start(2, options)
>>> state = game.apply(state, game.setup(state, random.Random(1)))
>>> rng = random.Random(2)
>>> while game.result(state) is None:
...     player = min(game.to_act(state))
...     move = game.default_move(state, player)
...     text = game.describe(move, player)           # what an email would say
...     assert game.parse(text, state, player) == move
...     state = game.apply(state, game.decide(state, player, move, rng))
>>> result = game.result(state)
>>> result.reason, len(result.scores), min(result.placings)
('last_tile_drawn', 2, 1)

The full game with cards is ``game.check_options(3, {})``; teams are
``{"teams": "2x2"}``; reaction windows put several seats in ``to_act`` at
once, each answering ``pass`` or ``block with kN``.
"""
from .. import register
from .game import GAME, Cartoona, CartoonaV1  # noqa: F401

register(GAME)
register(CartoonaV1())  # cartoona@1: the games begun before cartoona@2
