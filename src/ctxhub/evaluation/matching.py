"""Matching ranked hits to gold items, exactly as shared/eval/README.md defines it."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from pydantic import BaseModel

from ctxhub.evaluation.queries import GoldItem, GoldLocation

AGGREGATES = ("llms.txt", "llms-full.txt")
_DOC_EXT = (".mdx", ".md")


class RankedHit(BaseModel):
    """The fields of a hit that matching looks at."""

    source: str
    path: str
    symbol: str | None = None
    line_start: int | None = None
    line_end: int | None = None


def _strip_doc_ext(path: str) -> str:
    for ext in _DOC_EXT:
        if path.endswith(ext):
            return path[: -len(ext)]
    return path


def matches_location(hit: RankedHit, gold: GoldLocation) -> bool:
    if hit.source != gold.repo:
        return False
    if posixpath.basename(hit.path) in AGGREGATES:
        return False
    hit_path, gold_path = hit.path, gold.path
    if gold.repo == "docs":
        hit_path, gold_path = _strip_doc_ext(hit_path), _strip_doc_ext(gold_path)
    if hit_path != gold_path and not hit_path.startswith(gold_path.rstrip("/") + "/"):
        return False
    if gold.symbol is None:
        return True
    if hit.symbol == gold.symbol:
        return True
    if gold.lines is not None and hit.line_start is not None:
        end = hit.line_end if hit.line_end is not None else hit.line_start
        return hit.line_start <= gold.lines[1] and end >= gold.lines[0]
    return False


def matches(hit: RankedHit, gold: GoldItem) -> bool:
    return any(matches_location(hit, loc) for loc in gold.locations())


def credit(hits: Sequence[RankedHit], gold: Sequence[GoldItem]) -> list[int | None]:
    """For each hit, the index of the not-yet-credited gold item it matches (or None)."""
    credited: set[int] = set()
    out: list[int | None] = []
    for hit in hits:
        found = next((i for i, g in enumerate(gold) if i not in credited and matches(hit, g)), None)
        if found is not None:
            credited.add(found)
        out.append(found)
    return out
