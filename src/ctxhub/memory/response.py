"""What search_solutions / search_by_approach answer."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ctxhub.models import Hit


class SolutionSearchResponse(BaseModel):
    query: str
    tool: str
    shape: str  # error | code | natural | mixed: which weights were used
    weights: dict[str, float]
    hits: list[Hit]  # kind "memory"; metadata explains each score
    confidence: float  # 0-1; 0.5 at the relevance floor
    nothing_relevant: bool
    message: str = ""
    nearest: list[Hit] = Field(default_factory=list)  # shown when nothing is relevant
    candidates: int = 0  # records any path found, before truncation
    truncated: bool = False
