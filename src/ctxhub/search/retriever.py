"""The hybrid retriever: BM25 + dense + exact symbol, fused by weighted RRF, re-ranked.

One call answers one SearchRequest. Each path over-fetches, a path the store or the model
cannot run (StoreQueryError, EmbedderError) is logged and skipped (the others still
fuse), and every hit carries the ranks that found it. Anything else propagates: a
damaged store is not a broken path, and a bug must not show up as worse ranking.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ctxhub.core.errors import EmbedderError, StoreQueryError
from ctxhub.core.knowledge import Chunk, SearchFilters, SearchRequest, SearchResponse
from ctxhub.core.message_templates import best_match, ngrams
from ctxhub.core.name_templates import keys_for_name
from ctxhub.embed.base import Embedder, Vectors
from ctxhub.search import confidence as conf
from ctxhub.search.analyzer import (
    QueryAnalysis,
    analyze,
    bm25_terms,
    informative_terms,
    with_definitions,
)
from ctxhub.search.budget import FittedHits, display_norm, to_hits
from ctxhub.search.cohesion import CallCohesion
from ctxhub.search.collapse import collapse
from ctxhub.search.described import described_docs
from ctxhub.search.drill import drill_down
from ctxhub.search.frameworks import NamedFramework
from ctxhub.search.fusion import max_fused, merge_windows, rrf
from ctxhub.search.named import MemberLookup, as_dotted_name, named_definitions
from ctxhub.search.pointers import ReexportModule
from ctxhub.search.rank import (
    Candidate,
    Currency,
    FeedbackRatio,
    KindPreference,
    LiteralMatch,
    NestedDef,
    PublicApi,
    Scorer,
    Spread,
    SymbolBoost,
    rerank,
)
from ctxhub.search.reexports import public_paths_of
from ctxhub.search.stubs import fold_stubs, runtime_definition
from ctxhub.search.versions import SourceRank, fold_versions
from ctxhub.store.protocol import Store

log = logging.getLogger(__name__)

ALL_PATHS = ("bm25", "dense", "symbol", "phrase", "template", "declared")
#: Candidates each path fetches; the fused list is cut to RERANK_DEPTH before re-ranking.
OVERFETCH = 50
RERANK_DEPTH = 100
#: A one-name query finds the lookup-only defs of that name only when it names this few
#: definitions: more are namesakes the other paths must tell apart.
MAX_NAMESAKES = 3


@dataclass
class SearchOptions:
    """How one search runs: which paths, which scorers, what the calling tool prefers."""

    paths: Sequence[str] = ALL_PATHS
    prefer: Mapping[str, float] = field(default_factory=dict)  # kind -> multiplier
    scorers: Sequence[str] | None = None  # None: all default scorers
    weights: Mapping[str, float] | None = None  # override the analyser's path weights
    #: keep the best chunk per doc page and per example, one place per definition
    collapse: bool = True
    #: the caller looks for API to use (search_api): private definitions step back
    public_first: bool = False
    #: which of several sources holding one definition or page is kept (the installed
    #: version first: search/versions.py); None keeps the better-ranked copy
    source_rank: SourceRank | None = None
    #: the definitions a `Class.member` name reaches along the class's bases, given the
    #: name and the one source asked (the lookup get_code_snippet answers with,
    #: tools/search_tools.py); None: such a name is looked up as written only
    members: MemberLookup | None = None


#: The symbol path's score for a definition that builds a name the query uses (an exact
#: name scores 1 per matched part and more)
TEMPLATE_SCORE = 0.5

#: The template path: query n-grams looked up (each is one index probe; a query of
#: MAX_QUERY characters has at most 1,000 words, so 2,000 n-grams: a tool's query is
#: never cut), definitions read, and the literal words a template must match to count
#: (two words match "Invalid value" anywhere)
MAX_TEMPLATE_GRAMS = 2000
TEMPLATE_CANDIDATES = 200
MIN_TEMPLATE_WORDS = 3

#: The drill-down (`search/drill.py`) by its name in `SearchOptions.scorers`: it runs with
#: the default scorers (None) or when listed there, so an ablation can leave it out.
DRILL = "drill"


@dataclass
class Ranking:
    analysis: QueryAnalysis
    candidates: list[Candidate]
    norm: float  # the fused score of a hit ranked first by every weighted path
    confidence: float
    #: the paths that found anything, and the share of the query's terms the index
    #: holds: the confidence's inputs besides the candidates (`confidence.features`)
    paths: list[str] = field(default_factory=list)
    coverage: float = 1.0


class Retriever:
    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder
        self._query_vectors: OrderedDict[str, Vectors] = OrderedDict()
        #: Set by the eval harness: forces paths and scorers for every search (ablations).
        self.ablation: SearchOptions | None = None

    def embed_query(self, text: str) -> Vectors:
        if self.embedder is None:
            raise RuntimeError("no embedder configured")
        cached = self._query_vectors.get(text)
        if cached is not None:
            self._query_vectors.move_to_end(text)
            return cached
        vec = np.asarray(self.embedder.embed([text])[0], dtype=np.float32)
        self._query_vectors[text] = vec
        if len(self._query_vectors) > 256:
            self._query_vectors.popitem(last=False)
        return vec

    def _run_paths(
        self,
        analysis: QueryAnalysis,
        request: SearchRequest,
        paths: Sequence[str],
        window_led: set[str] | None = None,
        vocabulary: tuple[dict[str, int], int] | None = None,
        public_first: bool = False,
    ) -> dict[str, list[tuple[str, float]]]:
        """Each path's ranked (id, score) list; `window_led` collects the chunks whose
        dense score a window raised (the drill-down's parents); `vocabulary` is the
        query terms' `Store.term_frequencies` when the caller has them; `public_first`
        (the caller looks for API to use) lets the `declared` path run."""
        kinds: list[str] | None = list(request.kinds) if request.kinds else None
        filters = request.filters
        # the paths that read chunk rows, not the text index or the vectors, may find a
        # lookup-only chunk (a trivial def): no answer, so they leave it out (a filter,
        # not a cut after their top-k, so every list is what it was without such chunks)
        rows = filters.model_copy(update={"ranked_only": True})
        results: dict[str, list[tuple[str, float]]] = {}
        named: list[tuple[str, float]] = []  # lookup-only defs a one-name query names
        for path in paths:
            try:
                if path == "bm25":
                    freqs, total = vocabulary or self.store.term_frequencies(analysis.terms)
                    terms = informative_terms(analysis.terms, freqs, total)
                    wanted = bm25_terms(analysis, terms=terms)
                    if wanted:
                        results[path] = self.store.bm25(wanted, filters, kinds, OVERFETCH)
                elif path == "dense":
                    if self.embedder is not None and request.query.strip():
                        qvec = self.embed_query(request.query)
                        own = self.store.dense(qvec, filters, kinds, OVERFETCH)
                        windows = self._windows(qvec, filters, kinds)
                        results[path] = merge_windows(own, windows, OVERFETCH)
                        if window_led is not None:
                            window_led.update(c for c, mine, best in windows if best > mine)
                elif path == "declared":
                    if public_first and analysis.asks_usage and self.embedder is not None:
                        # dense over the declared API alone: the class a user imports
                        # (`BackgroundTask`, `ResponseCacheConfig`) is often past dense's
                        # 50 among the internals that share its words
                        declared = filters.model_copy(update={"declared_only": True})
                        qvec = self.embed_query(request.query)
                        results[path] = self.store.dense(qvec, declared, kinds, OVERFETCH)
                elif path == "phrase":
                    if analysis.fragments:  # the message's fragments, as exact phrases
                        results[path] = self.store.bm25(
                            analysis.fragments, filters, kinds, OVERFETCH
                        )
                elif path == "symbol":
                    if analysis.names:
                        named = self._named_lookup_only(analysis, filters, kinds)
                        results[path] = named + self._symbols(
                            analysis.names, rows, kinds, described=analysis.is_name
                        )
                elif path == "template":
                    if analysis.messages and (found := self._templates(analysis, rows, kinds)):
                        results[path] = found
                else:
                    raise ValueError(f"unknown retrieval path {path!r}")  # a bug: raise it
            except (StoreQueryError, EmbedderError) as exc:
                # One path the store or the model cannot run must not sink the others; a
                # damaged, read-only or full store is no failing path and propagates.
                log.warning("retrieval path %s failed (%s); fusing the others", path, exc)
                log.debug("path %s failed for query %r", path, request.query, exc_info=True)
        if named and "bm25" in results:
            # its text is not in the text index, where its name would match first
            have = {cid for cid, _ in named}
            top = results["bm25"][0][1] if results["bm25"] else 1.0
            results["bm25"] = [(cid, top) for cid, _ in named] + [
                r for r in results["bm25"] if r[0] not in have
            ]
        return results

    def _windows(
        self, qvec: Vectors, filters: SearchFilters, kinds: list[str] | None
    ) -> list[tuple[str, float, float]]:
        """Window scores for the dense path. A doc chunk's windows count only when docs
        are all that is asked for (search_docs): where docs compete with code, the extra
        vectors of long pages lifted a guide over the code that raises a pasted error
        (docs/EVAL.md)."""
        if kinds != ["doc"]:
            kinds = [k for k in (kinds or ("api", "example")) if k != "doc"]
            if not kinds:
                return []
        return self.store.dense_windows(qvec, filters, kinds, OVERFETCH)

    def _symbols(
        self,
        names: list[str],
        filters: SearchFilters,
        kinds: list[str] | None,
        described: bool = True,
    ) -> list[tuple[str, float]]:
        """Definitions named by the query (with those its names stand for:
        `QueryAnalysis.definitions`), then those that build the names it uses by
        convention (`key_space` -> the code holding `f"key_{key}"`), below them, then
        the doc windows that describe them (search/described.py)."""
        found = self.store.symbol_lookup(names, filters, kinds, OVERFETCH)
        keys = sorted({k for n in names for k in keys_for_name(n)})
        if keys and len(found) < OVERFETCH:
            scoped = filters.model_copy(update={"name_templates": keys})
            ids, _ = self.store.list_ids(scoped, kinds, OVERFETCH - len(found))
            have = {cid for cid, _ in found}
            found += [(cid, TEMPLATE_SCORE) for cid in ids if cid not in have]
        if not described:
            return found
        return found + described_docs(self.store, names, filters, kinds, OVERFETCH - len(found))

    def _named_lookup_only(
        self, analysis: QueryAnalysis, filters: SearchFilters, kinds: list[str] | None
    ) -> list[tuple[str, float]]:
        """For a query that is one name, the lookup-only definitions (a trivial def: a
        one-line setter, a two-line registry function) it names, as the whole qualified
        name or its last parts: asked for by name, such a definition is the answer, and
        without it the query finds only a namesake (another class's method of that last
        name). More than MAX_NAMESAKES definitions of that name are left to the other
        paths. They lead the symbol path and the BM25 one (their text is not in the text
        index, where their name would match first)."""
        if not analysis.is_name:
            return []
        found = self.store.symbol_lookup(analysis.identifiers, filters, kinds, OVERFETCH)
        chunks = {c.id: c for c in self.store.get_chunks([cid for cid, _ in found])}
        wanted = {n.lower().strip(".") for n in analysis.identifiers}
        exact: list[tuple[str, float]] = []
        symbols: set[str] = set()
        for cid, score in found:
            chunk = chunks.get(cid)
            symbol = ((chunk.symbol if chunk else None) or "").lower()
            if chunk is None or not any(symbol == n or symbol.endswith("." + n) for n in wanted):
                continue
            symbols.add(symbol)  # one definition in several sources counts once
            if chunk.lookup_only:
                exact.append((cid, score))
        return exact if len(symbols) <= MAX_NAMESAKES else []

    def _templates(
        self, analysis: QueryAnalysis, filters: SearchFilters, kinds: list[str] | None
    ) -> list[tuple[str, float]]:
        """Definitions whose message templates the pasted messages fill in
        (`core/message_templates.py`): looked up by their parts' keys (those sharing the
        most first), kept when every part occurs in a message in order, ranked by the
        literal words matched."""
        grams = list(dict.fromkeys(g for m in analysis.messages for g in ngrams(m)))
        if not grams:
            return []
        found = self.store.term_matches(
            "msgsegs", grams[:MAX_TEMPLATE_GRAMS], filters, kinds, TEMPLATE_CANDIDATES
        )
        scored = [
            (chunk.id, float(words))
            for chunk in self.store.get_chunks([cid for cid, _ in found])
            if (
                words := best_match(
                    chunk.metadata.extra.get("message_templates", ()), analysis.messages
                )
            )
            >= MIN_TEMPLATE_WORDS
        ]
        return sorted(scored, key=lambda x: -x[1])[:OVERFETCH]

    def _scorers(self, options: SearchOptions) -> list[Scorer]:
        available: dict[str, Scorer] = {
            "symbol": SymbolBoost(),
            "literal": LiteralMatch(),
            "feedback": FeedbackRatio(self.store.knowledge_feedback),
            "currency": Currency(),
            "cohesion": CallCohesion(),
            "framework": NamedFramework(self.store.sources),
            "nested": NestedDef(),
            "pointer": ReexportModule(),
        }
        if options.public_first:
            available["public"] = PublicApi(self.store.exported)
        if options.prefer:
            available["kind"] = KindPreference(options.prefer)
        if options.public_first:
            available["spread"] = Spread()  # last: it reads the order the others made
        if options.scorers is None:
            return list(available.values())
        return [available[name] for name in options.scorers if name in available]

    def rank(self, request: SearchRequest, options: SearchOptions | None = None) -> Ranking:
        """The re-ranked candidates (up to RERANK_DEPTH), before any budget or limit."""
        options = options or SearchOptions()
        if self.ablation is not None:
            options = replace(options, paths=self.ablation.paths, scorers=self.ablation.scorers)
        analysis = analyze(request.query)
        if "symbol" in options.paths and (dotted := as_dotted_name(self.store, request.query)):
            # `jinja2 Environment` is asked as `jinja2.Environment` (search/named.py)
            analysis = replace(analyze(dotted), text=request.query)
        if "symbol" in options.paths:
            kinds = list(request.kinds) if request.kinds else None
            found = named_definitions(self.store, analysis, request.filters, kinds, options.members)
            analysis = with_definitions(analysis, found)
        weights = dict(options.weights or analysis.weights)
        window_led: set[str] = set()
        try:
            vocabulary: tuple[dict[str, int], int] | None = self.store.term_frequencies(
                analysis.terms
            )
        except StoreQueryError:
            vocabulary = None  # the BM25 path reports it; confidence goes without coverage
        ranked = self._run_paths(
            analysis, request, options.paths, window_led, vocabulary, options.public_first
        )
        fused = rrf(ranked, weights)[:RERANK_DEPTH]
        chunks = {c.id: c for c in self.store.get_chunks([d for d, _, _ in fused])}
        candidates = [
            Candidate(chunk=chunks[d], fused=score, signals=signals)
            for d, score, signals in fused
            if d in chunks
        ]
        final = rerank(analysis, candidates, self._scorers(options))
        if options.scorers is None or DRILL in options.scorers:
            final = self._drill(analysis, request, final, window_led, vocabulary)
        if options.collapse:
            # a stub and the code it types are one definition (search/stubs.py)
            final = fold_stubs(final, self._runtime_answer)
            # two versions of one package: one hit per definition or page, the installed
            # version's copy at the better rank (before `collapse` keeps a first copy)
            final = collapse(fold_versions(final, self.store.sources, options.source_rank))
        coverage = conf.term_coverage(analysis.terms, vocabulary[0]) if vocabulary else 1.0
        feats = conf.features(analysis, final, list(ranked), coverage)
        return Ranking(
            analysis=analysis,
            candidates=final,
            # paths that found nothing (no symbol named, no template filled) do not
            # lower every score: the best is a hit first on each path that ran
            norm=max_fused({p: w for p, w in weights.items() if ranked.get(p)}),
            confidence=conf.confidence(feats) if final else 0.0,
            paths=list(ranked),
            coverage=coverage,
        )

    def _runtime_answer(self, stub: Chunk) -> Chunk | None:
        """The code a stub hit stands for, unless it is lookup-only (a trivial def is no
        answer: the stub, with its signature, is the better hit)."""
        found = runtime_definition(self.store, stub)
        return None if found is None or found.lookup_only else found

    def _drill(
        self,
        analysis: QueryAnalysis,
        request: SearchRequest,
        ranked: list[Candidate],
        window_led: set[str],
        vocabulary: tuple[dict[str, int], int] | None = None,
    ) -> list[Candidate]:
        """The nearest methods of the top class chunks that rank on their content
        (`search/drill.py`), found by BM25 and dense restricted to the class, fused by
        RRF (BM25 alone without an embedder); `vocabulary` as for `_run_paths`."""
        kinds: list[str] | None = list(request.kinds) if request.kinds else None
        terms: list[str] | None = None

        def members(filters: SearchFilters, limit: int) -> list[tuple[str, float]]:
            nonlocal terms
            try:
                if terms is None:
                    freqs, total = vocabulary or self.store.term_frequencies(analysis.terms)
                    terms = bm25_terms(
                        analysis, terms=informative_terms(analysis.terms, freqs, total)
                    )
                lists: dict[str, list[tuple[str, float]]] = {}
                if self.embedder is not None:
                    qvec = self.embed_query(request.query)
                    own = self.store.dense(qvec, filters, kinds, OVERFETCH)
                    windows = self.store.dense_windows(qvec, filters, kinds, OVERFETCH)
                    lists["dense"] = merge_windows(own, windows, OVERFETCH)
                if terms:
                    lists["bm25"] = self.store.bm25(terms, filters, kinds, OVERFETCH)
            except (StoreQueryError, EmbedderError) as exc:
                log.warning("drill-down skipped (%s)", exc)
                return []
            return [(d, score) for d, score, _ in rrf(lists, {})[:limit]]

        def load(ids: Sequence[str]) -> list[Chunk]:
            return self.store.get_chunks(list(ids)) if ids else []

        return drill_down(analysis, ranked, request.filters, window_led, members, load)

    def search(
        self, request: SearchRequest, options: SearchOptions | None = None
    ) -> SearchResponse:
        ranking = self.rank(request, options)
        norm = display_norm(ranking.norm, (c.score for c in ranking.candidates))
        shown = ranking.candidates[: request.limit]
        public = public_paths_of(self.store, [c.chunk for c in shown])
        # a page's other sections are listed when they would have been shown but for
        # their page: above the last hit when hits were cut at `limit`, else all
        cut = len(ranking.candidates) > len(shown)
        floor = shown[-1].score if cut and shown else 0.0
        fitted = to_hits(shown, norm, request.max_tokens, public=public, page_floor=floor)
        return response(request.query, ranking, fitted)


def response(query: str, ranking: Ranking, fitted: FittedHits) -> SearchResponse:
    """The hits fitted to the budget, with the confidence of the `ranking` that chose
    them (and what to try instead when it is low)."""
    low = ranking.confidence < conf.LOW_CONFIDENCE
    return SearchResponse(
        query=query,
        hits=fitted.hits,
        confidence=round(ranking.confidence, 4),
        low_confidence=low,
        next_queries=conf.next_queries(ranking.analysis, ranking.candidates) if low else [],
        truncated=fitted.truncated,
        left_out=fitted.left_out,
    )
