"""A question that names one of the frameworks a hub holds is about that framework.

A per-user hub usually holds several frameworks, and a question such as "how do I
upgrade from the legacy websockets implementation" shares its other words (upgrade,
migrate, implementation) with every framework's docs. When the query names some of the
hub's frameworks and not others, the candidates of the others step back (x`factor`).

A source's framework is the first part of each top-level package it indexes
(`pipecat_flows` -> `pipecat`, so a framework's plugins and flows count as the framework)
and of the distribution it was read from, less folders every project has (`tests`,
`benchmarks`); a source with no package (a docs repository) has no framework and is
left alone. A hub of one framework, and a query naming none or
all of them, are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.rank import Candidate
from ctxhub.search.versions import package_keys
from ctxhub.store.protocol import SourceState

_WORD = re.compile(r"[a-z][a-z0-9]*")
#: Top-level folders an sdist or a repository holds beside its framework: no framework
GENERIC = frozenset(
    {"benchmarks", "doc", "docs", "example", "examples", "samples", "scripts", "src"}
    | {"test", "testing", "tests", "tools"}
)


def framework_names(state: SourceState) -> set[str]:
    """The names of the framework(s) a source indexes; empty when it has no package."""
    # its packages and its distribution (`dist:pipecat-ai`), as version folding reads them
    names = {key.removeprefix("dist:").lower() for key in package_keys(state)}
    # `pipecat_flows`, `pipecat-ai` -> `pipecat`; a private `_pkg` is `pkg`
    found = {m.group(0) for n in names if (m := _WORD.search(n.lstrip("_")))}
    return found - GENERIC


class NamedFramework:
    """x`factor` for a candidate from a source of a framework the query does not name,
    when it names some but not all of the hub's frameworks (module docstring)."""

    name = "framework"

    def __init__(self, sources: Callable[[], Sequence[SourceState]], factor: float = 0.6) -> None:
        self.sources = sources
        self.factor = factor

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        factors = [1.0] * len(candidates)
        if not candidates:
            return factors
        frameworks = {s.name: framework_names(s) for s in self.sources()}
        known = set().union(*frameworks.values()) if frameworks else set()
        if len(known) < 2:
            return factors
        words = set(_WORD.findall(analysis.text.lower()))
        named = known & words
        if not named or named == known:
            return factors
        for i, cand in enumerate(candidates):
            mine = frameworks.get(cand.chunk.source, set())
            if mine and not mine & named:
                factors[i] = self.factor
        return factors
