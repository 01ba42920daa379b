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

import argparse
import ast
import collections
import json
import os
import random
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "litestar"
PKG = "litestar"
CATS: dict[str, int] = {"api": 25, "symbol": 3, "docs": 6, "error": 5}
SOURCE_CATS = ("symbol", "api")
PAGE_CATS = ("docs",)
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

Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
fails: list[str] = []


def fail(*parts: object) -> None:
    fails.append(" ".join(str(p) for p in parts))


def span(node: ast.AST) -> list[int]:
    decorators = getattr(node, "decorator_list", [])
    lineno: int = node.lineno  # type: ignore[attr-defined]
    end: int = node.end_lineno  # type: ignore[attr-defined]
    return [min([d.lineno for d in decorators] + [lineno]), end]


def module_of(rel: str) -> str:
    parts = rel[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


_trees: dict[str, ast.Module] = {}


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def tree(path: str) -> ast.Module:
    if path not in _trees:
        _trees[path] = ast.parse(read(path))
    return _trees[path]


def defs(body: Sequence[ast.stmt], prefix: str = "") -> Iterator[tuple[str, Def]]:
    """(qualname, node) for every def/class, nested ones joined with dots; also descends
    into if/try/with/for/while/match blocks at the same scope."""
    for n in body:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            q = prefix + n.name
            yield q, n
            yield from defs(n.body, q + ".")
        else:
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(n, field, None)
                if isinstance(sub, list):
                    yield from defs(sub, prefix)
            for h in getattr(n, "handlers", []) or []:
                yield from defs(h.body, prefix)
            for c in getattr(n, "cases", []) or []:
                yield from defs(c.body, prefix)


def find_symbol(root: str, rel: str, symbol: str) -> tuple[Def | None, int, str | None]:
    mod = module_of(rel)
    if not symbol.startswith(mod + "."):
        return None, 0, f"symbol {symbol} is not in module {mod}"
    want = symbol[len(mod) + 1 :]
    hits = [n for q, n in defs(tree(os.path.join(root, rel)).body) if q == want]
    if not hits:
        return None, 0, f"{symbol} not defined in {rel}"
    return hits[-1], len(hits), None  # last definition wins, as at import time


multi_defs: dict[str, int] = {}


def span_text(root: str, g: dict[str, Any]) -> str:
    lines = read(os.path.join(root, g["path"])).splitlines()
    s, e = g["lines"]
    return "\n".join(lines[s - 1 : e])


def check_item(root: str, g: dict[str, Any], where: str) -> None:
    if g.get("repo") != REPO:
        fail(where, "unknown repo", g.get("repo"))
        return
    rel = g.get("path")
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
        fail(where, "bad path", rel)
        return
    full = os.path.join(root, rel)
    if not os.path.isfile(full):
        fail(where, "path missing:", rel)
        return
    if "symbol" not in g:
        fail(where, "missing field symbol (use null for pages)")
    if g.get("symbol"):
        if not rel.endswith(".py") or not rel.startswith(PKG + "/"):
            fail(where, "symbol gold outside", PKG + "/**.py", rel)
            return
        node, count, err = find_symbol(root, rel, g["symbol"])
        if err or node is None:
            fail(where, err)
            return
        if count > 1:
            multi_defs[g["symbol"]] = count
        if span(node) != g.get("lines"):
            fail(where, g["symbol"], "lines", g.get("lines"), "!= ast span", span(node))
    elif "lines" in g:
        # symbol-less span: must be exactly one or more whole top-level statements
        if not rel.endswith(".py"):
            fail(where, "symbol-less span outside a .py file")
            return
        body = tree(full).body
        starts = {span(n)[0] for n in body}
        ends = {n.end_lineno for n in body}
        s, e = g["lines"]
        if s not in starts or e not in ends:
            fail(where, "symbol-less span", g["lines"], "is not whole top-level statements")
    elif not rel.startswith("docs/") or not rel.endswith(".md"):
        fail(where, "page gold must be a .md page under docs/")


def check_overlaps(q: dict[str, Any]) -> None:
    """Two gold items of one query in the same file must not overlap (one hit would match
    both by the line-overlap rule)."""
    items = [g for g in q["gold"] if g.get("lines")]
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            same = a["path"] == b["path"]
            if same and a["lines"][0] <= b["lines"][1] and b["lines"][0] <= a["lines"][1]:
                fail(q["id"], "gold spans overlap:", a.get("symbol"), b.get("symbol"))


def check_fragments(root: str, q: dict[str, Any]) -> None:
    qid = str(q["id"])
    for frag, targets in FRAGMENTS.get(qid, []):
        for tgt in targets:
            gs = [g for g in q["gold"] if g.get("symbol") == tgt]
            if not gs:
                fail(qid, "fragment target is not gold:", tgt)
                continue
            for g in gs:
                here = "lines" in g and os.path.isfile(os.path.join(root, g["path"]))
                if here and frag not in span_text(root, g):
                    fail(qid, repr(frag), "not inside", tgt, g["lines"])
    for g in q["gold"]:
        if g.get("symbol") or "lines" not in g:
            continue
        frags = SPAN_FRAGMENTS.get((qid, g["path"]))
        if frags is None:
            fail(qid, "no fragment registered for symbol-less span", g["path"])
        elif os.path.isfile(os.path.join(root, g["path"])):
            text = span_text(root, g)
            for frag in frags:
                if frag not in text:
                    fail(qid, repr(frag), "not inside", g["path"], g["lines"])


def check_error(root: str, q: dict[str, Any]) -> None:
    qid = str(q["id"])
    if qid not in FRAGMENTS:
        fail(qid, "no code fragment registered for this error query")
    covered = {t for _, targets in FRAGMENTS.get(qid, []) for t in targets}
    for g in q["gold"]:
        if g.get("symbol") and g["symbol"] not in covered:
            fail(qid, "error gold without a registered fragment:", g["symbol"])
    for g in q["gold"]:
        if g.get("symbol") or "lines" in g:
            continue
        kws = ERROR_DOC_KEYWORDS.get((qid, g["path"]))
        page = os.path.join(root, g["path"])
        if kws is None:
            fail(qid, "no keyword registered for doc", g["path"])
        elif os.path.isfile(page):
            lack = [kw for kw in kws if kw not in read(page)]
            if lack:
                fail(qid, g["path"], "lacks", lack)


def check_query(root: str, q: dict[str, Any], per: collections.Counter[str]) -> int:
    qid = q.get("id")
    for k in ("id", "category", "query", "gold", "note"):
        if k not in q:
            fail(qid, "missing field", k)
    extra = set(q) - {"id", "category", "query", "gold", "note"}
    if extra:
        fail(qid, "unknown fields", sorted(extra))
    if not re.fullmatch(r"ls-\d{3}", str(qid)):
        fail(qid, "id must look like ls-NNN")
    cat = q.get("category")
    if cat not in CATS:
        fail(qid, "unknown category", cat)
    gold = q.get("gold") or []
    if not gold:
        fail(qid, "empty gold")
        return 0
    if not 1 <= len(gold) <= 3:
        fail(qid, "gold must hold 1-3 items, has", len(gold))
    if not str(q.get("query", "")).strip() or not str(q.get("note", "")).strip():
        fail(qid, "empty query or note")

    keys: set[tuple[Any, ...]] = set()
    for g in gold:
        where = f"{qid} {g.get('repo')}:{g.get('path')}"
        extra_g = set(g) - {"repo", "path", "symbol", "lines"}
        if extra_g:
            fail(where, "unknown gold fields", sorted(extra_g))
        key = (g.get("repo"), g.get("path"), g.get("symbol"), tuple(g.get("lines") or ()))
        if key in keys:
            fail(where, "duplicate gold item")
        keys.add(key)
        check_item(root, g, where)
        per[str(cat)] += 1
        if cat in SOURCE_CATS and not g.get("symbol"):
            fail(where, "source categories need symbol gold")
        if cat in PAGE_CATS and (g.get("symbol") or "lines" in g):
            fail(where, "docs gold must be a page")

    check_overlaps(q)
    if cat == "error":
        check_error(root, q)
    check_fragments(root, q)
    if cat in PAGE_CATS:
        for g in gold:
            feats = PAGE_FEATURES.get((str(qid), g["path"]))
            if feats is None:
                fail(qid, "no features registered for", g["path"])
                continue
            page = os.path.join(root, g["path"])
            if os.path.isfile(page):
                lack = [s for s in feats if s not in read(page)]
                if lack:
                    fail(qid, g["path"], "lacks", lack)
    return len(gold)


def corpus_notes(root: str) -> None:
    """Informational: what the sdist holds outside the package."""
    top = sorted(os.listdir(root))
    docs = (
        sorted(os.listdir(os.path.join(root, "docs")))
        if os.path.isdir(os.path.join(root, "docs"))
        else []
    )
    n_py = sum(
        len([f for f in fn if f.endswith(".py")]) for _, _, fn in os.walk(os.path.join(root, PKG))
    )
    print(f"  note: corpus top level {top}; docs/ holds {docs}; {n_py} .py files under {PKG}/")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--target", help="folder written by get_litestar_corpus.sh (root TARGET/litestar)"
    )
    ap.add_argument("--root", action="append", default=[], help="litestar=PATH")
    ap.add_argument("--file", default=os.path.join(HERE, "litestar_howto.jsonl"))
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    roots: dict[str, str] = {}
    if args.target:
        roots[REPO] = os.path.join(args.target, REPO)
    for kv in args.root:
        k, _, v = kv.partition("=")
        roots[k] = v
    root = roots.get(REPO)
    if not root or not os.path.isdir(os.path.join(root, PKG)):
        sys.exit(f"missing corpus root for {REPO!r} (use --target DIR or --root litestar=PATH)")

    raw = [line for line in read(args.file).splitlines() if line.strip()]
    queries: list[dict[str, Any]] = []
    for n, line in enumerate(raw, 1):
        try:
            queries.append(json.loads(line))
        except json.JSONDecodeError as e:
            fail(f"line {n}: invalid JSON: {e}")
    ids = collections.Counter(q.get("id") for q in queries)
    for qid, n in ids.items():
        if n > 1:
            fail(qid, "duplicate id")
    expected_ids = [f"ls-{i:03d}" for i in range(1, len(queries) + 1)]
    if [q.get("id") for q in queries] != expected_ids:
        fail("ids must run ls-001 .. in file order")
    cats = collections.Counter(q.get("category") for q in queries)
    if dict(cats) != CATS:
        fail("category counts", dict(cats), "!= expected", CATS)
    for qid in FRAGMENTS:
        if qid not in ids:
            fail("registered id", qid, "is not in the file")
    for qid, path in list(ERROR_DOC_KEYWORDS) + list(PAGE_FEATURES) + list(SPAN_FRAGMENTS):
        if not any(
            q.get("id") == qid and any(g.get("path") == path for g in q["gold"]) for q in queries
        ):
            fail("registered page", qid, path, "is not gold in the file")

    per: collections.Counter[str] = collections.Counter()
    print("notes:")
    items = sum(check_query(root, q, per) for q in queries)
    corpus_notes(root)

    print(f"{len(queries)} queries, {items} gold items (repo {REPO!r}, root {root})")
    print("counts per category: queries [gold items]")
    for c in CATS:
        print(f"  {c:9s} {cats[c]:2d}  [{per[c]}]")
    if multi_defs:
        print(
            "gold symbols defined more than once (the last definition, after @typing.overload"
            " stubs, is the gold span):",
            ", ".join(f"{s} x{n}" for s, n in sorted(multi_defs.items())),
        )
    rnd = random.Random(args.seed)
    print(f"{args.samples} sample lines:")
    for line in rnd.sample(raw, min(args.samples, len(raw))):
        print("  " + line)
    if fails:
        print(f"\nFAILED ({len(fails)}):")
        for f in fails:
            print("  " + f)
        sys.exit(1)
    print("\nOK: all gold verified")


if __name__ == "__main__":
    main()
