"""Which modules' type facts (`package_types.py`) a module's call graph can read, so that
a refresh re-reads a Python file only when one of those facts changes.

A module's lookups start at the names it binds: its own definitions and what its imports
name (a function's own imports too). They go on through other modules' facts only along
those modules' imports: a re-export (`pkg.get_broker` -> `pkg.broker.get_broker`), a
class's bases as its module binds them. So the facts a module can reach are those of
the modules its imports name, followed transitively; a module's mark is a digest of
theirs. An import names the package module its target is or lies in (`from .broker
import Broker` -> `pkg.broker`); a target that is itself a module brings every module
under it too, since `import pkg` reaches `pkg.sub.f` by attribute.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ctxhub.ingest.python.modules import resolve_relative


@dataclass
class TypeFingerprints:
    """Per module: a digest of its own facts, and the modules its imports name."""

    digests: dict[str, str] = field(default_factory=dict)
    imports: dict[str, frozenset[str]] = field(default_factory=dict)

    def add(self, module: str, digest: str, imports: frozenset[str]) -> None:
        self.digests[module] = digest
        self.imports[module] = imports

    def reachable(self, module: str) -> list[str]:
        """`module` and every module whose facts its lookups can reach, sorted."""
        seen = {module}
        todo = [module]
        while todo:
            for other in self.imports.get(todo.pop(), frozenset()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return sorted(seen)

    def of(self, module: str) -> str:
        """Changes when a fact `module`'s call graph can read changes (or a module it
        imports appears or goes)."""
        digest = hashlib.sha256()
        for name in self.reachable(module):
            digest.update(f"{name}\0{self.digests.get(name, '')}\n".encode())
        return digest.hexdigest()


def imported_modules(
    tree: ast.Module, module: str, is_package: bool, known_modules: Iterable[str]
) -> frozenset[str]:
    """The package's modules that `tree`'s imports (anywhere in it) name (see the module
    docstring)."""
    known = frozenset(known_modules)
    targets: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            # `import pkg.sub` binds `pkg`, through which any `pkg.x.f` is reached
            targets.extend(a.name if a.asname else a.name.split(".", 1)[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve_relative(module, is_package, node.level, node.module)
            if base is not None:
                targets.extend(base if a.name == "*" else f"{base}.{a.name}" for a in node.names)
    return frozenset(m for target in targets for m in _named_modules(target, known))


def _named_modules(target: str, known: frozenset[str]) -> list[str]:
    if target in known:
        return [target, *(m for m in known if m.startswith(target + "."))]
    parts = target.split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in known:
            return [prefix]
    return []
