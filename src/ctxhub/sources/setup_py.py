"""What a `setup.py` passes to its `setup(...)` call, read without running it.

A `setup.py` is code: the first `version=` in its text may be a helper's keyword
(`python_requires(version="3.8")`) or a dependency's, not the project's. Only the
keywords of the `setup(...)` call count (`setup`, `setuptools.setup`,
`distutils.core.setup`), each a string literal or a name the module assigns one at its
top level (`version=VERSION`). A file that does not parse (Python 2) is read as text
from its `setup(` call on.
"""

from __future__ import annotations

import ast
import re


def setup_keyword(text: str, keyword: str) -> str | None:
    """The literal string `setup(...)` is passed as `keyword`, or None."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return _from_text(text, keyword)
    literals = _module_literals(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _is_setup(node.func)):
            continue
        for kw in node.keywords:
            if kw.arg != keyword:
                continue
            value = kw.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
            if isinstance(value, ast.Name):
                return literals.get(value.id)
            return None  # computed where it is passed
    return None


def _is_setup(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "setup"
    return isinstance(func, ast.Attribute) and func.attr == "setup"


def _module_literals(tree: ast.Module) -> dict[str, str]:
    """{name: text} of the module's top-level `NAME = "text"` assignments (the last wins)."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        text = value.value if isinstance(value, ast.Constant) else None
        if isinstance(target, ast.Name) and isinstance(text, str):
            out[target.id] = text
    return out


_SETUP_CALL = re.compile(r"\bsetup\s*\(")


def _from_text(text: str, keyword: str) -> str | None:
    """`keyword="..."` after the last `setup(` of a file that does not parse."""
    calls = list(_SETUP_CALL.finditer(text))
    if not calls:
        return None
    pattern = re.compile(rf"""(?<![\w.]){re.escape(keyword)}\s*=\s*["']([^"']+)["']""")
    match = pattern.search(text, calls[-1].end())
    return match.group(1) if match else None
