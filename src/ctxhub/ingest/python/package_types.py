"""What a package's modules state about types, for the call graph of every other module.

`self.broker = broker or get_broker()` types `self.broker` only if the chunker knows
that `get_broker` (imported from `.broker`) is annotated `-> Broker`, and a middleware's
`def after_process_message(self, broker, message)` types `broker` only if it knows that
the `Middleware` hook it overrides (another file) annotates `broker: Broker`. One module
is chunked at a time, so this is a first pass over all the package's modules
(`scan_types`, run by the refresh plan like the deprecation-helper pass), and each
module's own facts are laid over it (`module_types(...).over(package)`) so a file
chunked alone still sees itself. Every refresh parses each file for this pass; a Python
unit's hash covers the facts of the modules its lookups can reach, its imports followed
transitively (`type_fingerprints.py`), so a change elsewhere re-reads only those.

Recorded per module, qualified as the module binds the names:
- `returns`: each module-level function's and each class's methods' annotated return
  (`returns.py`), by qualified name (`pkg.broker.get_broker`, `pkg.Broker.create`);
- `classes`: each module-level class's bases and, per method, its parameters'
  annotated classes ("" for an unannotated or unknown one);
- `imported`: what each module imports under each name, so that a name re-exported by
  a package (`from pkg import get_broker`) leads to its definition;
- `instances`: the class each module-level instance holds (`module_instances.py`:
  `pkg.api._factory` -> `pkg.factory.ArrowFactory`), for calls made through it in that
  module or in one that imports it.

Nothing is guessed: a name that leads nowhere in the table is unknown, and so is an
inherited parameter when a base on the way cannot be read (it might define the method).
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from ctxhub.core.errors import SkipFile, SourceError
from ctxhub.ingest.python.bases import ModuleBindings
from ctxhub.ingest.python.callgraph import (
    build_import_table,
    dotted_chain,
    module_level_names,
    scope_statements,
)
from ctxhub.ingest.python.class_names import ClassNames
from ctxhub.ingest.python.definitions import FuncNode, self_parameter
from ctxhub.ingest.python.module_instances import module_instances
from ctxhub.ingest.python.returns import Returned, return_types
from ctxhub.ingest.python.source import decode_source, parse_source
from ctxhub.ingest.python.type_fingerprints import TypeFingerprints, imported_modules

#: Re-exports followed from a name to its definition, at most.
_MAX_HOPS = 4
#: Modules whose classes define none of a package's methods: a base there (`Generic`,
#: `ABC`, `object`) is passed over when looking for the method an override overrides.
_NEUTRAL_ROOTS = frozenset({"builtins", "typing", "typing_extensions", "abc"})
#: Bases followed from a class, at most, before the rest counts as unknown.
_MAX_BASE_DEPTH = 32


@dataclass(frozen=True)
class ClassSignatures:
    """One class: its bases, qualified ("" unknown), and per method its parameters'
    classes ("" for an unannotated or unknown one), the receiver left out."""

    bases: tuple[str, ...]
    methods: Mapping[str, Mapping[str, str]]


@dataclass
class PackageTypes:
    """The first pass's result (see the module docstring), with what it is laid over."""

    returns: dict[str, Returned] = field(default_factory=dict)
    classes: dict[str, ClassSignatures] = field(default_factory=dict)
    imported: dict[str, str] = field(default_factory=dict)
    instances: dict[str, str] = field(default_factory=dict)
    under: PackageTypes | None = None
    #: which modules' facts each module can reach (filled by `scan_types`)
    fingerprints: TypeFingerprints = field(default_factory=TypeFingerprints)

    def over(self, package: PackageTypes | None) -> PackageTypes:
        """These facts first, then `package`'s (one module's own, over its package's)."""
        return PackageTypes(
            self.returns, self.classes, self.imported, self.instances, under=package
        )

    def _layers(self) -> Iterator[PackageTypes]:
        layer: PackageTypes | None = self
        while layer is not None:
            yield layer
            layer = layer.under

    def _find(
        self,
        dotted: str,
        table: Callable[[PackageTypes], Mapping[str, object]],
        asked: frozenset[str] = frozenset(),
    ) -> str:
        """`dotted`, or what it names through re-exports, as a key of `table`; "".
        `asked`: the names whose lookup led here (a module that re-exports its own name,
        `pkg.__version__`, leads back to itself: unknown, not endless)."""
        if dotted in asked:
            return ""
        asked = asked | {dotted}
        name = dotted
        for _ in range(_MAX_HOPS + 1):
            if any(name in table(layer) for layer in self._layers()):
                return name
            module, _, attr = name.rpartition(".")
            # `pkg.get_broker` re-exported, or `pkg.Broker.create` of a re-exported class
            target = self._imported(name) or self._through_class(module, attr, asked)
            if not target:
                return ""
            name = target
        return ""

    def _imported(self, name: str) -> str:
        return next(
            (layer.imported[name] for layer in self._layers() if name in layer.imported), ""
        )

    def _through_class(self, owner: str, attr: str, asked: frozenset[str]) -> str:
        if not owner or not attr:
            return ""
        cls = self._find(owner, lambda layer: layer.classes, asked)
        return f"{cls}.{attr}" if cls and cls != owner else ""

    def returned(self, dotted: str) -> Returned | None:
        """What the function named `dotted` is annotated to return, or None."""
        name = self._find(dotted, lambda layer: layer.returns)
        return next(
            (layer.returns[name] for layer in self._layers() if name in layer.returns), None
        )

    def instance(self, dotted: str) -> str:
        """The class the module-level name `dotted` (through re-exports) holds, or ""."""
        name = self._find(dotted, lambda layer: layer.instances)
        return next(
            (layer.instances[name] for layer in self._layers() if name in layer.instances), ""
        )

    def signatures(self, dotted: str) -> tuple[str, ClassSignatures] | None:
        """The class named `dotted` (through re-exports): its qualified name and facts."""
        name = self._find(dotted, lambda layer: layer.classes)
        found = next(
            (layer.classes[name] for layer in self._layers() if name in layer.classes), None
        )
        return (name, found) if found is not None else None

    def inherited_parameter(self, cls: str, method: str, parameter: str) -> str:
        """The class that the nearest definition of `method` along `cls`'s bases annotates
        `parameter` with (passing over ones that leave it unannotated); "" when none
        does, a base on the way is unknown, or the method there has no such parameter."""
        for base in self._ancestors(cls):
            if base is None:
                return ""
            methods = base.methods
            if method in methods:
                if parameter not in methods[method]:
                    return ""
                if methods[method][parameter]:
                    return methods[method][parameter]
        return ""

    def _ancestors(self, cls: str) -> list[ClassSignatures | None]:
        """`cls`'s bases in method resolution order (duplicates kept last, as C3 keeps
        them for the usual hierarchies), None for one that cannot be read: unknown, in
        a cycle of bases (`class A(B)`, `class B(A)`), or deeper than `_MAX_BASE_DEPTH`."""
        facts: dict[str, ClassSignatures | None] = {}
        # each class's own linearization, computed once: keeping each name's last place
        # in a list of lists keeps it in the whole walk, so a diamond ladder stays linear
        done: dict[str, list[str]] = {}
        walking: list[str] = []

        def unknown() -> list[str]:
            key = f"?{len(facts)}"
            facts[key] = None
            return [key]

        def linear(name: str) -> list[str]:
            found = self.signatures(name) if name else None
            if found is None:
                return unknown()
            key, signatures = found
            if key in done:
                return done[key]
            if key in walking or len(walking) > _MAX_BASE_DEPTH:
                return unknown()
            walking.append(key)
            facts[key] = signatures
            order = [key, *_kept_last(linear(b) for b in _searched_bases(signatures))]
            walking.pop()
            done[key] = order
            return order

        return [facts[key] for key in linear(cls)[1:]]  # an unknown `cls` has none

    def digest(self) -> str:
        """Changes when any fact of this layer (not those under it) changes."""
        facts = {
            "returns": {k: [list(v.classes), v.is_async] for k, v in self.returns.items()},
            "classes": {
                k: [list(v.bases), {m: dict(p) for m, p in v.methods.items()}]
                for k, v in self.classes.items()
            },
            "imported": self.imported,
            "instances": self.instances,
        }
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


def module_types(
    tree: ast.Module, module: str, is_package: bool, known_modules: Iterable[str] = ()
) -> PackageTypes:
    """One module's facts (see the module docstring)."""
    imports = build_import_table(tree, module, is_package, known_modules)
    classes = ClassNames(imports, module_level_names(tree), module)
    bindings = ModuleBindings(tree, module, imports)
    out = PackageTypes()
    statements = list(scope_statements(tree.body))
    funcs = [s for s in statements if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    module_returns = return_types(funcs, classes)
    for name, ret in module_returns.items():
        out.returns[f"{module}.{name}"] = ret
    for stmt in statements:
        if not isinstance(stmt, ast.ClassDef):
            continue
        qualified = f"{module}.{stmt.name}"
        methods = [s for s in stmt.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
        for name, ret in return_types(methods, classes, qualified).items():
            out.returns[f"{qualified}.{name}"] = ret
        bases = tuple(_base(b, bindings, stmt.lineno) for b in stmt.bases)
        out.classes[qualified] = ClassSignatures(
            bases, {m.name: _parameters(m, classes) for m in methods}
        )
    for bound, target in imports.bindings.items():
        if bound not in imports.modules:
            out.imported[f"{module}.{bound}"] = target
    # typed by the module's own facts: a factory another module defines is not followed
    for name, cls in module_instances(tree, classes, module_returns, out).items():
        out.instances[f"{module}.{name}"] = cls
    return out


def _searched_bases(signatures: ClassSignatures) -> list[str]:
    """The bases that may define a package's method (not `Generic`, `ABC`, `object`)."""
    return [b for b in signatures.bases if b.split(".", 1)[0] not in _NEUTRAL_ROOTS]


def _kept_last(orders: Iterable[list[str]]) -> list[str]:
    """The names of `orders` one after another, each only at its last place."""
    joined = [name for order in orders for name in order]
    last = {name: i for i, name in enumerate(joined)}
    return [name for i, name in enumerate(joined) if last[name] == i]


def _base(node: ast.expr, bindings: ModuleBindings, line: int) -> str:
    chain = dotted_chain(node.value if isinstance(node, ast.Subscript) else node)
    return bindings.qualify(".".join(chain), line) if chain else ""


def _parameters(fn: FuncNode, classes: ClassNames) -> dict[str, str]:
    return {p: cls or "" for p, cls in classes.parameters(fn.args, self_parameter(fn)).items()}


def scan_types(
    modules: Mapping[str, str], read: Callable[[str], str | bytes], known_modules: Iterable[str]
) -> PackageTypes:
    """The first pass over a package's Python files ({relpath: dotted module}), with
    what each module's facts and imports are (`type_fingerprints.py`); a file that
    cannot be read or parsed adds nothing (the per-file pass reports it)."""
    known = frozenset(known_modules)
    out = PackageTypes()
    for rel, module in sorted(modules.items()):
        try:
            tree = parse_source(decode_source(read(rel)), rel)
        except (OSError, ValueError, SkipFile, SourceError):
            continue
        is_package = rel.endswith(("__init__.py", "__init__.pyi"))
        found = module_types(tree, module, is_package, known)
        imports = imported_modules(tree, module, is_package, known)
        out.fingerprints.add(module, found.digest(), imports)
        out.returns.update(found.returns)
        out.classes.update(found.classes)
        out.imported.update(found.imported)
        out.instances.update(found.instances)
    return out
