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

import contextlib
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gold_ast import read, whole_statements
from gold_checks import GoldSet, check_keywords, check_statements, fail, note_includes, other_files

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


def target_of(g: dict[str, Any]) -> str:
    """Name of a gold item in FRAGMENTS: its symbol, or path#Ls-e for a symbol-less span."""
    if g.get("symbol"):
        return str(g["symbol"])
    if g.get("lines"):
        s, e = g["lines"]
        return f"{g['path']}#L{s}-{e}"
    return str(g.get("path"))


class FlaskGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "flask_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    id_registries = (FRAGMENTS, CLAIMS)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES)
    symbol_dir = PKG + "/"
    symbol_where = "src/flask/*.py"
    root_dir = PKG
    null_for = "pages, files and folders"
    id_prefix = "fl"
    id_form = "fl-NNN"
    complete_rule = "only"
    overload = ""

    def label(self, g: dict[str, Any]) -> object:
        return target_of(g)

    def check_path(self, rel: str, full: str, where: str) -> bool:
        if rel.endswith("/"):
            fail(where, "folder paths are written without a trailing slash", rel)
        return super().check_path(rel, full, where)

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" not in g:
            return
        # symbol-less span: must be exactly one or more whole top-level statements
        if not rel.endswith(".py") or not os.path.isfile(full):
            fail(where, "symbol-less lines only on Python files")
            return
        lines = g["lines"]
        if not (isinstance(lines, list) and len(lines) == 2 and lines[0] <= lines[1]):
            fail(where, "bad lines", lines)
        elif not whole_statements(full, lines):
            fail(where, "symbol-less lines", lines, "do not bound top-level statements")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        path = str(g.get("path", ""))
        if not g.get("symbol") and "lines" in g and cat != "error":
            fail(where, "symbol-less lines are only used for error queries")
        if cat in self.page_cats and (g.get("symbol") or "lines" in g):
            fail(where, "docs/examples gold is a page, file or folder without symbol or lines")
        if cat == "docs" and not path.startswith("docs/"):
            fail(where, "docs gold must be a page under docs/")
        if cat == "examples" and not path.startswith(("docs/", "examples/")):
            fail(where, "examples gold must lie under examples/ or be a docs page")
        if path.startswith("docs/") and not path.endswith(".rst"):
            fail(where, "docs gold must be an .rst page")
        if g.get("symbol") and not path.startswith(PKG + "/"):
            fail(where, "symbol gold must lie under", PKG)

    def other_occurrences(self, kind: str, name: str) -> list[str]:
        """Files outside src/ (tests, docs, examples) whose text contains the pattern."""
        return other_files(self.root, kind, name, (), ("src", ".downloads", ".state"))

    def check_error(self, q: dict[str, Any]) -> None:
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
            check_keywords(self.root, qid, g, ERROR_DOC_KEYWORDS)

    def page_text(self, page: str) -> str | None:
        return read_any(page) if os.path.exists(page) else None

    def check_claims(self, q: dict[str, Any]) -> None:
        check_statements(
            self.root, str(q["id"]), CLAIMS, "claim source missing:", "lacks claimed statement"
        )

    def corpus_notes(self) -> None:
        if not note_includes(self.root, "(?:literalinclude|include)", "include"):
            print("  note: every literalinclude/include target in docs/ exists in the sdist")


if __name__ == "__main__":
    FlaskGold().main(__doc__)
