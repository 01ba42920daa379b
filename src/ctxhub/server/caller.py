"""The caller of the tool call being served. The HTTP auth middleware puts it in the
request's ASGI scope (`scope["ctxhub_caller"]`); the SDK runs the call in its session's
task, not the request's, so it is read back from the request the SDK attaches to the
call's context and kept in a context variable while the tool runs."""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Any

from ctxhub.core.caller import Caller

#: Where the auth middleware leaves the caller in an HTTP request's scope.
SCOPE_KEY = "ctxhub_caller"

CALLER: ContextVar[Caller | None] = ContextVar("ctxhub_caller", default=None)


def caller_of(context: Any) -> Caller | None:
    """The caller an MCP request context carries; None over stdio, or when no token is
    configured (the scope then has none)."""
    if context is None:
        return None
    request = None
    with contextlib.suppress(Exception):  # no request context: not an HTTP call
        request = context.request_context.request
    scope = getattr(request, "scope", None)
    found = scope.get(SCOPE_KEY) if isinstance(scope, dict) else None
    return found if isinstance(found, Caller) else None
