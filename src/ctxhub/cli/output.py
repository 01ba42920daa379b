"""Output conventions: Rich on a terminal, plain when piped, JSON when asked.

The consoles are created on first use, so a command that only prints JSON or plain text
never imports Rich."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console


class _LazyConsole:
    """A rich Console made with `options` the first time anything asks for it."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def real(self) -> Console:
        """The Console itself, for what needs one and not a stand-in (Rich's Live and
        Progress enter the console as a context manager, which `__getattr__` cannot
        serve: dunder methods are looked up on the type)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


def _piped(stream: TextIO) -> bool:
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return True


#: Human output goes to stdout; progress and logs to stderr (never mixed into --json).
#: On a terminal Rich wraps messages between words at its width; piped, it never breaks
#: a line (soft_wrap), so a path or a command stays one line to copy. Tables fit the
#: console's width either way.
out = cast("Console", _LazyConsole(highlight=False, soft_wrap=_piped(sys.stdout)))
err = cast("Console", _LazyConsole(stderr=True, highlight=False, soft_wrap=_piped(sys.stderr)))


def real_console(console: Console) -> Console:
    """`out` or `err` as the Rich Console it stands for."""
    return console.real() if isinstance(console, _LazyConsole) else console


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
