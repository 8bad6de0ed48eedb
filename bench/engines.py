"""Rules engines: median time of a full seeded random game (legal moves
enumerated at every step) and replay rate (events/s through evolve), per
game and setup. One command: ``python bench/engines.py [--games N] [--each] [--quick] [name ...]``.
Each row's CPU time per decision is also given as a ratio to the game's default setup
with as many seats, measured in the same run (``per_decision_vs_default``: Carcassonne's
expansions against the base game). ``--each`` adds a game's ``bench_each`` setups
(Carcassonne: 2 seats with each expansion alone). The last line of output is one JSON
object holding every figure."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem import games  # noqa: E402
from pbem.games.base import canonical  # noqa: E402
from pbem.games.playout import play_random  # noqa: E402
from _quick import parse_args  # noqa: E402


def setups(game, each: bool = False):
    out = tuple(getattr(game, "bench_setups", None) or game.sample_setups)
    return out + tuple(getattr(game, "bench_each", ())) if each else out


def measure(game, players, options, n_games):
    times, playouts = [], []
    cpu = 0.0
    for seed in range(n_games):
        t0, c0 = time.perf_counter(), time.process_time()
        p = play_random(game, players, options, seed=seed)
        times.append(time.perf_counter() - t0)
        cpu += time.process_time() - c0
        playouts.append(p)
    events = sum(len(p.events) for p in playouts)
    decisions = sum(len(p.moves) for p in playouts)
    t0 = time.perf_counter()
    for p in playouts:
        game.replay(players, p.options, p.events)
    replay_s = time.perf_counter() - t0
    return {
        "game": game.key, "players": players, "options": canonical(options),
        "games": n_games, "median_ms": round(statistics.median(times) * 1000, 3),
        "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))] * 1000, 3),
        "events_per_game": round(events / n_games, 1),
        # what a game's length does to its time: decisions (each listed, then decided)
        "decisions_per_game": round(decisions / n_games, 1),
        "us_per_decision": round(sum(times) / decisions * 1e6, 1),
        # the same in CPU time: what a shared machine's load does not change
        "cpu_us_per_decision": round(cpu / decisions * 1e6, 1),
        "replay_events_per_s": round(events / replay_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="games to measure, by name or key (carcassonne@2) (default: all)")
    parser.add_argument("--games", type=int, default=30, help="seeded games per setup")
    parser.add_argument("--each", action="store_true",
                        help="also each setup of a game's bench_each (Carcassonne: each expansion alone, 2 seats)")
    args = parse_args(parser, {"games": 1})
    rows = []
    for game in games.all_games():
        if args.names and game.name not in args.names and game.key not in args.names:
            continue
        default = {}                  # seats -> the default setup's CPU time per decision
        for players, options in setups(game, args.each):
            row = measure(game, players, options, args.games)
            if not options:
                default.setdefault(players, row["cpu_us_per_decision"])
            if players in default:
                row["per_decision_vs_default"] = round(row["cpu_us_per_decision"] / default[players], 3)
            rows.append(row)
            print(f"{row['game']:16} {players}p {row['options'][:40]:40} median {row['median_ms']:8.2f} ms"
                  f"  p90 {row['p90_ms']:8.2f} ms  replay {row['replay_events_per_s']:>10,} events/s"
                  f"  ({row['events_per_game']} events, {row['decisions_per_game']} decisions a game,"
              f" {row['us_per_decision']} us a decision, CPU {row['cpu_us_per_decision']} us"
                  + (f", {row['per_decision_vs_default']}x the default's" if options and "per_decision_vs_default" in row else "") + ")", flush=True)
    print(json.dumps({"bench": "engines", "python": sys.version.split()[0], "results": rows}))


if __name__ == "__main__":
    main()
