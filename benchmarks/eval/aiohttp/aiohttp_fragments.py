"""The aiohttp set's code registries: the fragments that must lie inside gold spans and the
code text notes rely on outside them (verify_aiohttp_gold.py checks them)."""

from __future__ import annotations

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
