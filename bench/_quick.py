"""``--quick`` for every benchmark: the smallest run that still goes through
all of its code and prints all of its figures and its closing JSON line, in
a second or two (a few more for those that start a server). It is what
tests/test_bench_smoke.py runs, so that no benchmark rots unnoticed; its
figures mean nothing. (Not a benchmark itself: the leading underscore.)"""
from __future__ import annotations

import argparse

HELP = "a smoke run: the fewest games, rounds and seconds (its figures mean nothing)"


def parse_args(parser: argparse.ArgumentParser, quick: dict, argv: list[str] | None = None) -> argparse.Namespace:
    """Parse with ``--quick`` added; with it, ``quick`` replaces the
    defaults (an option given on the command line still wins)."""
    parser.add_argument("--quick", action="store_true", help=HELP)
    args = parser.parse_args(argv)
    if args.quick:
        parser.set_defaults(**quick)
        args = parser.parse_args(argv)
    return args
