"""The base of every tool's arguments model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ToolArgs(BaseModel):
    """Arguments of one tool: unknown names are refused, not ignored."""

    model_config = ConfigDict(extra="forbid")
