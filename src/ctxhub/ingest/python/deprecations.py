"""Deprecations stated in code: warnings, decorators, docstrings and alias proxies.

A record names the deprecated symbol. Only some records deprecate the whole symbol (its
chunk gets `deprecated=True`): a `@deprecated` decorator (or one applied by hand at
module level, `old = deprecated("...")(func)`: `deprecated_wrappers.py`), a top-level
`.. deprecated::` directive (or one in an attribute's docstring), a warning whose
message names the function (or whose function warns unconditionally), an alias. A call of one of the
package's deprecation helpers (`deprecation_helpers.py`, found by a first pass over the
package) counts as a warning with the message the helper would build. A conditional
warning about one parameter or usage, a directive under an `Args:` entry, a top-level
directive whose subject is a parameter or that a later `versionchanged` supersedes, and
a deprecated `Annotated` Doc (`deprecation_subjects.py`) are recorded against their
function but leave the function itself current.

`deprecation_finder` collects the records; `deprecated_shims` recognises a class or
module that exists only to point elsewhere.
"""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.aliases import alias_tables, find_aliases
from ctxhub.ingest.python.callgraph import ScopeContext
from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.ingest.python.changelog_files import is_changelog
from ctxhub.ingest.python.definitions import Definition, class_fields
from ctxhub.ingest.python.deprecated_shims import deprecated_shim, is_thin_warning_subclass
from ctxhub.ingest.python.deprecation_finder import DeprecationFinder
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, HelperView
from ctxhub.ingest.python.deprecation_records import CodeDeprecations, merged
from ctxhub.ingest.python.lazy_alias_tables import deprecated_keyword_tables
from ctxhub.ingest.python.module_deprecations import (
    ModuleDeprecation,
    covering,
    member_records,
    no_deprecated_target,
)
from ctxhub.ingest.python.parameter_since import dated_parameters
from ctxhub.ingest.python.proxy_notes import filled_proxy_notes

__all__ = [
    "CodeDeprecations",
    "extract_changelog_deprecations",
    "find_code_deprecations",
    "is_changelog",
    "link_deprecations",
]


def find_code_deprecations(
    tree: ast.Module,
    defs: list[Definition],
    *,
    source: str,
    relpath: str,
    module: str,
    ctx: ScopeContext,
    lines: list[str],
    helpers: DeprecationHelpers | None = None,
) -> CodeDeprecations:
    """All code-level deprecations of one module (`lines` for comments above aliases).

    `helpers` is the package's first pass (`deprecation_helpers.scan_package`); without
    it, helpers are recognised by name only."""
    members: dict[str, set[str]] = {}
    for d in defs:
        if d.in_class and d.parent_class:
            members.setdefault(d.parent_class, set()).add(d.name)
        if isinstance(d.node, ast.ClassDef):
            names = members.setdefault(d.qualname, set())
            for stmt in class_fields(d.node):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    view = HelperView(helpers, ctx.imports, module, ctx.module_names)
    finder = DeprecationFinder(source, relpath, module, ctx, members, view, lines)
    finder.thin = {
        f"{module}.{d.qualname}": finder.resolve(ast.unparse(d.node.bases[0]))
        for d in defs
        if isinstance(d.node, ast.ClassDef) and is_thin_warning_subclass(d.node, view)
    }
    finder.docstring_notes(tree, module, None, _doc_line(tree))
    finder.attribute_docstrings(tree.body, module, None)
    finder.wrappers(tree.body)
    finder.named_calls(tree.body)
    # Walking every body for warnings is the costly part; most files never warn.
    text = "\n".join(lines)
    called = {n.rsplit(".", 1)[-1] for n in helpers.functions} if helpers else set()
    may_warn = "warn" in text or any(name in text for name in called)
    if may_warn:
        finder.warnings_in(tree.body, None)
    for d in defs:
        finder.decorators(d)
        finder.annotated_parameters(d)
        cls = d.qualname if isinstance(d.node, ast.ClassDef) else d.parent_class
        finder.docstring_notes(d.node, f"{module}.{d.qualname}", cls, _doc_line(d.node))
        if isinstance(d.node, ast.ClassDef):
            finder.attribute_docstrings(d.node.body, f"{module}.{d.qualname}", d.qualname)
        if may_warn:
            finder.warnings_in(d.node.body, d)
    module_deprecated = module in finder.full
    aliases = find_aliases(tree, module, ctx, lines, module_deprecated, set(finder.full))
    aliases += alias_tables(tree, module, view.installs_aliases)
    aliases += deprecated_keyword_tables(tree, module, ctx.imports, lines)
    raw_notes = {a.note for a in aliases}
    aliases = filled_proxy_notes(tree, module, aliases)
    for alias in aliases:
        finder.add(
            alias.symbol,
            alias.note,
            "alias",
            alias.line,
            whole=True,
            since=alias.since,
            replacement=alias.replacement,
        )
    getattr_warns = any(r.symbol == f"{module}.__getattr__" for r in finder.partial) or (
        f"{module}.__getattr__" in finder.full
    )
    shim = None if module_deprecated else deprecated_shim(tree, module, aliases, getattr_warns)
    if shim is not None:
        finder.add(module, shim[0], "alias", 1, whole=True, replacement=shim[1])
    # The warning a `__getattr__` proxy emits is already told by its alias records.
    proxy = f"{module}.__getattr__"
    finder.partial = [r for r in finder.partial if r.symbol != proxy or r.text not in raw_notes]
    _inherit_module_deprecation(finder, defs, helpers)
    finder.partial = dated_parameters(finder.partial, defs, module)
    if helpers is not None and helpers.deprecated_modules:
        finder.full = {
            symbol: [no_deprecated_target(r, module, helpers.deprecated_modules) for r in records]
            for symbol, records in finder.full.items()
        }
    return finder.result()


def _inherit_module_deprecation(
    finder: DeprecationFinder, defs: list[Definition], helpers: DeprecationHelpers | None
) -> None:
    """Everything in a deprecated module is deprecated with it: the module's own warning
    or note (not a shim's, whose names have their own alias records), else the warning
    on import of the package it is in (found by the first pass)."""
    module = finder.module
    own = [r for r in finder.full.get(module, []) if r.origin != "alias"]
    deprecation = None
    if own:
        first = own[0]
        note = first.note or f"{module} is deprecated"
        since = next((r.since for r in own if r.since), None)
        path = first.path or finder.relpath
        instead = merged(own).replacement  # the module's, as its own answer gives it
        deprecation = ModuleDeprecation(module, note, path, first.line or 1, since, False, instead)
    elif helpers is not None:
        deprecation = covering(module, helpers.deprecated_modules)
    if deprecation is None:
        return
    # what the module offers: its public top-level definitions and names (`connect =
    # Connect`) and the names recorded deprecated in it (a re-export's alias, dated by
    # the module); a method is flagged with its module's chunks but gets no record
    top = {d.qualname for d in defs if "." not in d.qualname} | finder.ctx.module_names
    top |= {s.rpartition(".")[2] for s in finder.full if s.rpartition(".")[0] == module}
    public = sorted(name for name in top if not name.startswith("_"))
    for record in member_records(finder.source, module, public, deprecation):
        finder.full.setdefault(record.symbol, []).append(record)


def _doc_line(node: ast.AST) -> int:
    """Line of the first line of the cleaned docstring (cleaning drops leading blanks)."""
    body = getattr(node, "body", [])
    if not body:
        return getattr(node, "lineno", 1)
    first = body[0]
    raw = (
        first.value.value
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        else ""
    )
    blank = 0
    for line in str(raw).split("\n"):
        if line.strip():
            break
        blank += 1
    return int(first.lineno) + blank


def link_deprecations(records: list[Deprecation], whole: set[str]) -> list[Deprecation]:
    """Follow replacement chains across files: an alias of a deprecated alias points to
    the final name (`pkg.task.Task` -> `pkg.worker.Task` -> `pkg.worker.Worker`).

    `whole` is the union of the files' `deprecated_symbols`; partial records (about a
    parameter) are never followed through.
    """
    target = {r.symbol: r.replacement for r in records if r.symbol in whole and r.replacement}
    out = []
    for r in records:
        replacement, seen = r.replacement, {r.symbol}
        while replacement in target and replacement not in seen:
            seen.add(replacement)
            replacement = target[replacement]
        out.append(
            r if replacement == r.replacement else r.model_copy(update={"replacement": replacement})
        )
    return out
