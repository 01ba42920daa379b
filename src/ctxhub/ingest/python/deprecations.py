"""Deprecations stated in code: warnings, decorators, docstrings and alias proxies.

A record names the deprecated symbol. Only some records deprecate the whole symbol (its
chunk gets `deprecated=True`): a `@deprecated` decorator, a top-level `.. deprecated::`
directive (or one in an attribute's docstring), a warning whose message names the
function (or whose function warns unconditionally), an alias. A call of one of the
package's deprecation helpers (`deprecation_helpers.py`, found by a first pass over the
package) counts as a warning with the message the helper would build. A conditional
warning about one parameter, or a directive under an `Args:` entry, is recorded against
its function but leaves the function itself current.
"""

from __future__ import annotations

import ast
import inspect
import itertools
from dataclasses import dataclass, field

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.aliases import Alias, find_aliases
from ctxhub.ingest.python.callgraph import ScopeContext
from ctxhub.ingest.python.changelog import extract_changelog_deprecations, is_changelog
from ctxhub.ingest.python.definitions import Definition, class_fields, decorator_name, docstring
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, HelperView
from ctxhub.ingest.python.deprecation_text import (
    deprecation_message,
    docstring_directives,
    find_replacement,
    find_since,
    find_subject,
    message_text,
    says_self_deprecated,
    warn_sites,
)
from ctxhub.ingest.python.exports import declared_all

__all__ = [
    "CodeDeprecations",
    "extract_changelog_deprecations",
    "find_code_deprecations",
    "is_changelog",
    "link_deprecations",
]

_INIT_LIKE = frozenset({"__init__", "__new__", "__post_init__"})
# When two records deprecate one symbol, the first origin here supplies note and line.
_ORIGIN_RANK = {"decorator": 0, "alias": 1, "warn": 2, "docstring": 3}


@dataclass
class CodeDeprecations:
    records: list[Deprecation] = field(default_factory=list)
    symbols: set[str] = field(default_factory=set)  # deprecated as a whole


class _Finder:
    def __init__(
        self,
        source: str,
        relpath: str,
        module: str,
        ctx: ScopeContext,
        members: dict[str, set[str]],
        view: HelperView,
    ) -> None:
        self.source, self.relpath, self.module, self.ctx = source, relpath, module, ctx
        self.members = members  # class qualname -> names defined in its body
        self.view = view
        self.full: dict[str, list[Deprecation]] = {}
        self.partial: list[Deprecation] = []
        self.thin: dict[str, str | None] = {}  # thin warning subclass -> its first base

    def resolve(self, name: str | None, class_qual: str | None = None) -> str | None:
        """A replacement as an absolute dotted name where this module can tell."""
        if not name:
            return None
        root = name.split(".", 1)[0]
        if root in self.ctx.imports.bindings:
            return self.ctx.imports.qualify(name)
        if class_qual and root in self.members.get(class_qual, set()):
            return f"{self.module}.{class_qual}.{name}"
        if root in self.ctx.module_names:
            return f"{self.module}.{name}"
        return name

    def add(
        self,
        symbol: str,
        text: str,
        origin: str,
        line: int | None,
        *,
        whole: bool,
        since: str | None = None,
        replacement: str | None = None,
        class_qual: str | None = None,
    ) -> None:
        record = Deprecation(
            source=self.source,
            symbol=symbol,
            replacement=replacement or self.resolve(find_replacement(text), class_qual),
            since=since or find_since(text),
            note=text.strip() or None,
            path=self.relpath,
            line=line,
            origin=origin,
        )
        if whole:
            self.full.setdefault(symbol, []).append(record)
        elif all(r.symbol != symbol or r.note != record.note for r in self.partial):
            self.partial.append(record)

    def docstring_notes(
        self, node: ast.AST, symbol: str, class_qual: str | None, first_line: int
    ) -> None:
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            return
        doc = docstring(node)
        if not doc:
            return
        for d in docstring_directives(doc):
            text = d.text if not d.parameter else f"parameter `{d.parameter}`: {d.text}"
            line = first_line + d.line_offset
            self.add(
                symbol,
                text,
                "docstring",
                line,
                whole=not d.nested,
                since=d.version,
                class_qual=class_qual,
            )

    def warnings_in(self, body: list[ast.stmt], d: Definition | None) -> None:
        """Warnings of a def's own body (or of the module's, when d is None)."""
        own = self.module if d is None else f"{self.module}.{d.qualname}"
        cls = d.parent_class if d is not None and d.in_class else None
        if d is not None and isinstance(d.node, ast.ClassDef):
            cls = d.qualname
        if d is not None and not d.in_class and "." not in d.qualname:
            helpers = self.view.helpers
            if helpers is not None and own in helpers.functions:
                return  # a helper's own warning is about its callers, not about it
        for call, message, conditional in warn_sites(body, view=self.view):
            if not message:
                continue  # a computed message (e.g. in a helper that emits warnings)
            subject = find_subject(message)
            last = subject.rsplit(".", 1)[-1] if subject else None
            itself = says_self_deprecated(message)
            symbol, whole = own, False
            if d is None:
                # A warning at module level fires on import: the module is what is
                # deprecated, unless the message names one of its members.
                if subject and subject.split(".")[0] in self.ctx.module_names:
                    symbol, whole = f"{self.module}.{subject}", True
                else:
                    whole = itself or subject == self.module or not conditional
            elif d.name in _INIT_LIKE and cls is not None and d.in_class:
                # Constructing the class warns about the class (or the class exists
                # only to warn): the class is deprecated.
                cls_name = cls.rsplit(".", 1)[-1]
                if last == cls_name or itself or f"{self.module}.{cls}" in self.thin:
                    symbol, whole = f"{self.module}.{cls}", True
            else:
                whole = last == d.name or itself
            origin = "alias" if symbol in self.thin else "warn"
            replacement = self.thin.get(symbol) if origin == "alias" else None
            self.add(
                symbol,
                message,
                origin,
                call.lineno,
                whole=whole,
                class_qual=cls,
                replacement=self.resolve(find_replacement(message), cls) or replacement,
            )

    def attribute_docstrings(self, body: list[ast.stmt], owner: str, cls: str | None) -> None:
        """`name = value` followed by a string literal (Sphinx's attribute docstring):
        a deprecation note there deprecates `owner.name`."""
        for stmt, following in itertools.pairwise(body):
            if not isinstance(stmt, ast.Assign | ast.AnnAssign):
                continue
            if not (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                continue
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if not names:
                continue
            doc = inspect.cleandoc(following.value.value)
            for directive in docstring_directives(doc):
                if directive.nested:
                    continue
                for name in names:
                    self.add(
                        f"{owner}.{name}",
                        directive.text,
                        "docstring",
                        following.lineno + directive.line_offset,
                        whole=True,
                        since=directive.version,
                        class_qual=cls,
                    )

    def decorators(self, d: Definition) -> None:
        symbol = f"{self.module}.{d.qualname}"
        for dec in d.node.decorator_list:
            if "deprecat" not in decorator_name(dec).split(".")[-1].lower():
                continue
            text = ""
            if isinstance(dec, ast.Call):
                text = message_text(dec.args[0] if dec.args else None) or ""
            cls = d.parent_class if d.in_class else None
            self.add(symbol, text, "decorator", dec.lineno, whole=True, class_qual=cls)

    def result(self) -> CodeDeprecations:
        out = CodeDeprecations()
        for symbol, records in self.full.items():
            out.records.append(_merge(records))
            out.symbols.add(symbol)
        out.records.extend(self.partial)
        out.records.sort(key=lambda r: (r.line or 0, r.symbol))
        return out


def _merge(records: list[Deprecation]) -> Deprecation:
    """One record per symbol: the strongest origin's note, the most qualified replacement."""
    ranked = sorted(
        records, key=lambda r: (_ORIGIN_RANK.get(r.origin, 9), r.since is None, -len(r.note or ""))
    )
    best = ranked[0]
    replacements = [r.replacement for r in ranked if r.replacement]
    since = next((r.since for r in ranked if r.since), None)
    replacement = max(replacements, key=lambda r: r.count(".")) if replacements else None
    return best.model_copy(update={"replacement": replacement, "since": since})


def _is_thin_warning_subclass(node: ast.ClassDef, view: HelperView) -> bool:
    """`class Old(New)` whose only content is an `__init__` that warns and calls super."""
    stmts = [s for s in node.body if not _is_doc_or_pass(s)]
    if len(stmts) != 1 or not isinstance(stmts[0], ast.FunctionDef) or stmts[0].name != "__init__":
        return False
    init = stmts[0]
    if not node.bases or not any(not c for _, _, c in warn_sites(init.body, view=view)):
        return False
    for stmt in init.body:
        if _is_doc_or_pass(stmt) or isinstance(stmt, ast.With):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                continue  # super().__init__(...)
            if deprecation_message(stmt.value, view) is not None:
                continue
        return False
    return True


def _is_doc_or_pass(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    )


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
    finder = _Finder(source, relpath, module, ctx, members, view)
    finder.thin = {
        f"{module}.{d.qualname}": finder.resolve(ast.unparse(d.node.bases[0]))
        for d in defs
        if isinstance(d.node, ast.ClassDef) and _is_thin_warning_subclass(d.node, view)
    }
    finder.docstring_notes(tree, module, None, _doc_line(tree))
    finder.attribute_docstrings(tree.body, module, None)
    # Walking every body for warnings is the costly part; most files never warn.
    text = "\n".join(lines)
    called = {n.rsplit(".", 1)[-1] for n in helpers.functions} if helpers else set()
    may_warn = "warn" in text or any(name in text for name in called)
    if may_warn:
        finder.warnings_in(tree.body, None)
    for d in defs:
        finder.decorators(d)
        cls = d.qualname if isinstance(d.node, ast.ClassDef) else d.parent_class
        finder.docstring_notes(d.node, f"{module}.{d.qualname}", cls, _doc_line(d.node))
        if isinstance(d.node, ast.ClassDef):
            finder.attribute_docstrings(d.node.body, f"{module}.{d.qualname}", d.qualname)
        if may_warn:
            finder.warnings_in(d.node.body, d)
    module_deprecated = module in finder.full
    aliases = find_aliases(tree, module, ctx, lines, module_deprecated, set(finder.full))
    for alias in aliases:
        finder.add(
            alias.symbol, alias.note, "alias", alias.line, whole=True, replacement=alias.replacement
        )
    getattr_warns = any(r.symbol == f"{module}.__getattr__" for r in finder.partial) or (
        f"{module}.__getattr__" in finder.full
    )
    shim = None if module_deprecated else _deprecated_shim(tree, module, aliases, getattr_warns)
    if shim is not None:
        finder.add(module, shim[0], "alias", 1, whole=True, replacement=shim[1])
    # The warning a `__getattr__` proxy emits is already told by its alias records.
    proxy, notes = f"{module}.__getattr__", {a.note for a in aliases}
    finder.partial = [r for r in finder.partial if r.symbol != proxy or r.note not in notes]
    return finder.result()


def _deprecated_shim(
    tree: ast.Module, module: str, aliases: list[Alias], getattr_warns: bool
) -> tuple[str, str | None] | None:
    """(note, replacement) when a module offers nothing but deprecated names: every name
    of its `__all__` is a deprecated alias, or is served by a `__getattr__` that warns
    (as litestar's `contrib.sqlalchemy` does: `if attr_name in __all__: warn_deprecation
    (...)`). Such a module is a deprecated shim; its replacement is the package its
    names moved to (their replacements' common dotted prefix), when the aliases say."""
    offered = declared_all(tree)
    if not offered:
        return None
    old = {a.symbol: a.replacement for a in aliases}
    if all(f"{module}.{name}" in old for name in offered):
        homes = [r.split(".")[:-1] for r in (old[f"{module}.{n}"] for n in offered) if r]
        common = []
        for parts in zip(*homes, strict=False):  # the dotted parts every new home shares
            if len(set(parts)) > 1:
                break
            common.append(parts[0])
        new_home = ".".join(common) if len(common) > 1 else None
        note = "every name this module offers is a deprecated alias"
        return (f"{note} (moved to {new_home})" if new_home else note), new_home
    if getattr_warns and _getattr_serves(tree, offered):
        return "every name this module offers comes through a `__getattr__` that warns", None
    return None


def _getattr_serves(tree: ast.Module, offered: list[str]) -> bool:
    """The module's `__getattr__` answers for its `__all__` (it reads `__all__`, or names
    every offered name), and the module defines none of them itself at its top level
    (`module_level_names` would also count the names `__getattr__` binds inside)."""
    defined: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            defined.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            defined.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            defined.add(stmt.target.id)
    if defined & set(offered):
        return False
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__getattr__":
            names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
            strings = {n.value for n in ast.walk(stmt) if isinstance(n, ast.Constant)}
            return "__all__" in names or set(offered) <= strings
    return False


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
