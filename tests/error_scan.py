"""Which error codes can the source raise? Read from the AST of pbem/, so that
a code added anywhere (``raise Conflict("new_code", ...)``) is found without
running it. tests/test_error_codes.py compares the result with the registry.

What counts as a code:

* the code argument of a call to an error class or helper (``RAISERS``, and
  any function that passes one of its own parameters on as the code, found
  to a fixed point: ``require``, a game's ``_fail``...): a string literal,
  both arms of ``a if c else b``, an f-string as a family (``illegal_{kind}``
  is ``illegal_<*>``), a local name's assigned values;
* ``return ("code", "message")``: a check that hands its refusal to a raiser
  (``raise IllegalMove(*why)``);
* ``code = "..."`` in an error class's body, in a function (``code, status =
  "malformed_json", 400``), and ``{"code": "..."}`` dict literals;
* the values of a dict named ``*_CODES`` that maps statuses to codes.

A code argument none of these explain (``Conflict(some_call())``) is reported
as unresolved, so the scan cannot silently miss a new way of naming codes.
Forwarding a caught error (``Unprocessable(err.code, ...)``) needs nothing.
"""
from __future__ import annotations

import ast
import copy
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

#: Error classes and helpers whose first argument (or ``code=``) is the code.
RAISERS = {"ServiceError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "Unprocessable",
           "Unavailable", "GameError", "IllegalMove", "ParseError", "BadOptions", "SignatureError",
           "UrlRefused", "MailTooLarge", "TooManyMails", "rejected"}
#: Helpers whose code is not the first argument.
POSITION = {"require": 1, "error_response": 1}
FAMILY = "<*>"


@dataclass
class Found:
    code: str
    path: str
    line: int


@dataclass
class Scan:
    found: list[Found] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)

    def codes(self, under: str = "") -> set[str]:
        return {f.code for f in self.found if f.path.startswith(under)}


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def family(code: str) -> str:
    """A registry entry or a found code with its placeholders made alike."""
    return re.sub(r"<[^>]*>", FAMILY, code)


class _Module:
    def __init__(self, path: Path, rel: str):
        self.rel = rel
        self.tree = ast.parse(path.read_text(), str(path))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return node
        return None


def _params(fn) -> list[str]:
    a = fn.args
    return [p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]]


#: Scans already made in this process, by the digest of what they read.
_SCANS: dict[bytes, Scan] = {}


def scan(root: Path) -> Scan:
    """The codes the sources under ``root``/pbem raise. A scan depends on
    nothing but those files' paths and bytes, so the same sources are parsed
    once per process (the tests scan the same tree several times); each
    caller gets its own copy."""
    files = sorted((root / "pbem").rglob("*.py"))
    digest = hashlib.sha256()
    for p in files:
        data = p.read_bytes()
        digest.update(f"{p.relative_to(root)}\0{len(data)}\0".encode())
        digest.update(data)
    k = digest.digest()
    if k not in _SCANS:
        _SCANS[k] = _scan(root, files)
    return copy.deepcopy(_SCANS[k])


def _scan(root: Path, files: list[Path]) -> Scan:
    modules = [_Module(p, str(p.relative_to(root))) for p in files]
    out = Scan()
    functions = {}  # name -> [FunctionDef] over every module, for starred refusals
    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.setdefault(node.name, []).append(node)

    positions = {**{n: 0 for n in RAISERS}, **POSITION}
    # Helpers that forward one of their parameters as the code, to a fixed point.
    changed = True
    while changed:
        changed = False
        for m in modules:
            for call in (n for n in ast.walk(m.tree) if isinstance(n, ast.Call)):
                arg = _code_arg(call, positions)
                fn = m.function_of(call) if arg is not None else None
                if isinstance(arg, ast.Name) and fn is not None and not isinstance(fn, ast.Lambda) \
                        and arg.id in _params(fn) and fn.name not in positions:
                    index = _params(fn).index(arg.id)
                    if _params(fn)[:1] in (["self"], ["cls"]):
                        index -= 1
                    positions[fn.name] = index
                    changed = True

    def add(code: str, m: _Module, node: ast.AST) -> None:
        out.found.append(Found(code, m.rel, getattr(node, "lineno", 0)))

    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call) and (arg := _code_arg(node, positions)) is not None:
                fn = m.function_of(node)
                if isinstance(arg, ast.Name) and fn is not None and not isinstance(fn, ast.Lambda) \
                        and arg.id in _params(fn):
                    continue  # a helper's own parameter: its callers are scanned
                codes = _resolve(arg, fn, functions)
                if codes is None:
                    out.unresolved.append(f"{m.rel}:{node.lineno}: {ast.unparse(node)[:100]}")
                for code in codes or ():
                    add(code, m, node)
            elif isinstance(node, ast.Return) and _is_refusal(node.value):
                add(node.value.elts[0].value, m, node)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    for name, value in _pairs(target, node.value):
                        if name == "code":
                            for code in _literals(value):
                                add(code, m, node)
                        if name.endswith("_CODES") and isinstance(value, ast.Dict) and value.keys \
                                and all(isinstance(k, ast.Constant) and isinstance(k.value, int) for k in value.keys):
                            for v in value.values:
                                for code in _literals(v):
                                    add(code, m, node)
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "code":
                        for code in _literals(v):
                            add(code, m, node)
    return out


def _code_arg(call: ast.Call, positions: dict[str, int]) -> ast.AST | None:
    name = _name(call)
    if name not in positions:
        return None
    for kw in call.keywords:
        if kw.arg == "code":
            return kw.value
    index = positions[name]
    if call.args and isinstance(call.args[0], ast.Starred) and index == 0:
        return call.args[0]
    return call.args[index] if len(call.args) > index else None


def _pairs(target: ast.AST, value: ast.AST):
    if isinstance(target, ast.Name):
        yield target.id, value
    elif isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        for t, v in zip(target.elts, value.elts):
            yield from _pairs(t, v)


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else FAMILY for v in node.values)]
    return []


def _is_table_lookup(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name) and node.func.value.id.endswith("_CODES"))


def _is_refusal(node: ast.AST | None) -> bool:
    """``return ("code", "message")``: a check's refusal, raised elsewhere."""
    return (isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant)
            and isinstance(node.elts[0].value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", node.elts[0].value)
            is not None and _stringy(node.elts[1]))


#: The message functions (pbem.games.i18n): a message looked up is a string too.
_MESSAGE_FUNCTIONS = {"_", "ngettext", "pgettext", "npgettext"}


def _stringy(node: ast.AST) -> bool:
    return ((isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.BinOp) and (_stringy(node.left) or _stringy(node.right)))
            or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MESSAGE_FUNCTIONS))


def _resolve(arg: ast.AST, fn, functions) -> list[str] | None:
    """The codes an argument can be; None when the scan cannot tell."""
    if isinstance(arg, ast.Attribute) and arg.attr == "code":
        return []  # a caught error passed on: its code was found where it was raised
    literals = _literals(arg)
    if literals:
        return literals
    if isinstance(arg, ast.Name) and fn is not None:
        values = [v for n in ast.walk(fn) if isinstance(n, ast.Assign)
                  for t in n.targets for name, v in _pairs(t, n.value) if name == arg.id]
        codes = []
        for v in values:
            if _is_table_lookup(v):  # HTTP_CODES.get(status, "http_error"): the table is scanned
                codes += _literals(v.args[1]) if len(v.args) > 1 else []
            elif _literals(v):
                codes += _literals(v)
            else:
                return None
        return codes if values else None
    if isinstance(arg, ast.Starred):
        inner = arg.value
        if isinstance(inner, ast.Name) and fn is not None:
            sources = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                       for t in n.targets if isinstance(t, ast.Name) and t.id == inner.id]
            return [] if sources and all(isinstance(s, ast.Call) for s in sources) else None
        if isinstance(inner, ast.Call):
            # The function's refusals are ``return ("code", "message")``, found as such.
            return [] if _name(inner) in functions else None
    return None
