"""What one Python file says about itself: its docstring, imports, top-level definitions,
whether it runs as a script, the environment variables it reads."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PyFacts:
    """What one Python file says about itself; parse failures degrade to a regex scan."""

    docstring: str | None = None
    imports: tuple[str, ...] = ()  # absolute modules, in order of appearance
    names: tuple[tuple[str, str], ...] = ()  # (module, imported name)
    defs: tuple[str, ...] = ()  # top-level def/class names
    has_main: bool = False
    env_vars: tuple[str, ...] = ()
    error: str | None = None


def python_facts(text: str) -> PyFacts:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as e:
        line = getattr(e, "lineno", None)
        mods = re.findall(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", text, re.M)
        defs = re.findall(r"^(?:async\s+def|def|class)\s+(\w+)", text, re.M)
        return PyFacts(
            imports=tuple(dict.fromkeys(a or b for a, b in mods)),
            defs=tuple(defs),
            has_main="__main__" in text,
            error=f"{type(e).__name__} at line {line}: {getattr(e, 'msg', e)}",
        )
    imports: list[str] = []
    names: list[tuple[str, str]] = []
    env: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports.append(node.module)
            names.extend((node.module, a.name) for a in node.names if a.name != "*")
        elif isinstance(node, ast.Call) and _is_env_read(node.func) and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                env.append(arg.value)
        elif (
            isinstance(node, ast.Subscript)
            and _is_environ(node.value)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            env.append(node.slice.value)
    defs = [
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    main = any(
        isinstance(n, ast.If)
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in ast.walk(n.test))
        for n in tree.body
    )
    return PyFacts(
        docstring=ast.get_docstring(tree),
        imports=tuple(dict.fromkeys(imports)),
        names=tuple(dict.fromkeys(names)),
        defs=tuple(defs),
        has_main=main,
        env_vars=tuple(dict.fromkeys(env)),
    )


def _is_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _is_env_read(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr == "getenv" or (func.attr == "get" and _is_environ(func.value))
    return isinstance(func, ast.Name) and func.id == "getenv"
