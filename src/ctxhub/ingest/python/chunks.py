"""API chunks of one Python file: a module overview, class overviews, one chunk per
function or method with its full source, call graph and deprecation state, and one per
documented class attribute, alias, instance and constant.

Plain functions on plain data: the caller reads the file and passes its bytes; nothing
here touches the store or the disk. A file the compiler rejects raises `SkipFile`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field

from ctxhub.core.errors import SkipFile
from ctxhub.core.knowledge import LOOKUP_ONLY, Chunk, Deprecation
from ctxhub.ingest.python.alias_chunks import alias_chunks, wrapper_chunks
from ctxhub.ingest.python.attribute_chunks import attribute_chunks
from ctxhub.ingest.python.bases import ModuleBindings, class_body_classes, qualified_bases
from ctxhub.ingest.python.bodies import function_facts
from ctxhub.ingest.python.callgraph import (
    ScopeContext,
    build_import_table,
    module_level_names,
)
from ctxhub.ingest.python.class_alias_chunks import class_alias_chunks
from ctxhub.ingest.python.constant_chunks import constant_chunks
from ctxhub.ingest.python.definition_chunks import (
    FileContext,
    class_chunk,
    function_chunk,
    instance_chunks,
    module_chunk,
)
from ctxhub.ingest.python.definitions import (
    Definition,
    body_line_count,
    collect_definitions,
)
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers
from ctxhub.ingest.python.deprecations import find_code_deprecations
from ctxhub.ingest.python.messages import MessageTables
from ctxhub.ingest.python.modules import is_package_init, module_name_for
from ctxhub.ingest.python.package_types import PackageTypes, module_types
from ctxhub.ingest.python.source import decode_source, parse_source, split_lines

_NONE: frozenset[str] = frozenset()

__all__ = ["TRIVIAL_BODY_LINES", "PythonFileExtract", "SkipFile", "extract_python_file"]

#: A function with a shorter body that calls and yields nothing (`self.x = x`, an
#: abstract `pass`) is trivial: its chunk is lookup-only (`LOOKUP_ONLY`): a snippet, a
#: call graph, a `super()` chain or a class's member listing reaches it by name, and no
#: search ranks its few words
TRIVIAL_BODY_LINES = 3


@dataclass
class PythonFileExtract:
    module: str
    chunks: list[Chunk] = field(default_factory=list)
    deprecations: list[Deprecation] = field(default_factory=list)
    #: Symbols deprecated as a whole (for `deprecations.link_deprecations`).
    deprecated_symbols: set[str] = field(default_factory=set)


def _fallback_module(relpath: str) -> str:
    parts = relpath.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def extract_python_file(
    source: str,
    relpath: str,
    text: str | bytes,
    *,
    version: str | None,
    internal_packages: Iterable[str],
    module: str | None = None,
    known_modules: Iterable[str] = (),
    helpers: DeprecationHelpers | None = None,
    types: PackageTypes | None = None,
) -> PythonFileExtract:
    """Chunks and deprecations of one `.py`/`.pyi` file.

    `module` defaults to what `modules.module_name_for` derives from the path;
    `internal_packages` (see `modules.find_internal_packages`) decides which imports
    are the framework's own; `known_modules` (optional, `modules.module_names`) lets
    `from pkg import submodule; submodule.f()` count as a module-qualified call;
    `helpers` (optional, `deprecation_helpers.scan_package`) are the package's
    deprecation helpers, whose call sites are deprecations; `types` (optional,
    `package_types.scan_types`) what the package's modules state about types, read
    for calls through values typed in another module (`get_broker()`, a base's hook).
    Raises SkipFile for a file that cannot be decoded or parsed.
    """
    decoded = decode_source(text)
    tree = parse_source(decoded, relpath)
    lines = split_lines(decoded)
    module = module or module_name_for(relpath) or _fallback_module(relpath)
    imports = build_import_table(tree, module, is_package_init(relpath), known_modules)
    internal = frozenset(internal_packages) | {module.split(".", 1)[0]}
    ctx = ScopeContext(imports, module_level_names(tree), internal)
    defs = collect_definitions(tree)
    found = find_code_deprecations(
        tree,
        defs,
        source=source,
        relpath=relpath,
        module=module,
        ctx=ctx,
        lines=lines,
        helpers=helpers,
    )
    notes = {r.symbol: r for r in found.records if r.symbol in found.symbols}
    stub = relpath.endswith(".pyi")
    tables = MessageTables(tree, defs)
    f = FileContext(
        source, relpath, version, module, lines, ctx, stub, found.symbols, notes, tables
    )

    # What each function calls, with what the file says its receivers hold:
    # `self.client.send()`, `next_screen._push_result_callback()` resolve.
    own_types = module_types(tree, module, imports.is_package, imports.known_modules)
    facts = function_facts(defs, ctx, module, own_types.over(types))
    # Members of a class are defined directly in its body (key: its qualname); a module's
    # are its top-level defs (key: None). Defs nested in functions belong to neither.
    members: dict[str | None, list[Definition]] = {}
    for d in defs:
        if d.in_class:
            members.setdefault(d.parent_class, []).append(d)
        elif "." not in d.qualname:
            members.setdefault(None, []).append(d)

    # Each base as the module binds it: `Connection` is the one this file imports.
    bindings = ModuleBindings(tree, module, imports)
    siblings = class_body_classes(defs)

    out = PythonFileExtract(module, deprecations=found.records, deprecated_symbols=found.symbols)
    overview = module_chunk(f, tree, members.get(None, []))
    if overview is not None:
        out.chunks.append(overview)
    for d in defs:
        if isinstance(d.node, ast.ClassDef):
            own = members.get(d.qualname, [])
            bases = qualified_bases(d, module, bindings, siblings.get(d.parent_class or "", _NONE))
            member_facts = [facts[id(m)] for m in own if id(m) in facts]
            out.chunks.append(class_chunk(f, d, own, member_facts, bases))
        else:
            # every def, however short: a two-line constructor is what an agent opens to
            # learn what an object holds, an abstract `pass` what overrides point at
            fn_facts = facts[id(d)]
            chunk = function_chunk(f, d, d.node, fn_facts)
            if not (f.stub or fn_facts.calls or fn_facts.yields) and (
                body_line_count(d.node, lines) < TRIVIAL_BODY_LINES
            ):
                chunk.metadata.extra[LOOKUP_ONLY] = True
            out.chunks.append(chunk)
    members_taken = {c.symbol for c in out.chunks if c.symbol}
    file_methods = {
        f"{module}.{d.qualname}"
        for d in defs
        if d.in_class and isinstance(d.node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    for d in defs:
        # `pop = peek` in a class body: a method of its own, before any attribute of that name
        aliases = class_alias_chunks(f, d, members_taken, file_methods)
        members_taken |= {c.symbol for c in aliases if c.symbol}
        out.chunks.extend(aliases)
        out.chunks.extend(attribute_chunks(f, d, members_taken))
    defined = {d.name: f"{module}.{d.qualname}" for d in members.get(None, [])}
    wrappers = wrapper_chunks(f, tree, defined)
    out.chunks.extend(wrappers)
    # a wrapper's name is defined here: an alias of it points at it, no instance is made
    defined |= {c.title: c.symbol for c in wrappers if c.title and c.symbol}
    out.chunks.extend(alias_chunks(f, tree, defined))
    out.chunks.extend(instance_chunks(f, tree, defined, own_types.instances))
    if overview is not None:
        constants = overview.metadata.extra.get("constants", {})
        taken = {c.symbol for c in out.chunks if c.symbol}
        out.chunks.extend(constant_chunks(f, constants, taken))
    return out
