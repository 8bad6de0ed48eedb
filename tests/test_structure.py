"""The code's dependencies point one way, and the tree says how.

Layers of pbem/, lowest first; a module imports only from its own package
or from a lower layer (every import counts, a function's deferred one too):

    games, errors, invisible     the rules (standard library only) and the edge's vocabulary
                                 (errors read their messages through pbem.games.i18n)
    when                         dates and times in the reader's language and zone (Babel)
    settings                     every environment variable, read through one registry
    store, failpoint             the event store and what it stands on (shards, connections,
                                 indexes, round trips, failed deliveries)
    telemetry, trust,            logs and metrics; signatures, records and URL credentials;
    pictures, docgen             pictures drawn from views; documentation generated from registries
    pipeline                     the move pipeline: streams per shard, their drainers
    service                      the Service facade over the rules and the store, and its sweeps
    notify                       notifications out (mail, webhooks, deadlines)
    mail_in                      mail in (its answers go out through notify)
    stream                       the live event stream
    api, web                     the HTTP edges: web imports only api's shared modules,
                                 api imports the web only where app assembles it
    server, client               entry points: make run, the WSGI app, gunicorn; the Python client
    cli                          the ``pbem`` command

Also: no import circles at all, nothing of pbem imports ``workers`` (the
jobs are named by strings), pbem/'s top holds a dozen modules at most, and
the API's view modules depend on ``pbem.api.common`` and the service, never
on each other nor on ``app`` (which only assembles them); the service's
parts never import the facade."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "pbem" / "api"
#: What a view module may import from pbem.api: shared, not views.
SHARED = {"common", "security", "parsing", "schemas", "record_schemas", "limits", "error_format"}


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
    # The sweeps run on the facade (a client of it, as the workers are); the facade never imports them.
    assert "maintenance" not in api_imports(ROOT / "pbem" / "service" / "__init__.py")
    for path in parts:
        if path.name in ("__init__.py", "maintenance.py"):
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


# -- the import graph of pbem/ --------------------------------------------------

PBEM = ROOT / "pbem"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PBEM.rglob("*.py")}


def _owner(name: str) -> str | None:
    """The module that defines ``name`` (``pbem.store.key`` -> ``pbem.store``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str) -> set[str]:
    """The pbem modules (and ``workers``) that module ``name`` imports,
    anywhere in it: at the top, in a function, under TYPE_CHECKING.
    ``from package import x`` is an edge to the module ``package.x`` when x
    is one, else to ``package``; a package a module sits in is not an edge
    (Python runs its ``__init__`` first, but that is how packages work)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "workers":
                    found.add("workers")
                elif alias.name.split(".")[0] == "pbem":
                    found.add(_owner(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] == "workers":
                found.add("workers")
            elif source.split(".")[0] == "pbem":
                for alias in node.names:
                    found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else _owner(source))
    found.discard(name)
    found.discard(None)
    return found


@functools.cache
def graph() -> dict[str, set[str]]:
    """Every module's imports: built when a test first asks (not at import:
    every pytest process collects this file, and parsing all of pbem costs
    half a second in each)."""
    return {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import circle for each strongly connected group of modules
    (Tarjan's algorithm, iterative), as the path round it."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
    return [_circle_in(graph, group) for group in groups]


def _circle_in(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return paths[node] + [start]
            if nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    return sorted(group)


def test_the_cycle_finder_finds_every_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}, "f": {"a"}}
    assert sorted(cycles(graph)) == [["a", "b", "c", "a"], ["e", "e2", "e"]]


def test_the_graph_sees_deferred_and_package_imports():
    # a deferred import inside a function (web/__init__ registers the views when asked)
    assert "pbem.web.views" in graph()["pbem.web"]
    # ``from .. import games``: the package; ``from ..store import key``: the facade
    assert "pbem.games" in graph()["pbem.web.standalone"]
    assert "pbem.store" in graph()["pbem.service.common"]
    assert "pbem.store.failures" in graph()["pbem.service.lifecycle"]


def test_no_import_circles():
    found = cycles(graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


LAYERS = [
    {"games", "errors", "invisible"},
    {"when"},
    {"settings"},
    {"store", "failpoint"},
    {"telemetry", "trust", "pictures", "docgen"},
    {"pipeline"},
    {"service"},
    {"notify"},
    {"mail_in"},
    {"stream", "ratings"},
    {"api", "web"},
    {"server", "client"},
    {"bots"},
    {"cli"},
]
#: Imports between two packages of one layer, and which modules may make them.
ACROSS = {
    ("web", "api"): lambda source, target: target.rpartition(".")[2] in SHARED,
    ("api", "web"): lambda source, target: source == "pbem.api.app" and target == "pbem.web",
    # an error's message is looked up in the reader's language like every text
    ("errors", "games"): lambda source, target: target == "pbem.games.i18n",
}


def part_of(module: str) -> str:
    """A module's part of pbem: its package under pbem/, or the module at the top."""
    return module.split(".")[1]


def rank(part: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if part in layer)


def test_every_part_of_pbem_has_a_layer():
    parts = {part_of(m) for m in MODULES if m != "pbem"}
    assert parts == set().union(*LAYERS), parts ^ set().union(*LAYERS)


def test_dependencies_point_down_the_layers():
    wrong = []
    for source, targets in sorted(graph().items()):
        if source == "pbem":
            continue
        for target in sorted(targets):
            if target == "workers":
                wrong.append(f"{source} imports workers (name a job by its path, a string)")
                continue
            if target == "pbem":
                continue
            a, b = part_of(source), part_of(target)
            if a == b or rank(b) < rank(a):
                continue
            if rank(b) == rank(a) and ACROSS.get((a, b), lambda *_: False)(source, target):
                continue
            wrong.append(f"{source} ({a}) imports {target} ({b})")
    assert not wrong, "\n".join(wrong)


def test_the_games_import_only_the_standard_library_and_themselves():
    import sys

    for name in (m for m in MODULES if m != "pbem" and part_of(m) == "games"):
        for node in ast.walk(ast.parse(MODULES[name].read_text())):
            if isinstance(node, ast.Import):
                tops = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = {node.module.split(".")[0]}
            else:
                continue
            outside = {t for t in tops if t not in sys.stdlib_module_names and t != "__future__"}
            assert not outside, f"{name} imports {outside}"
        assert all(t != "pbem" and part_of(t) == "games" for t in graph()[name]), (name, graph()[name])


def test_the_top_of_pbem_holds_a_dozen_modules_at_most():
    top = sorted(p.name for p in PBEM.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= 12, top
    # and every folder of code is a package (setuptools ships it, imports find it)
    for folder in {p.parent for p in PBEM.rglob("*.py")}:
        assert (folder / "__init__.py").exists(), folder
