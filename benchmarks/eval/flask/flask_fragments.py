"""The Flask set's code registry: the fragments that must lie inside gold spans
(verify_flask_gold.py checks them)."""

from __future__ import annotations

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
