"""Output conventions: Rich on a terminal, plain when piped, JSON when asked."""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import BaseModel
from rich.console import Console

#: Human output goes to stdout; progress and logs to stderr (never mixed into --json).
out = Console(highlight=False, soft_wrap=False)
err = Console(stderr=True, highlight=False)


def interactive() -> bool:
    """True when progress bars make sense: stderr is a terminal."""
    return sys.stderr.isatty()


def print_json(data: Any) -> None:
    if isinstance(data, BaseModel):
        text = data.model_dump_json(indent=2)
    else:
        text = json.dumps(
            data,
            indent=2,
            default=lambda o: o.model_dump(mode="json") if isinstance(o, BaseModel) else str(o),
        )
    sys.stdout.write(text + "\n")
