"""``search``'s parts (pbem.bots.mcts) and the bench's budget: a leaf is
judged after the next seat's greedy reply, moves a sample offers anew get
their priors in that sample, and the bench's iterations are never cut short
by the wall clock (its default: a bot's in play)."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

from pbem import bots
from pbem.bots import evaluation, mcts
from pbem.bots.thinking import Position, move_key, play

from .test_bots import position, seen


def test_a_leaf_is_judged_after_the_next_seats_greedy_reply():
    """Carcassonne (nothing hidden): the playout makes exactly one decision,
    the next seat's, and it is a move of that seat's best immediate reward."""
    game, options, state, seat = position("carcassonne", {}, 6)
    view, legal = seen(game, state, seat)
    pos = Position(game.key, options, 2, seat, view)
    after_mine = play(game, pos.sample(random.Random(0)), seat, legal[0], random.Random(1))
    other = min(game.to_act(after_mine))
    assert other != seat
    out = mcts._playout(pos, after_mine, random.Random(2), 1)
    assert out.turn == after_mine.turn + 1 and min(game.to_act(out)) == seat
    rewards = [evaluation.reward(game, play(game, after_mine, other, m, random.Random(3)), other, 2)
               for m in game.legal_moves(after_mine, other)]
    assert len(set(rewards)) > 1, "every reply equal: the check proves nothing"
    assert evaluation.reward(game, out, other, 2) == max(rewards)
    assert mcts._playout(pos, after_mine, random.Random(2), 0) is after_mine


def test_moves_a_sample_offers_anew_get_their_priors_in_it():
    """Kachina: another seat's hand is sampled, so a node's moves differ
    between samples; those not yet weighed are evaluated in the sample that
    offers them, and the priors already known stay."""
    game, options, state, seat = position("kachina", {}, 6)
    view, legal = seen(game, state, seat)
    pos = Position(game.key, options, 2, seat, view)
    sample = pos.sample(random.Random(4))
    keyed = [(move_key(m), m) for m in legal]
    node = mcts.Node()
    node.priors = {keyed[0][0]: -1.0}
    mcts._prior_missing(pos, node, sample, seat, keyed, random.Random(5))
    assert set(node.priors) == {k for k, _m in keyed}
    assert node.priors[keyed[0][0]] == -1.0
    k, m = keyed[1]
    assert node.priors[k] == evaluation.reward(game, play(game, sample, seat, m, random.Random(6)), seat, 2)


def test_without_a_budget_in_seconds_every_iteration_runs(monkeypatch):
    """The bench passes ``budget_s=None``: however slow the machine (a clock
    jumping 100 s a reading), the iterations asked for all run; with a budget
    in seconds the same clock stops the search after one."""
    game, options, state, seat = position("kachina", {}, 6)
    view, legal = seen(game, state, seat)
    now = [0.0]

    def slow():
        now[0] += 100.0
        return now[0]
    monkeypatch.setattr(mcts.time, "monotonic", slow)
    uncapped, capped = {}, {}
    bots.choose(game.key, options, 2, seat, view, legal, level="search", seed=1, iterations=12, budget_s=None,
                stats=uncapped)
    bots.choose(game.key, options, 2, seat, view, legal, level="search", seed=1, iterations=12, budget_s=2.0,
                stats=capped)
    assert uncapped["iterations"] == 12 and capped["iterations"] == 1


def test_the_bench_runs_a_bots_in_play_iterations_by_default(capsys, monkeypatch):
    bench_dir = Path(__file__).parent.parent / "bench"
    monkeypatch.syspath_prepend(str(bench_dir))
    spec = importlib.util.spec_from_file_location("bench_bots", bench_dir / "bots.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--games", "0", "--jobs", "1", "--rows", "kachina"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["iterations"] == bots.default_iterations(2.0) == 2 * bots.ITERATIONS_PER_SECOND
