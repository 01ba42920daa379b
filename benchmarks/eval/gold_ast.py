"""What the gold verifiers read from a corpus: files (cached), definitions and their spans
by `ast`, and the structural sets (`calls`, `yields`) recomputed from the code.

Standard library only; gold_checks.py builds the checks on it.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator, Sequence
from typing import Any

Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
Item = tuple[str, str, list[int]]  # (path, symbol, span) of a recomputed structural hit

_trees: dict[str, ast.Module] = {}
_lines: dict[str, list[str]] = {}


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def tree(path: str) -> ast.Module:
    if path not in _trees:
        _trees[path] = ast.parse(read(path))
    return _trees[path]


def text_lines(path: str) -> list[str]:
    if path not in _lines:
        _lines[path] = read(path).splitlines()
    return _lines[path]


def span(node: ast.AST) -> list[int]:
    decorators = getattr(node, "decorator_list", [])
    lineno: int = node.lineno  # type: ignore[attr-defined]
    end: int = node.end_lineno  # type: ignore[attr-defined]
    return [min([d.lineno for d in decorators] + [lineno]), end]


def span_text(root: str, g: dict[str, Any]) -> str:
    s, e = g["lines"]
    return "\n".join(text_lines(os.path.join(root, g["path"]))[s - 1 : e])


def module_of(rel: str, src: str) -> str:
    """Dotted module of a .py path; `src` ("src/" or "") is the layout prefix to drop."""
    parts = rel[len(src) : -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def defs(body: Sequence[ast.stmt], prefix: str = "") -> Iterator[tuple[str, Def]]:
    """(qualname, node) for every def/class, nested ones joined with dots; also descends
    into if/try/with/for/while/match blocks at the same scope (e.g. `if TYPE_CHECKING:`)."""
    for n in body:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            q = prefix + n.name
            yield q, n
            yield from defs(n.body, q + ".")
        else:
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(n, field, None)
                if isinstance(sub, list):
                    yield from defs(sub, prefix)
            for h in getattr(n, "handlers", []) or []:
                yield from defs(h.body, prefix)
            for c in getattr(n, "cases", []) or []:
                yield from defs(c.body, prefix)


def find_symbol(root: str, rel: str, symbol: str, src: str) -> tuple[Def | None, int, str | None]:
    mod = module_of(rel, src)
    if not symbol.startswith(mod + "."):
        return None, 0, f"symbol {symbol} is not in module {mod}"
    want = symbol[len(mod) + 1 :]
    hits = [n for q, n in defs(tree(os.path.join(root, rel)).body) if q == want]
    if not hits:
        return None, 0, f"{symbol} not defined in {rel}"
    return hits[-1], len(hits), None  # last definition wins, as at import time


def whole_statements(full: str, lines: Sequence[int]) -> bool:
    """Whether lines [s, e] start and end on top-level statements of the file."""
    body = tree(full).body
    s, e = lines
    return s in {span(n)[0] for n in body} and e in {n.end_lineno for n in body}


# ---------- structural truth sets ----------
def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """Nodes of fn's own body: nested defs, classes and lambdas are not descended into."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, NESTED):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def nested_ranges(fn: ast.AST) -> list[list[int]]:
    return [
        span(x) if not isinstance(x, ast.Lambda) else [x.lineno, x.end_lineno or x.lineno]
        for x in ast.walk(fn)
        if x is not fn and isinstance(x, NESTED)
    ]


def pattern(kind: str, name: str) -> re.Pattern[str]:
    return re.compile(
        (r"\byield\s+" if kind == "yields" else r"\bself\.") + re.escape(name) + r"\s*\("
    )


def matches(kind: str, name: str, x: ast.AST) -> bool:
    if kind == "yields":
        return (
            isinstance(x, ast.Yield)
            and isinstance(x.value, ast.Call)
            and isinstance(x.value.func, ast.Name)
            and x.value.func.id == name
        )
    return (
        isinstance(x, ast.Call)
        and isinstance(x.func, ast.Attribute)
        and x.func.attr == name
        and isinstance(x.func.value, ast.Name)
        and x.func.value.id == "self"
    )


def structural_sets(
    root: str, top: str, src: str, kind: str, name: str
) -> tuple[dict[str, Item], dict[str, Item]]:
    """Functions under ROOT/top whose own body matches, by ast and by a text scan."""
    by_ast: dict[str, Item] = {}
    by_text: dict[str, Item] = {}
    pat = pattern(kind, name)
    for dp, dn, fn in os.walk(os.path.join(root, top)):
        dn[:] = sorted(d for d in dn if d != "__pycache__")
        for f in sorted(fn):
            if not f.endswith(".py"):
                continue
            full = os.path.join(dp, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            mod = module_of(rel, src)
            lines = text_lines(full)
            for q, n in defs(tree(full).body):
                if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                sym = mod + "." + q
                item: Item = (rel, sym, span(n))
                if any(matches(kind, name, x) for x in own_nodes(n)):
                    by_ast[sym] = item
                nr = nested_ranges(n)
                end = n.end_lineno or n.lineno
                own = [
                    lines[i - 1]
                    for i in range(n.lineno, end + 1)
                    if not any(s <= i <= e for s, e in nr)
                ]
                if pat.search("\n".join(own)):
                    by_text[sym] = item
    return by_ast, by_text


# ---------- registry checks ----------
