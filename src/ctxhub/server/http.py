"""`ctxhub serve --http`: streamable HTTP, loopback by default; a bearer token is required
to bind anything else (and enforced on every request whenever one is configured: a
named token from `ctxhub token add`, or CTXHUB_TOKEN)."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import sys
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ctxhub.app.tokens import Refused, authorize
from ctxhub.config import Settings
from ctxhub.core.caller import Caller
from ctxhub.core.errors import CtxhubError, ServeError
from ctxhub.dashboard.app import LOOPBACK_HOSTS, PageOutsideAuth, dashboard_app
from ctxhub.server.app import build_server
from ctxhub.server.caller import SCOPE_KEY
from ctxhub.server.runtime import HubPool, leave, warm_up

log = logging.getLogger("ctxhub.server")

DEFAULT_PORT = 8765
MCP_PATH = "/mcp"


def is_loopback(host: str) -> bool:
    """localhost, 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.y.z)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False  # a host name: it may resolve to anything
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def loopback_security(host: str) -> TransportSecuritySettings:
    """DNS-rebinding protection for a loopback bind: only requests whose Host (and Origin,
    when sent) name a loopback address are served. The SDK turns this on by itself only
    for 127.0.0.1, localhost and ::1; any other loopback address needs it just as much."""
    bound = f"[{host.strip('[]')}]" if ":" in host else host
    hosts = list(dict.fromkeys([bound, "127.0.0.1", "localhost", "[::1]"]))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{h}:*" for h in hosts],
        allowed_origins=[f"http://{h}:*" for h in hosts],
    )


#: What a client that went away mid-request leaves behind in the transport: a closed or
#: broken stream, a disconnect, a reset connection.
_GONE: tuple[type[BaseException], ...] = (
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
    ClientDisconnect,
    ConnectionError,
)
#: The SDK loggers that log a request's failure with its traceback.
_TRANSPORT_LOGGERS = ("mcp.server.streamable_http", "mcp.server.streamable_http_manager")


def went_away(exc: BaseException | None) -> str | None:
    """The name of the disconnect behind `exc` (itself, what caused it, what it was
    raised while handling, or every exception of a group), or None for anything else."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, _GONE):
            return type(exc).__name__
        group = getattr(exc, "exceptions", None)
        if isinstance(group, tuple) and group:
            names = [went_away(e) for e in group]
            return names[0] if all(names) else None
        exc = exc.__cause__ or exc.__context__
    return None


class OneLineDisconnects(logging.Filter):
    """A request that failed because its client went away is logged as one line, not
    the pages of traceback the SDK attaches: nothing in the server went wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        name = went_away(record.exc_info[1]) if record.exc_info else None
        if name:
            said = record.getMessage()
            record.msg, record.args = "%s: the client went away mid-request (%s)", (said, name)
            record.exc_info = record.exc_text = None
            # A client that leaves is no server error.
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class QuietDisconnects:
    """ASGI middleware for requests whose client went away. What the app raises then (the
    SDK tries to answer on a response that is already over) ends the request quietly:
    the SDK's own log line, made one line by OneLineDisconnects, has said what happened;
    anything else propagates to uvicorn as before. A response the app leaves unfinished
    (the event stream of a call whose session the client ended) is finished here, which
    uvicorn would otherwise log as an error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = {"started": False, "complete": False}

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                state["complete"] = True
            await send(message)

        gone = False
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            name = went_away(exc)
            if name is None:
                raise
            gone = True
            log.debug("%s %s: client gone (%s)", scope.get("method"), scope.get("path"), name)
        if state["complete"] or not (gone or state["started"]):
            return  # done, or never answered: uvicorn says so, as for any app
        with contextlib.suppress(Exception):  # the connection may be gone already
            if not state["started"]:
                await send({"type": "http.response.start", "status": 500, "headers": []})
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def quiet_disconnects() -> None:
    """Install OneLineDisconnects on the SDK's transport loggers (once)."""
    for name in _TRANSPORT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineDisconnects) for f in logger.filters):
            logger.addFilter(OneLineDisconnects())


class BearerAuth:
    """ASGI middleware around the whole app: who sent each HTTP request. A bearer token is
    looked up in the hub's store on every request (its SHA-256, one indexed read), so a
    token revoked through any host is refused at once by every server on the database;
    CTXHUB_TOKEN is still accepted, as a nameless caller. On success the caller is put in
    `scope["ctxhub_caller"]` (a `Caller`: `.name`, `.read_only`); with no token
    configured anywhere on a loopback bind, requests pass without one (and no caller)."""

    def __init__(self, app: ASGIApp, pool: HubPool, shared: str | None, loopback: bool) -> None:
        self.app = app
        self.pool = pool
        self.shared = shared
        self.loopback = loopback

    @staticmethod
    def _secret(scope: Scope) -> str | None:
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, given = bytes(value).partition(b" ")
                if scheme.lower() != b"bearer":
                    return ""  # some other scheme: a credential that cannot match
                return given.strip().decode("utf-8", "replace")
        return None

    def _authorize(self, secret: str | None) -> Caller | None:
        with self.pool.hub() as hub:
            return authorize(hub.store, secret, shared=self.shared, open_when_unset=self.loopback)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            caller = await anyio.to_thread.run_sync(self._authorize, self._secret(scope))
        except Refused as exc:
            await self._refuse(send, 401, "unauthorized", str(exc))
            return
        except CtxhubError as exc:  # the store is down: no one can be checked
            log.warning("cannot check a bearer token: %s", exc)
            await self._refuse(send, 503, "unavailable", str(exc))
            return
        if caller is not None:
            scope[SCOPE_KEY] = caller
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(send: Send, status: int, error: str, why: str) -> None:
        body = json.dumps({"error": error, "error_description": why}).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode("ascii")),
                    (b"www-authenticate", b'Bearer realm="ctxhub"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def live_tokens(pool: HubPool) -> int:
    with pool.hub() as hub:
        return sum(1 for t in hub.store.tokens() if t.live)


def http_app(settings: Settings, host: str, token: str | None, log_level: str = "WARNING") -> Any:
    """The ASGI app: the SDK's streamable HTTP app at /mcp and the dashboard at /, all
    of it but the page's own files behind the bearer tokens (`ctxhub token add`, or
    CTXHUB_TOKEN)."""
    server = build_server(settings, log_level)
    assert server.runner is not None
    loopback = is_loopback(host)
    if not token and not loopback and not live_tokens(server.runner.pool):
        raise ServeError(
            f"refusing to serve on {host!r} without a token: make one with `ctxhub token "
            "add NAME` (or set CTXHUB_TOKEN), or bind 127.0.0.1; clients then send "
            "'Authorization: Bearer <token>'"
        )
    security = loopback_security(host) if is_loopback(host) else None
    mcp_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security
    )
    # The dashboard at / (after /mcp), behind the same auth as the MCP endpoint.
    hosts = [host.strip("[]"), *LOOPBACK_HOSTS] if is_loopback(host) else None
    mcp_app.mount("/", dashboard_app(settings, hosts))
    app: ASGIApp = mcp_app
    warm_up(settings, server.runner.pool)
    quiet_disconnects()
    return QuietDisconnects(PageOutsideAuth(BearerAuth(app, server.runner.pool, token, loopback)))


def run_http(
    settings: Settings, host: str, port: int, token: str | None, log_level: str = "WARNING"
) -> None:
    import uvicorn

    app = http_app(settings, host, token, log_level)
    shown = f"[{host}]" if ":" in host else host
    guard = " (bearer tokens required)" if token or not is_loopback(host) else ""
    print(f"ctxhub MCP over HTTP at http://{shown}:{port}{MCP_PATH}{guard}", file=sys.stderr)
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level.lower())
    uvicorn.Server(config).run()
    leave(0)  # the warm-up may still be loading the model: do not finalise under it
