"""``search``: information-set Monte Carlo tree search (single observer).

Each iteration samples a state consistent with the seat's view
(determinization: the same state every time where nothing is hidden), then
walks one tree shared by all samples: a node's children are keyed by move
(``move_key``), so a move legal in one sample and not in another is simply
not available there. Selection is UCB1 over the available children, with
availability counts in place of the parent's visits (Cowling, Powley and
Whitehouse's ISMCTS); one new child is added per iteration; then a random
playout of at most ``PLAYOUT_DEPTH`` moves, and the reached state is
evaluated for every seat (``evaluation.reward``: a won/lost end near 1/0,
else the squashed lead in estimated points). Each node keeps the reward of
the seat that made the move into it. The move played is the root's most
visited child (ties: the higher mean, then the legal list's order).

Determinism: the number of iterations is the budget (``iterations``); the
wall-clock ``budget_s`` is only a cap that stops early on a slow machine.
With the same seed, inputs and iterations completed, the choice is the same.
"""
from __future__ import annotations

import math
import random
import time

from . import evaluation
from .thinking import Position, move_key, play

EXPLORATION = 0.7
PLAYOUT_DEPTH = 12


class Node:
    __slots__ = ("move", "player", "children", "visits", "available", "total")

    def __init__(self, move=None, player=None):
        self.move, self.player = move, player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def ucb(self) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(math.log(max(1, self.available)) / self.visits)


def _actor(rules, state, rng: random.Random):
    acting = sorted(rules.to_act(state))
    return rng.choice(acting) if acting else None


def _rewards(pos: Position, state) -> list[float]:
    return [evaluation.reward(pos.rules, state, p, pos.players) for p in range(pos.players)]


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
        player = pos.seat
        first = True
        # selection and expansion
        while rules.result(state) is None:
            player = pos.seat if first else _actor(rules, state, it)
            if player is None:
                break
            moves = legal if first else rules.legal_moves(state, player)
            first = False
            if not moves:
                break
            keyed = [(move_key(m), m) for m in moves]
            for k, _m in keyed:
                child = node.children.get(k)
                if child is not None:
                    child.available += 1
            untried = [(k, m) for k, m in keyed if k not in node.children]
            if untried:
                k, m = untried[it.randrange(len(untried))]
                child = Node(m, player)
                child.available = 1
                node.children[k] = child
                state = play(rules, state, player, m, it)
                node = child
                path.append(node)
                break
            child = max((node.children[k] for k, _m in keyed), key=Node.ucb)
            state = play(rules, state, player, child.move, it)
            node = child
            path.append(node)
        # playout
        for _step in range(PLAYOUT_DEPTH):
            if rules.result(state) is not None:
                break
            p = _actor(rules, state, it)
            if p is None:
                break
            moves = rules.legal_moves(state, p)
            if not moves:
                break
            state = play(rules, state, p, moves[it.randrange(len(moves))], it)
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
        if c is None:
            continue
        key = (c.visits, c.total / c.visits)
        if best is None or key > best[0]:
            best = (key, m)
    return (best[1] if best else legal[0]), stats
