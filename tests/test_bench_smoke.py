"""Every benchmark under bench/ still runs: each in its smoke mode
(``--quick``: the fewest games, rounds and seconds) as a subprocess, as
``make bench`` runs it; it exits 0 and its last line is one JSON object
with its figures' keys. The figures themselves mean nothing here.

Not ``timing`` tests: nothing is measured against a budget, so they run in
the suite's parallel phase (the two that start a whole server, pipeline and
stream, take 10-20 s each there)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import ROOT

BENCH = ROOT / "bench"

#: Each benchmark's arguments (beyond --quick) and the keys its JSON line
#: must hold: {key: None} for a figure, {key: [keys]} for a list of rows
#: (or a dict) whose first row holds those keys.
CASES = {
    "bots.py": ([], {"bench": None, "results": ["game", "level", "against", "games", "win_rate", "met"]}),
    "engines.py": ([], {"bench": None, "results": ["game", "median_ms", "replay_events_per_s", "cpu_us_per_decision"]}),
    "engines_ab.py": ([], {"bench": None, "a": None, "b": None,
                           "results": ["setup", "a_median_ms", "b_median_ms", "a_over_b"]}),
    "pages.py": ([], {"bench": None, "worst_page_p95_ms": None, "met": None, "rows": ["page", "in_process", "http"]}),
    "pictures.py": ([], {"bench": None, "results": ["game", "svg_ms", "png_ms", "png_bytes"]}),
    "pipeline.py": ([], {"bench": None, "notify_off": ["noop_req_per_s", "applied_moves_per_s", "ratio_to_noop",
                                                       "paced_p99_ms", "cpu_ms_per_move"]}),
    "replay.py": ([], {"bench": None, "events": None, "cold_ms": None, "warm_ms": None, "warm_worst_ms": None,
                       "hot_ms": None, "stream_read_events_per_s": None}),
    "storage.py": ([], {"bench": None, "results": ["game", "redis_bytes", "record_gzip_bytes", "compacted_bytes"]}),
    "stream.py": ([], {"bench": None, "opened": None, "noop_ratio_with_to_without": None,
                       "latency_paced": ["p99_ms", "missed"], "latency_burst": ["p99_ms", "missed"]}),
    # the summary's own plumbing (each command's JSON, the table), on two of the quickest
    "summary.py": (["engines.py", "engines_ab.py"], {"bench": None, "failed": None, "engines": ["bench", "results"],
                                                      "engines_ab": ["bench", "results"]}),
}


def test_every_benchmark_has_a_smoke_run():
    benchmarks = {p.name for p in BENCH.glob("*.py") if not p.name.startswith("_")}
    assert benchmarks == set(CASES), "a benchmark without a smoke run here, or a case without its benchmark"


def run_quick(name: str, args: list[str]) -> tuple[str, dict]:
    proc = subprocess.run([sys.executable, str(BENCH / name), *args, "--quick"], cwd=ROOT, capture_output=True,
                          text=True, timeout=180)
    report = f"bench/{name} --quick exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, report
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) >= 2, report  # its figures as text, then the JSON line
    try:
        figures = json.loads(lines[-1])
    except ValueError:
        raise AssertionError("the last line is not JSON:\n" + report) from None
    assert isinstance(figures, dict), report
    return proc.stdout, figures


def has_keys(figures: dict, expected: dict) -> None:
    for key, inner in expected.items():
        assert key in figures, f"{key!r} missing from {sorted(figures)}"
        if inner:
            value = figures[key]
            row = value[0] if isinstance(value, list) else value
            assert isinstance(row, dict), f"{key!r}: {value!r}"
            missing = [k for k in inner if k not in row]
            assert not missing, f"{key!r} lacks {missing}: {sorted(row)}"


@pytest.mark.parametrize("name", [n for n in CASES if n not in ("pipeline.py", "stream.py")])
def test_benchmark_quick(name):
    args, expected = CASES[name]
    out, figures = run_quick(name, args)
    has_keys(figures, expected)
    if name == "summary.py":
        assert figures["failed"] == [] and "== summary" in out
        assert "\nengines carcassonne" in out and "\nengines_ab carcassonne" in out  # the table's rows
    elif name == "engines_ab.py":  # the checkout against itself
        assert figures["a"] == figures["b"] == str(ROOT)


@pytest.mark.parametrize("name", ["pipeline.py", "stream.py"])
def test_server_benchmark_quick(name):
    """The two that start ``make run`` on free ports (the stream one named
    its own stream port, which the server then took as its own: it connected
    to nothing and died at its health check)."""
    args, expected = CASES[name]
    out, figures = run_quick(name, args)
    has_keys(figures, expected)
    if name == "stream.py":
        assert figures["opened"] == figures["streams"] > 0, out
        assert "holder errors: 0" in out, out
