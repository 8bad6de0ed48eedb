"""`make run` installs only the package; `make test` (and `make install`,
the development setup) the test extras too. Read from `make -n` on a fresh
virtualenv path: nothing is installed."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    assert "pip install --quiet -c constraints.txt -e ." in run and "[test]" not in run and "pbem.server.run" in run
    for target in ("test", "install"):
        assert "pip install --quiet -c constraints.txt -e '.[test]'" in planned(target, venv)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_a_fresh_install_says_what_it_is_doing_before_pips_silent_minute(tmp_path):
    run = planned("run", tmp_path / "venv").splitlines()
    said = next(i for i, line in enumerate(run) if "installing pbem's dependencies into" in line)
    assert "about a minute on a fresh machine" in run[said]
    assert said < next(i for i, line in enumerate(run) if " -m venv " in line)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_bench_targets_install_the_server_then_run_the_benchmarks(tmp_path):
    venv = tmp_path / "venv"
    quick = planned("bench-quick", venv)
    assert "pip install --quiet -c constraints.txt -e ." in quick and "bench/summary.py --quick" in quick
    full = planned("bench", venv)
    for name in ("engines.py", "replay.py", "storage.py", "pictures.py", "pages.py", "pipeline.py", "stream.py"):
        assert name in full, name


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_the_timing_phase_collects_only_the_files_that_say_mark_timing(tmp_path):
    """make test's timing phase hands pytest the files whose text says
    `mark.timing`; a timing test marked some other way stops the collection
    (tests/conftest.py), so none is left out of that phase unseen."""
    assert "-m timing $(TIMING_FILES)" in (ROOT / "Makefile").read_text()
    hidden = ROOT / "tests" / f"test_zz_timing_hidden_{os.getpid()}.py"
    hidden.write_text("import pytest\n\n\n@getattr(pytest.mark, 'tim' + 'ing')\ndef test_hidden():\n    pass\n")
    try:
        listed = subprocess.run(["make", "-n", "-C", str(ROOT), "test", f"VENV={tmp_path / 'venv'}"],
                                capture_output=True, text=True, check=True, timeout=60).stdout
        assert "tests/test_stream_queue.py" in listed and hidden.name not in listed
        collected = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
                                    "--collect-only", "-q", str(hidden.relative_to(ROOT))], cwd=ROOT,
                                   capture_output=True, text=True, timeout=120)
    finally:
        hidden.unlink()
    assert collected.returncode != 0
    assert "is a timing test, but its file's text does not say `mark.timing`" in collected.stdout + collected.stderr
