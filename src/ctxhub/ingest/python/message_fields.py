"""A warning message as the source writes it, and its fields filled where the code says
what they hold.

An f-string's fields keep their source text, conversion and format spec included
(`f"{entrypoint.name!r} refers to ..."` reads `{entrypoint.name!r} refers to ...`), so a
note quotes the code faithfully. `fill_fields` puts values in: a field whose expression
can be evaluated from known names and literal dicts (`{name}`, `{changes[name]}`) is
replaced by its value, formatted as Python would (`!r` gives the repr); the others stay
as written.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

#: One field of a message: `{expr}`, `{expr!r}`, `{expr:>8}` (no nested braces)
FIELD = re.compile(r"\{(?P<expr>[^{}!:]+)(?:!(?P<conv>[rsa]))?(?::(?P<spec>[^{}]*))?\}")


def message_text(expr: ast.expr | None) -> str | None:
    """The literal text of a warning message; f-string fields kept as the source writes
    them (`{expr!r:spec}`)."""
    if expr is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.JoinedStr):
        return _joined(expr)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        # "[DEPRECATION v{version}] " + message: a name joined in is a field, as in an
        # f-string (a helper's template then keeps the message its callers pass)
        left, right = _piece(expr.left), _piece(expr.right)
        if left is None or right is None or not (_has_text(left) or _has_text(right)):
            return None
        return left + right
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        return message_text(expr.left)
    if (  # "...".format(...)
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
    ):
        return message_text(expr.func.value)
    return None


def _joined(node: ast.JoinedStr) -> str:
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        elif isinstance(value, ast.FormattedValue):
            field = ast.unparse(value.value)
            if value.conversion != -1:
                field += "!" + chr(value.conversion)
            if isinstance(value.format_spec, ast.JoinedStr):
                field += ":" + _joined(value.format_spec)
            parts.append("{" + field + "}")
    return "".join(parts)


def _piece(expr: ast.expr) -> str | None:
    """One operand of a `+` in a message: its text, or `{name}` for a name or attribute."""
    text = message_text(expr)
    if text is None and isinstance(expr, ast.Name | ast.Attribute):
        return "{" + ast.unparse(expr) + "}"
    return text


def _has_text(piece: str) -> bool:
    """Whether a piece holds literal words, not only a `{field}`."""
    return bool(re.sub(r"\{[^{}]*\}", "", piece).strip())


def fill_fields(
    text: str, names: Mapping[str, str], tables: Mapping[str, Mapping[str, str]]
) -> str:
    """`text` with each field whose value is known put in: a name of `names`, or a
    literal table looked up by a known name or a string (`{changes[name]}`); other
    fields stay as the source writes them."""

    def value(match: re.Match[str]) -> str:
        found = _evaluate(match.group("expr").strip(), names, tables)
        if found is None:
            return match.group(0)
        shown = repr(found) if match.group("conv") in ("r", "a") else found
        try:
            return format(shown, match.group("spec") or "")
        except ValueError:  # a numeric spec on a text: shown as it is
            return shown

    return FIELD.sub(value, text)


def _evaluate(
    source: str, names: Mapping[str, str], tables: Mapping[str, Mapping[str, str]]
) -> str | None:
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        table = tables.get(node.value.id)
        key: str | None = None
        if isinstance(node.slice, ast.Name):
            key = names.get(node.slice.id)
        elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            key = node.slice.value
        if table is not None and key is not None:
            return table.get(key)
    return None


def literal_tables(body: list[ast.stmt]) -> dict[str, dict[str, str]]:
    """The dicts of literal strings a body assigns to plain names
    (`changes = {"OLD": "NEW"}`), the statements directly in it."""
    out: dict[str, dict[str, str]] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if not (isinstance(target, ast.Name) and isinstance(value, ast.Dict)):
            continue
        table = {
            k.value: v.value
            for k, v in zip(value.keys, value.values, strict=True)
            if isinstance(k, ast.Constant)
            and isinstance(k.value, str)
            and isinstance(v, ast.Constant)
            and isinstance(v.value, str)
        }
        if table:
            out[target.id] = table
    return out
