"""Old names kept alive as aliases of new ones, at module level.

Three shapes: a deprecated module re-exporting names from their new home; a module
`__getattr__` (PEP 562) that warns and hands back the new object; an `Old = New`
assignment marked deprecated by the comment or string next to it, or by a warning
that names it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import (
    ScopeContext,
    alias_targets,
    dotted_chain,
    own_nodes,
    scope_statements,
)
from ctxhub.ingest.python.deprecation_arguments import deprecation_fields, fields_message, named
from ctxhub.ingest.python.deprecation_since import statement_since
from ctxhub.ingest.python.deprecation_text import docstring_directives, find_since
from ctxhub.ingest.python.deprecation_warnings import guarded_warn_sites, warn_sites


@dataclass(frozen=True)
class Alias:
    symbol: str  # the old, deprecated name
    replacement: str | None
    note: str
    line: int
    since: str | None = None


def find_aliases(
    tree: ast.Module,
    module: str,
    ctx: ScopeContext,
    lines: list[str],
    module_deprecated: bool,
    deprecated: set[str],
) -> list[Alias]:
    """Aliases of one module; `deprecated` holds symbols already known deprecated."""
    out: list[Alias] = []
    if module_deprecated and _is_shim(tree):
        out.extend(_reexports(tree, module, ctx))
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "__getattr__":
            out.extend(_getattr_proxies(stmt, tree, module, ctx, lines))
    out.extend(_assignments(tree, module, ctx, lines, module_deprecated, deprecated))
    return out


def alias_tables(
    tree: ast.Module, module: str, installs_aliases: Callable[[list[str]], bool]
) -> Iterator[Alias]:
    """`set_deprecated_aliases({"Event": "anyio.Event"})` at module level, where the
    function called installs a proxy that warns: each key is a deprecated alias of
    `module` for its value. A value may also describe the deprecation
    (`deprecate_attributes(__name__, {"Old": DeprecatedAttribute(value,
    version="0.33.0", instead=...)})`): each key is then a deprecated attribute, since
    that version, replaced by `instead` when it names something."""
    for stmt in scope_statements(tree.body):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call):
            continue
        table = next((a for a in call.args if isinstance(a, ast.Dict)), None)
        chain = dotted_chain(call.func)
        if table is None or chain is None or not installs_aliases(chain):
            continue
        for key, value in zip(table.keys, table.values, strict=False):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            symbol = f"{module}.{key.value}"
            target = _mapped(value) if value is not None else None
            if target:
                note = f"`{symbol}` is a deprecated alias of `{target}`."
                yield Alias(symbol, target, note, key.lineno)
            elif isinstance(value, ast.Call):
                keywords = {kw.arg: kw.value for kw in value.keywords if kw.arg}
                fields = deprecation_fields(keywords)
                if "since" in fields or "instead" in fields:
                    note = fields_message({**fields, "subject": symbol})
                    instead = named(fields.get("instead"))
                    yield Alias(symbol, instead, note, key.lineno, fields.get("since"))


def _all_names(tree: ast.Module) -> set[str] | None:
    """Names listed in a literal `__all__`, if the module has one."""
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)
            and isinstance(stmt.value, ast.List | ast.Tuple)
        ):
            return {
                e.value
                for e in stmt.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return None


def _is_shim(tree: ast.Module) -> bool:
    """A module that exists to re-export: it lists `__all__` or defines nothing itself.

    A deprecated module with classes of its own merely imports what they use.
    """
    defines = any(
        isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for s in scope_statements(tree.body)
    )
    return _all_names(tree) is not None or not defines


def _reexports(tree: ast.Module, module: str, ctx: ScopeContext) -> Iterator[Alias]:
    """Every internal name a deprecated module imports for its users to import."""
    public = _all_names(tree)
    for stmt in scope_statements(tree.body):
        if not isinstance(stmt, ast.ImportFrom):
            continue
        for alias in stmt.names:
            bound = alias.asname or alias.name
            if (
                alias.name == "*"
                or bound.startswith("_")
                or (public is not None and bound not in public)
            ):
                continue
            target = ctx.imports.bindings.get(bound)
            if target and ctx.is_internal(target, bound) and target != f"{module}.{bound}":
                note = (
                    f"`{module}` is deprecated; import `{bound}` from `{target.rsplit('.', 1)[0]}`."
                )
                yield Alias(f"{module}.{bound}", target, note, stmt.lineno)


def _compared_names(test: ast.expr, param: str) -> list[str]:
    """["Old"] for `name == "Old"`, ["A", "B"] for `name in ("A", "B")`."""
    if not (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == param
        and len(test.ops) == 1
    ):
        return []
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq):
        values = [right]
    elif isinstance(test.ops[0], ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        values = list(right.elts)
    else:
        return []
    return [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _returned(body: list[ast.stmt], ctx: ScopeContext, module: str) -> str | None:
    """What an `if` branch of `__getattr__` returns, resolved through its own imports."""
    table = ctx.imports.overlay()
    returned: ast.expr | None = None
    for node in own_nodes(body):
        if isinstance(node, ast.Import | ast.ImportFrom):
            table.add(node)
        elif isinstance(node, ast.Return) and node.value is not None and returned is None:
            returned = node.value
    chain = dotted_chain(returned) if returned is not None else None
    if not chain:
        return None
    if chain[0] in table.bindings:
        return table.qualify(".".join(chain))
    return _returned_name(chain, ctx, module)


def _returned_name(chain: list[str], ctx: ScopeContext, module: str) -> str:
    """A dotted chain as an absolute name, through the module's imports and own names."""
    if chain[0] in ctx.imports.bindings:
        return ctx.imports.qualify(".".join(chain))
    if chain[0] in ctx.module_names:
        return f"{module}.{'.'.join(chain)}"
    return ".".join(chain)


def _proxy_since(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, message: str, lines: list[str]
) -> str | None:
    """Since when the names a `__getattr__` proxy serves are deprecated: as its warning
    says (its message, a comment on or above it), else its own `.. deprecated::` note."""
    end = call.end_lineno or call.lineno
    since = find_since(message) or statement_since(lines, call.lineno, end)
    if since is None:
        notes = docstring_directives(ast.get_docstring(fn) or "")
        since = next((d.version for d in notes if d.version and not d.nested), None)
    return since


def _getattr_proxies(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    tree: ast.Module,
    module: str,
    ctx: ScopeContext,
    lines: list[str],
) -> Iterator[Alias]:
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params:
        return
    param = params[0].arg
    found = False
    for node in own_nodes(fn.body):
        if not isinstance(node, ast.If):
            continue
        names = _compared_names(node.test, param)
        sites = list(warn_sites(node.body))
        if not names or not sites:
            continue
        found = True
        replacement = _returned(node.body, ctx, module)
        since = _proxy_since(fn, sites[0][0], sites[0][1], lines)
        for name in names:
            yield Alias(f"{module}.{name}", replacement, sites[0][1], node.lineno, since)
    if found:
        return
    # A table-driven proxy: `__getattr__` warns and looks the name up in a
    # {"Old": "new.module.New"} mapping, at module level or its own; a name the warning's
    # guard leaves out (`if name != "__version__": warn(...)`) is served without one.
    guarded = list(guarded_warn_sites(fn.body))
    if not guarded:
        return
    guard = guarded[0][3]
    spared = set(_spared(guard, param)) if guard is not None else set()
    since = _proxy_since(fn, guarded[0][0], guarded[0][1], lines)
    used = {n.id for n in own_nodes(fn.body) if isinstance(n, ast.Name)}
    for stmt in [*tree.body, *own_nodes(fn.body)]:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id in used
            and isinstance(stmt.value, ast.Dict)
        ):
            continue
        for key, value in zip(stmt.value.keys, stmt.value.values, strict=False):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                if key.value in spared:
                    continue
                target = _mapped(value)
                if target and "." not in target:
                    # a plain word is a name only where this module binds it (a local
                    # table's values may be data: `{"__description__": "summary"}`)
                    bound = target in ctx.module_names or target in ctx.imports.bindings
                    target = _returned_name([target], ctx, module) if bound else None
                yield Alias(f"{module}.{key.value}", target, guarded[0][1], stmt.lineno, since)


def _spared(test: ast.expr, param: str) -> list[str]:
    """["X"] for `name != "X"`, ["A", "B"] for `name not in ("A", "B")`: the names a
    warning's guard lets through without it."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return []
    op = test.ops[0]
    if isinstance(op, ast.NotEq):
        flipped = ast.Compare(left=test.left, ops=[ast.Eq()], comparators=test.comparators)
    elif isinstance(op, ast.NotIn):
        flipped = ast.Compare(left=test.left, ops=[ast.In()], comparators=test.comparators)
    else:
        return []
    return _compared_names(flipped, param)


def _mapped(value: ast.expr) -> str | None:
    """`"pkg.mod:New"`, `"pkg.mod.New"` or `("pkg.mod", "New")` as `pkg.mod.New`."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value.replace(":", ".")
    if isinstance(value, ast.Tuple) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return ".".join(str(e.value) for e in value.elts if isinstance(e, ast.Constant))
    return None


def _comment_above(lines: list[str], lineno: int) -> str:
    """The contiguous comment block directly above a line, `#`/`#:` markers dropped."""
    block: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        block.append(lines[i].lstrip().lstrip("#:").strip())
        i -= 1
    return " ".join(reversed(block))


def _assignments(
    tree: ast.Module,
    module: str,
    ctx: ScopeContext,
    lines: list[str],
    module_deprecated: bool,
    deprecated: set[str],
) -> Iterator[Alias]:
    body = tree.body
    for i, stmt in enumerate(body):
        if not isinstance(stmt, ast.Assign):
            continue
        chain = dotted_chain(stmt.value)
        names = alias_targets(stmt)  # each name of a chain `old = older = New`
        if not chain or not names:
            continue
        known = chain[0] in ctx.imports.bindings or chain[0] in ctx.module_names
        if not known:
            continue
        note = _comment_above(lines, stmt.lineno)
        following = body[i + 1] if i + 1 < len(body) else None
        if (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            note = f"{note} {following.value.value.strip()}".strip()
        dotted = ".".join(chain)
        if chain[0] in ctx.imports.bindings:
            replacement = ctx.imports.qualify(dotted)
        else:
            replacement = f"{module}.{dotted}"
        for old in names:
            marked = "deprecat" in note.lower() or f"{module}.{old}" in deprecated
            if marked or module_deprecated:
                text = note or f"`{old}` is a deprecated alias of `{dotted}`."
                yield Alias(f"{module}.{old}", replacement, text, stmt.lineno)
