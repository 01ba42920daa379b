"""Names -> indexed definitions: the symbol cascade (exact, re-export, suffix, inherited,
class, method, alias, instance), a class's members along its bases, aliases and stubs
followed to what they stand for, and the order among several sources. The call graph's
edges are `call_edges.py`."""

from __future__ import annotations

from collections.abc import Mapping

from ctxhub.core.knowledge import Chunk
from ctxhub.search.stubs import is_stub, runtime_definition
from ctxhub.store.protocol import Store
from ctxhub.tools.hierarchy import class_named, method_in_hierarchy
from ctxhub.tools.importable import public_first

# re-exported: check_deprecation reads them as `resolve.api_chunks`, `resolve.with_suffix`
from ctxhub.tools.lookup import api_chunks as api_chunks
from ctxhub.tools.lookup import by_preference, recorded_reexport
from ctxhub.tools.lookup import with_suffix as with_suffix


def _exact_case_first(chunks: list[Chunk], last: str) -> list[Chunk]:
    """`File` asked: the class `...File` before the module `...file` (suffix matching is
    case-insensitive, a name's case is not)."""
    return sorted(chunks, key=lambda c: (c.symbol or "").rsplit(".", 1)[-1] != last)


def find_symbol(store: Store, name: str, source: str | None = None) -> tuple[list[Chunk], str]:
    """Definitions for `name`: exact qualified name (a constant its module records,
    `pkg.status.HTTP_404_NOT_FOUND`, is "constant") -> a name its module binds
    (`pkg.File` defined as `pkg.file.File`: what module `pkg` recorded it declares,
    imports, lazily loads or star-imports; "ambiguous re-export" when that leads to
    several) -> `Class.method` (a dotted suffix) -> a partial module path
    (`response.File`) -> a member of the class (or module-level instance) the qualifier
    names, its own ("re-export": `pkg.Client.send`) or one it inherits ("inherited").
    A dotted name
    stops there: `pkg.name` that `pkg` does not bind is not found, even when a module
    below `pkg` defines `name`. An undotted name goes on: a class of that name -> a
    function or method of that name ("function" / "method" by what the first one is)
    -> a module-level alias of that name -> a documented module-level instance
    (`format_exc_info = ExceptionRenderer()`). ([], "") if none; `through_alias`
    follows an alias to its definition. With `source`, only that source is read."""
    name = name.strip().strip("`").removesuffix("()")
    exact = api_chunks(store, source, symbol=name)
    if exact:
        exact = by_preference(exact)
        return exact, "constant" if exact[0].metadata.chunk_type == "constant" else "exact"
    last = name.rsplit(".", 1)[-1]
    if "." in name:
        recorded = recorded_reexport(store, name, source)
        if recorded:
            # one symbol from two sources (two versions) is not ambiguous
            one = len({c.symbol for c in recorded}) == 1
            return recorded, "re-export" if one else "ambiguous re-export"
        # `Class.method` by its last parts, the qualifier in the case asked: `typer`
        # is the package, never the class `Typer` (`typer.command` does not exist),
        # and a module spelt like it in another case (`pkg.file` for `pkg.File`) is
        # another name
        found = [
            c
            for c in with_suffix(store, name, source)
            if _qualifier_as_asked(c, name)
            and (c.metadata.chunk_type != "module" or (c.symbol or "").endswith(name))
        ]
        if found:
            return _exact_case_first(found, last), "class.method"
        partial = _partial_path(store, name, source)
        if partial:
            return partial, "partial path"
        # A dotted name's qualifier must hold the name: a class's member is looked up
        # along its bases, and nothing else of that last name answers (never another
        # class's or package's method that happens to share it).
        return _member(store, name.rsplit(".", 1)[0], last, source)
    found = with_suffix(store, last, source, ["class"])
    if found:
        return _exact_case_first(found, last), "class"
    found = with_suffix(store, last, source, ["method", "function"])
    if found:
        found = public_first(_exact_case_first(found, last), last)
        return found, found[0].metadata.chunk_type or "method"
    found = with_suffix(store, last, source, ["alias"])
    if found:
        return found, "alias"
    found = with_suffix(store, last, source, ["instance"])
    if found:
        return _exact_case_first(found, last), "instance"
    return [], ""


def member_names(store: Store, name: str, source: str | None) -> list[str]:
    """What `Class.member` (or `pkg.mod.Class.member`) names when the class inherits the
    member, or reaches it by another name: the definitions `find_symbol` answers with
    ("inherited", "re-export"), so a search puts first what get_code_snippet shows.
    [] for any other name."""
    found, how = find_symbol(store, name, source)
    if how not in ("inherited", "re-export"):
        return []
    return list(dict.fromkeys(c.symbol for c in found if c.symbol))


def _qualifier_as_asked(chunk: Chunk, name: str) -> bool:
    """Whether `chunk`'s symbol ends with `name`'s qualifier spelt as asked (the
    suffix lookup folds case; only the last part may differ in case)."""
    qualifier, last = name.rsplit(".", 1)
    symbol = chunk.symbol or ""
    head, _, tail = symbol.rpartition(".")
    return tail.lower() == last.lower() and f".{head}".endswith(f".{qualifier}")


def spelt_as(chunk: Chunk, named: str) -> bool:
    """False when `chunk`'s last name is `named` in another case only."""
    tail = (chunk.symbol or "").rsplit(".", 1)[-1]
    return tail == named or tail.lower() != named.lower()


def _partial_path(store: Store, name: str, source: str | None) -> list[Chunk]:
    """`response.File`, a qualifier that is the inner part of a module path: the
    definitions named `File` (its case) in a module whose path holds `response`
    (`fw.response.file.File`). A qualifier that starts the definition's path
    (`fw.File` for `fw.file.File`) claims an import path, which only a binding makes
    (`find_symbol`): never guessed."""
    package, last = name.rsplit(".", 1)
    return [
        c
        for c in with_suffix(store, last, source, ["class", "function", "instance"])
        if f".{package}." in f".{c.symbol}"
        and not (c.symbol or "").startswith(f"{package}.")
        and (c.symbol or "").rsplit(".", 1)[-1] == last
    ]


#: What a class's member looked up by name may be: a method alias (`pop = peek`) and a
#: documented attribute too.
MEMBER_TYPES = ("method", "function", "alias", "attribute")
#: Classes a qualifier may name (`Event.wait`: several `Event`s) whose bases are read.
MAX_OWNERS = 5


def _member(
    store: Store, qualifier: str, member: str, source: str | None
) -> tuple[list[Chunk], str]:
    """`member` as the classes `qualifier` names define it ("re-export" when the
    qualifier reached the class through one, else "class.method") or inherit it
    ("inherited": the first class along the MRO that defines it, each base the class
    its module binds: hierarchy.py, so a twin class of the same name in a sibling
    subpackage never answers); a module-level instance's member is its class's
    (`pkg.converter.structure` after `converter = Converter()`); ([], "") when the
    qualifier names no class, or classes without it, or an unknown base comes before
    any that defines it. Through an instance, the resolution is "instance"."""
    owners, how = find_symbol(store, qualifier, source)
    # the qualifier in the case written: `bar.baz` never reaches the class `Bar` that
    # an undotted lookup folds it onto (a binding under another name still counts)
    named = qualifier.rsplit(".", 1)[-1]
    owners = [c for c in owners if spelt_as(c, named)]
    if not owners and "." not in qualifier:
        # `logger.add`: the cascade stopped at the class `Logger` (suffixes fold case),
        # before the instance `logger` spelt as asked
        instances = with_suffix(store, named, source, ["instance"])
        owners = [c for c in instances if (c.symbol or "").rsplit(".", 1)[-1] == named]
    held = _held_by(store, owners, member, source)
    if held:
        return held, "re-export"
    kinds = ("class", "instance")
    classes = [_class_of(store, c) for c in owners if c.metadata.chunk_type in kinds]
    # `logger.add` through `logger = _Logger(...)`: said as "instance", as a user reads
    # the answer (the name asked is an object's, the code shown its class's)
    through_instance = any(c.metadata.chunk_type == "instance" for c in owners)
    found: dict[str, Chunk] = {}
    inherited = False
    for owner in [c for c in classes if c is not None][:MAX_OWNERS]:
        hit = method_in_hierarchy(store, owner, member, chunk_types=MEMBER_TYPES)
        # `source=` reads that source only, bases included
        if hit is not None and source in (None, hit.source):
            found.setdefault(hit.id, hit)
            inherited = inherited or hit.symbol != f"{owner.symbol}.{member}"
    if not found:
        return [], ""
    if through_instance:
        return list(found.values()), "instance"
    if inherited:
        return list(found.values()), "inherited"
    return list(found.values()), "re-export" if "re-export" in how else "class.method"


#: What holds its names as the definitions under its own qualified name.
_HOLDERS = ("module", "function", "method")


def _held_by(store: Store, owners: list[Chunk], member: str, source: str | None) -> list[Chunk]:
    """`member` of a module or function the qualifier reached by another name: a module
    a package binds as an attribute (`falcon.misc.to_query_str` after `from falcon.util
    import misc`: `falcon.util.misc.to_query_str`), a def nested in a method of a
    re-exported class (`pkg.Router.add_route.insert`). Looked up as defined there or, in
    a module, as it binds it: never by the cascade again (the owner would lead back)."""
    found: dict[str, Chunk] = {}
    for owner in owners:
        if owner.metadata.chunk_type not in _HOLDERS or not owner.symbol:
            continue
        name = f"{owner.symbol}.{member}"
        chunks = api_chunks(store, source, symbol=name)
        if not chunks and owner.metadata.chunk_type == "module":
            chunks = recorded_reexport(store, name, source)
        found.update((c.id, c) for c in by_preference(chunks))
    return list(found.values())


def _class_of(store: Store, chunk: Chunk) -> Chunk | None:
    """The class chunk itself, or the indexed class a module-level instance is of (a
    `value_of` that names an indexed class is one: a store chunked before privately
    aliased classes counted, `logger = _Logger(...)`)."""
    if chunk.metadata.chunk_type == "class":
        return chunk
    extra = chunk.metadata.extra
    made = extra.get("instance_of") or extra.get("value_of")
    if chunk.metadata.chunk_type != "instance" or not made:
        return None
    return class_named(store, str(made), chunk.source)


def through_alias(store: Store, found: list[Chunk], how: str) -> tuple[list[Chunk], str]:
    """An alias chunk (`name = Definition`) stands for the definition it names, looked
    up as `find_symbol` looks up a name (its own source first): through re-exports, and
    a module-level instance's attribute (`structure = converter.structure`) through the
    instance's class and its bases. The same alias in several sources (two versions of
    a package) leads to the definition in each, so the installed one can be preferred."""
    if not found or found[0].metadata.chunk_type != "alias":
        return found, how
    alias = found[0]
    target = str(alias.metadata.extra.get("alias_of", ""))
    if not target:
        return found, how  # a deprecated wrapper (`wraps`) is a definition of its own
    aliases = {c.id for c in found if c.metadata.chunk_type == "alias"}
    sources = [c.source for c in found if c.id in aliases and c.symbol == alias.symbol]
    definition: dict[str, Chunk] = {}
    for scope in dict.fromkeys(sources):
        definition.update((c.id, c) for c in find_symbol(store, target, scope)[0])
    if not definition:
        definition.update((c.id, c) for c in find_symbol(store, target, None)[0])
    kept = [c for c in definition.values() if c.id not in aliases]
    return (kept + found, "alias") if kept else (found, how)


#: Stubs of an answer looked up among the other matches (each costs a few reads).
MAX_STUBS = 8


def runtime_first(store: Store, found: list[Chunk]) -> tuple[list[Chunk], list[Chunk]]:
    """`found` led by the code that runs: a type stub first in line gives way to its
    runtime definition (search/stubs.py), and the stubs of the answer among `found`
    come back apart (its typed signatures), out of the list."""
    if found and is_stub(found[0]):
        runtime = runtime_definition(store, found[0])
        if runtime is not None:
            found = [runtime, *(c for c in found if c.id != runtime.id)]
    if not found or is_stub(found[0]):
        return found, []
    head = found[0]
    last = (head.symbol or "").rsplit(".", 1)[-1]
    maybe = [
        c
        for c in found[1:]
        if is_stub(c) and c.source == head.source and (c.symbol or "").endswith(f".{last}")
    ]
    runs: dict[str, str | None] = {}  # a stub's overloads: one lookup
    stubs: list[Chunk] = []
    for stub in maybe:
        if stub.symbol not in runs and len(runs) < MAX_STUBS:
            runtime = runtime_definition(store, stub)
            runs[stub.symbol or ""] = runtime.id if runtime else None
        if runs.get(stub.symbol or "") == head.id:
            stubs.append(stub)
    kept = {s.id for s in stubs}
    return [c for c in found if c.id not in kept], stubs


def prefer_sources(found: list[Chunk], ranks: Mapping[str, int]) -> tuple[list[Chunk], list[Chunk]]:
    """When the answer's symbol is defined in several sources (two versions of one
    package), the definition from the best-ranked source (hub_status.installed_ranks)
    first; the same symbol in the other sources comes back apart."""
    if not found:
        return found, []
    same = [c for c in found if c.symbol == found[0].symbol]
    if len({c.source for c in same}) < 2:
        return found, []
    best = min(same, key=lambda c: ranks.get(c.source, 1))
    others = [c for c in same if c.source != best.source]
    taken = {c.id for c in others} | {best.id}
    return [best, *(c for c in found if c.id not in taken)], others
