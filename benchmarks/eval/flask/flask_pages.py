"""The Flask set's text registries: the keywords and features gold pages hold, and the
statements notes rely on (verify_flask_gold.py checks them)."""

from __future__ import annotations

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
