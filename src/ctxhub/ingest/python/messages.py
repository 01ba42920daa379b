"""The messages a function emits: the templates it formats, and the texts it raises by
key from a message table.

Templates (`core/message_templates.py`): each f-string and each string constant of
two words or more in a function's body, as its literal parts (`f"Missing required
{kind} parameter {name!r}"` -> `["Missing required ", " parameter ", ""]`; `%s`,
`%(name)s`, `{}` and `{name}` in a constant are placeholders too). A pasted message is
matched against them where word n-grams would cross a placeholder.

Tables:

Validation libraries keep their error texts in a table and raise by key:

    class Schema:
        _default_error_messages = {"unknown": "Unknown field.", ...}
        def _deserialize(self, ...):
            error_store.store_error([self.error_messages["unknown"]], key)

A pasted `{'extra': ['Unknown field.']}` names the text, and the code that emits it holds
only the key, so the search finds the table (the class) but not the method. This module
reads the tables (a class-level or module-level dict literal, under a name that says
message or error, mapping string keys to string texts, `_("...")` included) and, for
each function, the texts of the keys it uses: `table["key"]` on a name ending in the
table's name or in `messages`, or `self.method("key", ...)` (`make_error("invalid")`,
`fail("invalid")`). A method sees its own class's tables, then its bases' in the same
file, then the module's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from ctxhub.core.message_templates import PLACEHOLDER, segments
from ctxhub.ingest.python.definitions import Definition

#: A table's name says what it holds
_TABLE_NAME = re.compile(r"message|error", re.IGNORECASE)
#: Calls that wrap a text for translation: `_("...")`, `gettext_lazy("...")`
_TRANSLATE = frozenset({"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "N_"})
#: Texts kept per function (a long table used by key in a loop says little)
MAX_MESSAGES = 8
MAX_LENGTH = 200

#: key -> message text
Table = dict[str, str]
#: Templates kept per function, the literal text kept of each, and the parts of one
MAX_TEMPLATES = 16
MAX_TEMPLATE_LENGTH = 300
MAX_PARTS = 24
#: Placeholders in a plain string: printf (`%s`, `%(name)r`, `%.2f`; no space flag, so
#: "50% error" stays text) and str.format (`{}`, `{name}`, `{0:>8}`)
_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-+#0-9.]*[sdrifgxXeE]|\{[^{}\s]*\}")
#: Rich console markup (`[b]Error[/b]`, `[bold red]...[/]`): styling, not words. Only
#: in a text that closes a tag, so "[name]" in a plain message stays.
_MARKUP = re.compile(r"\[(?:/[^\[\]]*|[a-z@#][^\[\]]*)\]")
#: Methods that raise or record a message by key: `self.make_error("invalid")`,
#: `self.fail("required")`
_KEYED_CALL = re.compile(r"error|fail|message|raise|invalid", re.IGNORECASE)


def _text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _TRANSLATE
        and len(node.args) == 1
    ):
        return _text(node.args[0])
    return None


def _table(stmt: ast.stmt) -> tuple[str, Table] | None:
    """`NAME = {"key": "text", ...}` (annotated or not) under a message-like name."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return None
    if not isinstance(target, ast.Name) or not _TABLE_NAME.search(target.id):
        return None
    if not isinstance(value, ast.Dict) or not value.keys:
        return None
    table: Table = {}
    for key, text_node in zip(value.keys, value.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None  # `**base` or a computed key: not a plain table
        text = _text(text_node)
        if text is None or not text.strip():
            return None
        table[key.value] = text.strip()[:MAX_LENGTH]
    return target.id, table


def tables_in(body: Iterable[ast.stmt]) -> dict[str, Table]:
    """The message tables assigned directly in a class or module body."""
    out: dict[str, Table] = {}
    for stmt in body:
        found = _table(stmt)
        if found is not None:
            out[found[0]] = found[1]
    return out


def _base_names(node: ast.ClassDef) -> list[str]:
    names = []
    for base in node.bases:
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


class MessageTables:
    """The tables of one file, by class qualname (None: the module's)."""

    def __init__(self, tree: ast.Module, defs: list[Definition]) -> None:
        self.module = tables_in(tree.body)
        self.classes: dict[str, dict[str, Table]] = {}
        self.bases: dict[str, list[str]] = {}
        by_name: dict[str, str] = {}
        for d in defs:
            if isinstance(d.node, ast.ClassDef):
                self.classes[d.qualname] = tables_in(d.node.body)
                self.bases[d.qualname] = _base_names(d.node)
                by_name.setdefault(d.node.name, d.qualname)
        self._by_name = by_name

    def chain(self, class_qualname: str | None) -> list[dict[str, Table]]:
        """Tables a method of `class_qualname` sees: its class's, its bases' (in this
        file, depth first), then the module's."""
        out: list[dict[str, Table]] = []
        seen: set[str] = set()
        todo = [class_qualname] if class_qualname else []
        while todo:
            name = todo.pop(0)
            if name in seen or name not in self.classes:
                continue
            seen.add(name)
            out.append(self.classes[name])
            todo[0:0] = [self._by_name[b] for b in self.bases[name] if b in self._by_name]
        out.append(self.module)
        return [t for t in out if t]

    def emitted(self, node: ast.AST, class_qualname: str | None) -> list[str]:
        """The texts `node` (a function) emits by key, in source order, once each."""
        chain = self.chain(class_qualname)
        if not chain:
            return []
        found: dict[str, None] = {}
        for key, table_name in _used_keys(node):
            text = _lookup(chain, key, table_name)
            if text is not None:
                found.setdefault(text, None)
            if len(found) >= MAX_MESSAGES:
                break
        return list(found)


def _lookup(chain: list[dict[str, Table]], key: str, table_name: str | None) -> str | None:
    """`key`'s text in the nearest table (of `table_name`'s if one is named: a subscript
    of `error_messages` reads a table of that name, else any table that has the key)."""
    for tables in chain:
        for name, table in tables.items():
            if key not in table:
                continue
            wanted = (table_name or "").lower()
            if not wanted or wanted == name.lower() or wanted.endswith("messages"):
                return table[key]
    return None


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _used_keys(node: ast.AST) -> list[tuple[str, str | None]]:
    """(key, table name or None) for `x.table["key"]` and `self.method("key", ...)`
    where the method's name says it raises (`make_error`, `fail`)."""
    out: list[tuple[str, str | None]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript):
            index = sub.slice
            table = _last_name(sub.value)
            if (
                table
                and _TABLE_NAME.search(table)
                and isinstance(index, ast.Constant)
                and isinstance(index.value, str)
            ):
                out.append((index.value, table))
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and isinstance(sub.func.value, ast.Name)
            and sub.func.value.id in ("self", "cls")
            and _KEYED_CALL.search(sub.func.attr)
            and sub.args
            and isinstance(sub.args[0], ast.Constant)
            and isinstance(sub.args[0].value, str)
        ):
            out.append((sub.args[0].value, None))
    return out


def _clipped(text: str) -> str:
    """`text` up to MAX_TEMPLATE_LENGTH, cut at a space (a cut word matches nothing)."""
    if len(text) <= MAX_TEMPLATE_LENGTH:
        return text
    cut = text[:MAX_TEMPLATE_LENGTH]
    return cut[: cut.rfind(" ") + 1] if " " in cut else cut


def _unstyled(text: str) -> str:
    return _MARKUP.sub("", text) if "[/" in text else text


def template_parts(text: str) -> list[str]:
    """A plain string's literal parts around its placeholders."""
    return _PLACEHOLDER.split(_clipped(_unstyled(text)))[:MAX_PARTS]


def _fstring_parts(node: ast.JoinedStr) -> list[str]:
    """An f-string's literal parts, with `PLACEHOLDER` for each formatted value."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        else:
            parts.append(PLACEHOLDER)
    # clip as one text: a placeholder is a character, so part boundaries survive
    marked = _clipped(_unstyled("\0".join(parts)))
    return marked.split("\0")[:MAX_PARTS]


def _not_messages(node: ast.AST) -> set[int]:
    """String nodes in `node` that are not texts it emits: docstrings and bare string
    statements (attribute docs), dict keys, f-strings' own pieces and format specs."""
    out: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Constant):
            out.add(id(sub.value))
        elif isinstance(sub, ast.Dict):
            out.update(id(k) for k in sub.keys if k is not None)
        elif isinstance(sub, ast.JoinedStr):
            out.update(id(v) for v in sub.values)
        elif isinstance(sub, ast.FormattedValue) and sub.format_spec is not None:
            out.update(id(n) for n in ast.walk(sub.format_spec))
    return out


def emitted_templates(node: ast.AST, messages: Iterable[str] = ()) -> list[list[str]]:
    """The templates of `node`'s body (a function), then of the table `messages` it
    emits, each as its literal parts; only those with a part to look up by, at most
    MAX_TEMPLATES."""
    skip = _not_messages(node)
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()

    def keep(parts: list[str]) -> None:
        key = tuple(parts)
        if key not in seen and segments(parts):
            seen.add(key)
            found.append(parts)

    for sub in ast.walk(node):
        if len(found) >= MAX_TEMPLATES:
            return found
        if id(sub) in skip:
            continue
        if isinstance(sub, ast.JoinedStr):
            keep(_fstring_parts(sub))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            keep(template_parts(sub.value))
    for text in messages:
        keep(template_parts(text))
    return found[:MAX_TEMPLATES]
