"""The text of module and class overview chunks, and the bodies their embeddings see.

An overview replaces the full source of a module or class (which can run to thousands
of lines) with what an agent needs to navigate it: the docstring, what it defines with
signatures and first docstring lines, and for a module the imports and module-level
code (try/except import guards carry the error messages users paste).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import scope_statements
from ctxhub.ingest.python.definitions import (
    Definition,
    class_fields,
    class_signature,
    dataclass_init_signature,
    decorator_texts,
    docstring,
    docstring_span,
    field_text,
    first_line,
    function_signature,
)
from ctxhub.ingest.python.source import segment

_IMPORT_LINES_MAX = 100
_MODULE_CODE_LINES_MAX = 120
_STATEMENT_LINES_MAX = 40
_FIELDS_MAX = 60


@dataclass(frozen=True)
class IndexEntry:
    """One line of a member index: a def or nested class with its first doc line."""

    text: str
    doc: str | None
    deprecated: bool

    def render(self, indent: str) -> str:
        line = f"{indent}{self.text}"
        if self.deprecated:
            line += "  [deprecated]"
        return f"{line} — {self.doc}" if self.doc else line


def index_entry(d: Definition, deprecated: bool) -> IndexEntry:
    node = d.node
    text = class_signature(node) if isinstance(node, ast.ClassDef) else function_signature(node)
    decorators = " ".join(f"@{t}" for t in decorator_texts(node))
    return IndexEntry(
        f"{decorators} {text}" if decorators else text, first_line(docstring(node)), deprecated
    )


def doc_rest(doc: str | None) -> str:
    """A docstring without its first line (which embedding headers already carry) and
    without its version history, for the embedded text."""
    if not doc:
        return ""
    lines = doc.strip().splitlines()
    return "\n".join(without_version_notes(lines[1:])).strip()


_VERSION_NOTE = re.compile(r"^(\s*)\.\. version(?:added|changed)::")


def without_version_notes(lines: list[str]) -> list[str]:
    """`lines` without reST `versionadded` / `versionchanged` directives and their
    indented text. They say when the code changed, not what it does, and one vector
    reads 256 tokens: three such notes under structlog's `add_log_level` ("Add the log
    level to the event dict") took its cosine to "add the log level name to the event
    dict" from 0.66 to 0.59, out of dense's top 50. `deprecated` notes stay: they are
    what a question about a deprecation asks."""
    out: list[str] = []
    note_indent: int | None = None
    for line in lines:
        if note_indent is not None:
            indent = len(line) - len(line.lstrip())
            if not line.strip() or indent > note_indent:
                continue
            note_indent = None
        if m := _VERSION_NOTE.match(line):
            note_indent = len(m.group(1))
            continue
        out.append(line)
    return out


def _indented_doc(doc: str | None, indent: str) -> list[str]:
    return [textwrap.indent(doc, indent), ""] if doc else []


def class_overview(
    d: Definition,
    members: list[Definition],
    deprecated: set[str],
    module: str,
    flags: list[str],
    lines: list[str],
) -> str:
    """Header, flags, docstring, constructor, fields, methods and nested classes."""
    node = d.node
    assert isinstance(node, ast.ClassDef)
    # Decorators verbatim: a @deprecated message is worth reading in full here.
    out = (
        [textwrap.dedent(segment(lines, d.line_start, node.lineno - 1))]
        if node.decorator_list
        else []
    )
    out.append(class_signature(node))
    out.append(f"  in {module}, lines {d.line_start}-{d.line_end}")
    if flags:
        out.append(f"  Flags: {', '.join(flags)}")
    out.append("")
    out.extend(_indented_doc(docstring(node), "  "))
    init = constructor_signature(node, members)
    if init:
        out += ["  Constructor:", f"    {init}", ""]
    fields = [field_text(s) for s in class_fields(node)]
    if fields:
        shown = fields[:_FIELDS_MAX]
        more = [f"    ... {len(fields) - len(shown)} more"] if len(fields) > len(shown) else []
        out += ["  Attributes:", *(f"    {f}" for f in shown), *more, ""]
    methods = [m for m in members if not isinstance(m.node, ast.ClassDef)]
    if methods:
        out.append("  Methods:")
        out += [
            index_entry(m, f"{module}.{m.qualname}" in deprecated).render("    ") for m in methods
        ]
        out.append("")
    nested = [m for m in members if isinstance(m.node, ast.ClassDef)]
    if nested:
        out.append("  Nested classes:")
        out += [
            index_entry(m, f"{module}.{m.qualname}" in deprecated).render("    ") for m in nested
        ]
    return "\n".join(out).rstrip()


def constructor_signature(node: ast.ClassDef, members: list[Definition]) -> str | None:
    """The explicit `__init__`, else the generated dataclass-style one."""
    for m in members:
        if m.name == "__init__" and not isinstance(m.node, ast.ClassDef):
            return function_signature(m.node)
    return dataclass_init_signature(node)


def module_overview(
    tree: ast.Module,
    module: str,
    relpath: str,
    lines: list[str],
    top_level: list[Definition],
    deprecated: set[str],
) -> str:
    out = [f"module {module}  ({relpath})"]
    if module in deprecated:
        out.append("  [deprecated]")
    out.append("")
    out.extend(_indented_doc(docstring(tree), ""))
    imports = []
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            text = ast.unparse(stmt)
            if text not in imports:
                imports.append(text)
    if imports:
        out += ["Imports:", *(f"  {t}" for t in imports[:_IMPORT_LINES_MAX])]
        if len(imports) > _IMPORT_LINES_MAX:
            out.append(f"  ... {len(imports) - _IMPORT_LINES_MAX} more")
        out.append("")
    for title, want_class in (("Classes:", True), ("Functions:", False)):
        entries = [d for d in top_level if isinstance(d.node, ast.ClassDef) == want_class]
        if entries:
            out.append(title)
            out += [
                index_entry(d, f"{module}.{d.qualname}" in deprecated).render("  ") for d in entries
            ]
            out.append("")
    code = module_code(tree, lines)
    if code:
        out += ["Module-level code:", code]
    return "\n".join(out).rstrip()


def _declarative(stmt: ast.stmt) -> bool:
    """An `if TYPE_CHECKING:`-style block holding only imports and defs (listed already)."""
    if not isinstance(stmt, ast.If | ast.Try):
        return False
    inner = [s for s in scope_statements([stmt]) if s is not stmt]
    listed = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return all(
        isinstance(s, (*listed, ast.Pass))
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in inner
    )


def module_code(tree: ast.Module, lines: list[str]) -> str:
    """Top-level statements other than docstring, imports and defs, verbatim, capped."""
    doc = docstring_span(tree)
    parts: list[str] = []
    total = 0
    for stmt in tree.body:
        if isinstance(
            stmt,
            ast.Import | ast.ImportFrom | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        ):
            continue
        if (doc and stmt.lineno == doc[0]) or _declarative(stmt):
            continue
        start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
        end = min(end, start + _STATEMENT_LINES_MAX - 1, start + _MODULE_CODE_LINES_MAX - total - 1)
        parts.append(segment(lines, start, end))
        if end < (stmt.end_lineno or end):
            parts.append("    ...")
        total += end - start + 1
        if total >= _MODULE_CODE_LINES_MAX:
            break
    return "\n".join(parts)


def function_embed_body(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> str:
    """Docstring first, then the code after it, dedented: the signature is in the header."""
    doc = docstring(node)
    span = docstring_span(node)
    body_start = node.body[0].lineno
    if span is not None:
        body_start = span[1] + 1
    end = node.end_lineno or node.lineno
    code = textwrap.dedent(segment(lines, body_start, end)) if body_start <= end else ""
    rest = doc_rest(doc)
    return f"{rest}\n{code}" if rest else code


def _dunder(name: str) -> bool:
    """`__len__`, not `__helper` (a name-mangled private method is the class's own)."""
    return name.startswith("__") and name.endswith("__")


def class_embed_body(node: ast.ClassDef, members: list[Definition]) -> str:
    """Docstring, constructor and member names: what "which class does X" queries hit."""
    parts = [doc_rest(docstring(node))]
    init = constructor_signature(node, members)
    if init:
        parts.append(init)
    names = [m.name for m in members if not _dunder(m.name) or m.name == "__call__"]
    if names:
        parts.append("members: " + ", ".join(dict.fromkeys(names)))
    return "\n".join(p for p in parts if p)


def module_embed_body(tree: ast.Module, top_level: list[Definition], lines: list[str]) -> str:
    """Docstring, defined names, then module-level code (import guards and their errors)."""
    parts = [doc_rest(docstring(tree))]
    names = [d.name for d in top_level]
    if names:
        parts.append("defines: " + ", ".join(dict.fromkeys(names)))
    parts.append(module_code(tree, lines))
    return "\n".join(p for p in parts if p)
