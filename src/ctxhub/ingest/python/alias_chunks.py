"""Module-level names that stand for another definition: a plain alias
(`websocket_listener = WebsocketListenerRouteHandler`), a pre-configured one
(`frozen = partial(define, frozen=True)`) and a public module's import under another
name (`from .wait import wait_random_exponential as wait_full_jitter`). Each is a
public way to reach the definition, so it gets a chunk of its own that points at it
(`alias_of`), and a lookup of the name finds the definition. A method of a module-level
instance (`structure = global_converter.structure`, after `global_converter =
Converter()`) is one too: its `alias_of` names that attribute of the instance's class
(`cattrs.converters.Converter.structure`), which a lookup finds along the class's bases
(tools/resolve.py), as it does an imported instance's (`cattrs.global_converter.structure`
in `cattr`).

A function wrapped by a deprecation decorator by hand (`utcnow =
deprecated("...")(datetime.utcnow)`: deprecated_wrappers.py) is a name of its own, not
another name of what it wraps: the wrapper warns and its target does not, so its chunk
says what it `wraps` (no `alias_of`, which would share the two names' deprecation
records) and is lookup-only, as a constant is."""

from __future__ import annotations

import ast

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk
from ctxhub.ingest.python.bound_names import bound_qualname
from ctxhub.ingest.python.callgraph import alias_targets, dotted_chain
from ctxhub.ingest.python.definition_chunks import (
    FileContext,
    documented_span,
    instance_assignment,
)
from ctxhub.ingest.python.deprecated_wrappers import deprecated_wrappers

#: Calls whose result is their first argument with some arguments already bound.
_PARTIALS = frozenset({"functools.partial", "functools.partialmethod"})


def alias_chunks(f: FileContext, tree: ast.Module, defined: dict[str, str]) -> list[Chunk]:
    """One chunk per alias name; every name of a chained assignment is one
    (`s = attributes = attrs`)."""
    out: list[Chunk] = []
    instances = _instances(f, tree, defined)
    for stmt, following in zip(tree.body, [*tree.body[1:], None], strict=False):
        if isinstance(stmt, ast.ImportFrom):
            out.extend(_import_aliases(f, stmt, defined))
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
            continue
        if isinstance(stmt, ast.AnnAssign) and _is_type_alias(stmt):
            continue  # `X: TypeAlias = Y` is a type alias: a constant (bindings.py)
        named, bound = _aliased(f, stmt.value)
        if named is None:
            continue
        chain = dotted_chain(named)
        if chain is None:
            continue
        target = defined.get(chain[0]) if len(chain) == 1 else None
        if target is None and chain[0] in f.ctx.imports.bindings:
            target = f.ctx.imports.qualify(".".join(chain))
        if target is None and len(chain) > 1 and chain[0] in instances:
            # an attribute of this module's instance: its class's, along its bases
            target = ".".join([instances[chain[0]], *chain[1:]])
        if target is None or not f.ctx.is_internal(target):
            continue  # an alias of a constant or of another library's name: not an API
        span = documented_span(stmt, following)  # with the docstring under it
        text = "\n".join(line.rstrip() for line in f.lines[span[0] - 1 : span[1]]).strip()
        for name in _bound_names(stmt):
            if name not in defined:
                out.append(_alias_chunk(f, span, text or name, name, target, bound))
    # a name bound twice is one chunk (one id): the later binding, as at import time
    return list({c.id: c for c in out}.values())


def _bound_names(stmt: ast.Assign | ast.AnnAssign) -> list[str]:
    if isinstance(stmt, ast.Assign):
        return alias_targets(stmt)
    target = stmt.target
    return [target.id] if isinstance(target, ast.Name) and not target.id.startswith("__") else []


def _is_type_alias(stmt: ast.AnnAssign) -> bool:
    return ast.unparse(stmt.annotation).rsplit(".", 1)[-1] == "TypeAlias"


def _instances(f: FileContext, tree: ast.Module, defined: dict[str, str]) -> dict[str, str]:
    """{name: qualified class} of the names the module binds to an instance of a class
    it defines or imports (`conv = Converter()`: a CamelCase callee, as
    `definition_chunks.instance_chunks` reads it)."""
    out: dict[str, str] = {}
    for stmt in tree.body:
        assigned = instance_assignment(stmt)
        chain = dotted_chain(assigned[1].func) if assigned else None
        if not (assigned and chain and chain[-1][:1].isupper()):
            continue
        cls = defined.get(chain[0]) if len(chain) == 1 else None
        if cls is None and chain[0] in f.ctx.imports.bindings:
            cls = f.ctx.imports.qualify(".".join(chain))
        if cls is not None:
            out[assigned[0]] = cls
    return out


def _import_aliases(f: FileContext, stmt: ast.ImportFrom, defined: dict[str, str]) -> list[Chunk]:
    """`from .mod import name as other` in a public module: `other` is a public name of
    the framework's `name`. A private module's renames are its own business, and
    `import name as name` (a re-export marker) renames nothing."""
    if is_private_path(f.module):
        return []
    out = []
    for alias in stmt.names:
        bound = alias.asname
        if not bound or bound == alias.name or bound.startswith("_") or bound in defined:
            continue
        target = f.ctx.imports.bindings.get(bound)
        if target is None or not f.ctx.is_internal(target):
            continue
        # the one name's line, as the code spells it (a long import lists many)
        text = f"from {'.' * stmt.level}{stmt.module or ''} import {alias.name} as {bound}"
        line = getattr(alias, "lineno", stmt.lineno)
        out.append(_alias_chunk(f, (line, line), text, bound, target, None))
    return out


def _aliased(f: FileContext, value: ast.expr) -> tuple[ast.expr | None, str | None]:
    """The expression a name stands for, and the arguments a partial binds to it
    (`frozen=True, on_setattr=None`); (None, None) when the value is neither."""
    if isinstance(value, ast.Name | ast.Attribute):
        return value, None
    if not (isinstance(value, ast.Call) and value.args):
        return None, None
    func = dotted_chain(value.func)
    if func is None or f.ctx.imports.qualify(".".join(func)) not in _PARTIALS:
        return None, None
    first, *rest = value.args
    bound = ", ".join([*(ast.unparse(a) for a in rest), *(ast.unparse(k) for k in value.keywords)])
    return first, bound


def _alias_chunk(
    f: FileContext,
    span: tuple[int, int],
    text: str,
    name: str,
    target: str,
    bound: str | None,
) -> Chunk:
    symbol = f"{f.module}.{name}"
    short = target.rsplit(".", 1)[-1]
    about = f"{short} with {bound} already set" if bound else f"alias of {target}"
    extra: dict[str, object] = {"alias_of": target}
    if bound is not None:
        extra["bound_arguments"] = bound
    return f.alias_chunk(
        symbol,
        title=name,
        section=f.module,
        span=span,
        content=text,
        text=text,
        about=about,
        extra=extra,
    )


def wrapper_chunks(f: FileContext, tree: ast.Module, defined: dict[str, str]) -> list[Chunk]:
    """One chunk per name bound to a function wrapped by a deprecation decorator, its
    `wraps` the target qualified as the module binds it and `wrapped_by` the decorator."""
    out: list[Chunk] = []
    after = {id(s): n for s, n in zip(tree.body, tree.body[1:], strict=False)}
    for wrapper in deprecated_wrappers(tree.body):
        stmt = wrapper.statement
        span = documented_span(stmt, after.get(id(stmt)))
        text = "\n".join(line.rstrip() for line in f.lines[span[0] - 1 : span[1]]).strip()
        target = _qualified(f, wrapper.target, defined)
        decorator = wrapper.decorator
        helper = _qualified(f, decorator.func if isinstance(decorator, ast.Call) else decorator, {})
        for name in wrapper.names:
            if name in defined:
                continue
            symbol = f"{f.module}.{name}"
            out.append(
                f.alias_chunk(
                    symbol,
                    title=name,
                    section=f.module,
                    span=span,
                    content=text or name,
                    text=text,
                    about=f"{target} wrapped by {helper}",
                    extra={"wraps": target, "wrapped_by": helper, LOOKUP_ONLY: True},
                )
            )
    return list({c.id: c for c in out}.values())


def _qualified(f: FileContext, expr: ast.expr, defined: dict[str, str]) -> str:
    """A name as the module binds it (`datetime.datetime.utcnow`, `pkg.mod.helper`), or
    as written when the module does not say (`str.isascii`, a lambda)."""
    chain = dotted_chain(expr)
    if chain is None:
        return ast.unparse(expr)
    if len(chain) == 1 and chain[0] in defined:
        return defined[chain[0]]
    bound = bound_qualname(chain, f.ctx.imports, f.ctx.module_names, f.module)
    return ".".join(chain) if bound is None else bound
