"""The one error hierarchy, and how a message quotes what the caller sent.

Every error ctxhub raises on purpose is a `CtxhubError`: its message is the whole story
(what went wrong and, where there is one, the fix), so the MCP layer and the CLI show the
message, never a traceback. `describe` is the one wording both use; anything that is not
a `CtxhubError` is a bug and is reported as an internal error with its traceback logged.
"""

from __future__ import annotations

from collections.abc import Sized
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

#: Most characters of a caller's value an error message repeats.
SHOWN_CHARS = 200


class CtxhubError(Exception):
    """Base of every deliberate ctxhub error."""

    #: The CLI's exit status for it (2 for a usage error, as click uses).
    exit_code = 1


class InputError(CtxhubError, ValueError):
    """The arguments are invalid; the message says precisely which and why."""

    exit_code = 2


class NotFoundError(CtxhubError, LookupError):
    """An id, symbol, path or record that is not in the index."""


# -- storage ---------------------------------------------------------------------------
class StoreError(CtxhubError):
    """A store cannot be used as asked (model mismatch, newer schema, unreadable file)."""


class ModelMismatchError(StoreError):
    """The store holds vectors of another embedding model (or dimension)."""


class StoreCorruptError(StoreError):
    """The store file is damaged (not a database, or a malformed page).

    The message names the fix: restore the file from a backup, or move it aside and
    `ctxhub refresh --force` into a new store; memory records can be exported with
    `ctxhub export` only while the file is still readable.
    """


class StoreFullError(StoreError):
    """The disk (or the file system holding the store) is full: a write was rolled back
    and the last committed index is unchanged."""


class StoreReadOnlyError(StoreError):
    """The store file (or the directory or mount it lives on) cannot be written.

    Reads still work; every write raises this with "the store <path> is read-only".
    """


class StoreDisconnectedError(StoreError):
    """The connection to a server store dropped (a restart, a terminated backend) while
    a statement or a write transaction ran on it: the transaction rolled back. A write
    tool runs once more, whole, on a fresh connection (`ToolSpec.call`)."""


class StoreQueryError(StoreError):
    """One query failed for a reason other than the file itself (an unusable text index,
    a query the backend rejects). A retrieval path that raises it is skipped and logged;
    the other paths still answer."""


# -- the model, sources, ingestion -----------------------------------------------------
class EmbedderError(CtxhubError):
    """The model is missing or broken. Never silently replaced by another embedder."""


class SourceError(CtxhubError):
    """A source cannot be read (missing path, failed clone, HTTP error, unknown package)."""


class UnreadableFile(SourceError, OSError):
    """One listed file cannot be read any more (it became a symlink loop or a dangling
    link after the walk, or vanished). An OSError too, so refresh counts it as one skipped
    file; `str()` is the reason alone ("symlink loop", "dangling symlink", ...)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


class ManifestError(CtxhubError, ValueError):
    """ctxhub.toml cannot be read or written as asked."""


class SkipFile(CtxhubError):
    """A file that cannot be indexed; `reason` says why in a few words (it is counted as
    skipped, never a failed refresh)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- outside services and the machine --------------------------------------------------
class GitHubError(CtxhubError):
    """A GitHub request that failed for good: the message is one line for the user."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class InstallError(CtxhubError):
    """A client's configuration cannot be read or written as asked."""


class ServeError(CtxhubError):
    """The server cannot start as asked (e.g. a public bind without a token)."""


def describe(exc: CtxhubError, action: str) -> str:
    """The one wording of an error, for the MCP text and the CLI alike.

    `action` is the tool or command that failed: "invalid arguments for search: ...",
    "not found: ...", "search failed: ..."."""
    if isinstance(exc, InputError):
        return f"invalid arguments for {action}: {exc}"
    if isinstance(exc, NotFoundError):
        return f"not found: {exc}"
    return f"{action} failed: {exc}"


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """`repr(value)`, cut to `limit` characters with its size said, so an error message
    about a 1 MB argument is one line, not a megabyte echoed back to the agent."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = ""
    if isinstance(value, str | bytes):
        size = f" ({len(value):,} characters)"
    elif isinstance(value, Sized):
        size = f" ({len(value):,} items)"
    return f"{text[:limit]}...{size}"


def describe_validation(exc: ValidationError) -> str:
    """One line per bad field: `limit: Input should be less than or equal to 50 (got 500)`;
    an empty or blank text is `query must not be empty`, in ctxhub's words, not pydantic's."""
    parts: list[str] = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        empty = err["type"] == "string_too_short" and err.get("ctx", {}).get("min_length") == 1
        if empty or err["type"] == "string_blank":
            parts.append(f"{loc} must not be empty")
            continue
        msg = str(err["msg"])
        if err["type"] != "missing" and "input" in err:
            msg += f" (got {shown(err['input'], 60)})"
        parts.append(f"{loc}: {msg}")
    return "; ".join(dict.fromkeys(parts))
