"""`make run` installs only the package; `make test` (and `make install`,
the development setup) the test extras too. Read from `make -n` on a fresh
virtualenv path: nothing is installed."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def planned(target: str, venv: Path) -> str:
    return subprocess.run(["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"], capture_output=True,
                          text=True, check=True, timeout=60).stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_run_installs_the_package_only_and_test_the_extras(tmp_path):
    venv = tmp_path / "venv"
    run = planned("run", venv)
    # every install pinned to constraints.txt
    assert "pip install --quiet -c constraints.txt -e ." in run and "[test]" not in run and "pbem.run" in run
    for target in ("test", "install"):
        assert "pip install --quiet -c constraints.txt -e '.[test]'" in planned(target, venv)
