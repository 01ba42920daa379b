#!/usr/bin/env python3
"""Re-verify marshmallow_dev.jsonl against the marshmallow 4.4.0 corpus root.

    verify_marshmallow_gold.py --target DIR              # root DIR/marshmallow
    verify_marshmallow_gold.py --root marshmallow=PATH   # root given directly

Checks: schema (fields, ids, categories and their counts, repo name); every gold path
exists; every symbol is re-derived with ast and its span [first decorator line or def
line, end_lineno] equals `lines` (the last definition of a name wins, as at import time,
so for @typing.overload stubs the gold is the implementation); calls gold equals the
complete set recomputed with ast AND with an independent text scan of each function's own
lines; registered code fragments (error message text, the lines a note relies on) lie
inside the gold spans; error message text that lives outside any function is found in its
file; error doc pages contain registered keywords; docs and examples pages contain the
features their query asks for; deprecation statements cited by notes exist in the corpus.
Prints counts per category, informational notes and three sample lines. Exit status 1 on
any failure.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gold_checks import GoldSet
from gold_text import check_keywords, check_texts, fail, note_includes

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "marshmallow"
PKG = "src/marshmallow"
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 11,
    "docs": 8,
    "examples": 3,
    "error": 5,
    "calls": 2,
}
MM = "marshmallow."

# code fragments that must appear inside the gold spans of the listed symbols; required
# for every error query (the raising / message-formatting code), optional elsewhere (the
# lines a note relies on)
FRAGMENTS: dict[str, list[tuple[str, list[str]]]] = {
    "mm-006": [
        (
            "if not errors and postprocess and self._hooks[POST_LOAD]:",
            [MM + "schema.Schema._do_load"],
        ),
        ("set_hook(fn, POST_LOAD,", [MM + "decorators.post_load"]),
    ],
    "mm-007": [
        (
            "error_store.store_error(err.messages, data_key, index=index)",
            [MM + "schema.Schema._run_validator"],
        ),
        ("skip_on_field_errors: bool = True", [MM + "decorators.validates_schema"]),
    ],
    "mm-008": [
        (
            "key = field_obj.data_key if field_obj.data_key is not None else attr_name",
            [MM + "schema.Schema._serialize"],
        ),
        ("raw_value = data.get(field_name, missing)", [MM + "schema.Schema._deserialize"]),
    ],
    "mm-009": [
        ('prefix = attr_name + "."', [MM + "schema.Schema._deserialize"]),
        (
            "self.schema.load(value, unknown=self.unknown, partial=partial)",
            [MM + "fields.Nested._load"],
        ),
    ],
    "mm-010": [
        (
            'self.__apply_nested_option("exclude", self.exclude, "union")',
            [MM + "schema.Schema._normalize_nested_options"],
        ),
        (
            "setattr(self.declared_fields[key], option_name, new_options)",
            [MM + "schema.Schema.__apply_nested_option"],
        ),
        (
            "self._schema.exclude = set_class(self.exclude) | set_class(original)",
            [MM + "fields.Nested.schema"],
        ),
    ],
    "mm-011": [
        ("return _miss() if callable(_miss) else _miss", [MM + "fields.Field.deserialize"]),
        ("value = default() if callable(default) else default", [MM + "fields.Field.serialize"]),
    ],
    "mm-012": [
        ('for k in key.split("."):', [MM + "utils.get_value"]),
        ("return getattr(obj, key, default)", [MM + "utils._get_value_for_key"]),
        (
            "check_key = attr if self.attribute is None else self.attribute",
            [MM + "fields.Field.get_value"],
        ),
    ],
    "mm-013": [
        (
            "self.errors = merge_errors(self.errors, messages)",
            [MM + "error_store.ErrorStore.store_error"],
        ),
        ("errors1.extend(errors2)", [MM + "error_store.merge_errors"]),
    ],
    "mm-014": [
        (
            "getattr(self.root.opts, self.SCHEMA_OPTS_VAR_NAME)",
            [MM + "fields._TemporalField._bind_to_schema"],
        ),
        (
            "format_func = self.SERIALIZATION_FUNCS.get(data_format)",
            [MM + "fields._TemporalField._serialize"],
        ),
        (
            "func = self.DESERIALIZATION_FUNCS.get(data_format)",
            [MM + "fields._TemporalField._deserialize"],
        ),
    ],
    "mm-015": [("_CURRENT_CONTEXT.set(self.context)", [MM + "experimental.context.Context"])],
    "mm-016": [
        ("self._validate_all(value)", [MM + "fields.Field._validate"]),
        ("return And(*self.validators)", [MM + "fields.Field._validate_all"]),
        ("except ValidationError as err:", [MM + "validate.And.__call__"]),
    ],
    "mm-028": [
        ("elif unknown == RAISE:", [MM + "schema.Schema._deserialize"]),
        ('[self.error_messages["unknown"]],', [MM + "schema.Schema._deserialize"]),
        ("raise exc", [MM + "schema.Schema._do_load"]),
    ],
    "mm-029": [
        ("if not isinstance(data, Mapping):", [MM + "schema.Schema._deserialize"]),
        (
            'error_store.store_error([self.error_messages["type"]], index=index)',
            [MM + "schema.Schema._deserialize"],
        ),
        ("raise ValidationError(", [MM + "fields.Nested._load"]),
    ],
    "mm-030": [
        (
            "Class with name {classname!r} was not found. You may need ",
            [MM + "class_registry.get_class"],
        ),
        ('"to import the class."', [MM + "class_registry.get_class"]),
        ("class_registry.get_class(nested, all=False)", [MM + "fields.Nested.schema"]),
    ],
    "mm-031": [
        (
            '"The data_key argument for one or more fields collides "',
            [MM + "schema.Schema._init_fields"],
        ),
        (
            'f"data_key arguments: {list(data_keys_duplicates)}"',
            [MM + "schema.Schema._init_fields"],
        ),
    ],
    "mm-032": [
        (
            'f"ValidationError raised by `{class_name}`, but error key `{key}` does "',
            [MM + "fields.Field.make_error"],
        ),
        ('"not exist in the `error_messages` dictionary."', [MM + "fields.Field.make_error"]),
    ],
}
# error message text that lives outside every function (class-level message dicts):
# (query id) -> [(path, text)] that must occur in the file
MESSAGE_TEXT: dict[str, list[tuple[str, str]]] = {
    "mm-028": [("src/marshmallow/schema.py", '"unknown": "Unknown field.",')],
    "mm-029": [("src/marshmallow/schema.py", '"type": "Invalid input type.",')],
}
# doc pages of error queries: keywords the page must contain
ERROR_DOC_KEYWORDS: dict[tuple[str, str], list[str]] = {
    ("mm-028", "docs/quickstart.rst"): ["Handling unknown fields", "exclude unknown fields"],
    ("mm-029", "docs/nesting.rst"): ["fields.List(fields.Nested(UserSchema))"],
    ("mm-030", "docs/nesting.rst"): [
        'fields.Nested("AuthorSchema", only=("id", "title"))',
        "module-qualified path",
    ],
    ("mm-031", "docs/quickstart.rst"): ['email = fields.Email(data_key="emailAddress")'],
    ("mm-032", "docs/custom_fields.rst"): [
        'default_error_messages = {"invalid": "Please provide a valid date."}'
    ],
    ("mm-032", "docs/extending/custom_error_messages.rst"): [
        'fields.Field.default_error_messages["required"]'
    ],
}
# docs / examples gold: (query id, path) -> strings that must all occur in the page
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("mm-017", "docs/quickstart.rst"): [
        "password = fields.Str(load_only=True)",
        "created_at = fields.DateTime(dump_only=True)",
    ],
    ("mm-018", "docs/extending/custom_error_messages.rst"): [
        'fields.Field.default_error_messages["required"] = "You missed something!"',
    ],
    ("mm-018", "docs/quickstart.rst"): [
        'error_messages={"required": "Age is required."}',
        "Missing data for required field.",
    ],
    ("mm-018", "docs/custom_fields.rst"): [
        "class MyDate(fields.Date):",
        'error_messages={"required": "Please provide a name."}',
    ],
    ("mm-019", "docs/extending/custom_options.rst"): [
        "class NamespaceOpts(SchemaOpts):",
        'self.name = getattr(meta, "name", None)',
        "OPTIONS_CLASS = NamespaceOpts",
    ],
    ("mm-020", "docs/extending/custom_error_handling.rst"): [
        "def handle_error(self, exc, data, **kwargs):",
        "raise AppError(",
    ],
    ("mm-021", "docs/extending/pre_and_post_processing.rst"): [
        "Pre-/post-processor invocation order",
        "Field-level ``pre_load`` callables",
        "``@validates_schema`` methods (schema validators)",
        "``@post_load(pass_many=True)`` methods",
    ],
    ("mm-022", "docs/extending/using_original_input_data.rst"): [
        "@post_load(pass_original=True)",
        "def add_baz_to_bar(self, data, original_data, **kwargs):",
    ],
    ("mm-023", "docs/upgrading.rst"): [
        "``load_default`` and ``dump_default``",
        'name = fields.Str(missing="Monty")',
        'name = fields.Str(load_default="Monty")',
        "age = fields.Int(dump_default=42)",
    ],
    ("mm-023", "docs/quickstart.rst"): [
        "Specifying defaults",
        "fields.UUID(load_default=uuid.uuid1)",
        "dump_default=dt.datetime(2017, 9, 29)",
    ],
    ("mm-024", "docs/upgrading.rst"): [
        "``pass_many`` is renamed to ``pass_collection`` in decorators",
        "@post_dump(pass_collection=True)",
    ],
    ("mm-025", "docs/extending/pre_and_post_processing.rst"): [
        "Example: Enveloping",
        "def unwrap_envelope(self, data, many, **kwargs):",
        "def wrap_with_envelope(self, data, many, **kwargs):",
        "return {key: data}",
        "user_schema.load(users_data, many=True)",
    ],
    ("mm-025", "docs/extending/custom_options.rst"): [
        "Example: Enveloping, revisited",
        'plural_name = "users"',
        "return {key: data}",
    ],
    ("mm-026", "docs/nesting.rst"): [
        "Nesting a schema within itself",
        'employer = fields.Nested(lambda: UserSchema(exclude=("employer", "friends")))',
        'user.employer = User("Dirk", "dirk@example.com")',
    ],
    ("mm-027", "docs/custom_fields.rst"): [
        "class PinCode(fields.Field[list[int]]):",
        'return "".join(str(d) for d in value)',
        'raise ValidationError("Pin codes must contain only digits.") from error',
    ],
    ("mm-027", "docs/upgrading.rst"): [
        "class PinCode(fields.Field[list[int]]):",
        'return "".join(str(d) for d in value)',
        'raise ValidationError("Pin codes must contain only digits.") from error',
    ],
}
# deprecation / removal queries: statements (path, text) the note relies on; the path need
# not be gold (api gold is code only)
DEPRECATIONS: dict[str, list[tuple[str, str]]] = {
    "mm-015": [
        (
            "docs/upgrading.rst",
            "Passing context to `Schema <marshmallow.schema.Schema>` classes is removed.",
        ),
        ("CHANGELOG.rst", "``context`` attribute (deprecated since 3.24.0)"),
        ("src/marshmallow/schema.py", "Remove ``context`` parameter."),
    ],
    "mm-016": [
        (
            "docs/upgrading.rst",
            "Returning `False` from a validator is deprecated and will be removed in marshmallow",
        ),
        ("CHANGELOG.rst", "Returning `False` is no longer supported"),
    ],
    "mm-023": [
        (
            "CHANGELOG.rst",
            "which were replaced by `dump_default` and `load_default` in 3.13.0",
        ),
        (
            "src/marshmallow/fields.py",
            "Replace ``missing`` and ``default`` parameters with ``load_default`` and",
        ),
    ],
    "mm-024": [
        ("src/marshmallow/decorators.py", "``pass_many`` is renamed to ``pass_collection``."),
        ("CHANGELOG.rst", "Rename ``pass_many`` parameter to ``pass_collection``"),
    ],
}


class MarshmallowGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "marshmallow_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    deprecations = DEPRECATIONS
    id_registries = (FRAGMENTS, MESSAGE_TEXT, DEPRECATIONS)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES)
    root_dir = PKG
    id_prefix = "mm"
    id_form = "mm-NNN"
    complete_rule = "only"

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        super().check_gold(q, cat, g, where)
        if g.get("symbol") and not str(g.get("path", "")).startswith(PKG + "/"):
            fail(where, "symbol gold must lie under", PKG)

    def check_error(self, q: dict[str, Any]) -> None:
        qid = str(q["id"])
        self.check_coverage(q)
        if not any(not g.get("symbol") for g in q["gold"]):
            fail(qid, "error query has no doc page gold")
        check_texts(self.root, qid, MESSAGE_TEXT, "message text")
        for g in q["gold"]:
            if not g.get("symbol"):
                check_keywords(self.root, qid, g, ERROR_DOC_KEYWORDS)

    def corpus_notes(self) -> None:
        note_includes(self.root, "literalinclude", "literalinclude")


if __name__ == "__main__":
    MarshmallowGold().main(__doc__)
