"""A module that only re-exports is a pointer, not an answer.

`cattr/preconf/orjson.py` is one import and an `__all__`: a legacy namespace kept for
old code. Its few lines say "orjson" and "converter" so densely that it ranked first for
"how do I use cattrs with orjson", above the module that defines the converter. Such a
module (`extra.reexports_only`, ingest/python/exports.py) is x`factor` unless the query
names it: asked for by name, it is the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ctxhub.search.analyzer import QueryAnalysis
from ctxhub.search.rank import Candidate


class ReexportModule:
    name = "pointer"

    def __init__(self, factor: float = 0.5) -> None:
        self.factor = factor

    def __call__(self, analysis: QueryAnalysis, candidates: Sequence[Candidate]) -> list[float]:
        named = {n.lower().strip(".") for n in analysis.names}
        out = []
        for cand in candidates:
            chunk = cand.chunk
            pointer = chunk.kind == "api" and chunk.metadata.extra.get("reexports_only") is True
            asked = (chunk.symbol or "").lower() in named
            out.append(self.factor if pointer and not asked else 1.0)
        return out
