"""A/B timing of one game's rules engine in two source trees, in one process.

Each tree's ``pbem`` is imported under its own set of ``sys.modules`` entries (swapped in
before each game, so imports made inside functions resolve in the game's own tree), and
the two trees' games are interleaved seed by seed (who goes first alternating), so a load
that comes and goes on the machine falls on both alike. Prints, per setup, each tree's
median full-game time (a seeded ``play_random``, legal moves listed at every decision, as
``bench/engines.py`` plays it) and the ratio A/B (above 1: B is faster), then ``uptime``::

    git worktree add /tmp/engine_base <commit>        # or: git archive <commit> | tar -x -C DIR
    python bench/engines_ab.py /tmp/engine_base . [--game carcassonne] [--seeds 30] [--only 2p,all]
    python bench/engines_ab.py --quick        # a smoke run: this checkout against itself, one seed, one setup

A is the first tree (the baseline), B the second; the setups are the game's
``bench_setups`` (else its ``sample_setups``); ``--only`` keeps the setups whose label
contains one of the comma-separated words (labels: ``2p default``, ``2p expansions=10``).
The last line is one JSON object holding every figure.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _quick import parse_args

ROOT = Path(__file__).resolve().parent.parent


def load_tree(root: str, game: str) -> dict:
    """Import ``pbem.games`` and the game from ``root``; returns that tree's ``pbem*`` modules."""
    for name in [n for n in sys.modules if n == "pbem" or n.startswith("pbem.")]:
        del sys.modules[name]
    sys.path.insert(0, str(Path(root).resolve()))
    try:
        importlib.import_module("pbem.games")
        importlib.import_module("pbem.games.playout")
        sys.modules["pbem.games"].get(game)      # the registry imports the games here
    finally:
        sys.path.pop(0)
    return {n: m for n, m in sys.modules.items() if n == "pbem" or n.startswith("pbem.")}


def use(mods: dict) -> None:
    for name in [n for n in sys.modules if n == "pbem" or n.startswith("pbem.")]:
        del sys.modules[name]
    sys.modules.update(mods)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", nargs="?", help="baseline tree (holds pbem/)")
    parser.add_argument("b", nargs="?", help="changed tree")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--only", default="", help="words of the setups to run, e.g. 'expansions' or '2p,3p'")
    parser.add_argument("--setups", type=int, default=None, help="at most this many of the setups (the first)")
    # --quick: this checkout against itself (both loaded, as two trees are), one seed, the first setup
    args = parse_args(parser, {"a": str(ROOT), "b": str(ROOT), "seeds": 1, "setups": 1})
    if not (args.a and args.b):
        parser.error("two trees to compare: A (the baseline) and B")
    trees = [load_tree(args.a, args.game), load_tree(args.b, args.game)]
    games = [t["pbem.games"].get(args.game) for t in trees]
    plays = [t["pbem.games.playout"].play_random for t in trees]
    setups = getattr(games[0], "bench_setups", None) or games[0].sample_setups
    rows = []
    for players, options in setups[:args.setups]:
        label = f"{players}p " + (",".join(f"{k}={len(v) if isinstance(v, (list, tuple)) else v}"
                                           for k, v in sorted(options.items())) or "default")
        if args.only and not any(w in label for w in args.only.split(",")):
            continue
        times = ([], [])
        for seed in range(args.seeds):
            for i in ((0, 1) if seed % 2 == 0 else (1, 0)):   # alternate who goes first
                use(trees[i])
                t0 = time.perf_counter()
                plays[i](games[i], players, dict(options), seed=seed)
                times[i].append(time.perf_counter() - t0)
        ma, mb = (statistics.median(t) * 1000 for t in times)
        print(f"{args.game} {label:20} A {ma:8.2f} ms  B {mb:8.2f} ms  A/B {ma / mb:5.2f}x", flush=True)
        rows.append({"setup": label, "a_median_ms": round(ma, 3), "b_median_ms": round(mb, 3),
                     "a_over_b": round(ma / mb, 3)})
    if shutil.which("uptime"):
        print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(json.dumps({"bench": "engines_ab", "game": args.game, "a": str(Path(args.a).resolve()),
                      "b": str(Path(args.b).resolve()), "seeds": args.seeds, "load": os.getloadavg()[0],
                      "results": rows}))


if __name__ == "__main__":
    main()
