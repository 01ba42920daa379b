"""One chunk per definition of a Python file: the module overview, each class overview,
each function or method with its source and facts, and each documented module-level
instance (`name = Class(...)` with an attribute docstring). Aliases are alias_chunks.py.

`FileContext` is what every builder reads about the file (`chunks.extract_python_file`
makes it once per file); each builder returns one `Chunk` and touches nothing else.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk, ChunkMeta, Deprecation, chunk_id
from ctxhub.ingest.embed_text import build_embed_text, window_texts
from ctxhub.ingest.python.bindings import module_bindings
from ctxhub.ingest.python.callgraph import (
    BodyFacts,
    ScopeContext,
    analyze_body,
    dotted_chain,
    scope_statements,
)
from ctxhub.ingest.python.definitions import (
    Definition,
    FuncNode,
    class_bases,
    class_signature,
    decorator_texts,
    docstring,
    first_line,
    function_signature,
    is_abstract_class,
    is_abstract_function,
    is_dataclass,
    is_property,
    return_type,
)
from ctxhub.ingest.python.exports import (
    declared_all,
    module_exports,
    reexports_only,
    renamed_imports,
)
from ctxhub.ingest.python.messages import MessageTables, emitted_templates
from ctxhub.ingest.python.name_templates import function_templates
from ctxhub.ingest.python.overview import (
    class_embed_body,
    class_overview,
    function_embed_body,
    module_embed_body,
    module_overview,
)
from ctxhub.ingest.python.source import segment

#: Calls on objects of unknown type a function chunk lists at most (past it, a count).
MAX_UNTYPED_CALLS = 30


@dataclass
class FileContext:
    """What the chunk builders read about one file."""

    source: str
    relpath: str
    version: str | None
    module: str
    lines: list[str]
    ctx: ScopeContext
    stub: bool
    deprecated: set[str]
    notes: dict[str, Deprecation]
    messages: MessageTables

    def chunk(
        self,
        symbol: str,
        ordinal: int,
        *,
        title: str,
        section: str | None,
        span: tuple[int, int],
        content: str,
        embed: str,
        meta: ChunkMeta,
    ) -> Chunk:
        # everything a deprecated module defines goes with it
        meta.deprecated = symbol in self.deprecated or self.module in self.deprecated
        note = self.notes.get(symbol)
        if note is not None:
            meta.extra["deprecation"] = {
                "replacement": note.replacement,
                "since": note.since,
                "note": note.note,
            }
        return Chunk(
            id=chunk_id(self.source, self.relpath, symbol, ordinal),
            source=self.source,
            kind="api",
            path=self.relpath,
            symbol=symbol,
            title=title,
            section=section,
            line_start=span[0],
            line_end=span[1],
            version=self.version,
            content=content,
            embed_text=embed,
            embed_windows=window_texts(symbol, content),
            metadata=meta,
        )

    def alias_chunk(
        self,
        symbol: str,
        *,
        title: str,
        section: str | None,
        span: tuple[int, int],
        content: str,
        text: str,
        about: str,
        extra: dict[str, object],
        class_name: str | None = None,
    ) -> Chunk:
        """A name bound to another definition (`alias_of`, or `wraps`): embedded as its
        qualified name, what it stands for (`about`) and its assignment `text`."""
        meta = ChunkMeta(
            chunk_type="alias",
            module=self.module,
            class_name=class_name,
            language="python",
            extra=extra,
        )
        embed = build_embed_text([symbol, about], text)
        return self.chunk(
            symbol,
            0,
            title=title,
            section=section,
            span=span,
            content=content,
            embed=embed,
            meta=meta,
        )


def instance_chunks(
    f: FileContext,
    tree: ast.Module,
    defined: dict[str, str],
    instances: Mapping[str, str] | None = None,
) -> list[Chunk]:
    """`format_exc_info = ExceptionRenderer()` at module level, documented by the string
    right after it (Sphinx's attribute docstring) or listed in `__all__`: a ready-made
    object users configure with, so it gets a chunk with its docstring and the class it
    is an instance of. Undocumented constants outside `__all__` stay out, as do type
    variables (`T = TypeVar("T")`: typing, not an object to use), and a private module's
    `__all__` makes nothing public (see exports.py). `instances`: the class each of the
    module's names holds, as the call graph reads it (`module_instances.py`, keyed by
    qualified name), which says "instance of" where the spelling cannot."""
    instances = instances or {}
    public = set() if is_private_path(f.module) else set(declared_all(tree) or ())
    out: list[Chunk] = []
    for stmt, following in zip(tree.body, [*tree.body[1:], None], strict=False):
        assigned = instance_assignment(stmt)
        if assigned is None:
            continue
        name, call = assigned
        doc = _attribute_docstring(following)
        if name.startswith("__") or name in defined:
            continue
        if name not in public and (doc is None or name.startswith("_")):
            continue
        chain = dotted_chain(call.func)
        if chain is None or chain[-1] in _TYPING_CONSTRUCTS:
            continue
        cls = defined.get(chain[0]) if len(chain) == 1 else None
        if cls is None and chain[0] in f.ctx.imports.bindings:
            cls = f.ctx.imports.qualify(".".join(chain))
        cls = cls or ".".join(chain)
        span = documented_span(stmt, following)
        symbol = f"{f.module}.{name}"
        content = segment(f.lines, *span)
        # `DEBUG = _get_environ_bool("TEXTUAL_DEBUG")` is a value a function returns,
        # not an instance of it: a class is named in CamelCase by convention, also
        # under a private alias (`from ._logger import Logger as _Logger`)
        made = "instance_of" if chain[-1].lstrip("_")[:1].isupper() else "value_of"
        if known := instances.get(symbol):
            made, cls = "instance_of", known
        header = [symbol, f"{made.replace('_', ' ')} {cls}", first_line(doc)]
        out.append(
            f.chunk(
                symbol,
                0,
                title=name,
                section=f.module,
                span=span,
                content=content,
                embed=build_embed_text(header, content),
                meta=ChunkMeta(
                    chunk_type="instance",
                    module=f.module,
                    language="python",
                    calls=[chain[-1]],
                    extra={made: cls},
                ),
            )
        )
    return out


#: Calls that make typing constructs, not objects a user configures with.
_TYPING_CONSTRUCTS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple", "NewType", "TypeAliasType"})


def instance_assignment(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """(name, call) of `name = Call(...)` or `name: T = Call(...)`."""
    value: ast.expr | None = None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign):
        target, value = stmt.target, stmt.value
    else:
        return None
    if isinstance(target, ast.Name) and isinstance(value, ast.Call):
        return target.id, value
    return None


def documented_span(stmt: ast.stmt, following: ast.stmt | None) -> tuple[int, int]:
    """The lines of a binding `stmt` and of the string literal right after it, when there
    is one: the attribute docstring Sphinx reads as the name's documentation."""
    end = stmt.end_lineno or stmt.lineno
    if following is not None and _attribute_docstring(following) is not None:
        end = following.end_lineno or end
    return stmt.lineno, end


def _attribute_docstring(stmt: ast.stmt | None) -> str | None:
    if (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    ):
        return inspect.cleandoc(stmt.value.value)
    return None


def module_chunk(f: FileContext, tree: ast.Module, top_level: list[Definition]) -> Chunk | None:
    if not tree.body:
        return None  # an empty __init__.py says nothing
    doc = docstring(tree)
    content = module_overview(tree, f.module, f.relpath, f.lines, top_level, f.deprecated)
    exports = module_exports(tree, f.module, f.ctx)
    renamed = renamed_imports(f.module, f.ctx)
    meta = ChunkMeta(
        chunk_type="module",
        module=f.module,
        imports=_module_imports(tree, f.ctx),
        language="python",
        extra={
            "classes": [d.name for d in top_level if isinstance(d.node, ast.ClassDef)],
            "functions": [d.name for d in top_level if not isinstance(d.node, ast.ClassDef)],
            **({"stub": True} if f.stub else {}),
            **({"exports": exports} if exports else {}),
            **({"reexports_only": True} if reexports_only(tree) else {}),
            **({"renamed": renamed} if renamed else {}),
            **module_bindings(tree, f.module, f.ctx.imports.is_package, f.ctx),
        },
    )
    embed = build_embed_text(
        [f.module, first_line(doc)], module_embed_body(tree, top_level, f.lines)
    )
    span = (1, max(len(f.lines), 1))
    return f.chunk(
        f.module,
        0,
        title=f.module,
        section=None,
        span=span,
        content=content,
        embed=embed,
        meta=meta,
    )


def _module_imports(tree: ast.Module, ctx: ScopeContext) -> list[str]:
    targets: dict[str, None] = {}
    for stmt in scope_statements(tree.body):
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            relative = isinstance(stmt, ast.ImportFrom) and stmt.level > 0
            for target in ctx.imports.overlay().add(stmt):
                if relative or ctx.is_internal(target):
                    targets.setdefault(target, None)
    return list(targets)


def class_chunk(
    f: FileContext,
    d: Definition,
    own: list[Definition],
    member_facts: list[BodyFacts],
    bases_qualified: list[str] | None = None,
) -> Chunk:
    node = d.node
    assert isinstance(node, ast.ClassDef)
    symbol = f"{f.module}.{d.qualname}"
    flags = []
    dataclass_ = is_dataclass(node, f.ctx.imports)
    abstract = is_abstract_class(node)
    if dataclass_:
        flags.append("dataclass")
    if abstract:
        flags.append("abstract")
    if symbol in f.deprecated:
        flags.append("deprecated")
    content = class_overview(d, own, f.deprecated, f.module, flags, f.lines)
    # The class depends on what its bases and class-level statements name, and on what
    # its methods use.
    imports: dict[str, None] = {}
    class_level = analyze_body([*node.bases, *node.body], f.ctx)
    for item in [class_level, *member_facts]:
        imports.update(dict.fromkeys(item.imports))
    sig = class_signature(node)
    extra: dict[str, Any] = {
        "methods": [m.name for m in own if not isinstance(m.node, ast.ClassDef)]
    }
    nested = [m.name for m in own if isinstance(m.node, ast.ClassDef)]
    if nested:
        extra["nested_classes"] = nested
    if d.local_to is not None:
        # a class made in a function (`factory.Inner`): local, as a nested def is
        extra["nested_in"] = d.local_to
    if node.keywords:
        extra["keywords"] = [ast.unparse(k) for k in node.keywords]
    if bases_qualified and any(bases_qualified):
        # one per base, "" when unknown: which class a base is (ingest/python/bases.py)
        extra["bases_qualified"] = bases_qualified
    meta = ChunkMeta(
        chunk_type="class",
        module=f.module,
        class_name=d.qualname,
        signature=sig,
        bases=class_bases(node),
        decorators=decorator_texts(node),
        is_dataclass=dataclass_,
        is_abstract=abstract,
        imports=list(imports),
        language="python",
        extra=extra,
    )
    embed = build_embed_text(
        [symbol, sig, first_line(docstring(node))], class_embed_body(node, own)
    )
    return f.chunk(
        symbol,
        d.ordinal,
        title=d.qualname,
        section=d.parent_class,
        span=(d.line_start, d.line_end),
        content=content,
        embed=embed,
        meta=meta,
    )


def function_chunk(f: FileContext, d: Definition, node: FuncNode, facts: BodyFacts) -> Chunk:
    symbol = f"{f.module}.{d.qualname}"
    sig = function_signature(node)
    extra: dict[str, Any] = {"calls_qualified": facts.calls_qualified}
    if facts.calls_via:
        extra["calls_via"] = facts.calls_via
    if facts.calls_nested:
        extra["calls_nested"] = facts.calls_nested
    if facts.calls_imported:
        extra["calls_imported"] = facts.calls_imported
    if facts.call_lines:
        extra["call_lines"] = facts.call_lines
    if facts.calls_untyped:
        extra["calls_untyped"] = facts.calls_untyped[:MAX_UNTYPED_CALLS]
        if len(facts.calls_untyped) > MAX_UNTYPED_CALLS:
            extra["calls_untyped_count"] = len(facts.calls_untyped)
    if facts.extends_super:
        extra["extends_super"] = True
    if names := function_templates(node):
        extra["name_templates"] = names
    messages = f.messages.emitted(node, d.parent_class if d.in_class else None)
    if messages:
        extra["messages"] = messages
    if templates := emitted_templates(node, messages):
        extra["message_templates"] = templates
    if d.in_class and is_property(node):
        extra["property"] = True
    if any(t.split(".")[-1] == "overload" for t in decorator_texts(node)):
        extra["overload"] = True
    if d.local_to is not None:
        extra["nested_in"] = d.local_to
    if f.stub:
        extra["stub"] = True
    meta = ChunkMeta(
        chunk_type="method" if d.in_class else "function",
        module=f.module,
        class_name=d.parent_class,
        signature=sig,
        return_type=return_type(node),
        decorators=decorator_texts(node),
        is_abstract=is_abstract_function(node),
        is_async=isinstance(node, ast.AsyncFunctionDef),
        calls=facts.calls,
        yields=facts.yields,
        imports=facts.imports,
        language="python",
        extra=extra,
    )
    header = [symbol, sig, first_line(docstring(node))]
    embed = build_embed_text(header, function_embed_body(node, f.lines))
    span = (d.line_start, d.line_end)
    content = segment(f.lines, *span)
    return f.chunk(
        symbol,
        d.ordinal,
        title=d.qualname,
        section=d.parent_class,
        span=span,
        content=content,
        embed=embed,
        meta=meta,
    )
