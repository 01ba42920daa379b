"""search, search_docs, search_api, search_examples: one retriever, per-tool preferences."""

from __future__ import annotations

from typing import Any

from ctxhub.core.calls import CallsVia, call_sites, marker, via_kind
from ctxhub.core.cursor import cursor_key, make_cursor, parse_cursor
from ctxhub.core.errors import InputError
from ctxhub.core.knowledge import (
    Chunk,
    Hit,
    HitKind,
    SearchFilters,
    SearchRequest,
    SearchResponse,
)
from ctxhub.core.limits import DEFAULT_HITS, DEFAULT_TOKENS, MAX_RETRIEVED, check_tokens
from ctxhub.core.sentences import join_sentences
from ctxhub.search.budget import display_norm, to_hits
from ctxhub.search.examples_first import examples_answer
from ctxhub.search.rank import Candidate
from ctxhub.search.reexports import public_paths_of
from ctxhub.search.retriever import SearchOptions
from ctxhub.search.versions import fold_versions
from ctxhub.session import HubSession
from ctxhub.tools import resolve
from ctxhub.tools.base_filter import match_bases
from ctxhub.tools.calls_filter import cleaned as cleaned_call
from ctxhub.tools.calls_filter import match_calls
from ctxhub.tools.hub_status import installed_ranks, source_notes
from ctxhub.tools.installed_gaps import NOT_INSTALLED_KEY, installed_gaps
from ctxhub.tools.release_notes import release_notes_notice
from ctxhub.tools.search_notices import empty_hub, named_nothing, nothing_of_kind
from ctxhub.tools.source_check import check_sources
from ctxhub.tools.structural_hints import structural_hint
from ctxhub.tools.unmentioned import unmentioned_name


def _request(
    query: str, kinds: list[HitKind] | None, filters: SearchFilters, limit: int, max_tokens: int
) -> SearchRequest:
    if not 1 <= limit <= MAX_RETRIEVED:
        raise InputError(f"limit must be between 1 and {MAX_RETRIEVED}, got {limit}")
    check_tokens(max_tokens)
    return SearchRequest(
        query=query, kinds=kinds, filters=filters, limit=limit, max_tokens=max_tokens
    )


def _explained(
    hub: HubSession,
    response: SearchResponse,
    source: str | list[str] | None = None,
    kinds: list[HitKind] | None = None,
    *,
    releases: bool = False,
) -> SearchResponse:
    """Hits: name their sources that are due a refresh, and say when the query is a
    qualified name nothing defines, or a structural question a tool answers exactly.
    No hits: say so plainly when the hub holds nothing at all, or when the sources
    searched hold nothing of the kinds searched. `releases`: a release question also
    gets the changelog section that answers it (never ranked: tools/release_notes.py)."""
    release = (
        release_notes_notice(hub.store, response.query, _sources(source)) if releases else None
    )
    if response.hits:
        # a folded version's source counts too: its installed version may be the news
        folded = {
            str(a.get("source")) for h in response.hits for a in h.metadata.get("also_in", ())
        }
        notes = source_notes(hub.store, {h.source for h in response.hits} | folded)
        update: dict[str, Any] = {"source_notes": notes} if notes else {}
        if gaps := installed_gaps(hub.store, response.hits):
            update["hits"] = [
                h.model_copy(update={"metadata": {**h.metadata, NOT_INSTALLED_KEY: gaps[h.id]}})
                if h.id in gaps
                else h
                for h in response.hits
            ]
        notice = named_nothing(hub, response.query) or structural_hint(hub.store, response.query)
        if notice is not None or release is not None:
            # the tool's own notice (no example matches, no doc hit names it) still holds
            update["notice"] = join_sentences(response.notice, notice, release)
        return response.model_copy(update=update) if update else response
    if response.notice:
        return response
    notice = empty_hub(hub) or nothing_of_kind(hub, source, kinds) or release
    return response.model_copy(update={"notice": notice, "confidence": 0.0}) if notice else response


def options(hub: HubSession, **given: Any) -> SearchOptions:
    """The search options of a tool: two versions of one package fold into the hit of
    the version installed (search/versions.py; the environment is asked only then)."""
    return SearchOptions(
        source_rank=lambda names: installed_ranks(hub.store, set(names)),
        members=lambda name, source: resolve.member_names(hub.store, name, source),
        **given,
    )


def _sources(source: str | list[str] | None) -> list[str] | None:
    if source is None:
        return None
    return [source] if isinstance(source, str) else list(source) or None


def search(
    hub: HubSession,
    query: str,
    kinds: HitKind | list[HitKind] | None = None,
    source: str | list[str] | None = None,
    limit: int = DEFAULT_HITS,
    max_tokens: int = DEFAULT_TOKENS,
) -> SearchResponse:
    if not query.strip():
        raise InputError("query must not be empty")
    check_sources(hub.store, source)
    kinds = [kinds] if isinstance(kinds, str) else kinds
    request = _request(query, kinds, SearchFilters(source=_sources(source)), limit, max_tokens)
    response = hub.retriever.search(request, options(hub))
    return _explained(hub, response, source, kinds, releases=not kinds or "doc" in kinds)


def search_docs(
    hub: HubSession,
    query: str,
    area: str | None = None,
    source: str | list[str] | None = None,
    limit: int = DEFAULT_HITS,
    max_tokens: int = DEFAULT_TOKENS,
) -> SearchResponse:
    if not query.strip():
        raise InputError("query must not be empty")
    check_sources(hub.store, source)
    filters = SearchFilters(source=_sources(source), path_prefix=area or None)
    # a page gives one hit; its other sections are listed with it (search/collapse.py)
    request = _request(query, ["doc"], filters, limit, max_tokens)
    response = hub.retriever.search(request, options(hub))
    if notice := unmentioned_name(hub.store, query, response.hits):
        response = response.model_copy(update={"notice": notice})
    return _explained(hub, response, source, ["doc"], releases=True)


def search_examples(
    hub: HubSession,
    query: str,
    tags: list[str] | None = None,
    execution_mode: str | None = None,
    language: str | None = None,
    source: str | list[str] | None = None,
    limit: int = DEFAULT_HITS,
    max_tokens: int = DEFAULT_TOKENS,
) -> SearchResponse:
    if not query.strip():
        raise InputError("query must not be empty")
    check_sources(hub.store, source)
    filters = SearchFilters(
        source=_sources(source), tags=tags or None, execution_mode=execution_mode, language=language
    )
    narrowed = bool(tags or execution_mode or language)
    # Doc pages join (guides with complete code are examples too) unless the caller
    # filters on example-only facets: after the examples that match, as supplements
    # (search/examples_first.py); with none matching, ranked with the examples.
    kinds: list[HitKind] = ["example"] if narrowed else ["example", "doc"]
    request = _request(query, kinds, filters, limit, max_tokens)
    preferred = options(hub, prefer={"example": 1.0, "doc": 0.8})
    answer = examples_answer(hub.retriever, request, preferred)
    none = nothing_of_kind(hub, source, ["example"]) if answer.hits and not narrowed else None
    if none is not None:  # not "none matches closely": there are none to match
        answer.notice = join_sentences(none, "The hits are docs pages (marked supplement)")
    return _explained(hub, answer, source, kinds)


def _last_part(name: str | None) -> str | None:
    """`httpx.TimeoutException` -> `TimeoutException`; None for nothing."""
    name = (name or "").strip().strip("`").removesuffix("()")
    return name.rsplit(".", 1)[-1] or None


def _cursor_key(query: str, filters: SearchFilters) -> str:
    return cursor_key(query, filters.model_dump_json())


def search_api(
    hub: HubSession,
    query: str = "",
    module: str | None = None,
    class_name: str | None = None,
    chunk_type: str | list[str] | None = None,
    base_class: str | None = None,
    yields: str | None = None,
    calls: str | None = None,
    calls_via: CallsVia = "any",
    is_dataclass: bool | None = None,
    source: str | list[str] | None = None,
    limit: int = DEFAULT_HITS,
    cursor: str | None = None,
    max_tokens: int = DEFAULT_TOKENS,
) -> SearchResponse:
    """API chunks. With a structural filter the whole filtered set is listed (ranked by
    the query first, the rest after), `limit` per page, `next_cursor` for the next one."""
    check_sources(hub.store, source)
    filters = SearchFilters(
        source=_sources(source),
        module_prefix=module or None,
        class_prefix=class_name or None,
        chunk_type=[chunk_type] if isinstance(chunk_type, str) else chunk_type or None,
        # bases are recorded as written (`Base`, `mod.Base`), matched by the last part
        base_class=_last_part(base_class),
        yields=yields or None,
        # calls are recorded by their last part too; a dotted name is narrowed below
        calls=_last_part(calls),
        calls_via=calls_via,
        is_dataclass=is_dataclass,
    )
    if filters.calls_via != "any" and not filters.calls:
        raise InputError(f"calls_via={calls_via!r} narrows the calls filter: give calls too")
    if not filters.is_structural():
        if not query.strip():
            raise InputError(
                "give a query, or a structural filter (module, class_name, "
                "chunk_type, base_class, yields, calls, is_dataclass)"
            )
        if cursor:
            raise InputError("cursor only pages through a structurally filtered set")
        response = hub.retriever.search(
            _request(query, ["api"], filters, limit, max_tokens),
            options(hub, public_first=True),
        )
        return _explained(hub, response)
    return _list_filtered(hub, query, filters, limit, cursor, max_tokens, base_class, calls)


def _list_filtered(
    hub: HubSession,
    query: str,
    filters: SearchFilters,
    limit: int,
    cursor: str | None,
    max_tokens: int,
    base_class: str | None = None,
    calls: str | None = None,
) -> SearchResponse:
    key = cursor_key(query, filters.model_dump_json() + (base_class or "") + (calls or ""))
    offset = parse_cursor(cursor, key)
    ids, total = hub.store.list_ids(filters, ["api"], limit=100_000)
    notices: list[str] = []
    read: dict[str, Chunk] = {}
    if base_class:  # the store matched bases by last name; a qualified name is one class
        read = {c.id: c for c in hub.store.get_chunks(ids)}
        match = match_bases(hub.store, base_class, list(read.values()))
        ids = [i for i in ids if match.keep is None or i in match.keep]
        notices += [match.notice] if match.notice else []
    unresolved: set[str] = set()
    if calls and "." in cleaned_call(calls):  # likewise calls: a dotted name is one definition
        read.update((c.id, c) for c in hub.store.get_chunks([i for i in ids if i not in read]))
        called = match_calls(hub.store, calls, filters.calls_via, [read[i] for i in ids])
        ids = [i for i in ids if called.keep is None or i in called.keep]
        unresolved = called.unresolved
        notices += [called.notice] if called.notice else []
    notice = join_sentences(*notices) or None
    scored: dict[str, Candidate] = {}
    confidence, norm = 1.0, 1.0
    if query.strip():
        request = _request(query, ["api"], filters, 200, max_tokens)
        ranking = hub.retriever.rank(request, SearchOptions(collapse=False))
        admitted = set(ids)
        scored = {c.chunk.id: c for c in ranking.candidates if c.chunk.id in admitted}
        confidence = ranking.confidence
        norm = ranking.norm
    order = list(scored) + [i for i in ids if i not in scored]
    rows = _rows(hub, order, scored, read)
    total = len(rows)
    page = rows[offset : offset + limit]
    unread = [i for i in page if isinstance(i, str) and i not in scored]
    read.update((c.id, c) for c in hub.store.get_chunks(unread))
    candidates = [
        i if isinstance(i, Candidate) else scored.get(i) or Candidate(read[i], 0.0, {})
        for i in page
        if not isinstance(i, str) or i in scored or i in read
    ]
    if total == 0:  # a filter that admits nothing is no confident answer
        return SearchResponse(
            query=query,
            hits=[],
            confidence=0.0,
            low_confidence=True,
            total=0,
            notice=empty_hub(hub)
            or notice
            or f"no API chunk matches {_describe(filters, calls)}{_packages(hub)}",
        )
    shown = display_norm(norm, (c.score for c in scored.values())) if scored else 1.0
    public = public_paths_of(hub.store, [c.chunk for c in candidates])
    hits, truncated, _ = to_hits(candidates, shown, max_tokens, public=public)  # cursor follows
    for hit, cand in zip(hits, candidates, strict=False):
        if not cand.signals and not cand.score:
            hit.score = None  # listed, not ranked: no relevance to report
    if filters.calls:
        by_id = {c.chunk.id: c.chunk for c in candidates}
        _mark_call_matches(hits, by_id, filters.calls, filters.calls_via)
        for hit in hits:
            if hit.id in unresolved:
                hit.metadata["call_unresolved"] = True
    end = offset + len(hits)  # a tight budget returns fewer hits; the cursor follows
    listed = SearchResponse(
        query=query,
        hits=hits,
        confidence=round(confidence, 4),
        low_confidence=False,
        total=total,
        next_cursor=make_cursor(str(end), key) if end < total else None,
        truncated=truncated,
        notice=notice,
    )
    return _explained(hub, listed)


#: A filtered set up to this size is read whole to fold its copies (search/versions.py).
MAX_FOLDED = 3000


def _rows(
    hub: HubSession, order: list[str], scored: dict[str, Candidate], read: dict[str, Chunk]
) -> list[Candidate | str]:
    """The listing's rows in order: one per definition, the copies of it that other
    versions of its package index riding along as `versions` (as search folds them);
    ids not yet read when the set is too large to fold. `read`: chunks already read."""
    if len(order) > MAX_FOLDED:
        return list(order)
    missing = [i for i in order if i not in scored and i not in read]
    chunks = {**read, **{c.id: c for c in hub.store.get_chunks(missing)}}
    ranked = [
        scored.get(i) or Candidate(chunks[i], 0.0, {}) for i in order if i in scored or i in chunks
    ]
    return list(fold_versions(ranked, hub.store.sources, options(hub).source_rank))


def _describe(filters: SearchFilters, calls: str | None = None) -> str:
    """The structural filters as the caller gave them: `module='tests', calls='run'`."""
    given = filters.model_dump(exclude_defaults=True, exclude={"calls_via"})
    if calls and "calls" in given:
        given["calls"] = cleaned_call(calls)
    spelled = {"module_prefix": "module", "class_prefix": "class_name"}
    return ", ".join(f"{spelled.get(k, k)}={v!r}" for k, v in given.items())


def _packages(hub: HubSession) -> str:
    """`; indexed packages: a, b` (what module= can start with)."""
    found = sorted({p for s in hub.store.sources() for p in s.stats.get("packages", [])})
    return f"; indexed packages: {', '.join(found[:12])}" if found else ""


def _mark_call_matches(
    hits: list[Hit], chunks: dict[str, Chunk], name: str, calls_via: CallsVia
) -> None:
    """Say on each hit when the filtered call goes through super() or an attribute (its
    `match_via`), so a listing of callers never passes an override off as a self-call."""
    for hit in hits:
        chunk = chunks.get(hit.id)
        if chunk is None:
            continue
        shown = {
            m
            for called, _, via in call_sites(chunk.metadata.extra)
            if called == name
            and (m := marker(via)) is not None
            and calls_via in ("any", via_kind(via))
        }
        if shown:
            hit.metadata["match_via"] = sorted(shown)


__all__ = ["search", "search_api", "search_docs", "search_examples"]
