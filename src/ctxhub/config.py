"""Settings from the environment (CTXHUB_*) with sensible local defaults.

A plain pydantic model read from `os.environ` by `load_settings`: every field can be set
as `CTXHUB_<NAME>`, and command-line flags override them. (pydantic-settings did the same
for ~0.2 s of imports on every command.)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

ENV_PREFIX = "CTXHUB_"


class Settings(BaseModel):
    """Process-wide settings. `Settings(...)` takes only what it is given;
    `load_settings()` reads the environment."""

    model_config = ConfigDict(extra="ignore")

    home: Path = Field(default_factory=lambda: Path.home() / ".ctxhub")
    db: Path | None = None  # default: <home>/ctxhub.db
    stale_days: int = 30  # a source older than this is flagged stale
    embed_batch_size: int = 32
    token: str | None = None  # bearer token for non-loopback HTTP serving
    memory_half_life_days: float = 180.0  # recency half-life of a record, from last seen
    memory_floor: float | None = None  # relevance floor override (default: the calibrated)

    @field_validator("home", "db")
    @classmethod
    def _absolute(cls, v: Path | None) -> Path | None:
        # `~/hub` or a relative path must mean one place for every process: the hook
        # runs from the agent's working directory and expands `~` itself.
        return None if v is None else v.expanduser().absolute()

    @field_validator("db", "token", "memory_floor", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        return None if v == "" else v

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings `CTXHUB_*` variables give (unset ones keep their defaults)."""
        env = os.environ if environ is None else environ
        values = {
            name: env[ENV_PREFIX + name.upper()]
            for name in cls.model_fields
            if ENV_PREFIX + name.upper() in env
        }
        return cls.model_validate(values)

    @property
    def db_path(self) -> Path:
        return self.db if self.db is not None else self.home / "ctxhub.db"

    @property
    def sources_dir(self) -> Path:
        """Where git sources are cloned."""
        return self.home / "sources"

    @property
    def models_dir(self) -> Path:
        return self.home / "models"

    @property
    def pending_dir(self) -> Path:
        """Records captured by hooks, waiting to be embedded and stored."""
        return self.home / "pending"


def load_settings(db: str | Path | None = None) -> Settings:
    """The environment's settings, with `db` (the --db flag) over CTXHUB_DB."""
    settings = Settings.from_env()
    if db is not None:
        settings = settings.model_copy(update={"db": Path(db).expanduser().absolute()})
    return settings
