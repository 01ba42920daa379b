"""What every command receives: the settings, resolved from the environment and the
global flags on first use (so `ctxhub --version` or `--help` never pays for them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ctxhub.config import Settings


class Context:
    def __init__(self, db: str | None = None) -> None:
        self._db = db
        self._settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from ctxhub.config import load_settings

            self._settings = load_settings(self._db)
        return self._settings


pass_ctx = click.make_pass_decorator(Context)
