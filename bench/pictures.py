"""Pictures: time to draw the SVG and to rasterise the PNG, and the PNG's
size, for every registered game that has a picture module
(``pbem/pictures/<game>.py``). One command:

    python bench/pictures.py [--repeat N] [--quick] [name ...]

Per game and setup it plays a seeded random game with
``pbem.games.playout.play_random`` and pictures two moments: the finished
game (the spectator's view) and the middle of the game, as the seat to act
sees it with its legal moves marked. Each moment twice, in the same run:
in English with Latin names ("Player A"), and read in Traditional Chinese
(``reading("zh-Hant")``) with Chinese names (王小明...), whose labels the
CJK font draws; ``zh_over_en`` is the Chinese PNG's time over the English
one's. A picture module may name its setups in ``BENCH_SETUPS`` (the first
is the headline figure), else the game's first 2-player sample setup is
used; a game with expansions adds its 2-player setup with the most of them.
The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem import pictures  # noqa: E402
from pbem.games.base import SPECTATOR, canonical  # noqa: E402
from pbem.games.i18n import reading  # noqa: E402
from pbem.games.playout import play_random  # noqa: E402
from _quick import parse_args  # noqa: E402


#: the players' names by language: Latin in English, common Taiwanese names in Chinese
NAMES = {"en": [f"Player {chr(65 + i)}" for i in range(8)],
         "zh-Hant": ["王小明", "陳美玲", "林志豪", "張雅婷", "李家豪", "黃淑芬", "吳宗翰", "劉怡君"]}


def setups(game) -> list:
    module = sys.modules.get(pictures.draw_function(game.name).__module__)
    two = [s for s in game.sample_setups if s[0] == 2]
    out = list(getattr(module, "BENCH_SETUPS", None) or [(two or list(game.sample_setups))[0]])
    most = max(two, key=lambda s: len(s[1].get("expansions") or ()), default=None)
    if most and most[1].get("expansions") and most not in out:
        out.append(most)  # every expansion: the picture with the most on it
    return out


def timed(fn, repeat: int) -> tuple:
    """(median wall ms, median CPU ms of this process): the machine is shared,
    and the CPU figure is the one other processes disturb least."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return round(statistics.median(wall) * 1000, 3), round(statistics.median(cpu) * 1000, 3)


def moments(game, players, options, seed):
    """(label, view, viewer, legal) for the finished game and its middle."""
    played = play_random(game, players, options, seed=seed)
    final = played.state
    yield "finished", game.view(final, SPECTATOR), SPECTATOR, None
    version, player, _ = played.moves[len(played.moves) // 2]
    middle = game.replay(players, played.options, played.events[:version])
    yield "middle", game.view(middle, player), player, game.legal_moves(middle, player)


def measure(game, players, options, repeat: int, png_repeat: int, seed: int = 1) -> list:
    rows = []
    for label, view, viewer, legal in moments(game, players, options, seed):
        for lang, names in NAMES.items():
            names = names[:players]
            with reading(lang):
                def draw():
                    return pictures.svg(game.name, view, names=names, viewer=viewer, legal=legal)
                text = draw()
                image = pictures.png(text)   # the first: fonts and glyphs read, kept for the rest
                svg_ms, svg_cpu = timed(draw, repeat)
            png_ms, png_cpu = timed(lambda: pictures.png(text), png_repeat)
            rows.append({
                "game": game.key, "players": players, "options": canonical(options), "moment": label,
                "lang": lang, "svg_ms": svg_ms, "svg_cpu_ms": svg_cpu, "png_ms": png_ms, "png_cpu_ms": png_cpu,
                "svg_bytes": len(text.encode()), "png_bytes": len(image), "png_size": _size(image),
                "legal_moves": len(legal or ()),
            })
        en, zh = rows[-2], rows[-1]
        zh["zh_over_en"] = round(zh["png_cpu_ms"] / en["png_cpu_ms"], 3) if en["png_cpu_ms"] else None
    return rows


def _size(image: bytes) -> str:
    width, height = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
    return f"{width}x{height}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="games to measure (default: every game with a picture)")
    parser.add_argument("--repeat", type=int, default=60, help="SVG draws per picture (PNG: a quarter, at least 5)")
    parser.add_argument("--setups", type=int, default=None, help="at most this many of each game's setups (the first)")
    args = parse_args(parser, {"repeat": 1, "setups": 1})
    png_repeat = 1 if args.quick else max(5, args.repeat // 4)
    rows = []
    for game in pictures.games_with_pictures():
        if args.names and game.name not in args.names:
            continue
        for players, options in setups(game)[:args.setups]:
            for row in measure(game, players, options, args.repeat, png_repeat):
                rows.append(row)
                ratio = f" zh/en {row['zh_over_en']:.2f}" if row.get("zh_over_en") else ""
                print(f"{row['game']:16} {players}p {row['options'][:30]:30} {row['moment']:8} {row['lang']:7}"
                      f" svg {row['svg_ms']:6.2f} ms (cpu {row['svg_cpu_ms']:6.2f}) {row['svg_bytes'] / 1000:5.1f} KB"
                      f"  png {row['png_ms']:6.1f} ms (cpu {row['png_cpu_ms']:6.1f}) {row['png_bytes'] / 1000:5.1f} KB"
                      f" {row['png_size']}{ratio}", flush=True)
    print(json.dumps({"bench": "pictures", "results": rows}))


if __name__ == "__main__":
    main()
