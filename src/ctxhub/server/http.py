"""`ctxhub serve --http`: streamable HTTP, loopback by default; a bearer token is required
to bind anything else (and enforced on every request whenever one is configured)."""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import sys
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from ctxhub.config import Settings
from ctxhub.core.errors import ServeError
from ctxhub.server.app import build_server
from ctxhub.server.runtime import leave, warm_up

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


class BearerAuth:
    """ASGI middleware: every HTTP request needs `Authorization: Bearer <token>`."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = token.encode("utf-8")

    def _authorized(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, given = bytes(value).partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    given.strip(), self._token
                )
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "unauthorized", "error_description": "missing or wrong bearer token"}
        ).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode("ascii")),
                    (b"www-authenticate", b'Bearer realm="ctxhub"'),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def http_app(settings: Settings, host: str, token: str | None, log_level: str = "WARNING") -> Any:
    """The ASGI app: the SDK's streamable HTTP app at /mcp, behind the token when set."""
    if not token and not is_loopback(host):
        raise ServeError(
            f"refusing to serve on {host!r} without a token: set CTXHUB_TOKEN (or bind "
            "127.0.0.1); clients then send 'Authorization: Bearer <token>'"
        )
    server = build_server(settings, log_level)
    security = loopback_security(host) if is_loopback(host) else None
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security
    )
    if server.runner is not None:
        warm_up(settings, server.runner.pool)
    return BearerAuth(app, token) if token else app


def run_http(
    settings: Settings, host: str, port: int, token: str | None, log_level: str = "WARNING"
) -> None:
    import uvicorn

    app = http_app(settings, host, token, log_level)
    shown = f"[{host}]" if ":" in host else host
    guard = " (bearer token required)" if token else ""
    print(f"ctxhub MCP over HTTP at http://{shown}:{port}{MCP_PATH}{guard}", file=sys.stderr)
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level.lower())
    uvicorn.Server(config).run()
    leave(0)  # the warm-up may still be loading the model: do not finalise under it
