"""The auth middleware's contract with whatever it wraps (the MCP app, the dashboard's
routes): it wraps every HTTP request, and on success leaves the caller in
`scope["ctxhub_caller"]` (absent when no token is configured on a loopback bind)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from ctxhub.app.tokens import add_token
from ctxhub.config import Settings
from ctxhub.core.caller import Caller
from ctxhub.server.http import BearerAuth
from ctxhub.server.runtime import HubPool
from ctxhub.store.factory import open_store


def request(auth: Any, path: str, secret: str | None) -> tuple[int, Any]:
    """One GET through `auth(inner app)`: the status and what the inner app saw as the
    caller."""
    seen: dict[str, Any] = {}
    sent: list[dict[str, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen["caller"] = scope.get("ctxhub_caller", "absent")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    headers = [(b"authorization", f"Bearer {secret}".encode())] if secret else []
    scope = {"type": "http", "method": "GET", "path": path, "headers": headers}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(auth(inner), scope, receive, send)
    return int(sent[0]["status"]), seen.get("caller", "not reached")


def middleware(settings: Settings, shared: str | None, loopback: bool) -> Any:
    pool = HubPool(settings)
    return lambda inner: BearerAuth(inner, pool, shared, loopback)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path, db=str(tmp_path / "hub.db"))


def test_no_token_configured_on_loopback_passes_without_a_caller(settings: Settings) -> None:
    wrap = middleware(settings, None, loopback=True)
    assert request(wrap, "/dashboard", None) == (200, "absent")
    assert request(wrap, "/mcp", "guess")[0] == 401  # a wrong token is never let through
    assert request(middleware(settings, None, loopback=False), "/mcp", None)[0] == 401


def test_named_and_shared_tokens_set_the_caller_on_every_route(settings: Settings) -> None:
    with open_store(settings.store_location) as store:
        alice = add_token(store, "alice")
        bot = add_token(store, "bot", read_only=True)
    wrap = middleware(settings, "shared-secret", loopback=True)
    assert request(wrap, "/mcp", None)[0] == 401  # tokens exist: a bearer is needed
    assert request(wrap, "/dashboard/api/x", alice) == (200, Caller("alice", False))
    assert request(wrap, "/mcp", bot) == (200, Caller("bot", True))
    assert request(wrap, "/mcp", "shared-secret") == (200, Caller(None, False))
    with open_store(settings.store_location) as store:
        store.revoke_token("alice")
    assert request(wrap, "/mcp", alice)[0] == 401


def test_a_store_that_cannot_be_opened_answers_503_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "hub.db").mkdir()  # a folder where the store file should be
    settings = Settings(home=tmp_path, db=str(tmp_path / "hub.db"))
    status, caller = request(middleware(settings, None, loopback=True), "/mcp", "secret")
    assert (status, caller) == (503, "not reached")
