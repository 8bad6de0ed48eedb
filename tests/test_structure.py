"""The code's dependencies point one way: the API's view modules depend on
``pbem.api.common`` and the service, never on each other nor on ``app``
(which only assembles them); the service's parts never import the facade."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "pbem" / "api"
#: What a view module may import from pbem.api: shared, not views.
SHARED = {"common", "security", "parsing", "schemas", "record_schemas", "limits"}


def api_imports(path: Path) -> set[str]:
    """The pbem.api modules a file imports (relative imports inside pbem/api)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_view_modules_import_no_other_view_module_nor_app():
    views = sorted(API.glob("*_views.py"))
    assert len(views) >= 5
    for path in views:
        imported = api_imports(path)
        assert imported <= SHARED, f"{path.name} imports {sorted(imported - SHARED)}"


def test_only_the_package_imports_app():
    for path in API.glob("*.py"):
        if path.name in ("__init__.py", "spec.py", "app.py"):
            continue
        assert "app" not in api_imports(path), path.name


def test_shared_modules_import_no_view():
    for name in SHARED:
        imported = api_imports(API / f"{name}.py")
        assert not any(i.endswith("_views") or i == "app" for i in imported), (name, imported)


def test_the_service_parts_never_import_the_facade():
    parts = sorted((ROOT / "pbem" / "service").glob("*.py"))
    assert {p.name for p in parts} >= {"__init__.py", "common.py", "loading.py", "lifecycle.py", "queries.py",
                                       "submit.py", "apply.py", "records.py"}
    for path in parts:
        if path.name == "__init__.py":
            continue
        imported = api_imports(path)
        assert imported <= {"common"}, f"{path.name} imports {sorted(imported - {'common'})}"


def test_the_facade_keeps_every_name_callers_use():
    from pbem import service

    for name in ("Service", "Loaded", "StateCache", "CREATOR", "move_id_for", "game_of", "seat_of_token",
                 "shown_events"):
        assert hasattr(service, name), name
    for method in ("create_game", "join", "load", "submit", "submit_trusted", "apply_moves", "record_lines",
                   "get_game", "events", "state_at", "move_status", "abandon", "compact", "delete_game"):
        assert callable(getattr(service.Service, method)), method
