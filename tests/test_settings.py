"""The one list of settings (pbem/settings/registry.py): every environment
variable the source reads is in it, docs/operations.md's table is generated from it,
and a value that does not parse stops a process's start with one clear line."""
from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from pbem.docgen import settings_docs
from pbem.settings.registry import REGISTRY, SettingError, env, errors

from .conftest import ROOT

SOURCES = ["pbem", "workers", "bench", "tests"]


def environment_reads() -> tuple[dict[str, list[str]], list[str]]:
    """Names read from the environment anywhere in the source (by
    ``os.environ.get/[]``, ``os.getenv``, ``name in os.environ`` or the
    registry's ``env``), and the places that read the environment by a name
    that is not a literal (which the scan cannot check)."""
    names: dict[str, list[str]] = {}
    dynamic: list[str] = []

    def is_environ(node) -> bool:  # os.environ (a WSGI ``environ`` is no environment)
        return isinstance(node, ast.Attribute) and node.attr == "environ" and \
            isinstance(node.value, ast.Name) and node.value.id == "os"

    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            tree = ast.parse(path.read_text(), rel)
            for node in ast.walk(tree):
                arg = None
                if isinstance(node, ast.Call):
                    f = node.func
                    if isinstance(f, ast.Attribute) and f.attr in ("get", "pop", "setdefault") and is_environ(f.value):
                        arg = node.args[0] if node.args else None
                    elif isinstance(f, ast.Attribute) and f.attr == "getenv":
                        arg = node.args[0] if node.args else None
                    elif isinstance(f, ast.Name) and f.id in ("env", "_env") and node.args:
                        # The registry's reader (a name outside it is a KeyError at once).
                        if isinstance(node.args[0], ast.Constant):
                            names.setdefault(node.args[0].value, []).append(f"{rel}:{node.lineno}")
                        continue
                    else:
                        continue
                elif isinstance(node, ast.Subscript) and is_environ(node.value) and isinstance(node.ctx, ast.Load):
                    arg = node.slice
                elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                        and is_environ(node.comparators[0]):
                    arg = node.left
                else:
                    continue
                where = f"{rel}:{node.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names.setdefault(arg.value, []).append(where)
                else:
                    dynamic.append(where)
    return names, dynamic


def test_every_environment_variable_read_is_in_the_registry():
    names, dynamic = environment_reads()
    # The scan finds what it should: a read through env() and direct reads.
    assert "PBEM_SNAPSHOT_EVERY" in names and "PBEM_CONTRACT_SEEDS" in names and "PBEM_HOME" in names
    missing = {name: where for name, where in names.items() if name not in REGISTRY}
    assert missing == {}, f"read from the environment but not in pbem/settings/registry.py: {missing}"
    # Only the registry itself reads the environment by a name it is handed.
    assert [d for d in dynamic if not d.startswith("pbem/settings/registry.py")] == []


def test_the_readme_table_is_generated_from_the_registry():
    text = (ROOT / "docs" / "operations.md").read_text()
    assert settings_docs.render(text) == text, "docs/operations.md's settings table is stale: run `make settings`"
    for name in ("PBEM_ACCESS_LOG", "PBEM_ADMIN_TOKEN", "PBEM_HOME", "PBEM_SERVER", "PBEM_PUBLIC_URL"):
        assert f"| `{name}` |" in text


def test_every_default_parses_and_bad_values_name_the_setting():
    assert errors({}) == []
    assert env("PBEM_SNAPSHOT_EVERY", {}) == 50 and env("PBEM_SNAPSHOT_EVERY", {"PBEM_SNAPSHOT_EVERY": " 7 "}) == 7
    assert env("PBEM_NOTIFY", {"PBEM_NOTIFY": "off"}) is False and env("REDIS_URL", {"REDIS_URL": ""}) is None
    cases = [("PBEM_SNAPSHOT_EVERY", "abc", "a whole number ≥ 1"), ("PBEM_SNAPSHOT_EVERY", "0", "≥ 1"),
             ("PORT", "70000", "a port number"), ("PBEM_APPENDFSYNC", "sometimes", "one of always, everysec, no"),
             ("PBEM_NOTIFY", "maybe", "1 or 0"), ("REDIS_URL", "localhost:6379", "redis://"),
             ("PBEM_DRAIN_GATHER_MS", "nan", "a number"), ("PBEM_LOG_FORMAT", "xml", "text, json")]
    for name, value, expected in cases:
        with pytest.raises(SettingError) as err:
            env(name, {name: value})
        assert str(err.value).startswith(f"{name}={value!r}: expected ") and expected in str(err.value)


@pytest.mark.parametrize("command", [["pbem.server.run"], ["workers.worker", "pbem-moves"], ["pbem.stream"],
                                     ["pbem.mail_in.listener"]])
def test_a_bad_setting_stops_the_start_with_one_line(command, tmp_path):
    env_ = dict(os.environ, PBEM_SNAPSHOT_EVERY="abc", PBEM_DATA_DIR=str(tmp_path), REDIS_URL="redis://127.0.0.1:1/0")
    proc = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, env=env_, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "bad setting PBEM_SNAPSHOT_EVERY='abc': expected a whole number ≥ 1" in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "redis").exists()  # nothing was started
