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
    #: Where the store lives: a file path or a URL (see `store.factory`); default
    #: <home>/ctxhub.db.
    db: str | None = None
    stale_days: int = 30  # a source older than this is flagged stale
    embed_batch_size: int = 32
    token: str | None = None  # bearer token for non-loopback HTTP serving
    memory_half_life_days: float = 180.0  # recency half-life of a record, from last seen
    memory_floor: float | None = None  # abstention threshold, a probability (default: fitted)

    @field_validator("home")
    @classmethod
    def _absolute(cls, v: Path) -> Path:
        # `~/hub` or a relative path must mean one place for every process: the hook
        # runs from the agent's working directory and expands `~` itself.
        return v.expanduser().absolute()

    @field_validator("db", mode="after")
    @classmethod
    def _absolute_file(cls, v: str | None) -> str | None:
        if v is None or "://" in v:
            return v  # a URL names its own place
        return str(Path(v).expanduser().absolute())

    @field_validator("db", "token", "memory_floor", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        if isinstance(v, Path):
            return str(v)
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
    def store_location(self) -> str:
        """What `store.factory.open_store` opens: CTXHUB_DB, or the file in home."""
        return self.db if self.db is not None else str(self.home / "ctxhub.db")

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
        settings = Settings.model_validate({**settings.model_dump(), "db": str(db)})
    return settings
