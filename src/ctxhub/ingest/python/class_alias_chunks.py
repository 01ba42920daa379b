"""Method aliases in a class body: `pop_data = peek_data`, `__repr__ = __str__`,
`get_secure_cookie = get_signed_cookie` (a renamed method kept under its old name),
`close = Base.shutdown`. Each binds a method of the class as surely as a `def` does, so
`pkg.mod.Class.name` gets an `alias` chunk of its own pointing at the method it names
(`alias_of`), as a module-level alias does (alias_chunks.py). Without it a lookup of the
name walks on to a base class and answers with the inherited method the alias shadows.

Lookup-only, like documented attributes: found by its name (a snippet, a deprecation
question, a call through `self.name()`), never ranked on its one line. A class attribute
bound to anything else (`x = 1`, `handler = SomeClass`) is no method alias."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk
from ctxhub.ingest.python.bound_names import bound_qualname
from ctxhub.ingest.python.callgraph import dotted_chain
from ctxhub.ingest.python.definition_chunks import FileContext, documented_span
from ctxhub.ingest.python.definitions import Definition, class_bases
from ctxhub.ingest.python.source import segment

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def class_alias_chunks(
    f: FileContext, d: Definition, taken: set[str], file_methods: set[str]
) -> list[Chunk]:
    """One `alias` chunk per name class `d`'s body binds to a method: one defined in the
    same body (as the body reads it so far, an earlier alias followed to its method), a
    nested class's method (`Inner.run`) or a method of one of the class's own bases
    (`Base.method`, `Base` written among its bases) when that base is the framework's
    own: one of this file (`file_methods`: the qualified methods the file defines) only
    when it defines that method. Any other class's attribute (`default = Color.red`,
    `extra = Extra.forbid`: an enum member) is no alias. A name the body also binds with a
    `def` or `class` is that definition (`taken`), never an alias."""
    node = d.node
    if not isinstance(node, ast.ClassDef) or d.local_to is not None:
        return []  # a class made inside a function, at any depth, offers no API
    owner = f"{f.module}.{d.qualname}"
    # what each name of the body stands for so far: defs, then aliases as they come
    methods: dict[str, str] = {}
    classes = {s.name for s in node.body if isinstance(s, ast.ClassDef)}
    bases = {b.split("[", 1)[0].rsplit(".", 1)[-1] for b in class_bases(node)}
    out: dict[str, Chunk] = {}
    for stmt, following in zip(node.body, [*node.body[1:], None], strict=False):
        if isinstance(stmt, _FUNCTIONS):
            methods[stmt.name] = f"{owner}.{stmt.name}"
            continue
        if not isinstance(stmt, ast.Assign):
            continue
        target = _method_named(f, stmt.value, owner, methods, classes, bases)
        if target is not None and target.startswith(f"{f.module}.") and target not in file_methods:
            target = None  # an attribute of this file's class, not a method it defines
        if target is None:
            continue
        span = documented_span(stmt, following)  # with the docstring under it
        content = segment(f.lines, *span)
        for name in (t.id for t in stmt.targets if isinstance(t, ast.Name)):
            methods[name] = target
            symbol = f"{owner}.{name}"
            if symbol not in taken and target != symbol:
                out[symbol] = _chunk(f, d, symbol, name, target, span, content)
    return list(out.values())


def _method_named(
    f: FileContext,
    value: ast.expr,
    owner: str,
    methods: dict[str, str],
    classes: set[str],
    bases: set[str],
) -> str | None:
    """The qualified method `value` names, or None when it names no method."""
    chain = dotted_chain(value) if isinstance(value, ast.Name | ast.Attribute) else None
    if chain is None:
        return None
    if len(chain) == 1:
        return methods.get(chain[0])
    if len(chain) != 2:
        return None  # `a.b.c`: a module's function or an attribute's attribute
    if chain[0] in classes:
        return f"{owner}.{'.'.join(chain)}"
    # `Base.method`: only a base's method is this class's to rename; another class's
    # attribute is a value (`Mode.strict`, an enum member), `Color.RED` a constant
    if chain[0] not in bases or chain[1].isupper():
        return None
    target = bound_qualname(chain, f.ctx.imports, f.ctx.module_names, f.module)
    return target if target is not None and f.ctx.is_internal(target) else None


def _chunk(
    f: FileContext,
    d: Definition,
    symbol: str,
    name: str,
    target: str,
    span: tuple[int, int],
    content: str,
) -> Chunk:
    return f.alias_chunk(
        symbol,
        title=f"{d.qualname}.{name}",
        section=d.qualname,
        span=span,
        content=content or name,
        text=content,
        about=f"alias of {target}",
        extra={"alias_of": target, LOOKUP_ONLY: True},
        class_name=d.qualname,
    )
