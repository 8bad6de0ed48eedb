"""Run benchmarks one after the other and end with a short table of their
figures (``make bench``). Each benchmark's output goes through as it runs;
its last line (one JSON object) is what the table is made from.

    python bench/summary.py "engines.py --games 10" "replay.py" "storage.py" "pipeline.py --seconds 60"
    python bench/summary.py --quick            # every benchmark in its smoke mode (make bench-quick)

Without commands it runs every benchmark that ``make bench`` runs (with
``--quick``: every one under bench/, engines_ab.py comparing this checkout
with itself). ``--quick`` adds ``--quick`` to each command. The last line is
one JSON object: every benchmark's own JSON, by name.
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: What ``make bench`` runs (engines_ab.py needs two trees to mean anything).
DEFAULT = ["engines.py", "replay.py", "storage.py", "pictures.py", "pages.py", "pipeline.py --seconds 60", "stream.py"]


def every_benchmark() -> list[str]:
    """Every benchmark under bench/ (helpers start with an underscore)."""
    return sorted(p.name for p in HERE.glob("*.py") if not p.name.startswith("_") and p.name != "summary.py")


def run(command: str) -> dict | None:
    args = shlex.split(command)
    print(f"== bench/{command}", flush=True)
    proc = subprocess.Popen([sys.executable, str(HERE / args[0]), *args[1:]], stdout=subprocess.PIPE, text=True)
    last = ""
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if line.strip():
            last = line
    if proc.wait() != 0:
        print(f"bench/{args[0]} exited with {proc.returncode}", flush=True)
        return None
    try:
        return json.loads(last)
    except ValueError:
        return None


def rows_for(name: str, figures: dict) -> list[tuple[str, str]]:
    out = []
    if name == "engines":
        for r in figures.get("results", []):
            out.append((f"engines {r['game']} {r['players']}p {r['options'][:24]}", f"median game {r['median_ms']} ms, "
                        f"replay {r['replay_events_per_s']:,} events/s"))
    elif name == "replay":
        out.append((f"replay {figures['events']} events cold", f"{figures['cold_ms']} ms, "
                    f"{figures['cold_events_per_s']:,} events/s"))
        out.append((f"replay warm (snapshot + {figures['warm_worst_tail_events']})",
                    f"{figures['warm_worst_ms']} ms, {figures['warm_worst_events_per_s']:,} events/s"))
        out.append(("replay stream read", f"{figures['stream_read_events_per_s']:,} events/s"))
    elif name == "storage":
        for r in figures.get("results", []):
            out.append((f"storage {r['game']} {r['players']}p ({r['events']} events)",
                        f"Redis {r['redis_bytes']:,} B/game; record {r['record_raw_bytes']:,} B, "
                        f"gzip {r['record_gzip_bytes']:,} B"))
    elif name == "pictures":
        for r in figures.get("results", []):
            out.append((f"pictures {r['game']} {r['players']}p {r['options'][:20]} {r['moment']}",
                        f"SVG {r['svg_ms']} ms, PNG {r['png_ms']} ms (CPU {r['png_cpu_ms']} ms), "
                        f"{r['png_bytes'] // 1000} KB"))
    elif name == "pages":
        for r in figures.get("rows", []):
            out.append((f"pages {r['game']} {r['page']}",
                        f"median {r['in_process']['median_ms']} ms, p95 {r['in_process']['p95_ms']} ms in process; "
                        f"HTTP server p95 {r['http']['server_p95_ms']} ms"))
    elif name == "pipeline":
        for label, run_ in figures.items():
            if isinstance(run_, dict) and "applied_moves_per_s" in run_:
                text = f"{run_['applied_moves_per_s']} moves/s"
                if "ratio_to_noop" in run_:
                    text += f" ({run_['ratio_to_noop']} of noop)"
                if "paced_p99_ms" in run_:
                    text += f", paced p99 {run_['paced_p99_ms']} ms"
                if run_.get("cpu_ms_per_move") and run_.get("cpu_ms_per_noop"):
                    text += (f", CPU {sum(run_['cpu_ms_per_move'].values()):.2f} ms/move against "
                             f"{sum(run_['cpu_ms_per_noop'].values()):.2f} ms/noop")
                out.append((f"pipeline {label}", text))
        if "notify_throughput_drop" in figures:
            out.append(("pipeline notifications on",
                        f"applied moves/s {-figures['notify_throughput_drop']:+.1%} against off (same run)"))
    elif name == "engines_ab":
        for r in figures.get("results", []):
            out.append((f"engines_ab {figures['game']} {r['setup']}", f"A {r['a_median_ms']} ms, B {r['b_median_ms']} ms, "
                        f"A/B {r['a_over_b']}x"))
    elif name == "stream":
        out.append((f"stream {figures['streams']} open, no-op req/s",
                    f"{figures['noop_ratio_with_to_without']} of without ({figures['noop_with_req_per_s']} against "
                    f"{figures['noop_without_req_per_s']})"))
        for phase in ("paced", "burst"):
            lat = figures[f"latency_{phase}"]
            out.append((f"stream append-to-receive {phase}", f"p99 {lat['p99_ms']} ms over {lat['deliveries']} "
                        f"deliveries, {lat['missed']} missed"))
    return out


def main(commands: list[str]) -> int:
    results, failed = {}, []
    for command in commands:
        name = Path(shlex.split(command)[0]).stem
        figures = run(command)
        if figures is None:
            failed.append(name)
            continue
        results[name] = figures
    print("\n== summary")
    table = [row for name, figures in results.items() for row in rows_for(name, figures)]
    width = max((len(k) for k, _ in table), default=10)
    for k, v in table:
        print(f"{k:<{width}}  {v}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    print(json.dumps({"bench": "all", "failed": failed, **results}))
    return 1 if failed else 0


def parse(argv: list[str]) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commands", nargs="*", help="benchmarks to run, each with its options, one argument each")
    parser.add_argument("--quick", action="store_true", help="each benchmark in its smoke mode (its --quick)")
    args = parser.parse_args(argv)
    if not args.quick:
        return args.commands or DEFAULT
    return [f"{command} --quick" for command in args.commands or every_benchmark()]


if __name__ == "__main__":
    sys.exit(main(parse(sys.argv[1:])))
