"""Output conventions: Rich on a terminal, plain when piped, JSON when asked.

The consoles are created on first use, so a command that only prints JSON or plain text
never imports Rich."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console


class _LazyConsole:
    """A rich Console made with `options` the first time anything asks for it."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return getattr(self._console, name)


#: Human output goes to stdout; progress and logs to stderr (never mixed into --json).
#: Lines are never broken by Rich (soft_wrap): a path or a command in a message stays one
#: line to copy, a terminal wraps it for the eye; tables still fit the console's width.
out = cast("Console", _LazyConsole(highlight=False, soft_wrap=True))
err = cast("Console", _LazyConsole(stderr=True, highlight=False, soft_wrap=True))


def interactive() -> bool:
    """True when progress bars make sense: stderr is a terminal."""
    return sys.stderr.isatty()


def _dump(o: Any) -> Any:
    from pydantic import BaseModel

    return o.model_dump(mode="json") if isinstance(o, BaseModel) else str(o)


def print_json(data: BaseModel | Any) -> None:
    if hasattr(data, "model_dump_json"):
        text = data.model_dump_json(indent=2)
    else:
        text = json.dumps(data, indent=2, default=_dump)
    sys.stdout.write(text + "\n")
