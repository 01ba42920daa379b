"""The definitions a query names without spelling their own qualified names.

The symbol path matches a name against the definitions' qualified names (or their last
parts), and the symbol boost rewards the parts matched. Two common spellings match
nothing, so the definition they name ranks below its own methods, which share its name
in their text:

- a public path read through its package's re-exports: `httpx.Client` is defined as
  `httpx._client.Client` (search/reexports.py);
- a class's member it inherits: `Configurator.add_route` is defined as
  `RoutesConfiguratorMixin.add_route`, a base of `Configurator` (the caller's
  `MemberLookup`: the tools resolve it along the bases as get_code_snippet does);
- a query that is one bare capitalised name (`Table`, `Client`): a single word is no
  identifier to the analyser (it reads as English), yet the agent who types it alone
  asks for the class of that name. It counts when it names exactly one class (one
  qualified name, in any number of sources): several classes of one name are left to
  the other paths to tell apart;
- a query that is one bare lowercase word naming exactly one module by its last part
  (`sandbox` is `jinja2.sandbox`): the module's overview, which lists what it defines,
  answers before a two-line helper class whose few words are all "sandbox".

Each is added to the query's analysis (`QueryAnalysis.definitions`), so the symbol path
looks it up and the boost counts its parts as it would for the qualified name typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ctxhub.core.knowledge import ChunkQuery, SearchFilters
from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.reexports import recorded_targets
from ctxhub.store.protocol import Store

#: A whole query that is one capitalised name, maybe in backticks or called: `Table`,
#: `Table()`, ``Table``
_BARE_CLASS = re.compile(r"`?([A-Z][A-Za-z0-9_]*)(?:\(\))?`?")
#: A whole query that is one lowercase word, maybe in backticks: `sandbox`, `testing`
_BARE_MODULE = re.compile(r"`?([a-z_][a-z0-9_]*)`?")
#: A whole query that is a package's name and a capitalised name: `jinja2 Environment`
_PACKAGE_AND_NAME = re.compile(r"`?([a-z_][a-z0-9_]*)`?\s+`?([A-Z][A-Za-z0-9_]*)(?:\(\))?`?")

#: (a dotted name, the one source asked or None) -> the qualified names of the members
#: it reaches along a class's bases; [] when it names no class's member
MemberLookup = Callable[[str, str | None], list[str]]


def as_dotted_name(store: Store, query: str) -> str | None:
    """`jinja2.Environment` for the query `jinja2 Environment` when `jinja2` is a
    top-level package an indexed source holds: the agent named the class the way the
    package exports it, with a space for the dot. None for any other query."""
    match = _PACKAGE_AND_NAME.fullmatch(query.strip())
    if not match:
        return None
    package, name = match.groups()
    packages = {str(p) for s in store.sources() for p in s.stats.get("packages", ())}
    return f"{package}.{name}" if package in packages else None


def named_definitions(
    store: Store,
    analysis: QueryAnalysis,
    filters: SearchFilters,
    kinds: Sequence[str] | None,
    members: MemberLookup | None = None,
) -> list[str]:
    """Qualified names of the definitions the query's names stand for (see the module
    docstring), each once; [] when the query spells every name as defined."""
    if kinds and "api" not in kinds:
        return []
    wanted = list(kinds) if kinds else None
    found: list[str] = []
    for name in analysis.identifiers:
        if "." in name and not _defined_as_written(store, name, filters, wanted):
            targets = recorded_targets(store, name)
            if not targets and members is not None:
                one = filters.source[0] if filters.source and len(filters.source) == 1 else None
                targets = members(name, one)
            found += targets
    match = _BARE_CLASS.fullmatch(analysis.text.strip())
    if match:
        found += _one_definition(store, match.group(1), filters, "class")
    match = _BARE_MODULE.fullmatch(analysis.text.strip())
    if match:
        found += _one_definition(store, match.group(1), filters, "module")
    return list(dict.fromkeys(found))


def _defined_as_written(
    store: Store, name: str, filters: SearchFilters, kinds: list[str] | None
) -> bool:
    """Some definition's qualified name is `name` or ends with it, in its case: the
    store matches names in any case, and `jinja2.Environment` (the class `jinja2`
    re-exports) is not the module `jinja2.environment`."""
    found = store.symbol_lookup([name], filters, kinds, 20)
    chunks = store.get_chunks([cid for cid, _ in found])
    return any(c.symbol == name or (c.symbol or "").endswith("." + name) for c in chunks)


def _one_definition(store: Store, name: str, filters: SearchFilters, chunk_type: str) -> list[str]:
    """The qualified name of the one class (or module) called `name` (case as written)
    in the filtered sources; [] for none or several."""
    query = ChunkQuery(kind="api", symbol_name=name, chunk_types=(chunk_type,))
    chunks = store.find_chunks(query)
    symbols = {
        c.symbol
        for c in chunks
        if c.symbol
        and c.symbol.rsplit(".", 1)[-1] == name
        and (not filters.source or c.source in filters.source)
    }
    return list(symbols) if len(symbols) == 1 else []
