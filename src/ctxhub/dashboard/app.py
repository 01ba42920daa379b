"""The dashboard's ASGI app: /api/ (api.py) and the static page (static/)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ctxhub.config import Settings
from ctxhub.dashboard.api import Api

STATIC = Path(__file__).parent / "static"


#: Host names a loopback bind answers to: a page elsewhere that rebinds its own name to
#: 127.0.0.1 (DNS rebinding) is refused before it reaches /api/.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def dashboard_app(settings: Settings, allowed_hosts: Sequence[str] | None = None) -> Starlette:
    """The page and its JSON endpoints, for `ctxhub dashboard` or mounted at `/` by
    `ctxhub serve --http` (behind the same auth middleware as /mcp). `allowed_hosts`:
    the Host headers served (a loopback bind passes LOOPBACK_HOSTS); None: any."""
    api = Api(settings)
    routes = [*api.routes(), Mount("/", StaticFiles(directory=STATIC, html=True), name="page")]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    return Starlette(routes=routes, middleware=middleware)


class PageOutsideAuth:
    """ASGI: GET/HEAD of the page's own files (the HTML shell, its scripts and styles:
    no data) are served without a token, so a browser can load the page that then asks
    for one; everything else (/api/, /mcp) goes to `guarded`, the app behind the auth."""

    def __init__(self, guarded: ASGIApp) -> None:
        self.guarded = guarded
        self.files = StaticFiles(directory=STATIC, html=True)

    def _is_page_file(self, scope: Scope) -> bool:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return False
        path = str(scope.get("path", ""))
        if path == "/":
            return True
        relative = path.lstrip("/")
        if not relative or ".." in relative.split("/"):
            return False
        return (STATIC / relative).is_file()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._is_page_file(scope):
            await self.files(scope, receive, send)
        else:
            await self.guarded(scope, receive, send)
