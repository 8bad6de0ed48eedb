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
