"""Text from a hook input made fit to keep: a plain string, clipped, with secrets redacted.

Part of the hook path (`ctxhub.memory.capture.hooks`), so standard library only. The full
redactor (`ctxhub.memory.redaction.redact`) is imported on first use; if it is missing or fails,
a few built-in patterns still catch the commonest secrets.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

MAX_ERROR = 6_000  # characters of error output kept per failure (head and tail)


def as_text(value: object) -> str | None:
    """`value` if it is a string (without NUL characters, which JSON state can't hold)."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    return None


def clip(text: str, limit: int) -> str:
    """At most `limit` characters: the head and the tail, where errors say the most."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head - 12
    return text[:head] + "\n… (cut) …\n" + text[-tail:]


_REDACT: Callable[[str], str] | None = None


def safe_redact(text: str) -> str:
    """`text` with secrets redacted; never raises."""
    global _REDACT
    if _REDACT is None:
        try:
            from ctxhub.memory.redaction.redact import redact
        except Exception:  # absent or broken: the built-in patterns below
            redact = fallback_redact
        _REDACT = redact
    try:
        return _REDACT(text)
    except Exception:
        return fallback_redact(text)


# Pattern strings, not compiled patterns: `re` compiles them on first use, so a hook call
# whose full redactor works never pays for them.
_SECRETS = (
    r"(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|sk-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"
)
_ASSIGNED = (
    r"(?i)((?:password|passwd|secret|token|api[_-]?key|access[_-]?key|authorization)"
    r"[\"']?\s*[:=]\s*[\"']?(?:bearer\s+)?)[^\s\"',;]{4,}"
)


def fallback_redact(text: str) -> str:
    """The built-in patterns alone, for when the full redactor can't be used."""
    text = re.sub(_SECRETS, "[REDACTED]", text)
    return re.sub(_ASSIGNED, r"\1[REDACTED]", text)
