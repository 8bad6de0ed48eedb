"""Bots: win rates of one level against another, seats alternated, in
2-player games of every game. One command:
``python bench/bots.py [--games N] [--first N] [--iterations N] [--jobs N] [--quick]``.

Rows: ``greedy`` against ``random`` in every game (target: greedy wins at
least 90% of each), ``search`` against ``greedy`` in Carcassonne (base) and
Kachina (target: at least 65%). Each game is played by the engine with the
bots choosing from each seat's view and legal moves only (``pbem.bots.choose``,
as the bot runner calls it). A draw counts half a win. ``search`` runs a fixed
number of iterations per decision (``--iterations``, by default a bot's in
play: ``PBEM_BOT_BUDGET_S``'s 2 s x ``bots.ITERATIONS_PER_SECOND``), never
cut short by the wall clock, which keeps the bench's figures the same on any
machine and load; the CPU seconds per decision are printed with it. The last line of
output is one JSON object holding every figure."""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem import bots, games  # noqa: E402
from pbem.games.base import rng_for  # noqa: E402
from _quick import parse_args  # noqa: E402

#: the budget of a bot in play (PBEM_BOT_BUDGET_S's default): the bench's default
#: iterations are what players meet; never capped by the wall clock here
IN_PLAY_BUDGET_S = 2.0

#: (game, options, level, against, target win rate)
ROWS = [
    ("carcassonne", {}, "greedy", "random", 0.90),
    ("kachina", {}, "greedy", "random", 0.90),
    ("wakanda", {}, "greedy", "random", 0.90),
    ("cartoona", {}, "greedy", "random", 0.90),
    ("carcassonne", {}, "search", "greedy", 0.65),
    ("kachina", {}, "search", "greedy", 0.65),
]


def play_one(game_name: str, options: dict, levels: list, seed: int, iterations: int) -> dict:
    """One seeded game; the seat of ``levels[k]`` is k. Its placings and the
    seconds each level spent choosing."""
    game = games.get(game_name)
    options = game.check_options(2, options)
    seed_bytes = f"bots-bench:{seed}".encode()
    state = game.start(2, options)
    log = list(game.setup(state, rng_for(seed_bytes, 0)))
    state = game.apply(state, log)
    who = random.Random(seed)
    spent = {level: 0.0 for level in levels}
    decisions = {level: 0 for level in levels}
    while game.result(state) is None:
        seat = who.choice(sorted(game.to_act(state)))
        legal = game.legal_moves(state, seat)
        view = json.loads(json.dumps(game.view(state, seat)))  # what the API gives the seat
        t0 = time.process_time()
        move = bots.choose(game.key, options, 2, seat, view, json.loads(json.dumps(legal)), level=levels[seat],
                           seed=f"{seed}:{len(log)}", iterations=iterations, budget_s=None)
        spent[levels[seat]] += time.process_time() - t0
        decisions[levels[seat]] += 1
        events = game.decide(state, seat, move, rng_for(seed_bytes, len(log)))
        log.extend(events)
        state = game.apply(state, events)
    result = game.result(state)
    return {"placings": list(result.placings), "spent": spent, "decisions": decisions}


class InProcess:
    """One job at a time in this process (``--jobs 1``: no pool to start)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        done = Future()
        done.set_result(fn(*args))
        return done


def run_row(row, n_games: int, iterations: int, pool, first: int = 0) -> dict:
    game_name, options, level, against, target = row
    jobs = []
    for g in range(first, first + n_games):
        levels = [level, against] if g % 2 == 0 else [against, level]
        jobs.append((levels, pool.submit(play_one, game_name, options, levels, g, iterations)))
    wins = 0.0
    spent = decisions = 0.0
    for levels, job in jobs:
        out = job.result()
        me = levels.index(level)
        other = 1 - me
        if out["placings"][me] < out["placings"][other]:
            wins += 1
        elif out["placings"][me] == out["placings"][other]:
            wins += 0.5
        spent += out["spent"][level]
        decisions += out["decisions"][level]
    rate = wins / n_games if n_games else 0.0
    return {"game": game_name, "level": level, "against": against, "games": n_games, "wins": wins,
            "win_rate": round(rate, 3), "target": target, "met": rate >= target,
            "iterations": iterations if "search" in (level, against) else None,
            "cpu_s_per_decision": round(spent / decisions, 4) if decisions else None}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row (seats alternate)")
    parser.add_argument("--iterations", type=int, default=bots.default_iterations(IN_PLAY_BUDGET_S),
                        help="search iterations per decision (default: a bot's in play, budget 2 s)")
    parser.add_argument("--first", type=int, default=0,
                        help="number of the first game (its seed; a long run split in parts: --first 40 --games 40)")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games at once")
    parser.add_argument("--rows", default="", help="only the rows of these games (comma-separated)")
    parser.add_argument("--level", default="", help="only the rows of this level (greedy or search)")
    args = parse_args(parser, {"games": 2, "iterations": 4, "jobs": 1}, argv)
    wanted = {g for g in args.rows.split(",") if g}
    rows = [r for r in ROWS if (not wanted or r[0] in wanted) and args.level in ("", r[2])]
    results = []
    with (ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else InProcess()) as pool:
        for row in rows:
            t0 = time.monotonic()
            out = run_row(row, args.games, args.iterations, pool, args.first)
            out["wall_s"] = round(time.monotonic() - t0, 1)
            results.append(out)
            it = f" ({out['iterations']} iterations)" if out["iterations"] else ""
            print(f"{out['game']:12} {out['level']:6} vs {out['against']:6}{it:18} {out['wins']:6.1f}/{out['games']:<4}"
                  f" = {100 * out['win_rate']:5.1f}%  target {100 * out['target']:.0f}%"
                  f" {'met' if out['met'] else 'NOT met'}  {out['cpu_s_per_decision']} s/decision", flush=True)
    print(json.dumps({"bench": "bots", "games": args.games, "first": args.first, "iterations": args.iterations,
                      "results": results}))


if __name__ == "__main__":
    main()
