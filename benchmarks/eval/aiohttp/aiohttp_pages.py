"""The aiohttp set's text registries: the message text error queries quote, the keywords
and features gold pages hold, and the deprecation statements notes cite
(verify_aiohttp_gold.py checks them)."""

from __future__ import annotations

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
