#!/usr/bin/env python3
"""Re-verify flask_dev.jsonl against the Flask 3.1.3 corpus root.

    verify_flask_gold.py --target DIR        # root DIR/flask
    verify_flask_gold.py --root flask=PATH   # root given directly

Checks: schema (fields, ids, categories and their counts, repo name, which kinds of gold
each category may hold); every gold path exists; every symbol is re-derived with ast and
its span [first decorator line or def line, end_lineno] equals `lines` (the last
definition of a name wins, as at import time, so for @typing.overload stubs the gold is
the implementation); symbol-less `lines` gold (module-level code) must span whole
top-level statements; no two gold spans of one query overlap; calls gold equals the
complete set recomputed with ast AND with an independent text scan of each function's own
lines; registered code fragments (error message text, the lines a note relies on) lie
inside the gold spans; error doc pages contain registered keywords; docs and examples
gold (pages, example files, example folders) contain the features their query asks for;
other statements that notes rely on exist in the corpus. Prints counts per category,
informational notes and three sample lines. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import json
import os
import random
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "flask"
PKG = "src/flask"
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 11,
    "docs": 8,
    "examples": 4,
    "error": 8,
    "calls": 2,
}
SOURCE_CATS = ("symbol", "api", "calls", "yields")
PAGE_CATS = ("docs", "examples")
STRUCTURAL = ("calls", "yields")
FL = "flask."
GLOBALS_NO_APP = "src/flask/globals.py#L17-33"

# code fragments that must appear inside the gold spans of the listed targets. A target is
# a gold symbol, or "path#Lstart-end" for a symbol-less gold span. Required for every
# code gold of an error query (the raising / message-building code), optional elsewhere
# (the lines a note relies on).
FRAGMENTS: dict[str, list[tuple[str, list[str]]]] = {
    "fl-001": [
        (
            "request_started.send(self, _async_wrapper=self.ensure_sync)",
            [FL + "app.Flask.full_dispatch_request"],
        ),
        ("rv = self.handle_user_exception(e)", [FL + "app.Flask.full_dispatch_request"]),
    ],
    "fl-002": [
        ('propagate = self.config["PROPAGATE_EXCEPTIONS"]', [FL + "app.Flask.handle_exception"]),
        (
            "server_error = InternalServerError(original_exception=e)",
            [FL + "app.Flask.handle_exception"],
        ),
    ],
    "fl-003": [
        ('for attr_name in ("app", "application"):', [FL + "cli.find_best_app"]),
        ('for attr_name in ("create_app", "make_app"):', [FL + "cli.find_best_app"]),
        ('"Detected multiple Flask applications in module"', [FL + "cli.find_best_app"]),
    ],
    "fl-004": [
        ('*parts, tail = key.split("__")', [FL + "config.Config.from_prefixed_env"]),
        ("value = loads(value)", [FL + "config.Config.from_prefixed_env"]),
    ],
    "fl-005": [
        ("if cls.init_every_request:", [FL + "views.View.as_view"]),
        ("for decorator in cls.decorators:", [FL + "views.View.as_view"]),
    ],
    "fl-006": [
        ("for cls in exc_class.__mro__:", [FL + "sansio.app.App._find_error_handler"]),
        ("names = (*blueprints, None)", [FL + "sansio.app.App._find_error_handler"]),
        ("return self.handle_http_exception(e)", [FL + "app.Flask.handle_user_exception"]),
        ("if isinstance(e, RoutingException):", [FL + "app.Flask.handle_http_exception"]),
        (
            "exc_class = default_exceptions[exc_class_or_code]",
            [FL + "sansio.scaffold.Scaffold._get_exc_class_and_code"],
        ),
    ],
    "fl-007": [
        ("if isinstance(rv[1], (Headers, dict, tuple, list)):", [FL + "app.Flask.make_response"]),
        ("rv = self.json.response(rv)", [FL + "app.Flask.make_response"]),
        ('dump_args.setdefault("indent", 2)', [FL + "json.provider.DefaultJSONProvider.response"]),
    ],
    "fl-008": [
        ("for func in ctx._after_request_functions:", [FL + "app.Flask.process_response"]),
        (
            "for func in reversed(self.after_request_funcs[name]):",
            [FL + "app.Flask.process_response"],
        ),
        (
            "self.session_interface.save_session(self, ctx._session, response)",
            [FL + "app.Flask.process_response"],
        ),
        ("ctx._after_request_functions.append(f)", [FL + "ctx.after_this_request"]),
    ],
    "fl-009": [
        (
            'if fallbacks := app.config["SECRET_KEY_FALLBACKS"]:',
            [FL + "sessions.SecureCookieSessionInterface.get_signing_serializer"],
        ),
        (
            "keys.append(app.secret_key)  # itsdangerous expects current key at top",
            [FL + "sessions.SecureCookieSessionInterface.get_signing_serializer"],
        ),
        ("except BadSignature:", [FL + "sessions.SecureCookieSessionInterface.open_session"]),
        (
            "val = self.get_signing_serializer(app).dumps(dict(session))",
            [FL + "sessions.SecureCookieSessionInterface.save_session"],
        ),
    ],
    "fl-010": [
        (
            "self.url_value_preprocessors[None].append(f)",
            [FL + "sansio.scaffold.Scaffold.url_value_preprocessor"],
        ),
        (
            "self.url_default_functions[None].append(f)",
            [FL + "sansio.scaffold.Scaffold.url_defaults"],
        ),
        ("url_func(request.endpoint, request.view_args)", [FL + "app.Flask.preprocess_request"]),
        ("func(endpoint, values)", [FL + "sansio.app.App.inject_url_defaults"]),
    ],
    "fl-011": [
        (
            'bp_options["subdomain"] = bp_subdomain + "." + state.subdomain',
            [FL + "sansio.blueprints.Blueprint.register"],
        ),
        (
            'state.url_prefix.rstrip("/") + "/" + bp_url_prefix.lstrip("/")',
            [FL + "sansio.blueprints.Blueprint.register"],
        ),
        (
            'self.name_prefix = self.options.get("name_prefix", "")',
            [FL + "sansio.blueprints.BlueprintSetupState.__init__"],
        ),
        (
            'f"{self.name_prefix}.{self.name}.{endpoint}".lstrip(".")',
            [FL + "sansio.blueprints.BlueprintSetupState.add_url_rule"],
        ),
    ],
    "fl-012": [
        ('required_methods.add("OPTIONS")', [FL + "sansio.app.App.add_url_rule"]),
        ("return self.make_default_options_response()", [FL + "app.Flask.dispatch_request"]),
        ("rv.allow.update(methods)", [FL + "app.Flask.make_default_options_response"]),
    ],
    "fl-013": [
        ("if error is not None and self.should_ignore_error(error):", [FL + "app.Flask.wsgi_app"]),
        ("self.app.do_teardown_request(exc)", [FL + "ctx.RequestContext.pop"]),
        ("app_ctx.pop(exc)", [FL + "ctx.RequestContext.pop"]),
        (
            "for func in reversed(self.teardown_request_funcs[name]):",
            [FL + "app.Flask.do_teardown_request"],
        ),
        ("self.app.do_teardown_appcontext(exc)", [FL + "ctx.AppContext.pop"]),
        (
            "for func in reversed(self.teardown_appcontext_funcs):",
            [FL + "app.Flask.do_teardown_appcontext"],
        ),
    ],
    "fl-014": [
        ("return create_logger(self)", [FL + "sansio.app.App.logger"]),
        ("if app.debug and not logger.level:", [FL + "logging.create_logger"]),
        ("if not has_level_handler(logger):", [FL + "logging.create_logger"]),
        (
            "if any(handler.level <= level for handler in current.handlers):",
            [FL + "logging.has_level_handler"],
        ),
        ('return request.environ["wsgi.errors"]', [FL + "logging.wsgi_errors_stream"]),
    ],
    "fl-015": [
        ('session["_flashes"] = flashes', [FL + "helpers.flash"]),
        (
            'flashes = session.pop("_flashes") if "_flashes" in session else []',
            [FL + "helpers.get_flashed_messages"],
        ),
        ("request_ctx.flashes = flashes", [FL + "helpers.get_flashed_messages"]),
    ],
    "fl-016": [
        ("ctx = ctx.copy()", [FL + "ctx.copy_current_request_context"]),
        ("session=self._session,", [FL + "ctx.RequestContext.copy"]),
        ("if self._session is None:", [FL + "ctx.RequestContext.push"]),
    ],
    "fl-029": [
        ("Working outside of application context.", [GLOBALS_NO_APP]),
        ("with app.app_context(). See the documentation for more information.", [GLOBALS_NO_APP]),
        ('_cv_app, "app", unbound_message=_no_app_msg', [GLOBALS_NO_APP]),
    ],
    "fl-030": [
        ('"The session is unavailable because no secret "', [FL + "sessions.NullSession._fail"]),
        ('"application to something unique and secret."', [FL + "sessions.NullSession._fail"]),
        (
            "if not app.secret_key:",
            [FL + "sessions.SecureCookieSessionInterface.get_signing_serializer"],
        ),
        ("if s is None:", [FL + "sessions.SecureCookieSessionInterface.open_session"]),
    ],
    "fl-031": [
        ('f"The view function for {request.endpoint!r} did not"', [FL + "app.Flask.make_response"]),
        ('" None or ended without a return statement."', [FL + "app.Flask.make_response"]),
    ],
    "fl-032": [
        (
            '"View function mapping is overwriting an existing"',
            [FL + "sansio.app.App.add_url_rule"],
        ),
        ('f" endpoint function: {endpoint}"', [FL + "sansio.app.App.add_url_rule"]),
        ("return view_func.__name__", [FL + "sansio.scaffold._endpoint_from_view_func"]),
    ],
    "fl-033": [
        ("except BuildError as error:", [FL + "app.Flask.url_for"]),
        ("return self.handle_url_build_error(error, endpoint, values)", [FL + "app.Flask.url_for"]),
        ("if error is sys.exc_info()[1]:", [FL + "sansio.app.App.handle_url_build_error"]),
    ],
    "fl-034": [
        ('"Could not locate a Flask application. Use the"', [FL + "cli.ScriptInfo.load_app"]),
        ("\" 'flask --app' option, 'FLASK_APP' environment\"", [FL + "cli.ScriptInfo.load_app"]),
        ("app: WSGIApplication = info.load_app()", [FL + "cli.run_command"]),
        ("raise e from None", [FL + "cli.run_command"]),
    ],
    "fl-035": [
        ('"Unable to build URLs outside an active request"', [FL + "app.Flask.url_for"]),
        ("\" without 'SERVER_NAME' configured. Also configure\"", [FL + "app.Flask.url_for"]),
        ('if self.config["SERVER_NAME"] is not None:', [FL + "app.Flask.create_url_adapter"]),
    ],
    "fl-036": [
        (
            "f\"The setup method '{f_name}' can no longer be called\"",
            [FL + "sansio.app.App._check_setup_finished"],
        ),
        (
            '" on the application. It has already handled its first"',
            [FL + "sansio.app.App._check_setup_finished"],
        ),
        ("self._check_setup_finished(f_name)", [FL + "sansio.scaffold.setupmethod"]),
    ],
}
# doc pages of error queries: keywords the page must contain
ERROR_DOC_KEYWORDS: dict[tuple[str, str], list[str]] = {
    ("fl-029", "docs/appcontext.rst"): [
        "RuntimeError: Working outside of application context.",
        "with app.app_context():",
    ],
    ("fl-030", "docs/quickstart.rst"): [
        "In order to use sessions you have to set a secret key.",
        "app.secret_key = b",
        "secrets.token_hex()",
    ],
    ("fl-030", "docs/config.rst"): [".. py:data:: SECRET_KEY", "secrets.token_hex()"],
    ("fl-031", "docs/quickstart.rst"): [
        "About Responses",
        "The return value from a view function is automatically converted into",
    ],
    ("fl-032", "docs/patterns/viewdecorators.rst"): [
        "Use :func:`functools.wraps` to handle this for you.",
        "@wraps(f)",
    ],
    ("fl-033", "docs/blueprints.rst"): [
        "Building URLs",
        "url_for('admin.index')",
        "url_for('.index')",
    ],
    ("fl-034", "docs/cli.rst"): [
        "Application Discovery",
        "``--app hello``",
        'The name "app" or "wsgi" is imported',
    ],
    ("fl-035", "docs/config.rst"): [
        ".. py:data:: SERVER_NAME",
        "Must be set for ``url_for`` to generate external URLs outside of a",
    ],
    ("fl-036", "docs/lifecycle.rst"): [
        "The setup method 'route' can no longer be called on the application.",
        "All application setup must be completed before you start serving your application",
    ],
}
# docs / examples gold: (query id, path) -> strings that must all occur in the page, or for
# an example folder, each somewhere in the folder's files
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("fl-017", "docs/deploying/gunicorn.rst"): [
        "$ gunicorn -w 4 'hello:create_app()'",
        "The ``-w`` option specifies the number of processes to run",
    ],
    ("fl-018", "docs/deploying/proxy_fix.rst"): [
        "from werkzeug.middleware.proxy_fix import ProxyFix",
        "x_for=1, x_proto=1, x_host=1, x_prefix=1",
    ],
    ("fl-018", "docs/deploying/nginx.rst"): [
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "Then :doc:`proxy_fix` so that your application uses these headers.",
    ],
    ("fl-019", "docs/testing.rst"): [
        "Accessing and Modifying the Session",
        "with client.session_transaction() as session:",
        'session["user_id"] = 1',
    ],
    ("fl-020", "docs/cli.rst"): [
        '@app.cli.command("create-user")',
        "Registering Commands with Blueprints",
        "cli_group='other'",
        "cli_group=None",
    ],
    ("fl-021", "docs/web-security.rst"): [
        "SESSION_COOKIE_SECURE=True,",
        "SESSION_COOKIE_HTTPONLY=True,",
        "SESSION_COOKIE_SAMESITE='Lax',",
        "session.permanent = True",
        "PERMANENT_SESSION_LIFETIME",
    ],
    ("fl-021", "docs/config.rst"): [
        ".. py:data:: SESSION_COOKIE_SAMESITE",
        ".. py:data:: PERMANENT_SESSION_LIFETIME",
        "Default: ``timedelta(days=31)``",
    ],
    ("fl-022", "docs/errorhandling.rst"): [
        "Returning API Errors as JSON",
        "@app.errorhandler(HTTPException)",
        "response = e.get_response()",
        "class InvalidAPIUsage(Exception):",
    ],
    ("fl-023", "docs/logging.rst"): [
        "Email Errors to Admins",
        "from logging.handlers import SMTPHandler",
        "class RequestFormatter(logging.Formatter):",
        "record.remote_addr = request.remote_addr",
    ],
    ("fl-024", "docs/patterns/fileuploads.rst"): [
        "ALLOWED_EXTENSIONS = {'txt', 'pdf', 'png', 'jpg', 'jpeg', 'gif'}",
        "filename = secure_filename(file.filename)",
        "app.config['MAX_CONTENT_LENGTH'] = 16 * 1000 * 1000",
        "RequestEntityTooLarge",
    ],
    ("fl-024", "docs/config.rst"): [".. py:data:: MAX_CONTENT_LENGTH", "a 413"],
    ("fl-025", "examples/tutorial/flaskr/auth.py"): [
        "def login_required(view):",
        'return redirect(url_for("auth.login"))',
        "generate_password_hash(password)",
        'session["user_id"] = user["id"]',
        "@bp.before_app_request",
    ],
    ("fl-025", "docs/tutorial/views.rst"): [
        "def login_required(view):",
        "generate_password_hash(password)",
        "session['user_id'] = user['id']",
        "@bp.before_app_request",
    ],
    ("fl-026", "examples/celery"): [
        "def celery_init_app(app: Flask) -> Celery:",
        "with app.app_context():",
        "@shared_task(ignore_result=False)",
        "result = tasks.add.delay(a, b)",
        "result = AsyncResult(id)",
    ],
    ("fl-026", "docs/patterns/celery.rst"): [
        "def celery_init_app(app: Flask) -> Celery:",
        "@shared_task(ignore_result=False)",
        "result = AsyncResult(id)",
    ],
    ("fl-027", "examples/javascript"): [
        '@app.route("/add", methods=["POST"])',
        "return jsonify(result=a + b)",
        "fetch({{ url_for('add')|tojson }}, {",
        "var request = new XMLHttpRequest();",
        "$.ajax({",
    ],
    ("fl-028", "examples/tutorial/tests"): [
        "db_fd, db_path = tempfile.mkstemp()",
        "return app.test_client()",
        "return app.test_cli_runner()",
        "class AuthActions:",
        "def test_login_required(client, path):",
    ],
    ("fl-028", "docs/tutorial/tests.rst"): [
        "db_fd, db_path = tempfile.mkstemp()",
        "return app.test_cli_runner()",
        "class AuthActions(object):",
        "def test_login_required(client, path):",
    ],
}
# statements (path, text) that notes rely on; the path need not be gold
CLAIMS: dict[str, list[tuple[str, str]]] = {
    "fl-009": [("CHANGES.rst", "Fix signing key selection order when key rotation is enabled")],
    "fl-012": [("docs/config.rst", ".. py:data:: PROVIDE_AUTOMATIC_OPTIONS")],
    "fl-029": [
        # appcontext.rst still quotes an older wording of the message
        (
            "docs/appcontext.rst",
            "needed to interface with the current application object in some way.",
        ),
    ],
    "fl-030": [
        ("src/flask/ctx.py", "self._session = session_interface.make_null_session(self.app)")
    ],
    "fl-036": [("src/flask/app.py", "self._got_first_request = True")],
}


Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
fails: list[str] = []


def fail(*parts: object) -> None:
    fails.append(" ".join(str(p) for p in parts))


def span(node: ast.AST) -> list[int]:
    decorators = getattr(node, "decorator_list", [])
    lineno: int = node.lineno  # type: ignore[attr-defined]
    end: int = node.end_lineno  # type: ignore[attr-defined]
    return [min([d.lineno for d in decorators] + [lineno]), end]


def module_of(rel: str) -> str:
    parts = rel[len("src/") : -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


_trees: dict[str, ast.Module] = {}
_lines: dict[str, list[str]] = {}


def tree(path: str) -> ast.Module:
    if path not in _trees:
        with open(path, encoding="utf-8") as f:
            _trees[path] = ast.parse(f.read())
    return _trees[path]


def text_lines(path: str) -> list[str]:
    if path not in _lines:
        with open(path, encoding="utf-8") as f:
            _lines[path] = f.read().splitlines()
    return _lines[path]


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_any(path: str) -> str:
    """Text of a file, or of every readable text file under a folder, concatenated."""
    if os.path.isfile(path):
        return read(path)
    parts: list[str] = []
    for dp, dn, fn in os.walk(path):
        dn.sort()
        for f in sorted(fn):
            with contextlib.suppress(UnicodeDecodeError, OSError):
                parts.append(read(os.path.join(dp, f)))
    return "\n".join(parts)


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


def target_of(g: dict[str, Any]) -> str:
    """Name of a gold item in FRAGMENTS: its symbol, or path#Ls-e for a symbol-less span."""
    if g.get("symbol"):
        return str(g["symbol"])
    if g.get("lines"):
        s, e = g["lines"]
        return f"{g['path']}#L{s}-{e}"
    return str(g.get("path"))


multi_defs: dict[str, int] = {}


def check_item(root: str, g: dict[str, Any], where: str) -> None:
    if g.get("repo") != REPO:
        fail(where, "unknown repo", g.get("repo"))
        return
    rel = g.get("path")
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
        fail(where, "bad path", rel)
        return
    if rel.endswith("/"):
        fail(where, "folder paths are written without a trailing slash", rel)
    full = os.path.join(root, rel)
    if not os.path.exists(full):
        fail(where, "path missing:", rel)
        return
    if "symbol" not in g:
        fail(where, "missing field symbol (use null for pages, files and folders)")
    if g.get("symbol"):
        if not rel.endswith(".py") or not rel.startswith(PKG + "/"):
            fail(where, "symbol gold outside src/flask/*.py", rel)
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
        if not rel.endswith(".py") or not os.path.isfile(full):
            fail(where, "symbol-less lines only on Python files")
            return
        body = tree(full).body
        starts = {span(n)[0] for n in body}
        ends = {n.end_lineno for n in body}
        lines = g["lines"]
        if not (isinstance(lines, list) and len(lines) == 2 and lines[0] <= lines[1]):
            fail(where, "bad lines", lines)
            return
        s, e = lines
        if s not in starts or e not in ends:
            fail(where, "symbol-less lines", lines, "do not bound top-level statements")


def span_text(root: str, g: dict[str, Any]) -> str:
    s, e = g["lines"]
    return "\n".join(text_lines(os.path.join(root, g["path"]))[s - 1 : e])


# ---------- structural truth sets ----------
def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """Nodes of fn's own body: nested defs, classes and lambdas are not descended into."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, NESTED):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def nested_ranges(fn: ast.AST) -> list[list[int]]:
    return [
        span(x) if not isinstance(x, ast.Lambda) else [x.lineno, x.end_lineno or x.lineno]
        for x in ast.walk(fn)
        if x is not fn and isinstance(x, NESTED)
    ]


Item = tuple[str, str, list[int]]


def pattern(kind: str, name: str) -> re.Pattern[str]:
    return re.compile(
        (r"\byield\s+" if kind == "yields" else r"\bself\.") + re.escape(name) + r"\s*\("
    )


def matches(kind: str, name: str, x: ast.AST) -> bool:
    if kind == "yields":
        return (
            isinstance(x, ast.Yield)
            and isinstance(x.value, ast.Call)
            and isinstance(x.value.func, ast.Name)
            and x.value.func.id == name
        )
    return (
        isinstance(x, ast.Call)
        and isinstance(x.func, ast.Attribute)
        and x.func.attr == name
        and isinstance(x.func.value, ast.Name)
        and x.func.value.id == "self"
    )


def structural_sets(root: str, kind: str, name: str) -> tuple[dict[str, Item], dict[str, Item]]:
    """Functions under ROOT/src whose own body matches, by ast and by a text scan."""
    by_ast: dict[str, Item] = {}
    by_text: dict[str, Item] = {}
    pat = pattern(kind, name)
    src = os.path.join(root, "src")
    for dp, dn, fn in os.walk(src):
        dn[:] = sorted(d for d in dn if d != "__pycache__")
        for f in sorted(fn):
            if not f.endswith(".py"):
                continue
            full = os.path.join(dp, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            mod = module_of(rel)
            lines = text_lines(full)
            for q, n in defs(tree(full).body):
                if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                sym = mod + "." + q
                item: Item = (rel, sym, span(n))
                if any(matches(kind, name, x) for x in own_nodes(n)):
                    by_ast[sym] = item
                nr = nested_ranges(n)
                end = n.end_lineno or n.lineno
                own = [
                    lines[i - 1]
                    for i in range(n.lineno, end + 1)
                    if not any(s <= i <= e for s, e in nr)
                ]
                if pat.search("\n".join(own)):
                    by_text[sym] = item
    return by_ast, by_text


def other_occurrences(root: str, kind: str, name: str) -> list[str]:
    """Files outside src/ (tests, docs, examples) whose text contains the pattern."""
    pat = pattern(kind, name)
    out = []
    for dp, dn, fn in os.walk(root):
        if os.path.abspath(dp) == os.path.abspath(root):
            dn[:] = [d for d in dn if d not in ("src", ".downloads", ".state")]
        dn[:] = sorted(d for d in dn if d != "__pycache__")
        for f in sorted(fn):
            if not f.endswith((".py", ".rst")):
                continue
            full = os.path.join(dp, f)
            try:
                if pat.search(read(full)):
                    out.append(os.path.relpath(full, root))
            except (UnicodeDecodeError, OSError):
                pass
    return out


def check_query(root: str, q: dict[str, Any], per: collections.Counter[str]) -> int:
    qid = q.get("id")
    for k in ("id", "category", "query", "gold", "note"):
        if k not in q:
            fail(qid, "missing field", k)
    extra = set(q) - {"id", "category", "query", "filters", "gold", "gold_complete", "note"}
    if extra:
        fail(qid, "unknown fields", sorted(extra))
    if not re.fullmatch(r"fl-\d{3}", str(qid)):
        fail(qid, "id must look like fl-NNN")
    cat = q.get("category")
    if cat not in CATS:
        fail(qid, "unknown category", cat)
    if not q.get("gold"):
        fail(qid, "empty gold")
        return 0
    if not str(q.get("query", "")).strip() or not str(q.get("note", "")).strip():
        fail(qid, "empty query or note")
    if ("filters" in q) != (cat in STRUCTURAL):
        fail(qid, "filters must be given exactly for structural categories")
    if "gold_complete" in q and cat not in STRUCTURAL:
        fail(qid, "gold_complete is only used on structural queries")

    keys: set[tuple[Any, ...]] = set()
    for g in q["gold"]:
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
        path = str(g.get("path", ""))
        if cat in SOURCE_CATS and not g.get("symbol"):
            fail(where, "source categories need symbol gold")
        if not g.get("symbol") and "lines" in g and cat != "error":
            fail(where, "symbol-less lines are only used for error queries")
        if cat in PAGE_CATS and (g.get("symbol") or "lines" in g):
            fail(where, "docs/examples gold is a page, file or folder without symbol or lines")
        if cat == "docs" and not path.startswith("docs/"):
            fail(where, "docs gold must be a page under docs/")
        if cat == "examples" and not path.startswith(("docs/", "examples/")):
            fail(where, "examples gold must lie under examples/ or be a docs page")
        if path.startswith("docs/") and not path.endswith(".rst"):
            fail(where, "docs gold must be an .rst page")
        if g.get("symbol") and not path.startswith(PKG + "/"):
            fail(where, "symbol gold must lie under", PKG)

    check_overlaps(q)
    if cat in STRUCTURAL:
        check_structural(root, q)
    if cat == "error":
        check_error(root, q)
    check_fragments(root, q)
    if cat in PAGE_CATS:
        for g in q["gold"]:
            feats = PAGE_FEATURES.get((str(qid), g["path"]))
            if feats is None:
                fail(qid, "no features registered for", g["path"])
                continue
            page = os.path.join(root, g["path"])
            if os.path.exists(page):
                text = read_any(page)
                lack = [s for s in feats if s not in text]
                if lack:
                    fail(qid, g["path"], "lacks", lack)
    for rel, text in CLAIMS.get(str(qid), []):
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            fail(qid, "claim source missing:", rel)
        elif text not in read(full):
            fail(qid, rel, "lacks claimed statement", repr(text))
    return len(q["gold"])


def check_overlaps(q: dict[str, Any]) -> None:
    """Two gold items of one query in the same file must not overlap (one hit would match
    both by the line-overlap rule)."""
    items = [g for g in q["gold"] if g.get("lines")]
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            same = a["path"] == b["path"]
            if same and a["lines"][0] <= b["lines"][1] and b["lines"][0] <= a["lines"][1]:
                fail(q["id"], "gold spans overlap:", target_of(a), target_of(b))


def check_structural(root: str, q: dict[str, Any]) -> None:
    qid = q["id"]
    filters = q.get("filters") or {}
    if len(filters) != 1:
        fail(qid, "filters must hold exactly one key")
        return
    ((kind, name),) = filters.items()
    if kind != q["category"]:
        fail(qid, "filter kind", kind, "!= category")
    if q.get("gold_complete") is not True:
        fail(qid, "gold_complete must be true")
    a, t = structural_sets(root, kind, name)
    if not a:
        fail(qid, "pattern", kind, name, "matches nothing")
    if not 3 <= len(a) <= 12:
        fail(qid, "pattern", kind, name, "has", len(a), "callers; expected 3-12")
    if set(a) != set(t):
        fail(qid, "ast vs text scan disagree:", sorted(set(a) ^ set(t)))
    gold = {g["symbol"]: g for g in q["gold"]}
    if set(gold) != set(a):
        fail(
            qid,
            "gold != recomputed set; missing",
            sorted(set(a) - set(gold)),
            "extra",
            sorted(set(gold) - set(a)),
        )
    for s in set(gold) & set(a):
        if gold[s]["path"] != a[s][0] or list(gold[s]["lines"]) != a[s][2]:
            fail(qid, s, "path/lines", gold[s]["path"], gold[s]["lines"], "!=", a[s][0], a[s][2])
    others = other_occurrences(root, kind, name)
    if others:
        print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others}")
    else:
        print(f"  note: {qid} pattern {kind}={name}: {len(a)} functions, none outside src/")


def check_fragments(root: str, q: dict[str, Any]) -> None:
    qid = str(q["id"])
    for frag, targets in FRAGMENTS.get(qid, []):
        for tgt in targets:
            gs = [g for g in q["gold"] if target_of(g) == tgt]
            if not gs:
                fail(qid, "fragment target is not gold:", tgt)
                continue
            for g in gs:
                here = "lines" in g and os.path.isfile(os.path.join(root, g["path"]))
                if here and frag not in span_text(root, g):
                    fail(qid, repr(frag), "not inside", tgt, g["lines"])


def check_error(root: str, q: dict[str, Any]) -> None:
    qid = str(q["id"])
    if qid not in FRAGMENTS:
        fail(qid, "no code fragment registered for this error query")
    covered = {t for _, targets in FRAGMENTS.get(qid, []) for t in targets}
    for g in q["gold"]:
        if g.get("lines") and target_of(g) not in covered:
            fail(qid, "error code gold without a registered fragment:", target_of(g))
    pages = [g for g in q["gold"] if not g.get("lines")]
    if not pages:
        fail(qid, "error query has no doc page gold")
    for g in pages:
        if not str(g["path"]).startswith("docs/"):
            fail(qid, "error page gold must be a docs page:", g["path"])
        kws = ERROR_DOC_KEYWORDS.get((qid, g["path"]))
        page = os.path.join(root, g["path"])
        if kws is None:
            fail(qid, "no keyword registered for doc", g["path"])
        elif os.path.isfile(page):
            lack = [kw for kw in kws if kw not in read(page)]
            if lack:
                fail(qid, g["path"], "lacks", lack)


def corpus_notes(root: str) -> None:
    """Informational: literalinclude / include targets the sdist does not ship."""
    missing: list[str] = []
    for dp, dn, fn in os.walk(os.path.join(root, "docs")):
        dn.sort()
        for f in sorted(fn):
            if not f.endswith(".rst"):
                continue
            full = os.path.join(dp, f)
            for m in re.finditer(r"^\.\. (?:literalinclude|include):: (\S+)", read(full), re.M):
                target = os.path.normpath(os.path.join(dp, m.group(1)))
                if not os.path.exists(target):
                    missing.append(f"{os.path.relpath(full, root)} -> {m.group(1)}")
    if missing:
        print(f"  note: {len(missing)} include targets absent from the sdist:")
        for m_ in missing:
            print("    " + m_)
    else:
        print("  note: every literalinclude/include target in docs/ exists in the sdist")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--target", help="folder written by get_flask_corpus.sh (root TARGET/flask)")
    ap.add_argument("--root", action="append", default=[], help="flask=PATH")
    ap.add_argument("--file", default=os.path.join(HERE, "flask_dev.jsonl"))
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
        sys.exit(f"missing corpus root for {REPO!r} (use --target DIR or --root flask=PATH)")

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
    cats = collections.Counter(q.get("category") for q in queries)
    if dict(cats) != CATS:
        fail("category counts", dict(cats), "!= expected", CATS)
    for reg in (FRAGMENTS, CLAIMS):
        for qid in reg:
            if qid not in ids:
                fail("registered id", qid, "is not in the file")
    for qid, path in list(ERROR_DOC_KEYWORDS) + list(PAGE_FEATURES):
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
            "gold symbols defined more than once (the last definition is the gold span):",
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
