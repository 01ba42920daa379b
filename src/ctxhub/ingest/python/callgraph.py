"""What a function's own body calls, yields and imports.

"Own body" is the executable statements only: decorators, defaults and annotations are
evaluated elsewhere, and nested functions, lambdas and classes are scopes of their own
(their facts belong to them). Comprehensions run inline, so they count.

Calls are kept when their target is knowable from the text: `self.x()` / `cls.x()`,
`super().x()`, a plain `x()` (not a builtin), `mod.x()` through an imported module,
`Cls.x()` through a class-like (capitalised) name bound in the module, and
`self.attr.x()` when the class states the attribute's type (`attributes.py`: assigned a
constructor call, annotated, or assigned an annotated `__init__` parameter, or a
property's annotated return). The last is recorded resolved, `pkg.mod.Client.x`; so are
`local.x()` when the function states the local's class where the call is made and
`instance.x()` through a module-level instance (`local_types.py`), and `alias()` for a
local bound to a resolved method (`creator = self.workers._new_worker`). A typed local of
no class known at the call keeps the call as written (`locale.describe`, via "locale"):
unresolved, never dropped. Calls on other receivers (`self.other.send()`,
`logger.info()`) name objects whose type the code never states: left out, not guessed,
but listed as written in `calls_untyped`, so a trace can say how many it did not follow.

`super().x()` is a call of `x`, the method's own name included: an override that
extends `push_frame` is a caller of the base's `push_frame`. Each call with a receiver
says which one in `calls_via` (`core/calls.py`: "self", "super()", "self.<attr>", or a
local's name), so listings can mark them and a `calls` filter can ask for one receiver
only.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ctxhub.core.calls import VIA_SELF, VIA_SUPER
from ctxhub.ingest.python.modules import resolve_relative

#: Nodes that open a scope of their own; their insides are not the outer body.
NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_BUILTINS = frozenset(dir(builtins))
_SELF_NAMES = ("self", "cls")


def own_nodes(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every node of `body`, in no particular order, without entering nested scopes.

    A nested def/class/lambda node itself is yielded (its name is bound here) but none
    of its parts, not even its decorators or defaults. `AnnAssign` annotations are
    skipped too.
    """
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, NESTED_SCOPES):
            continue
        if isinstance(node, ast.AnnAssign):
            stack.append(node.target)
            if node.value is not None:
                stack.append(node.value)
            continue
        stack.extend(ast.iter_child_nodes(node))


def dotted_chain(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None when the root is not a plain name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _is_super_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def class_like(name: str) -> bool:
    stripped = name.lstrip("_")
    return bool(stripped) and stripped[0].isupper()


@dataclass
class ImportTable:
    """Names bound by import statements, mapped to absolute dotted targets."""

    module: str
    is_package: bool
    #: Dotted names of the tree's modules, when the caller knows them: tells
    #: `from pkg import submodule` apart from `from pkg import some_object`.
    known_modules: frozenset[str] = frozenset()
    bindings: dict[str, str] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)  # bound names that are modules
    submodules: dict[str, list[str]] = field(default_factory=dict)  # `import a.b` binds a
    relative: set[str] = field(default_factory=set)  # bound by a relative import
    star_modules: list[str] = field(default_factory=list)  # `from x import *`

    def add(self, node: ast.Import | ast.ImportFrom) -> list[str]:
        """Bind the names of one import statement; returns its absolute targets."""
        targets: list[str] = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.bindings[alias.asname] = alias.name
                    self.modules.add(alias.asname)
                else:
                    top = alias.name.split(".", 1)[0]
                    self.bindings[top] = top
                    self.modules.add(top)
                    if "." in alias.name:
                        self.submodules.setdefault(top, []).append(alias.name)
                targets.append(alias.name)
            return targets
        base = resolve_relative(self.module, self.is_package, node.level, node.module)
        if base is None:
            return targets
        for alias in node.names:
            if alias.name == "*":
                self.star_modules.append(base)
                targets.append(base)
                continue
            bound = alias.asname or alias.name
            target = f"{base}.{alias.name}"
            self.bindings[bound] = target
            if node.level:
                self.relative.add(bound)
            # `from . import x` can only name a submodule (or a package attribute, rarely).
            if target in self.known_modules or (node.level and node.module is None):
                self.modules.add(bound)
            targets.append(target)
        return targets

    def resolve(self, chain: list[str]) -> str | None:
        """Absolute target of a name chain's imported root, or None if not imported."""
        root = chain[0]
        if root not in self.bindings:
            return None
        dotted = ".".join(chain)
        subs = [
            s for s in self.submodules.get(root, []) if dotted == s or dotted.startswith(s + ".")
        ]
        return max(subs, key=len) if subs else self.bindings[root]

    def qualify(self, dotted: str) -> str:
        """`dotted` with its root replaced by what the root is imported as."""
        chain = dotted.split(".")
        root = chain[0]
        if root not in self.bindings or root in self.submodules:
            return dotted  # unbound, or `import a.b`, which already spells the full path
        return ".".join([self.bindings[root], *chain[1:]])

    def overlay(self) -> ImportTable:
        """A copy to which a function's local imports can be added."""
        return ImportTable(
            self.module,
            self.is_package,
            self.known_modules,
            dict(self.bindings),
            set(self.modules),
            {k: list(v) for k, v in self.submodules.items()},
            set(self.relative),
            list(self.star_modules),
        )


def scope_statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of one scope, entering if/try/with/for/while/match blocks but no defs."""
    stack = list(body)[::-1]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, NESTED_SCOPES):
            continue
        subs: list[ast.stmt] = []
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                subs.extend(s for s in block if isinstance(s, ast.stmt))
        for handler in getattr(node, "handlers", None) or []:
            subs.extend(handler.body)
        for case in getattr(node, "cases", None) or []:
            subs.extend(case.body)
        subs.sort(key=lambda s: (s.lineno, s.col_offset))
        stack.extend(subs[::-1])


def build_import_table(
    tree: ast.Module, module: str, is_package: bool, known_modules: Iterable[str] = ()
) -> ImportTable:
    """Module-level imports, including those under `if TYPE_CHECKING:` and `try:`."""
    table = ImportTable(module, is_package, frozenset(known_modules))
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            table.add(stmt)
    return table


def module_level_names(tree: ast.Module) -> frozenset[str]:
    """Names a module binds by def, class or assignment (imports are in ImportTable)."""
    names: set[str] = set()
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.add(stmt.target.id)
    return frozenset(names)


def alias_targets(stmt: ast.Assign) -> list[str]:
    """The plain names an assignment binds, each target of a chain (`a = b = X`); not
    tuple targets, whose names take parts of the value, nor dunders."""
    return [t.id for t in stmt.targets if isinstance(t, ast.Name) and not t.id.startswith("__")]


@dataclass(frozen=True)
class ScopeContext:
    """What a body's names can refer to at module level."""

    imports: ImportTable
    module_names: frozenset[str]
    internal_packages: frozenset[str]

    def is_internal(self, target: str, bound: str | None = None) -> bool:
        if bound is not None and bound in self.imports.relative:
            return True
        return target.split(".", 1)[0] in self.internal_packages


@dataclass
class BodyFacts:
    calls: list[str] = field(default_factory=list)
    calls_qualified: list[str] = field(default_factory=list)
    yields: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    extends_super: bool = False  # calls super().<its own name>()
    #: calls_qualified entry -> its receiver, for calls that have one (core/calls.py)
    calls_via: dict[str, str] = field(default_factory=dict)
    #: calls of the function's own nested defs and classes (`wrap(cls)`): its inner
    #: parts, never something to find in the index
    calls_nested: list[str] = field(default_factory=list)
    #: calls_qualified entry -> the absolute name it calls, for calls whose first name
    #: an import binds (`np.array` -> `numpy.array`, `Response` -> `httpx.Response`)
    calls_imported: dict[str, str] = field(default_factory=dict)
    #: calls_qualified entry -> the line of its first call
    call_lines: dict[str, int] = field(default_factory=dict)
    #: calls on a named receiver whose type the code does not state (`handler.emit`,
    #: `self.registry.notify`), as written: left out of the graph, counted by traces
    calls_untyped: list[str] = field(default_factory=list)


def _unique(items: Iterable[tuple[tuple[int, int], str]]) -> list[str]:
    """Values in source order, first occurrence kept."""
    seen: dict[str, None] = {}
    for _, value in sorted(items, key=lambda it: it[0]):
        seen.setdefault(value, None)
    return list(seen)


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def analyze_body(
    body: Iterable[ast.AST],
    ctx: ScopeContext,
    self_names: Iterable[str] = (),
    own_name: str | None = None,
    attr_types: Mapping[str, str] | None = None,
    receiver_types: Mapping[int, str] | None = None,
    local_methods: Mapping[str, Sequence[tuple[str, str]]] | None = None,
) -> BodyFacts:
    """Calls, yields and framework-internal imports of one function's own body.

    `attr_types` maps the class's attributes to their qualified classes, where known
    (`attributes.attribute_types`); `receiver_types` the class of the receiver of each
    `name.attr` node whose name is a typed local or parameter or a module-level instance
    ("" for a local of no class known there), and `local_methods` the function's aliases
    of bound methods (`local_types.py`).
    `super().<own_name>()` (an override extending the method it overrides) is a call
    like any other, and also flags `extends_super`.
    """
    nodes = list(own_nodes(body))
    receivers = {*_SELF_NAMES, *self_names}
    table = ctx.imports
    local_imports: list[tuple[tuple[int, int], str]] = []
    local_defs: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            if table is ctx.imports:
                table = table.overlay()
            relative = isinstance(node, ast.ImportFrom) and node.level > 0
            for target in table.add(node):
                if relative or ctx.is_internal(target):
                    local_imports.append((_pos(node), target))
        elif isinstance(node, NESTED_SCOPES) and not isinstance(node, ast.Lambda):
            local_defs.add(node.name)
    known = ctx.module_names | table.bindings.keys() | local_defs
    call_target = _CallTarget(
        receivers, table, known, attr_types or {}, receiver_types or {}, local_methods or {}
    )

    calls: list[tuple[tuple[int, int], str]] = []
    qualified: list[tuple[tuple[int, int], str]] = []
    yields: list[tuple[tuple[int, int], str]] = []
    used: list[tuple[tuple[int, int], str]] = list(local_imports)
    via: dict[str, str] = {}
    extends_super = False
    chain_roots: set[int] = set()  # Name/Attribute nodes inside a longer chain
    for node in nodes:
        if isinstance(node, ast.Attribute):
            chain_roots.add(id(node.value))
    for node in nodes:
        if isinstance(node, ast.Call):
            for name, written, receiver in call_target.of(node.func):
                calls.append((_pos(node), name))
                qualified.append((_pos(node), written))
                if receiver is not None:
                    via.setdefault(written, receiver)
                    extends_super = extends_super or (receiver == VIA_SUPER and name == own_name)
        elif isinstance(node, ast.Yield) and isinstance(node.value, ast.Call):
            built = _constructed_name(node.value.func, receivers)
            if built is not None:
                yields.append((_pos(node), built))
        if isinstance(node, ast.Name | ast.Attribute) and id(node) not in chain_roots:
            chain = dotted_chain(node)
            if chain and chain[0] not in local_defs:
                resolved = table.resolve(chain)
                if resolved is not None and ctx.is_internal(resolved, chain[0]):
                    used.append((_pos(node), resolved))
    facts = BodyFacts(
        _unique(calls), _unique(qualified), _unique(yields), _unique(used), extends_super
    )
    facts.calls_via = {q: via[q] for q in facts.calls_qualified if q in via}
    facts.calls_nested = [q for q in facts.calls_qualified if q in local_defs]
    for pos, written in sorted(qualified, key=lambda it: it[0]):
        facts.call_lines.setdefault(written, pos[0])
    facts.calls_imported = {
        q: table.qualify(q)
        for q in facts.calls_qualified
        if q not in via and q.split(".", 1)[0] in table.bindings and q not in local_defs
    }
    facts.calls_untyped = _unique(call_target.untyped)
    return facts


@dataclass(frozen=True)
class _CallTarget:
    """What a call names, when its target is knowable (see the module docstring)."""

    receivers: set[str]
    table: ImportTable
    known: frozenset[str] | set[str]
    attr_types: Mapping[str, str]
    receiver_types: Mapping[int, str]
    local_methods: Mapping[str, Sequence[tuple[str, str]]]
    #: calls on a named receiver of unknown type, as written, in the order met
    untyped: list[tuple[tuple[int, int], str]] = field(default_factory=list)

    def of(self, func: ast.expr) -> list[tuple[str, str, str | None]]:
        """(called name, call as recorded, receiver or None) of each definition the call
        can reach: none when unknowable, several for an alias of several methods."""
        if isinstance(func, ast.Name):
            if func.id in self.local_methods:
                return [(q.rsplit(".", 1)[-1], q, v) for q, v in self.local_methods[func.id]]
            if func.id == "super" or (func.id in _BUILTINS and func.id not in self.known):
                return []
            return [(func.id, func.id, None)]
        if not isinstance(func, ast.Attribute):
            return []
        written = ast.unparse(func)
        if _is_super_call(func.value):
            return [(func.attr, written, VIA_SUPER)]
        chain = dotted_chain(func)
        if chain is None:
            return []
        root = chain[0]
        if root in self.receivers:
            if len(chain) == 2:
                return [(func.attr, written, VIA_SELF)]
            cls = self.attr_types.get(chain[1]) if len(chain) == 3 else None
            if cls is None:
                self.untyped.append((_pos(func), written))
                return []  # an attribute of unknown type: not guessed
            return [(func.attr, f"{cls}.{func.attr}", f"{root}.{chain[1]}")]
        cls = self.receiver_types.get(id(func))
        if cls is not None:
            # a local the function types but not here (rebound to something unknown):
            # the call as written, on its receiver, resolving to nothing (`unresolved`)
            return [(func.attr, f"{cls}.{func.attr}" if cls else written, root)]
        if root in self.table.modules:
            return [(func.attr, written, None)]
        if root in self.known and all(class_like(p) for p in chain[:-1]):
            return [(func.attr, written, None)]
        self.untyped.append((_pos(func), written))  # a local, parameter or global of unknown type
        return []


def _constructed_name(func: ast.expr, receivers: set[str]) -> str | None:
    """`X` in `yield X(...)` / `yield mod.X(...)`; None for `yield self.make(...)`."""
    if isinstance(func, ast.Name):
        return func.id
    chain = dotted_chain(func)
    if chain is None or chain[0] in receivers:
        return None
    return chain[-1]
