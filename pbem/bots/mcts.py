"""``search``: information-set Monte Carlo tree search (single observer),
guided by the greedy evaluation.

Each iteration samples a state consistent with the seat's view
(determinization: the same state every time where nothing is hidden) and
walks one tree shared by all samples. A node's children are keyed by move
(``move_key``), so a move legal in one sample and not another is simply not
available there; selection counts availability in place of the parent's
visits (Cowling, Powley and Whitehouse's ISMCTS).

Random playouts are too weak for these games at a budget of a few hundred
iterations (the branching runs to a hundred moves), so the tree is guided
by the evaluation instead (as AlphaGo's priors guide it, with a heuristic in
place of a network):

- the first time a node is reached, every move of the seat to act there is
  evaluated in that sample (``evaluation.reward`` for that seat after the
  move): these are the node's priors; the iteration plays the best of them,
  then the next seat's greedy reply (``PLAYOUT`` decisions), and backs up
  the rewards of the state reached (a leaf judged before the reply it
  invites is optimistic: a city left for the rival to join);
- where a sample offers moves an earlier one did not (another tile drawn,
  another hand dealt), their priors are evaluated in that sample;
- later visits choose among the ``WIDTH + sqrt(visits)`` moves of best prior
  that are available (progressive widening), by UCB1 plus the prior as a
  bias that fades with visits (progressive bias); a move never tried is tried
  in order of prior.

Each node keeps the reward of the seat that made the move into it. The move
played is the root's most visited child (ties: the higher mean).

Determinism: the number of iterations is the budget (``iterations``); the
wall-clock ``deadline_s`` is only a cap that stops early on a slow machine.
With the same seed, inputs and iterations completed, the choice is the same.
"""
from __future__ import annotations

import math
import random
import time

from . import evaluation
from .thinking import Position, move_key, play

EXPLORATION = 0.5
#: weight of the prior's bias (it fades as 1 / (visits + 1))
BIAS = 1.0
#: moves considered at a node before its visits widen it
WIDTH = 3
#: greedy decisions played after a leaf's own before it is evaluated (the
#: next seat's reply: a leaf judged before the answer it invites is optimistic)
PLAYOUT = 1


class Node:
    __slots__ = ("move", "player", "children", "visits", "available", "total", "priors")

    def __init__(self, move=None, player=None):
        self.move, self.player = move, player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.priors: dict | None = None  # move key -> prior reward of the seat to act


def _actor(rules, state, rng: random.Random):
    acting = sorted(rules.to_act(state))
    return rng.choice(acting) if acting else None


def _rewards(pos: Position, state) -> list[float]:
    return [evaluation.reward(pos.rules, state, p, pos.players) for p in range(pos.players)]


def _greedy_step(pos: Position, state, player: int, moves: list, it: random.Random, priors: dict | None = None):
    """The state after ``player``'s move of best immediate reward (the first of
    equals); each move's reward is written into ``priors`` if given."""
    best, best_state = None, state
    for m in moves:
        after = play(pos.rules, state, player, m, it)
        r = evaluation.reward(pos.rules, after, player, pos.players)
        if priors is not None:
            priors[move_key(m)] = r
        if best is None or r > best:
            best, best_state = r, after
    return best_state


def _playout(pos: Position, state, it: random.Random, plies: int):
    """``plies`` more greedy decisions (each seat to act choosing its best
    immediate reward): the leaf is evaluated after the replies it invites."""
    rules = pos.rules
    for _ in range(plies):
        if rules.result(state) is not None:
            break
        player = _actor(rules, state, it)
        if player is None:
            break
        moves = evaluation.considered(rules, rules.legal_moves(state, player))
        if not moves:
            break
        state = _greedy_step(pos, state, player, moves, it)
    return state


def _expand(pos: Position, node: Node, state, player: int, moves: list, it: random.Random):
    """Evaluate every move of ``player`` here (the node's priors); the state
    after the best, then after the greedy replies of ``PLAYOUT`` decisions."""
    node.priors = {}
    after = _greedy_step(pos, state, player, moves, it, node.priors)
    return _playout(pos, after, it, PLAYOUT)


def _prior_missing(pos: Position, node: Node, state, player: int, keyed: list, it: random.Random):
    """Priors for the moves this sample offers that earlier ones did not (a
    tile drawn, a hand dealt differently): evaluated here, in this sample."""
    for k, m in keyed:
        if k not in node.priors:
            after = play(pos.rules, state, player, m, it)
            node.priors[k] = evaluation.reward(pos.rules, after, player, pos.players)


def _select(node: Node, keyed: list) -> tuple:
    priors = node.priors
    ranked = sorted(keyed, key=lambda km: -priors.get(km[0], 0.0))
    width = WIDTH + int(math.sqrt(node.visits))
    ranked = ranked[:width]
    for k, _m in ranked:
        child = node.children.get(k)
        if child is not None:
            child.available += 1
    for k, m in ranked:
        if k not in node.children:
            return k, m

    def score(km):
        c = node.children[km[0]]
        return (c.total / c.visits + EXPLORATION * math.sqrt(math.log(max(1, c.available)) / c.visits)
                + BIAS * priors.get(km[0], 0.0) / (c.visits + 1))
    return max(ranked, key=score)


def search(pos: Position, legal: list[dict], rng: random.Random, iterations: int,
           deadline_s: float | None = None) -> tuple[dict, dict]:
    """The move chosen and the root's statistics (iterations run, visits per move key)."""
    rules = pos.rules
    root = Node()
    allowed = {move_key(m): m for m in legal}
    started = time.monotonic()
    done = 0
    for done in range(1, iterations + 1):
        it = random.Random(rng.getrandbits(64))
        state = pos.sample(it)
        node, path = root, [root]
        first = True
        while rules.result(state) is None:
            player = pos.seat if first else _actor(rules, state, it)
            if player is None:
                break
            moves = legal if first else evaluation.considered(rules, rules.legal_moves(state, player))
            first = False
            if not moves:
                break
            if node.priors is None:
                state = _expand(pos, node, state, player, moves, it)
                break
            keyed = [(move_key(m), m) for m in moves]
            _prior_missing(pos, node, state, player, keyed, it)
            k, m = _select(node, keyed)
            child = node.children.get(k)
            if child is None:
                child = node.children[k] = Node(m, player)
                child.available = 1
            state = play(rules, state, player, m, it)
            node = child
            path.append(node)
        rewards = _rewards(pos, state)
        for n in path:
            n.visits += 1
            if n.player is not None:
                n.total += rewards[n.player]
        if deadline_s is not None and time.monotonic() - started > deadline_s:
            break
    stats = {"iterations": done,
             "visits": {k: c.visits for k, c in root.children.items() if k in allowed}}
    best = None
    for m in legal:
        c = root.children.get(move_key(m))
        if c is None or not c.visits:
            continue
        key = (c.visits, c.total / c.visits)
        if best is None or key > best[0]:
            best = (key, m)
    if best is None:  # a budget too small to try any move: the best prior
        priors = root.priors or {}
        return max(legal, key=lambda m: priors.get(move_key(m), 0.0)), stats
    return best[1], stats
