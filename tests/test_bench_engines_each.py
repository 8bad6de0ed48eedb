"""``bench/engines.py --each``: Carcassonne's expansions one at a time, each row's CPU time
per decision set against the base game's with as many seats, measured in the same run
(issue 31's figure: every expansion on, at most 2.2x the base game's per decision)."""
from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT


def test_each_expansion_alone_with_its_ratio_to_the_base_game():
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "engines.py"), "--quick", "--each", "carcassonne@2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = json.loads(proc.stdout.splitlines()[-1])["results"]
    # the name picks one version of a game: carcassonne@1 (same name) is not measured
    assert {r["game"] for r in rows} == {"carcassonne@2"}
    from pbem.games.carcassonne.catalog import ALL_EXPANSIONS
    alone = {json.loads(r["options"])["expansions"][0]: r for r in rows
             if r["options"] != "{}" and len(json.loads(r["options"])["expansions"]) == 1}
    assert sorted(alone) == sorted(ALL_EXPANSIONS)
    base2 = next(r for r in rows if r["players"] == 2 and r["options"] == "{}")
    assert base2["per_decision_vs_default"] == 1.0
    every = next(r for r in rows if len(json.loads(r["options"]).get("expansions", ())) == len(ALL_EXPANSIONS))
    for r in [*alone.values(), every]:
        assert r["players"] == 2 and r["cpu_us_per_decision"] > 0
        assert r["per_decision_vs_default"] == round(r["cpu_us_per_decision"] / base2["cpu_us_per_decision"], 3)
    # each row's text says the same ratio
    assert proc.stdout.count("x the default's") == len(ALL_EXPANSIONS) + 1
