"""Settings from the environment (CTXHUB_*) with sensible local defaults."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Process-wide settings. Every field can be set as an environment variable
    `CTXHUB_<NAME>`; command-line flags override them."""

    model_config = SettingsConfigDict(env_prefix="CTXHUB_", extra="ignore")

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
    settings = Settings()
    if db is not None:
        settings.db = Path(db).expanduser()
    return settings
