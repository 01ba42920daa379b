"""JSON answers, the caller the auth middleware set, and errors worded once."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse

from ctxhub.core.errors import CtxhubError, InputError, NotFoundError, describe

#: Where the auth middleware (server/http.py) puts who called; absent: full access.
CALLER_KEY = "ctxhub_caller"


class Caller(Protocol):
    name: str | None
    read_only: bool


class ApiError(Exception):
    """An answer other than 200: its status and the one line a person reads."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def caller_name(request: Request) -> str | None:
    caller: Caller | None = request.scope.get(CALLER_KEY)
    return None if caller is None else caller.name


def require_write(request: Request) -> None:
    """403 for a read-only token: the page shows the message instead of writing. 415
    unless the request says it sends JSON: a browser asks another site's page before
    sending that header (a CORS preflight we never answer), so a page elsewhere cannot
    post to a loopback dashboard that needs no token."""
    if not request.headers.get("content-type", "").startswith("application/json"):
        raise ApiError(415, "write requests send 'Content-Type: application/json'")
    caller: Caller | None = request.scope.get(CALLER_KEY)
    if caller is not None and caller.read_only:
        who = f" ({caller.name})" if caller.name else ""
        raise ApiError(403, f"this token{who} is read-only: ask for a token that may write")


def ok(data: Any, status: int = 200) -> JSONResponse:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    return JSONResponse(data, status_code=status)


def failed(exc: Exception, action: str) -> JSONResponse:
    """ApiError as given; NotFoundError 404, InputError 400, any other CtxhubError 500
    with its message. Anything else propagates (a bug: Starlette logs the traceback)."""
    if isinstance(exc, ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)
    if isinstance(exc, CtxhubError):
        status = (
            404 if isinstance(exc, NotFoundError) else 400 if isinstance(exc, InputError) else 500
        )
        return JSONResponse({"error": describe(exc, action)}, status_code=status)
    raise exc


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 400 for anything else."""
    try:
        data = await request.json()
    except ValueError:
        raise ApiError(400, "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data
