"""Which failures count as a client that went away, and what the log and the ASGI app
make of them."""

from __future__ import annotations

import builtins
import logging
from typing import Any

import anyio
import pytest
from starlette.requests import ClientDisconnect

from ctxhub.server.http import OneLineDisconnects, QuietDisconnects, went_away


def _raised_while_handling(first: BaseException, then: BaseException) -> BaseException:
    try:
        try:
            raise first
        except BaseException:
            raise then  # noqa: B904 - the implicit __context__ is what is tested
    except BaseException as exc:
        return exc


def test_went_away_follows_the_chain_and_groups() -> None:
    assert went_away(anyio.ClosedResourceError()) == "ClosedResourceError"
    assert went_away(ConnectionResetError()) == "ConnectionResetError"
    assert went_away(ClientDisconnect()) == "ClientDisconnect"
    late = _raised_while_handling(anyio.ClosedResourceError(), RuntimeError("after response"))
    assert went_away(late) == "ClosedResourceError"
    assert went_away(RuntimeError("a bug")) is None
    assert went_away(_raised_while_handling(ValueError(), KeyError())) is None
    assert went_away(None) is None
    group: Any = getattr(builtins, "ExceptionGroup", None)  # Python 3.11+
    if group is not None:
        gone = group("g", [anyio.BrokenResourceError(), anyio.EndOfStream()])
        mixed = group("g", [anyio.BrokenResourceError(), ValueError()])
        assert went_away(gone) == "BrokenResourceError" and went_away(mixed) is None


def _record(exc: BaseException) -> logging.LogRecord:
    return logging.LogRecord(
        "mcp.server.streamable_http",
        logging.ERROR,
        __file__,
        1,
        "Error handling %s request",
        ("POST",),
        (type(exc), exc, exc.__traceback__),
    )


def test_a_disconnect_is_logged_as_one_warning_line() -> None:
    record = _record(_raised_while_handling(anyio.ClosedResourceError(), RuntimeError("x")))
    assert OneLineDisconnects().filter(record)
    line = logging.Formatter("%(levelname)s %(name)s: %(message)s").format(record)
    assert line == (
        "WARNING mcp.server.streamable_http: Error handling POST request: "
        "the client went away mid-request (ClosedResourceError)"
    )
    bug = _record(_raised_while_handling(KeyError("k"), ValueError("a real bug")))
    assert OneLineDisconnects().filter(bug)
    formatted = logging.Formatter().format(bug)
    assert bug.levelname == "ERROR" and "Traceback" in formatted and "a real bug" in formatted


HTTP = {"type": "http", "method": "POST", "path": "/mcp"}


def _serve(app: Any) -> list[dict[str, Any]]:
    """What QuietDisconnects(app) sends for one request."""
    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    anyio.run(QuietDisconnects(app), HTTP, receive, send)
    return sent


def test_a_request_its_client_left_ends_quietly_and_complete() -> None:
    late = _raised_while_handling(anyio.ClosedResourceError(), RuntimeError("late"))

    async def answered_then_raised(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 202, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        raise late

    async def raised_before_answering(scope: Any, receive: Any, send: Any) -> None:
        raise late

    async def left_a_stream_open(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"event: x", "more_body": True})

    assert [m.get("status") for m in _serve(answered_then_raised)] == [202, None]
    assert [(m["type"], m.get("status")) for m in _serve(raised_before_answering)] == [
        ("http.response.start", 500),
        ("http.response.body", None),
    ]
    finished = _serve(left_a_stream_open)
    assert finished[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


def test_any_other_failure_still_reaches_uvicorn() -> None:
    async def buggy(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("a bug")

    async def silent(scope: Any, receive: Any, send: Any) -> None:
        return None

    with pytest.raises(RuntimeError, match="a bug"):
        _serve(buggy)
    assert _serve(silent) == []  # never answered: uvicorn logs it, as for any app
