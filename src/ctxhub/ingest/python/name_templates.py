"""The name templates a function builds (core/name_templates.py): its f-strings whose
literal text is identifier characters, as in `getattr(pump, f"key_{key}", None)`."""

from __future__ import annotations

import ast

from ctxhub.core.name_templates import template_keys


def function_templates(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The template keys of every f-string in `node`'s body, in source order, once."""
    found: dict[str, None] = {}
    for sub in ast.walk(node):
        if not isinstance(sub, ast.JoinedStr):
            continue
        parts: list[str | None] = []
        for value in sub.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            else:
                parts.append(None)
        for key in template_keys(parts):
            found.setdefault(key, None)
    return list(found)
