#!/usr/bin/env python3
"""Re-verify litestar_howto.jsonl against the litestar 2.25.0 corpus root.

    verify_litestar_gold.py --target DIR           # root DIR/litestar
    verify_litestar_gold.py --root litestar=PATH   # root given directly

Checks: schema (fields, ids, categories and their counts, repo name); every gold path
exists; every symbol is re-derived with ast and its span [first decorator line or def
line, end_lineno] equals `lines` (the last definition of a name wins, as at import time,
so for @typing.overload stubs the gold is the implementation); a symbol-less span in a
.py file must cover whole top-level statements; registered code fragments (error message
text, the lines a note relies on) lie inside the gold spans; error doc pages contain
registered keywords; docs pages contain the features their query asks for. Prints counts
per category, informational notes and three sample lines. Exit status 1 on any failure.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gold_ast import span_text, whole_statements
from gold_checks import GoldSet
from gold_text import check_keywords, fail

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "litestar"
PKG = "litestar"
CATS: dict[str, int] = {"api": 25, "symbol": 3, "docs": 6, "error": 5}
README = "docs/PYPI_README.md"
LS = "litestar."
APP_INIT = LS + "app.Litestar.__init__"
VALIDATE = LS + "handlers.http_handlers.base.HTTPRouteHandler._validate_handler_function"

# code fragments that must appear inside the gold spans of the listed symbols; required
# for every symbol gold of an error query (the raising / message-formatting code),
# optional elsewhere (the lines a note relies on)
FRAGMENTS: dict[str, list[tuple[str, list[str]]]] = {
    "ls-001": [
        ("on_startup: Sequence[LifespanHook] | None = None,", [APP_INIT]),
        ("on_shutdown: Sequence[LifespanHook] | None = None,", [APP_INIT]),
    ],
    "ls-002": [
        ("lifespan: Sequence[Callable[[Litestar], AbstractAsyncContextManager]", [APP_INIT]),
        ("for hook in self.on_shutdown[::-1]:", [LS + "app.Litestar.lifespan"]),
        ("manager = manager(self)", [LS + "app.Litestar.lifespan"]),
        ("for hook in self.on_startup:", [LS + "app.Litestar.lifespan"]),
    ],
    "ls-003": [
        ("exception_handlers: ExceptionHandlersMap | None = None,", [APP_INIT]),
        (
            "for cls in getmro(type(exc)) if cls in exception_handlers",
            [LS + "middleware._internal.exceptions.middleware.get_exception_handler"],
        ),
    ],
    "ls-004": [
        (
            "async def read(self, size: int = -1) -> bytes:",
            [LS + "datastructures.upload_file.UploadFile"],
        ),
        ("media_type: str | RequestEncodingType = RequestEncodingType.JSON,", [LS + "params.Body"]),
        ('MULTI_PART = "multipart/form-data"', [LS + "enums.RequestEncodingType"]),
    ],
    "ls-005": [
        ("httponly: bool = False,", [LS + "response.base.Response.set_cookie"]),
        ("httponly: bool | None = field(default=None)", [LS + "datastructures.cookie.Cookie"]),
    ],
    "ls-006": [
        (
            'allow_origins: list[str] = field(default_factory=lambda: ["*"])',
            [LS + "config.cors.CORSConfig"],
        ),
        ("allow_credentials: bool = field(default=False)", [LS + "config.cors.CORSConfig"]),
    ],
    "ls-007": [
        (
            "self.has_async_generator_dependency = isasyncgenfunction(check_target)",
            [LS + "di.Provide"],
        ),
        ("await gen.athrow(exc)", [LS + "_kwargs.cleanup.DependencyCleanupGroup"]),
    ],
    "ls-008": [
        ("query: str | None = None,", [LS + "params.Parameter"]),
        ("ge: float | None = None,", [LS + "params.Parameter"]),
    ],
    "ls-009": [
        (
            "content: StreamType[str | bytes] | Callable[[], StreamType[str | bytes]],",
            [LS + "response.streaming.Stream"],
        ),
    ],
    "ls-010": [
        ("html_mode: bool = False,", [LS + "static_files.config.create_static_files_router"])
    ],
    "ls-011": [
        (
            "await guard(connection, copy(self))",
            [LS + "handlers.base.BaseRouteHandler.authorize_connection"],
        ),
        (
            "status_code = HTTP_403_FORBIDDEN",
            [LS + "exceptions.http_exceptions.PermissionDeniedException"],
        ),
    ],
    "ls-012": [("run_in_task_group: bool = False", [LS + "background_tasks.BackgroundTasks"])],
    "ls-013": [
        ("rate_limit: tuple[DurationUnit, int]", [LS + "middleware.rate_limit.RateLimitConfig"]),
        (
            "identifier_for_request: Callable[[Request], str] = get_remote_address",
            [LS + "middleware.rate_limit.RateLimitConfig"],
        ),
    ],
    "ls-014": [
        (
            "exclude_path_pattern: str | tuple[str, ...] | None = None",
            [LS + "middleware.base.ASGIMiddleware"],
        ),
        (
            "def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp)",
            [LS + "middleware.base.ASGIMiddleware"],
        ),
    ],
    "ls-015": [
        (
            '"on_disconnect": "Callback invoked after a WebSocket connection has been closed"',
            [LS + "handlers.websocket_handlers.listener.WebsocketListenerRouteHandler"],
        ),
    ],
    "ls-016": [
        ("exclude: AbstractSet[str] = field(default_factory=set)", [LS + "dto.config.DTOConfig"])
    ],
    "ls-017": [
        (
            "render_plugins: Sequence[OpenAPIRenderPlugin] = field(default=())",
            [LS + "openapi.config.OpenAPIConfig"],
        ),
    ],
    "ls-018": [
        (
            'log_exceptions: Literal["always", "debug", "never"] = field(default="debug")',
            [LS + "logging.config.LoggingConfig"],
        ),
    ],
    "ls-019": [
        ("template_name: str | None = None,", [LS + "response.template.Template"]),
        (
            "directory: PathType | list[PathType] | None = field(default=None)",
            [LS + "template.config.TemplateConfig"],
        ),
    ],
    "ls-020": [
        (
            "async def get_items(self, limit: int, offset: int) -> list[T]:",
            [LS + "pagination.AbstractAsyncOffsetPaginator"],
        ),
    ],
    "ls-021": [
        (
            "cache: bool | int | type[CACHE_FOREVER] = False,",
            [LS + "handlers.http_handlers.decorators.get.__init__"],
        ),
        ("default_expiration: int | None = 60", [LS + "config.response_cache.ResponseCacheConfig"]),
    ],
    "ls-022": [
        (
            'store: str = "sessions"',
            [LS + "middleware.session.server_side.ServerSideSessionConfig"],
        ),
        ("def with_client(", [LS + "stores.redis.RedisStore"]),
    ],
    "ls-023": [
        (
            'exclude_opt_key: str = field(default="exclude_from_auth")',
            [LS + "security.jwt.auth.JWTAuth"],
        )
    ],
    "ls-025": [("event: str | None = None", [LS + "response.sse.ServerSentEventMessage"])],
    "ls-026": [
        (
            "self._json = self._connection_state.json = decode_json(",
            [LS + "connection.request.Request.json"],
        )
    ],
    "ls-028": [('super().__setattr__("_lock", RLock())', [LS + "datastructures.state.State"])],
    "ls-035": [
        (
            'f"A return value of a route handler function {self} should be type annotated. "',
            [VALIDATE],
        ),
        (
            "\"If your function doesn't return a value, annotate it as returning 'None'.\"",
            [VALIDATE],
        ),
    ],
    "ls-036": [
        (
            '"A status code 204, 304 or in the range below 200 does not support a response body. "',
            [VALIDATE],
        ),
    ],
    "ls-037": [
        (
            'ValidationException(detail=f"Validation failed for {method} {path}"',
            [LS + "_signature.model.SignatureModel._create_exception"],
        ),
        (
            "raise cls._create_exception(messages=messages, connection=connection) from e",
            [LS + "_signature.model.SignatureModel.parse_values_from_connection_kwargs"],
        ),
    ],
    "ls-038": [
        (
            'f"Missing required {param.param_type.value} parameter',
            [LS + "_kwargs.extractors.create_connection_value_extractor"],
        ),
        (
            'parameter {param.field_alias!r} for path {path}"',
            [LS + "_kwargs.extractors.create_connection_value_extractor"],
        ),
        ('"""Wrapper class for dependency injection"""', [LS + "di.Provide"]),
    ],
    "ls-039": [
        (
            'f"Package {package!r} is not installed but required. You can install it by running "',
            [LS + "exceptions.base_exceptions.MissingDependencyException.__init__"],
        ),
    ],
}
# symbol-less spans: (query id, path) -> fragments that must lie inside the span
SPAN_FRAGMENTS: dict[tuple[str, str], list[str]] = {
    ("ls-039", "litestar/plugins/jinja.py"): [
        "from jinja2 import Environment, FileSystemLoader, pass_context",
        'raise MissingDependencyException("jinja2", extra="jinja") from e',
    ],
}
# doc pages of error queries: keywords the page must contain
ERROR_DOC_KEYWORDS: dict[tuple[str, str], list[str]] = {
    ("ls-035", README): ["if you forget to type a return value for a route"],
}
# docs gold: (query id, path) -> strings that must all occur in the page
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("ls-029", README): ["pip install litestar", "pip install 'litestar[standard]'", "uvicorn"],
    ("ls-030", README): [
        "## Quick Start",
        "async def hello_world() -> dict[str, str]:",
        "app = Litestar(route_handlers=[hello_world])",
        "litestar run",
    ],
    ("ls-031", README): [
        "class UserController(Controller):",
        '@get(path="/{user_id:uuid}")',
        "dto=PartialUserDTO",
        "data: DTOData[PartialUserDTO]",
    ],
    ("ls-032", README): [
        "### Dependency Injection",
        'app = Litestar([index], dependencies={"injected": Provide(my_dependency)})',
        "async def index(injected: str) -> str:",
    ],
    ("ls-033", README): [
        "async def is_authorized(connection: ASGIConnection, handler: BaseRouteHandler) -> None:",
        "raise NotAuthorizedException()",
        '@get("/", guards=[is_authorized])',
    ],
    ("ls-034", README): [
        "OpenAPI 3.1.0 schema",
        "Swagger-UI",
        "Stoplight Elements",
        "RapiDoc",
        "All these are available and enabled by default.",
    ],
}


class LitestarGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "litestar_howto.jsonl")
    cats = CATS
    source_cats = ("symbol", "api")
    page_cats = ("docs",)
    structural = ()
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    id_registries = (FRAGMENTS,)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES, SPAN_FRAGMENTS)
    src = ""
    symbol_dir = PKG + "/"
    symbol_where = PKG + "/**.py"
    root_dir = PKG
    files_only = True
    id_prefix = "ls"
    id_form = "ls-NNN"
    order_msg = "ids must run ls-001 .. in file order"
    max_gold = 3

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" in g:
            # symbol-less span: must be exactly one or more whole top-level statements
            if not rel.endswith(".py"):
                fail(where, "symbol-less span outside a .py file")
            elif not whole_statements(full, g["lines"]):
                fail(where, "symbol-less span", g["lines"], "is not whole top-level statements")
        elif not rel.startswith("docs/") or not rel.endswith(".md"):
            fail(where, "page gold must be a .md page under docs/")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        if cat in self.page_cats and (g.get("symbol") or "lines" in g):
            fail(where, "docs gold must be a page")

    def check_error(self, q: dict[str, Any]) -> None:
        self.check_coverage(q)
        for g in q["gold"]:
            if not g.get("symbol") and "lines" not in g:
                check_keywords(self.root, str(q["id"]), g, ERROR_DOC_KEYWORDS)

    def check_code(self, q: dict[str, Any]) -> None:
        """Symbol-less spans hold the fragments registered for them."""
        qid = str(q["id"])
        for g in q["gold"]:
            if g.get("symbol") or "lines" not in g:
                continue
            frags = SPAN_FRAGMENTS.get((qid, g["path"]))
            if frags is None:
                fail(qid, "no fragment registered for symbol-less span", g["path"])
            elif os.path.isfile(os.path.join(self.root, g["path"])):
                text = span_text(self.root, g)
                for frag in frags:
                    if frag not in text:
                        fail(qid, repr(frag), "not inside", g["path"], g["lines"])

    def corpus_notes(self) -> None:
        """Informational: what the sdist holds outside the package."""
        root = self.root
        top = sorted(os.listdir(root))
        docs = (
            sorted(os.listdir(os.path.join(root, "docs")))
            if os.path.isdir(os.path.join(root, "docs"))
            else []
        )
        n_py = sum(
            len([f for f in fn if f.endswith(".py")])
            for _, _, fn in os.walk(os.path.join(root, PKG))
        )
        print(f"  note: corpus top level {top}; docs/ holds {docs}; {n_py} .py files under {PKG}/")


if __name__ == "__main__":
    LitestarGold().main(__doc__)
