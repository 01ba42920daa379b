#!/usr/bin/env python3
"""Re-verify aiohttp_dev.jsonl against the aiohttp 3.14.5 corpus root.

    verify_aiohttp_gold.py --target DIR            # root DIR/aiohttp
    verify_aiohttp_gold.py --root aiohttp=PATH     # root given directly

Checks: schema (fields, ids, categories and their counts, repo name, which kinds of gold
each category may have); every gold path exists; every symbol is re-derived with ast from
the package at the root (aiohttp/**.py) and its span [first decorator line or def line,
end_lineno] equals `lines` (the last definition of a name wins, as at import time, so for
@typing.overload stubs the gold is the implementation); no two gold spans of one query
overlap; calls gold equals the complete set recomputed with ast AND with an independent
text scan of each function's own lines; registered code fragments (error message text,
the lines a note relies on) lie inside the gold spans; code text that a note relies on
outside every gold span is found in its file; error queries quote the reproduced message
text; error doc pages contain registered keywords; docs and examples pages contain the
features their query asks for; literalinclude targets of gold pages exist and define the
:pyobject: they name; deprecation statements cited by notes exist in the corpus.
Prints counts per category, informational notes and three sample lines. Exit status 1 on
any failure.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gold_ast import defs, read, tree
from gold_checks import GoldSet, check_keywords, check_texts, docs_pages, fail, other_files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "aiohttp"
PKG = "aiohttp"  # the package sits at the root of the sdist (no src/ layout)
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 10,
    "docs": 7,
    "examples": 4,
    "error": 6,
    "calls": 2,
}
A = "aiohttp."

# code fragments that must appear inside the gold spans of the listed symbols; required
# for every symbol gold of an error query (the raising / message-formatting code),
# optional elsewhere (the lines a note relies on)
FRAGMENTS: dict[str, list[tuple[str, list[str]]]] = {
    "ah-001": [
        (
            'paths_to_check.append(re.sub("//+", "/", path))',
            [A + "web_middlewares.normalize_path_middleware"],
        ),
        (
            "if isinstance(request.match_info.route, SystemRoute):",
            [A + "web_middlewares.normalize_path_middleware"],
        ),
        (
            "raise redirect_class(request.raw_path + query)",
            [A + "web_middlewares.normalize_path_middleware"],
        ),
        (
            "redirect_class: type[HTTPMove] = HTTPPermanentRedirect,",
            [A + "web_middlewares.normalize_path_middleware"],
        ),
    ],
    "ah-002": [
        ("if not self._in_context:", [A + "client_reqrep.ClientResponse.raise_for_status"]),
        ("message=self.reason,", [A + "client_reqrep.ClientResponse.raise_for_status"]),
    ],
    "ah-003": [
        (
            "server = TestServer(__param, loop=loop, **server_kwargs)",
            [A + "pytest_plugin.aiohttp_client"],
        ),
        ("await clients.pop().close()", [A + "pytest_plugin.aiohttp_client"]),
        (
            'raise ValueError("Unknown argument type: %r" % type(__param))',
            [A + "pytest_plugin.aiohttp_client"],
        ),
    ],
    "ah-004": [
        (
            "self._items.append(RouteDef(method, path, handler, kwargs))",
            [A + "web_routedef.RouteTableDef"],
        ),
        ("return self.route(hdrs.METH_GET, path, **kwargs)", [A + "web_routedef.RouteTableDef"]),
    ],
    "ah-005": [
        ("loop = asyncio.new_event_loop()", [A + "web.run_app"]),
        ("except (GracefulExit, KeyboardInterrupt):", [A + "web.run_app"]),
        ("_cancel_tasks(asyncio.all_tasks(loop), loop)", [A + "web.run_app"]),
    ],
    "ah-006": [
        ("if url.origin() != redirect_origin:", [A + "client.ClientSession._request"]),
        ("headers.popall(hdrs.AUTHORIZATION, None)", [A + "client.ClientSession._request"]),
        ("headers.popall(hdrs.COOKIE, None)", [A + "client.ClientSession._request"]),
        (
            "resp.status in (301, 302) and resp.method == hdrs.METH_POST",
            [A + "client.ClientSession._request"],
        ),
        (
            '"Cannot follow redirect with a consumed request "',
            [A + "client.ClientSession._request"],
        ),
        ("raise TooManyRedirects(", [A + "client.ClientSession._request"]),
    ],
    "ah-007": [
        (
            "async with ceil_timeout(timeout.connect, timeout.ceil_threshold):",
            [A + "connector.BaseConnector.connect"],
        ),
        ("if self._available_connections(key) <= 0:", [A + "connector.BaseConnector.connect"]),
        (
            "if host_remain := self._limit_per_host:",
            [A + "connector.BaseConnector._available_connections"],
        ),
        (
            "keyed_waiters.move_to_end(fut, last=False)",
            [A + "connector.BaseConnector._wait_for_available_connection"],
        ),
        ("waiter.set_result(None)", [A + "connector.BaseConnector._release_waiter"]),
        ("self._release_waiter()", [A + "connector.BaseConnector._release_acquired"]),
    ],
    "ah-008": [
        ("ctx = asynccontextmanager(cb)(app)", [A + "web_app.CleanupContext._on_startup"]),
        ("for it in reversed(self._exits):", [A + "web_app.CleanupContext._on_cleanup"]),
        (
            'raise CleanupError("Multiple errors on cleanup stage", errors)',
            [A + "web_app.CleanupContext._on_cleanup"],
        ),
        ("await self._cleanup_ctx._on_cleanup(self)", [A + "web_app.Application.cleanup"]),
    ],
    "ah-009": [
        ("for app in apps[::-1]:", [A + "web_app._build_middlewares"]),
        ("for m in reversed(self._middlewares):", [A + "web_app.Application._prepare_middleware"]),
        (
            "handler = _cached_build_middleware(handler, match_info.apps)",
            [A + "web_app.Application._handle"],
        ),
    ],
    "ah-010": [
        ("self._compression_force = force", [A + "web_response.StreamResponse.enable_compression"]),
        (
            "for value, coding in CONTENT_CODINGS.items():",
            [A + "web_response.StreamResponse._start_compression"],
        ),
        (
            "self._payload_writer.enable_compression(",
            [A + "web_response.StreamResponse._do_start_compression"],
        ),
        (
            "await compressor.compress(self._body) + compressor.flush()",
            [A + "web_response.Response._do_start_compression"],
        ),
    ],
    "ah-011": [
        (
            'url_part = url_part.rpartition("/")[0] or "/"',
            [A + "web_urldispatcher.UrlDispatcher.resolve"],
        ),
        (
            "return MatchInfoError(HTTPMethodNotAllowed(request.method, allowed_methods))",
            [A + "web_urldispatcher.UrlDispatcher.resolve"],
        ),
        (
            'index_key = index_key.partition("{")[0].rpartition("/")[0]',
            [A + "web_urldispatcher.UrlDispatcher._get_resource_index_key"],
        ),
        (
            "self._resource_index.setdefault(resource_key, []).append(resource)",
            [A + "web_urldispatcher.UrlDispatcher.index_resource"],
        ),
        ("return None, self._allowed_methods", [A + "web_urldispatcher.Resource.resolve"]),
    ],
    "ah-012": [
        (
            "self._heartbeat_cb = loop.call_at(when, self._send_heartbeat)",
            [A + "web_ws.WebSocketResponse._reset_heartbeat"],
        ),
        (
            "self._pong_response_cb = loop.call_at(when, self._pong_not_received)",
            [A + "web_ws.WebSocketResponse._send_heartbeat"],
        ),
        (
            'f"No PONG received after {self._pong_heartbeat} seconds"',
            [A + "web_ws.WebSocketResponse._pong_not_received"],
        ),
        (
            "self._set_code_close_transport(WSCloseCode.ABNORMAL_CLOSURE)",
            [A + "web_ws.WebSocketResponse._handle_ping_pong_exception"],
        ),
        (
            "WSMessage(WSMsgType.ERROR, exc, None)",
            [A + "web_ws.WebSocketResponse._handle_ping_pong_exception"],
        ),
    ],
    "ah-013": [
        (
            "if not self._unsafe and is_ip_address(hostname):",
            [
                A + "cookiejar.CookieJar.update_cookies_from_headers",
                A + "cookiejar.CookieJar._update_cookies",
            ],
        ),
        ("elif self._unsafe:", [A + "cookiejar.CookieJar.filter_cookies"]),
    ],
    "ah-014": [
        (
            "body_payload = FormData(maybe_payload)()",
            [A + "client_reqrep.ClientRequest.update_body_from_data"],
        ),
        ("self.add_field(k, fp)", [A + "formdata.FormData.add_fields"]),
        ("if isinstance(value, io.IOBase):", [A + "formdata.FormData.add_field"]),
        ("return self._gen_form_data()", [A + "formdata.FormData.__call__"]),
        (
            '"form-data", quote_fields=self._quote_fields, **dispparams',
            [A + "formdata.FormData._gen_form_data"],
        ),
    ],
    "ah-015": [
        ("return str(self._transport_peername[0])", [A + "web_request.BaseRequest.remote"]),
        ('kwargs["remote"] = remote', [A + "web_request.BaseRequest.clone"]),
        ("new_ret._match_info = self._match_info", [A + "web_request.Request.clone"]),
        ('self._cache["remote"] = remote', [A + "web_request.BaseRequest.__init__"]),
    ],
    "ah-027": [
        (
            "raise ClientConnectorCertificateError(req.connection_key, exc) from exc",
            [A + "connector.TCPConnector._wrap_create_connection"],
        ),
        (
            'f"Cannot connect to host {self.host}:{self.port} ssl:{self.ssl} "',
            [A + "client_exceptions.ClientConnectorCertificateError.__str__"],
        ),
    ],
    "ah-028": [
        (
            'exc = SocketTimeoutError("Timeout on reading data from socket")',
            [A + "client_proto.ResponseHandler._on_read_timeout"],
        ),
        (
            "timeout, self._on_read_timeout",
            [A + "client_proto.ResponseHandler._reschedule_timeout"],
        ),
        ("await waiter", [A + "streams.StreamReader._wait"]),
    ],
    "ah-029": [
        (
            '"Attempt to decode JSON with unexpected mimetype: %s" % ctype',
            [A + "client_reqrep.ClientResponse.json"],
        ),
        ("raise ContentTypeError(", [A + "client_reqrep.ClientResponse.json"]),
        (
            'return f"{self.status}, message={self.message!r}, url='
            '{str(self.request_info.real_url)!r}"',
            [A + "client_exceptions.ClientResponseError.__str__"],
        ),
    ],
    "ah-030": [
        ("raise HTTPRequestEntityTooLarge(max_size)", [A + "web_request.BaseRequest.post"]),
        (
            'kwargs.setdefault("text", f"Maximum request body size {max_size} exceeded.")',
            [A + "web_exceptions.HTTPRequestEntityTooLarge.__init__"],
        ),
    ],
    "ah-031": [
        (
            '"It is recommended to use web.AppKey instances for keys.\\n"',
            [A + "web_app.Application.__setitem__"],
        ),
        ("category=NotAppKeyWarning,", [A + "web_app.Application.__setitem__"]),
    ],
    "ah-032": [
        (
            '"BasicAuth is deprecated and will be removed in aiohttp 4.0; "',
            [A + "helpers.BasicAuth.__new__"],
        ),
        ('"use aiohttp.encode_basic_auth() with "', [A + "helpers.BasicAuth.__new__"]),
        (
            "\"The 'auth' parameter is deprecated and will be removed in v4;\"",
            [A + "client.ClientSession.__init__"],
        ),
    ],
}
# code text a note relies on that lives outside every gold span: (path, text) per query
CODE_TEXT: dict[str, list[tuple[str, str]]] = {
    "ah-008": [
        # run_app's runner.setup() is outside the try/finally that calls runner.cleanup()
        (
            "aiohttp/web.py",
            "    await runner.setup()\n\n    sites: list[BaseSite] = []\n\n    try:\n",
        ),
        ("aiohttp/web_app.py", "self._on_startup.append(self._cleanup_ctx._on_startup)"),
        ("aiohttp/web_app.py", "self._on_cleanup.append(self._cleanup_ctx._on_cleanup)"),
    ],
    "ah-010": [("aiohttp/web_response.py", '    deflate = "deflate"\n    gzip = "gzip"\n')],
    "ah-012": [("aiohttp/web_ws.py", "self._pong_heartbeat = heartbeat / 2.0")],
    "ah-028": [("aiohttp/client_exceptions.py", "class SocketTimeoutError(ServerTimeoutError):")],
    "ah-029": [("aiohttp/client_exceptions.py", "class ContentTypeError(ClientResponseError):")],
    "ah-030": [
        (
            "aiohttp/web_exceptions.py",
            "class HTTPRequestEntityTooLarge(HTTPClientError):\n    status_code = 413",
        ),
        ("aiohttp/web_app.py", "client_max_size: int = 1024**2,"),
    ],
    "ah-031": [
        ("aiohttp/web_exceptions.py", "class NotAppKeyWarning(UserWarning):"),
        (
            "aiohttp/web.py",
            'warnings.filterwarnings("ignore", category=NotAppKeyWarning, append=True)',
        ),
    ],
}
# error queries: the reproduced message text the query must quote verbatim
QUERY_QUOTES: dict[str, list[str]] = {
    "ah-027": [
        "ClientConnectorCertificateError: Cannot connect to host localhost:8443 ssl:True "
        "[SSLCertVerificationError: (1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
        "failed: self-signed certificate (_ssl.c:1006)')]"
    ],
    "ah-028": ["SocketTimeoutError: Timeout on reading data from socket"],
    "ah-029": [
        "ContentTypeError: 200, message='Attempt to decode JSON with unexpected mimetype: "
        "text/html; charset=utf-8', url='http://127.0.0.1:8082/api'"
    ],
    "ah-030": ["413 Request Entity Too Large", "Maximum request body size 1048576 exceeded."],
    "ah-031": [
        "NotAppKeyWarning: It is recommended to use web.AppKey instances for keys. "
        "https://docs.aiohttp.org/en/stable/web_advanced.html#application-s-config"
    ],
    "ah-032": [
        "DeprecationWarning: BasicAuth is deprecated and will be removed in aiohttp 4.0; use "
        "aiohttp.encode_basic_auth() with headers={'Authorization': ...} instead",
        "DeprecationWarning: The 'auth' parameter is deprecated and will be removed in v4; pass "
        "headers={'Authorization': aiohttp.encode_basic_auth(login, password)} instead",
    ],
}
# doc pages of error queries: keywords the page must contain
ERROR_DOC_KEYWORDS: dict[tuple[str, str], list[str]] = {
    ("ah-027", "docs/client_advanced.rst"): [
        "SSL control for TCP sockets",
        ":class:`aiohttp.ClientConnectorCertificateError`",
        "ssl=False",
        "ClientSession(connector=TCPConnector(ssl=ssl_context))",
    ],
    ("ah-028", "docs/client_quickstart.rst"): [
        "``sock_read``",
        "The maximal number of seconds allowed for period between reading a new",
    ],
    ("ah-028", "docs/client_reference.rst"): [
        ".. class:: SocketTimeoutError",
        "Reading from socket timeout on ``sock_read`` timeout.",
    ],
    ("ah-029", "docs/client_advanced.rst"): [
        "Disabling content type validation for JSON responses",
        "await resp.json(content_type=None)",
    ],
    ("ah-029", "docs/client_reference.rst"): [
        ":exc:`aiohttp.ContentTypeError` get raised.",
        "To disable content type check pass ``None`` value.",
    ],
    ("ah-030", "docs/web_quickstart.rst"): [
        "`client_max_size`",
        "``HTTPRequestEntityTooLarge`` exception",
        "For efficiency use :meth:`aiohttp.web.BaseRequest.multipart`",
    ],
    ("ah-030", "docs/web_reference.rst"): [
        ":param client_max_size: client's maximum size in a request, in",
        "`HTTPRequestEntityTooLarge` exception.",
    ],
    ("ah-031", "docs/web_advanced.rst"): [
        "Application's config",
        'my_private_key = web.AppKey("my_private_key", str)',
    ],
    ("ah-032", "docs/client_advanced.rst"): [
        'headers = {"Authorization": encode_basic_auth("user", "pass")}',
        ".. deprecated:: 3.14",
    ],
}
# docs / examples gold: (query id, path) -> strings that must all occur in the page
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("ah-016", "docs/deployment.rst"): [
        "Nginx+Gunicorn",
        "--worker-class aiohttp.GunicornWebWorker",
        "proxy_pass",
    ],
    ("ah-017", "docs/testing.rst"): [
        "pip install pytest-aiohttp",
        "asyncio_mode = auto",
        "client = await aiohttp_client(app)",
    ],
    ("ah-018", "docs/client_advanced.rst"): [
        "Proxy support",
        'proxy="http://proxy.com"',
        '"Proxy-Authorization": encode_basic_auth("user", "pass")',
        "``trust_env=True``",
        "Hosts defined in ``no_proxy`` will bypass the proxy.",
    ],
    ("ah-019", "docs/web_advanced.rst"): [
        "Graceful shutdown",
        "Websocket shutdown",
        "``shutdown_timeout``",
        "WSCloseCode.GOING_AWAY",
        "app.on_shutdown.append(on_shutdown)",
    ],
    ("ah-020", "docs/logging.rst"): [
        "Format specification",
        "``%D``",
        "``%{FOO}i``",
        "class AccessLogger(AbstractAccessLogger):",
    ],
    ("ah-021", "docs/client_advanced.rst"): [
        "Client Tracing",
        "trace_config.on_request_start.append(on_request_start)",
        "trace_config_ctx.start = asyncio.get_event_loop().time()",
    ],
    ("ah-021", "docs/tracing_reference.rst"): [
        ".. attribute:: on_dns_resolvehost_start",
        ".. attribute:: on_connection_create_start",
        ".. attribute:: on_request_end",
    ],
    ("ah-022", "docs/client_quickstart.rst"): [
        "Streaming Response Content",
        "async for chunk in resp.content.iter_chunked(chunk_size):",
        "fd.write(chunk)",
    ],
    ("ah-022", "docs/streams.rst"): [".. method:: StreamReader.iter_chunked(n)"],
    ("ah-023", "examples/web_ws.py"): [
        "resp = web.WebSocketResponse()",
        "for ws in request.app[sockets]:",
        "if ws is not resp:",
        "await ws.send_str(msg.data)",
    ],
    ("ah-023", "examples/client_ws.py"): [
        '"""websocket cmd client for web_ws.py example."""',
        "session.ws_connect(",
    ],
    ("ah-024", "examples/background_tasks.py"): [
        "app.cleanup_ctx.append(background_tasks)",
        "asyncio.create_task(listen_to_valkey(app))",
        "app[valkey_listener].cancel()",
    ],
    ("ah-024", "docs/web_advanced.rst"): [
        "Background tasks",
        "app[redis_listener] = asyncio.create_task(listen_to_redis(app))",
        "app.cleanup_ctx.append(background_tasks)",
    ],
    ("ah-025", "examples/token_refresh_middleware.py"): [
        "class TokenRefreshMiddleware:",
        "if response.status == HTTPStatus.UNAUTHORIZED:",
        'request.headers[hdrs.AUTHORIZATION] = f"Bearer {self.access_token}"',
        "middlewares=(),",
    ],
    ("ah-025", "docs/code/client_middleware_cookbook.py"): [
        "class TokenRefresh401Middleware:",
        "if resp.status != 401:",
        "class TokenRefreshExpiryMiddleware:",
    ],
    ("ah-025", "docs/client_middleware_cookbook.rst"): [
        "Token Refresh Middleware",
        ":pyobject: TokenRefresh401Middleware",
        ":pyobject: TokenRefreshExpiryMiddleware",
    ],
    ("ah-026", "examples/lowlevel_srv.py"): [
        "server = web.Server(handler)",
        "await loop.create_server(server",
    ],
    ("ah-026", "docs/web_lowlevel.rst"): [
        "Run a Basic Low-Level Server",
        "server = web.Server(handler)",
        "runner = web.ServerRunner(server)",
    ],
}
# deprecation queries: statements (path, text) the note relies on; the path need not be gold
DEPRECATIONS: dict[str, list[tuple[str, str]]] = {
    "ah-032": [
        (
            "CHANGES.rst",
            "- Deprecated :class:`~aiohttp.BasicAuth` and the ``auth`` / ``proxy_auth``",
        ),
        (
            "docs/client_advanced.rst",
            "The ``auth`` parameter and the :class:`BasicAuth` class are deprecated and",
        ),
    ],
}

_INCLUDE_RE = re.compile(r"^\.\. literalinclude:: (\S+)((?:\n[ \t]+:.*)*)", re.M)


def literalincludes(root: str, rel: str) -> list[tuple[str, str | None]]:
    """(target path relative to root, :pyobject: name or None) of a page's literalincludes."""
    out: list[tuple[str, str | None]] = []
    for m in _INCLUDE_RE.finditer(read(os.path.join(root, rel))):
        target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
        obj = re.search(r":pyobject:\s*(\S+)", m.group(2))
        out.append((target.replace(os.sep, "/"), obj.group(1) if obj else None))
    return out


def check_literalincludes(root: str, qid: str, rel: str) -> None:
    """A gold page's literalinclude targets exist and define the :pyobject: they name."""
    if not rel.endswith(".rst"):
        return
    for target, obj in literalincludes(root, rel):
        full = os.path.join(root, target)
        if not os.path.isfile(full):
            fail(qid, rel, "literalinclude target missing:", target)
        elif obj is not None and target.endswith(".py"):
            names = {q for q, _ in defs(tree(full).body)}
            if obj not in names:
                fail(qid, rel, "literalinclude :pyobject:", obj, "not defined in", target)


def outside_package(folder: str, name: str) -> bool:
    """Files other_occurrences reads: Cython sources in the package, text files elsewhere."""
    if folder.split(os.sep)[0] == PKG:
        return name.endswith((".pyx", ".pxd", ".pxi"))
    return name.endswith((".py", ".rst", ".md", ".pyx"))


class AiohttpGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "aiohttp_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    deprecations = DEPRECATIONS
    id_registries = (FRAGMENTS, CODE_TEXT, QUERY_QUOTES, DEPRECATIONS)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES)
    src = ""
    scan_dir = PKG
    symbol_dir = PKG + "/"
    symbol_where = PKG + "/**.py:"
    files_only = True
    id_prefix = "ah"
    id_form = "ah-NNN"
    complete_rule = "only"

    def is_root(self, root: str) -> bool:
        return os.path.isfile(os.path.join(root, PKG, "__init__.py"))

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" in g:
            fail(where, "page gold must not carry lines")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        path = str(g.get("path", ""))
        rst_page = path.startswith("docs/") and path.endswith(".rst")
        if cat == "docs" and (g.get("symbol") or not rst_page):
            fail(where, "docs gold must be an .rst page under docs/")
        if cat == "examples" and (
            g.get("symbol")
            or not (
                (path.startswith("examples/") and path.endswith(".py"))
                or rst_page
                or (path.startswith("docs/code/") and path.endswith(".py"))
            )
        ):
            fail(where, "examples gold must be examples/*.py, docs/**.rst or docs/code/*.py")
        if cat == "error" and not g.get("symbol") and not rst_page:
            fail(where, "error page gold must be an .rst page under docs/")

    def other_occurrences(self, kind: str, name: str) -> list[str]:
        """Files outside the package (tests, examples, docs) whose text contains the pattern,
        plus Cython sources inside it (informational; the gold covers aiohttp/**.py only)."""
        return other_files(self.root, kind, name, skip=(".git",), want=outside_package)

    def note_structural(self, qid: str, kind: str, name: str, found: dict[str, Any]) -> None:
        others = self.other_occurrences(kind, name)
        where = f"outside {PKG}/**.py in {others}" if others else f"none outside {PKG}/**.py"
        print(f"  note: {qid} pattern {kind}={name}: {len(found)} functions, {where}")

    def check_error(self, q: dict[str, Any]) -> None:
        qid = str(q["id"])
        self.check_coverage(q)
        if not any(not g.get("symbol") for g in q["gold"]):
            fail(qid, "error query has no doc page gold")
        quotes = QUERY_QUOTES.get(qid)
        if not quotes:
            fail(qid, "no reproduced message text registered for this error query")
        for quote in quotes or []:
            if quote not in q["query"]:
                fail(qid, "query does not quote", repr(quote))
        for g in q["gold"]:
            if not g.get("symbol"):
                check_keywords(self.root, qid, g, ERROR_DOC_KEYWORDS)

    def check_code(self, q: dict[str, Any]) -> None:
        check_texts(self.root, str(q["id"]), CODE_TEXT, "code text")

    def check_page(self, qid: str, g: dict[str, Any]) -> bool:
        read_it = super().check_page(qid, g)
        if read_it:
            check_literalincludes(self.root, qid, g["path"])
        return read_it

    def corpus_notes(self) -> None:
        """Informational: literalinclude directives in docs/ and whether their targets exist."""
        root = self.root
        present: list[str] = []
        missing: list[str] = []
        for full in docs_pages(root):
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            for target, _ in literalincludes(root, rel):
                ok = os.path.exists(os.path.join(root, target))
                (present if ok else missing).append(f"{rel} -> {target}")
        print(
            f"  note: {len(present)} literalinclude directives in docs/ with their target shipped,"
            f" {len(missing)} without"
        )
        for m_ in sorted(set(missing)):
            print("    missing: " + m_)


if __name__ == "__main__":
    AiohttpGold().main(__doc__)
