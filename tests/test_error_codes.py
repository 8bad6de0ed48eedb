"""Every error code the source can raise is documented in a registry
(pbem/errors.py for the server, pbem/games/ for the rules), and docs/api.md,
docs/errors.md and the OpenAPI document are generated from the registries."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from pbem.docgen import error_docs
from pbem import games
from pbem.errors import CODES
from pbem.games.base import PROTOCOL_ERROR_CODES

from .error_scan import family, scan

ROOT = Path(__file__).resolve().parent.parent


def _game_of(path: str) -> str | None:
    """The game a source file belongs to (None: the server, or the protocol)."""
    parts = Path(path).parts
    if parts[:2] != ("pbem", "games") or parts[2] in ("base.py", "__init__.py", "playout.py"):
        return None
    return parts[2].removesuffix(".py")


def undocumented(root: Path) -> list[str]:
    """Codes the source under ``root`` raises that no registry lists, as ``path:line: code``."""
    protocol = {family(c) for c in PROTOCOL_ERROR_CODES}
    server = {family(c) for c in CODES}
    by_game = {}
    for game in games.all_games():
        by_game[type(game).__module__.split(".")[2]] = {family(c) for c in game.error_codes}
    missing = []
    result = scan(root)
    for found in result.found:
        game, code = _game_of(found.path), family(found.code)
        if Path(found.path).parts[:2] == ("pbem", "games"):
            known = protocol | by_game.get(game, set()) if game else protocol
        else:
            known = server | protocol  # the service passes game codes on (game_over, say)
        if code not in known:
            missing.append(f"{found.path}:{found.line}: {found.code}")
    return missing + [f"unresolved {u}" for u in result.unresolved]


def test_every_code_the_source_raises_is_documented():
    assert undocumented(ROOT) == []


def test_a_new_undocumented_code_fails_the_check(tmp_path):
    shutil.copytree(ROOT / "pbem", tmp_path / "pbem")
    with open(tmp_path / "pbem" / "service" / "submit.py", "a") as f:
        f.write('\n\ndef _new():\n    raise Conflict("brand_new_code", "nobody wrote this down")\n')
    with open(tmp_path / "pbem" / "games" / "wakanda.py", "a") as f:
        f.write('\n\ndef _also_new(ok):\n    require(ok, "new_rule_code", "neither this")\n')
    with open(tmp_path / "pbem" / "api" / "app.py", "a") as f:
        f.write('\n\ndef _opaque(x):\n    raise Unprocessable(x.pick(), "a code the scan cannot read")\n')
    found = undocumented(tmp_path)
    assert any(line.endswith(": brand_new_code") for line in found), found
    assert any(line.endswith(": new_rule_code") for line in found), found
    assert any(line.startswith("unresolved pbem/api/app.py") for line in found), found
    assert len(found) == 3, found


def test_the_scan_sees_codes_named_indirectly():
    codes = scan(ROOT).codes()
    # a literal, a helper's forwarded parameter, a check's refusal tuple, a
    # conditional, an f-string family, a status table, a dict literal:
    for code in ("game_mismatch", "bad_colour", "line_too_long", "no_own_farmer", "game_not_started",
                 "illegal_<*>", "method_not_allowed", "busy", "http_error", "mail_too_large"):
        assert code in codes, code


def test_every_documented_code_is_raised_somewhere():
    """No entry outlives its code (families count by their shape)."""
    raised = {family(c) for c in scan(ROOT).codes()}
    documented = {family(c) for c in [*CODES, *PROTOCOL_ERROR_CODES,
                                      *(c for g in games.all_games() for c in g.error_codes)]}
    assert documented - raised == set()


def test_readme_and_docs_are_generated_from_the_registry():
    assert error_docs.main(["--check"]) == 0, "run `make errors`"
    readme = (ROOT / "docs" / "api.md").read_text()
    for code in ("game_mismatch", "game_started", "stale_version", "nonce_reused"):
        assert f"| `{code}` |" in readme
    errors_md = (ROOT / "docs" / "errors.md").read_text()
    assert "| `village_closed` |" in errors_md and "| `cult_neighbourhood` |" in errors_md


def test_the_spec_lists_every_code():
    spec = json.loads((ROOT / "api_spec" / "openapi.json").read_text())
    listed = spec["x-error-codes"]
    assert set(listed["server"]) == set(CODES)
    assert listed["server"]["game_started"]["statuses"] == [409]
    assert listed["server"]["stale_version"]["rejected_move"] is True
    assert set(listed["games"]) == {"*", *(g.name for g in games.all_games())}
    assert "village_closed" in listed["games"]["wakanda"]
    assert "| `game_mismatch` | 422 |" in spec["info"]["description"]
