"""The labelled query format (see shared/eval/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError


class GoldLocation(BaseModel):
    repo: str
    path: str
    symbol: str | None = None
    lines: tuple[int, int] | None = None


class GoldItem(GoldLocation):
    alt: list[GoldLocation] = Field(default_factory=list)

    def locations(self) -> list[GoldLocation]:
        return [self, *self.alt]


class EvalQuery(BaseModel):
    id: str
    category: str
    query: str
    filters: dict[str, str] = Field(default_factory=dict)
    gold: list[GoldItem]
    gold_complete: bool = False
    note: str | None = None


def load_queries(path: Path) -> list[EvalQuery]:
    queries: list[EvalQuery] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            queries.append(EvalQuery.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise ValueError(f"{path}:{n}: not a valid query: {exc}") from exc
    if not queries:
        raise ValueError(f"{path}: no queries")
    return queries
