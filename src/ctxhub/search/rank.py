"""Re-ranking of the fused list: small, pluggable scorers that multiply a candidate's score.

Each scorer sees the query analysis and the candidates (with their chunks loaded) and
returns one multiplier per candidate; the product re-orders the list. Scorers record
what they did in `Candidate.boosts`, so a hit can explain its final position.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk, Signal
from ctxhub.search.analyzer import QueryAnalysis


@dataclass
class Candidate:
    chunk: Chunk
    fused: float
    signals: dict[str, Signal]
    score: float = 0.0
    boosts: dict[str, float] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)  # "source:path:line" of same text
    #: the same definition or page in other versions of its package (search/versions.py)
    versions: list[Chunk] = field(default_factory=list)
    #: other sections of a doc hit's page, best first (search/collapse.py)
    on_page: list[Candidate] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.score:
            self.score = self.fused


class Scorer(Protocol):
    name: str

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        """One multiplier per candidate (1.0 = no change)."""
        ...


class SymbolBoost:
    """Boost chunks whose qualified name ends with an identifier the query names.

    `PipelineWorker.queue_frames` matching two dotted parts is stronger evidence than
    `queue_frames` alone, so the boost grows with the number of parts matched. A class
    the query names often does its work in methods it inherits (`fields.DateTime`
    formats in `_TemporalField._serialize`), so the members of its base classes (by
    name, in the same source, among the candidates) get one part's boost. A query that
    is one name alone (`httpx.Client`, `Table`) boosts the definition it stands for
    (`QueryAnalysis.definitions`: `httpx._client.Client`) as if typed in full; in a
    question the symbol path finds that definition, and the boost stays with the names
    as written (a boosted re-export halves what the call-graph cohesion gives the code
    around it: docs/EVAL.md).
    """

    name = "symbol"

    def __init__(self, per_part: float = 0.35) -> None:
        self.per_part = per_part

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        # a query that is one name asks for its definition wherever it is defined; a
        # question that mentions a re-exported name leaves the lookup to the symbol path
        named = analysis.names if analysis.is_name else analysis.identifiers
        wanted = list(named)
        parts = [_matched_parts(c.chunk.symbol, wanted) for c in candidates]
        bases = {
            (c.chunk.source, _base_name(b))
            for c, n in zip(candidates, parts, strict=True)
            if n and c.chunk.metadata.chunk_type == "class"
            for b in c.chunk.metadata.bases
        }
        out = []
        for cand, n in zip(candidates, parts, strict=True):
            owner = (cand.chunk.metadata.class_name or "").rsplit(".", 1)[-1]
            if not n and owner and (cand.chunk.source, owner) in bases:
                n = 1
            out.append(1.0 + self.per_part * n)
        return out


def _matched_parts(symbol: str | None, wanted: list[str]) -> int:
    """How many dotted parts of the longest query name `symbol` ends with (0: none). A
    name written with capitals matches in its case (`jinja2.Environment` is the class,
    not the module `jinja2.environment`); one in lower case matches any case."""
    name = symbol or ""
    low = name.lower()
    return max(
        (
            n.count(".") + 1
            for n in wanted
            if (low == n.lower() or low.endswith("." + n.lower()))
            and (n.islower() or name == n or name.endswith("." + n))
        ),
        default=0,
    )


def _base_name(base: str) -> str:
    """`pkg._TemporalField[dt.datetime]` -> `_TemporalField`: a base as written, without
    its module or a generic's subscript."""
    return base.split("[", 1)[0].rsplit(".", 1)[-1]


_NON_WORD = re.compile(r"[^a-z0-9_]+")


def _normalized(text: str) -> str:
    # keeps `_`, unlike core/message_templates.normalized: fragments meet code here
    return " " + _NON_WORD.sub(" ", text.lower()).strip() + " "


class LiteralMatch:
    """Boost chunks that contain the literal words of a pasted message.

    A log line or exception text is decisive evidence: the code that emits it (and the
    page that explains it) contains its words in order. Rank fusion alone is too flat
    to let one exact match win over chunks that are merely about the same topic. A query
    can quote two messages that different code emits (a parser's line and the loader's
    summary), so a chunk's share is its best over the quoted messages. A function that
    raises by key (`self.error_messages["unknown"]`) counts the texts it emits
    (`metadata.extra["messages"]`) as its own.
    """

    name = "literal"

    def __init__(self, strength: float = 1.0) -> None:
        self.strength = strength

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        groups = [[_normalized(f) for f in g] for g in analysis.fragment_groups if g]
        if not groups:
            return [1.0] * len(candidates)
        out = []
        for cand in candidates:
            emitted = cand.chunk.metadata.extra.get("messages", ())
            text = _normalized(" ".join([cand.chunk.content, *emitted]))
            share = max(sum(1 for g in grams if g in text) / len(grams) for grams in groups)
            out.append(1.0 + self.strength * share if share >= 0.34 else 1.0)
        return out


class KindPreference:
    """Multiply by a per-kind weight (a tool that wants API chunks prefers them)."""

    name = "kind"

    def __init__(self, weights: Mapping[str, float]) -> None:
        self.weights = dict(weights)

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        return [self.weights.get(c.chunk.kind, 1.0) for c in candidates]


class FeedbackRatio:
    """Multiply by what agents said of a hit once it has enough ratings: 0.5 (never
    useful) to 1.5 (always useful). Below `min_ratings` a hit is left alone: two votes
    are noise, not a verdict."""

    name = "feedback"

    def __init__(
        self,
        ratings: Callable[[Sequence[str]], Mapping[str, tuple[int, int]]],
        min_ratings: int = 3,
    ) -> None:
        self.ratings = ratings
        self.min_ratings = min_ratings

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        found = self.ratings([c.chunk.id for c in candidates])
        out = []
        for cand in candidates:
            useful, not_useful = found.get(cand.chunk.id, (0, 0))
            total = useful + not_useful
            out.append(0.5 + useful / total if total >= self.min_ratings else 1.0)
        return out


class Currency:
    """Demote what is not current: a deprecated API (its replacement should win) and an
    example pinned to a framework version the index does not satisfy. Each is one
    explained factor in the hit's `boosts`; neither hides the hit."""

    name = "currency"

    def __init__(self, deprecated: float = 0.85, incompatible: float = 0.8) -> None:
        self.deprecated = deprecated
        self.incompatible = incompatible

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        out = []
        for cand in candidates:
            meta = cand.chunk.metadata
            factor = self.deprecated if meta.deprecated else 1.0
            if meta.extra.get("compatible") is False:
                factor *= self.incompatible
            out.append(factor)
        return out


class NestedDef:
    """A function defined inside another (a closure, a local helper:
    `BaseHTTPMiddleware.__call__.call_next.body_stream`) cannot be imported or called by
    a user: for a question about using the framework it is x`factor`. Questions about
    the internals and pasted errors (raised from such helpers too) are left alone."""

    name = "nested"

    def __init__(self, factor: float = 0.8) -> None:
        self.factor = factor

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        if not analysis.asks_usage:
            return [1.0] * len(candidates)
        return [
            self.factor
            if c.chunk.kind == "api" and c.chunk.metadata.extra.get("nested_in")
            else 1.0
            for c in candidates
        ]


class PublicApi:
    """Prefer what a user can import for a question about using the framework: a
    definition the framework declares as its API (in a public module's `__all__` or
    re-exported by a package: `exported` says which) is x`declared`, wherever it is
    defined (`structlog._config.configure` is `structlog.configure`); any other
    definition under a private name is x`factor`, and a member of a declared class is
    x`declared` on top. A package that declares its modules (`__all__ = ["web",
    "ioloop"]`) declares what they define: a public method of a public class there is
    x`declared` as well, while the module's own overview is not (it is where to look,
    not what to call: with it x`declared`, `tornado.auth` and `tornado.web` outranked
    `RequestHandler.set_signed_cookie` for "set a secure cookie"). Questions about the
    internals ("how does X decide ...") and pasted errors (raised deep inside) are left
    alone."""

    name = "public"

    def __init__(
        self,
        exported: Callable[[Sequence[str]], set[str]] | None = None,
        factor: float = 0.8,
        declared: float = 1.4,
    ) -> None:
        self.exported = exported
        self.factor = factor
        self.declared = declared

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        if not analysis.asks_usage:
            return [1.0] * len(candidates)
        api = [c.chunk.symbol for c in candidates if c.chunk.kind == "api" and c.chunk.symbol]
        owners = {s: s.rsplit(".", 1)[0] for s in api}
        modules = {o: o.rsplit(".", 1)[0] for o in owners.values() if "." in o}
        asked = [*api, *owners.values(), *modules.values()]
        declared = self.exported(asked) if self.exported and api else set()
        return [self._factor(c, owners, modules, declared) for c in candidates]

    def _factor(
        self,
        cand: Candidate,
        owners: dict[str, str],
        modules: dict[str, str],
        declared: set[str],
    ) -> float:
        symbol = cand.chunk.symbol or ""
        if cand.chunk.kind != "api" or not symbol:
            return 1.0
        if symbol in declared:
            # re-exported from `pkg._impl`: public all the same; a declared module's
            # overview is no answer to "how do I" by itself
            return 1.0 if cand.chunk.metadata.chunk_type == "module" else self.declared
        private = is_private_path(symbol)
        factor = self.factor if private else 1.0
        owner = owners.get(symbol, "")
        if owner in declared:
            factor *= self.declared  # `_helper` of a declared class stays below
        elif (
            not private
            and cand.chunk.metadata.chunk_type == "method"
            and modules.get(owner) in declared
        ):
            factor *= self.declared  # a public class's method, in a declared module
        return factor


class Spread:
    """For a question about using the framework, five hits should offer more than one
    class: a candidate is x`factor` when `per_owner` better candidates already come from
    its class (or, outside a class, its module). Questions about the internals, whose
    answer is often several methods of one class, and pasted errors are left alone.
    Runs last: it reads the order the other scorers made."""

    name = "spread"

    def __init__(self, factor: float = 0.7, per_owner: int = 1) -> None:
        self.factor = factor
        self.per_owner = per_owner

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        factors = [1.0] * len(candidates)
        if not analysis.asks_usage:
            return factors
        seen: dict[str, int] = {}
        order = sorted(range(len(candidates)), key=lambda i: -candidates[i].score)
        for i in order:
            meta = candidates[i].chunk.metadata
            if candidates[i].chunk.kind != "api" or not meta.module:
                continue
            owner = f"{meta.module}:{meta.class_name or ''}"
            seen[owner] = seen.get(owner, 0) + 1
            if seen[owner] > self.per_owner:
                factors[i] = self.factor
        return factors


def rerank(
    analysis: QueryAnalysis, candidates: list[Candidate], scorers: Sequence[Scorer]
) -> list[Candidate]:
    for scorer in scorers:
        factors = scorer(analysis, candidates)
        for cand, factor in zip(candidates, factors, strict=True):
            if factor != 1.0:
                cand.boosts[scorer.name] = round(factor, 4)
                cand.score *= factor
    return sorted(candidates, key=lambda c: -c.score)
