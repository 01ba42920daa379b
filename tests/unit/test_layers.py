"""Imports point down the data flow, and no modules import each other in a circle.

The layer order is written once, here. A package may import its own modules, and any
package of a lower layer; never one of its own layer (each is an independent part) nor
a higher one. Imports inside functions count too (a lazy import is still a dependency);
only `if TYPE_CHECKING:` imports are exempt from the cycle check (they never run).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import ctxhub

ROOT = Path(ctxhub.__file__).parent

#: The ground floor first. Same number: peers that must not import each other.
LAYERS: dict[str, int] = {
    "core": 0,
    "config": 0,
    "parent": 0,
    "__init__": 0,
    "presets": 0,
    "embed": 1,
    "store": 2,
    "sources": 2,
    "search": 3,
    "ingest": 3,
    "session": 4,
    "memory": 5,
    "tools": 6,
    "clients": 6,
    "app": 7,
    "evaluation": 7,
    "dashboard": 8,
    "server": 9,
    "cli": 10,
    "__main__": 11,
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(imported ctxhub module, runs at import time) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_checking.update(id(n) for n in ast.walk(node))
    top_level = {id(n) for n in tree.body}
    out: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, f"{path}: use absolute imports (ctxhub.x.y)"
            if node.module:
                names = [node.module]
                names += [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name == "ctxhub" or name.startswith("ctxhub."):
                eager = id(node) in top_level and id(node) not in type_checking
                out.append((name, eager))
    return out


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module an import names (`from a.b import c`: a.b.c if a module, else a.b)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def test_every_package_has_a_layer() -> None:
    assert {_package(m) for m in MODULES} <= set(LAYERS)


def test_imports_point_down() -> None:
    wrong: list[str] = []
    for module, path in MODULES.items():
        mine = _package(module)
        for name, _ in _imports(path):
            target = _resolve(name)
            if target is None:
                continue
            theirs = _package(target)
            if theirs == mine:
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(
                    f"{module} imports {target} ({mine} {LAYERS[mine]} -> "
                    f"{theirs} {LAYERS[theirs]})"
                )
    assert not wrong, "upward or sideways imports:\n" + "\n".join(sorted(set(wrong)))


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        for name, eager in _imports(path):
            target = _resolve(name)
            if eager and target and target != module:
                graph[module].add(target)
    # a package's __init__ importing its own submodules is how packages are made
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_only_the_store_speaks_sql() -> None:
    """No module outside store/ imports sqlite3 or a store backend (the factory picks)."""
    wrong = []
    for module, path in MODULES.items():
        if _package(module) == "store":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            wrong += [
                f"{module} imports {n}"
                for n in names
                if n == "sqlite3" or n.startswith("ctxhub.store.sqlite")
            ]
    assert not wrong, "\n".join(wrong)
