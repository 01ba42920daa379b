"""Deprecation helpers found by what they do, across one package.

A project often wraps its warning in a helper (`warn_deprecation(version=...,
deprecated_name=...)`, `_notice(what, *, version, alternative)`) and calls it from
dozens of places. The helper's name says nothing reliable, its behaviour does: a
module-level function whose own body calls `warnings.warn` with a deprecation category
(DeprecationWarning, PendingDeprecationWarning, FutureWarning, or a project class
derived from one of them) and a message built from its parameters is a helper. So is a
function that passes its own parameters on to a helper (one level more: `_MAX_DEPTH`).
A function whose warning text is fixed is a deprecated function, not a helper, unless it
takes nothing, its words do not name it, and the package calls it from several places
(`def _deprecated(): warnings.warn("`pkg.local` is deprecated, ...")` called by each
function of a deprecated module): a helper whose callers all warn with those words.

This needs every module of the package before any module's deprecations are read (a
helper is defined in one module and called in others): `scan_package` is that first
pass (`helper_scan` reads each module for it); `HelperView` is one module's view of its
result, used by `deprecation_text`.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ctxhub.core.errors import SkipFile
from ctxhub.ingest.python.callgraph import ImportTable, dotted_chain, own_nodes
from ctxhub.ingest.python.deprecation_arguments import arguments_message
from ctxhub.ingest.python.deprecation_text import STD_CATEGORIES, find_replacement
from ctxhub.ingest.python.helper_scan import ScannedFunction, ScannedModule, qualify, scan_module
from ctxhub.ingest.python.helper_warnings import (
    TEMPLATE_FIELD,
    Helper,
    fixed_helpers,
    warns_itself,
)
from ctxhub.ingest.python.message_fields import fill_fields, message_text
from ctxhub.ingest.python.module_deprecations import ModuleDeprecation, import_warning
from ctxhub.ingest.python.source import decode_source, parse_source
from ctxhub.ingest.python.warning_classes import add_reexports, warning_classes

#: Levels of helpers: one that warns itself, then callers that pass their parameters on.
_MAX_DEPTH = 3
#: Bytes that a file must hold before it is parsed in the first pass (see scan_package).
_SEEDS = (b"eprecat", b"Warning")


@dataclass
class DeprecationHelpers:
    """The first pass's result: helpers and deprecation categories, by dotted name."""

    functions: dict[str, Helper] = field(default_factory=dict)  # definitions and re-exports
    categories: set[str] = field(default_factory=set)  # the package's own categories
    packages: frozenset[str] = frozenset()  # top-level packages that were scanned
    #: functions that install a warning proxy: a def nested in them warns (a module
    #: `__getattr__` that a `set_deprecated_aliases({"Old": "pkg.New"})` puts in place)
    alias_installers: frozenset[str] = frozenset()
    #: the package's other warning classes (`class FooWarning(UserWarning)`): one of
    #: them counts when its message says "deprecated", as the default UserWarning does
    warning_classes: set[str] = field(default_factory=set)
    #: modules that warn on import, by dotted name (`module_deprecations.py`)
    deprecated_modules: dict[str, ModuleDeprecation] = field(default_factory=dict)

    def fingerprint(self) -> str:
        """Changes whenever what call sites would read changes ("" when nothing found)."""
        parts = (
            self.functions,
            self.categories,
            self.alias_installers,
            self.warning_classes,
            self.deprecated_modules,
        )
        if not any(parts):
            return ""
        text = repr(sorted(self.functions.items())) + repr(sorted(self.categories))
        text += repr(sorted(self.alias_installers))
        if self.warning_classes or self.deprecated_modules:
            # only then: a package with neither keeps the fingerprint it had
            text += repr(sorted(self.warning_classes))
            text += repr(sorted(self.deprecated_modules.items()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _passes_on(
    fn: ScannedFunction, m: ScannedModule, helpers: Mapping[str, Helper]
) -> tuple[Helper, ast.Call] | None:
    for node in own_nodes(fn.node.body):
        if not isinstance(node, ast.Call):
            continue
        chain = dotted_chain(node.func)
        if not chain:
            continue
        inner = helpers.get(qualify(chain, m.imports, m.module, m.names))
        values = [*node.args, *(k.value for k in node.keywords)]
        if inner is not None and inner.qualname != fn.qualname and any(map(fn.tainted, values)):
            return inner, node
    return None


def _outer_template(inner: Helper, call: ast.Call) -> str | None:
    """The inner helper's message with the outer's arguments put in: its fields now name
    the outer helper's parameters."""
    if inner.template is None:
        return None
    bound = bind_arguments(inner, call)
    values: dict[str, str] = {}
    for name in set(TEMPLATE_FIELD.findall(inner.template)):
        value = bound.get(name)
        text = message_text(value) if value is not None else dict(inner.defaults).get(name)
        if text is None:
            return None
        values[name] = text
    return fill_fields(inner.template, values, {})


def _renames(inner: Helper, call: ast.Call, params: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    inner_names = dict(inner.renames)
    out = []
    for name, value in bind_arguments(inner, call).items():
        if isinstance(value, ast.Name) and value.id in params:
            out.append((value.id, inner_names.get(name, name)))
    return tuple(out)


def bind_arguments(helper: Helper, call: ast.Call) -> dict[str, ast.expr]:
    """A call's arguments by the helper's parameter names."""
    bound: dict[str, ast.expr] = {}
    for name, arg in zip(helper.params, call.args, strict=False):
        if not isinstance(arg, ast.Starred):
            bound[name] = arg
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    return bound


def find_helpers(modules: list[ScannedModule], packages: Iterable[str]) -> DeprecationHelpers:
    categories, others = warning_classes(modules)
    functions = [(fn, m) for m in modules for fn in m.functions]
    helpers = fixed_helpers(functions, modules, categories)
    if helpers:
        add_reexports(modules, helpers)
    for depth in range(_MAX_DEPTH):
        new: dict[str, Helper] = {}
        for fn, m in functions:
            if fn.qualname in helpers:
                continue
            if depth == 0:
                found = warns_itself(fn, m, categories)
            else:
                passed = _passes_on(fn, m, helpers)
                found = None
                if passed is not None:
                    template = _outer_template(*passed)
                    renames = _renames(*passed, fn.params)
                    found = Helper(fn.qualname, fn.params, fn.defaults, template, renames)
            if found is not None:
                new[fn.qualname] = found
        if not new:
            break
        helpers.update(new)
        add_reexports(modules, helpers)
    installers = _alias_installers(functions, helpers, categories)
    return DeprecationHelpers(helpers, categories, frozenset(packages), installers, others)


def _alias_installers(
    functions: list[tuple[ScannedFunction, ScannedModule]],
    helpers: Mapping[str, Helper],
    categories: set[str],
) -> frozenset[str]:
    """Functions (not helpers) with a parameter whose nested def emits a deprecation
    warning, itself or through a helper: what they are called with names deprecated
    aliases (`set_deprecated_aliases({"Event": "anyio.Event"})`)."""
    found: set[str] = set()
    for fn, m in functions:
        if fn.qualname in helpers or not fn.params:
            continue
        nested = [n for n in own_nodes(fn.node.body) if isinstance(n, ast.FunctionDef)]
        for node in (c for d in nested for c in ast.walk(d) if isinstance(c, ast.Call)):
            chain = dotted_chain(node.func)
            if chain is None:
                continue
            target = qualify(chain, m.imports, m.module, m.names)
            if target in helpers or (chain[-1] == "warn" and _warns_category(node, m, categories)):
                found.add(fn.qualname)
                break
    return frozenset(found)


def _warns_category(call: ast.Call, m: ScannedModule, categories: set[str]) -> bool:
    category = call.args[1] if len(call.args) > 1 else None
    category = next((k.value for k in call.keywords if k.arg == "category"), category)
    chain = dotted_chain(category) if category is not None else None
    if not chain:
        return False
    return chain[-1] in STD_CATEGORIES or qualify(chain, m.imports, m.module, m.names) in categories


def scan_package(
    modules: Mapping[str, str],
    read: Callable[[str], str | bytes],
    packages: Iterable[str],
) -> DeprecationHelpers:
    """The first pass over a package's Python files ({relpath: dotted module}).

    Only files that mention a warning class or deprecation ("Warning", "deprecat")
    are parsed at first; then, until nothing new turns up, those that mention a name
    found so far (a helper's callers, a category's subclasses): most files of a package
    are never parsed here. Last, each module parsed is asked whether it warns on import
    (`module_deprecations.py`).
    """
    raw: dict[str, bytes] = {}
    for rel in modules:
        try:
            data = read(rel)
        except (OSError, ValueError):
            continue
        raw[rel] = data.encode("utf-8") if isinstance(data, str) else data
    known = set(modules.values())
    scanned: dict[str, ScannedModule] = {}
    seeds: set[bytes] = set(_SEEDS)
    result = DeprecationHelpers(packages=frozenset(packages))
    for _ in range(_MAX_DEPTH + 2):
        todo = [r for r in raw if r not in scanned and any(s in raw[r] for s in seeds)]
        if not todo:
            break
        for rel in todo:
            try:
                tree = parse_source(decode_source(raw[rel]), rel)
            except SkipFile:  # a broken file is the per-file pass's to report
                tree = ast.Module(body=[], type_ignores=[])
            is_package = rel.endswith("__init__.py") or rel.endswith("__init__.pyi")
            scanned[rel] = scan_module(tree, modules[rel], is_package, known)
        result = find_helpers(list(scanned.values()), packages)
        seeds = set(_SEEDS) | {
            n.rsplit(".", 1)[-1].encode()
            for n in [*result.functions, *result.categories, *result.warning_classes]
        }
    for rel, m in scanned.items():
        view = HelperView(result, m.imports, m.module, m.names)
        lines = decode_source(raw[rel]).splitlines()
        found = import_warning(m.body, m.module, m.names, view, lines)
        if found is not None:
            package = rel.endswith(("__init__.py", "__init__.pyi"))
            message, line, since = found
            said = find_replacement(message)
            instead = qualify(said.split("."), m.imports, m.module, m.names) if said else None
            result.deprecated_modules[m.module] = ModuleDeprecation(
                m.module, message, rel, line, since, package, instead
            )
    return result


def _argument_text(expr: ast.expr) -> str | None:
    """A literal argument as the helper's message shows it: text, or a number
    (`deprecation("...", 24.3)`: the version)."""
    text = message_text(expr)
    if text is None and isinstance(expr, ast.Constant) and isinstance(expr.value, int | float):
        return str(expr.value)
    return text


class HelperView:
    """One module's view of the helpers: resolves a call through its imports."""

    def __init__(
        self,
        helpers: DeprecationHelpers | None,
        imports: ImportTable,
        module: str,
        names: frozenset[str],
    ) -> None:
        self.helpers, self.imports, self.module, self.names = helpers, imports, module, names

    def _target(self, chain: list[str]) -> str:
        return qualify(chain, self.imports, self.module, self.names)

    def is_category(self, chain: list[str]) -> bool:
        return self.helpers is not None and self._target(chain) in self.helpers.categories

    def is_warning_class(self, chain: list[str]) -> bool:
        """One of the package's warning classes that is no deprecation category."""
        return self.helpers is not None and self._target(chain) in self.helpers.warning_classes

    def scanned(self, chain: list[str]) -> bool:
        """Whether the first pass saw where this name is defined (then its verdict
        holds and no guess by name is made)."""
        if self.helpers is None:
            return False
        return self._target(chain).split(".", 1)[0] in self.helpers.packages

    def installs_aliases(self, chain: list[str]) -> bool:
        """A call of a function that installs a deprecated-alias proxy."""
        return self.helpers is not None and self._target(chain) in self.helpers.alias_installers

    def helper(self, chain: list[str]) -> Helper | None:
        return None if self.helpers is None else self.helpers.functions.get(self._target(chain))

    def fixed_helper(self, call: ast.Call) -> bool:
        """A call of a helper that takes nothing and always warns the same words."""
        chain = dotted_chain(call.func)
        helper = self.helper(chain) if chain else None
        return helper is not None and helper.fixed

    @staticmethod
    def message(helper: Helper, call: ast.Call) -> str:
        """What a call of `helper` would warn: its template filled with the call's
        literal arguments, else a sentence read from the arguments' names."""
        if helper.fixed:
            return helper.template or ""  # its words, whatever braces they hold
        bound = bind_arguments(helper, call)
        if helper.template is not None:
            values, defaults = {}, dict(helper.defaults)
            for name in set(TEMPLATE_FIELD.findall(helper.template)):
                value = _argument_text(bound[name]) if name in bound else defaults.get(name)
                if value is None:
                    break
                values[name] = value
            else:
                return fill_fields(helper.template, values, {})
        renames = dict(helper.renames)
        return arguments_message({renames.get(k, k): v for k, v in bound.items()})
