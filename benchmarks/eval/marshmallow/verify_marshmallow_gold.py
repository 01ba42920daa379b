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
SOURCE_CATS = ("symbol", "api", "calls", "yields")
PAGE_CATS = ("docs", "examples")
STRUCTURAL = ("calls", "yields")
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


def check_item(root: str, g: dict[str, Any], where: str) -> None:
    if g.get("repo") != REPO:
        fail(where, "unknown repo", g.get("repo"))
        return
    rel = g.get("path")
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
        fail(where, "bad path", rel)
        return
    full = os.path.join(root, rel)
    if not os.path.exists(full):
        fail(where, "path missing:", rel)
        return
    if "symbol" not in g:
        fail(where, "missing field symbol (use null for pages)")
    if g.get("symbol"):
        if not rel.endswith(".py") or not rel.startswith("src/"):
            fail(where, "symbol gold outside src/*.py", rel)
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
        body = tree(full).body
        starts = {span(n)[0] for n in body}
        ends = {n.end_lineno for n in body}
        s, e = g["lines"]
        if s not in starts or e not in ends:
            fail(where, "symbol-less lines", g["lines"], "do not bound top-level statements")


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
    """Files outside src/ (tests, docs) whose text contains the pattern (informational)."""
    pat = pattern(kind, name)
    out = []
    for dp, dn, fn in os.walk(root):
        dn[:] = sorted(d for d in dn if d not in ("__pycache__", "src"))
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
    if not re.fullmatch(r"mm-\d{3}", str(qid)):
        fail(qid, "id must look like mm-NNN")
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
        if cat in SOURCE_CATS and not g.get("symbol"):
            fail(where, "source categories need symbol gold")
        if cat in PAGE_CATS and (
            g.get("symbol") or not str(g.get("path", "")).startswith(("docs/", "examples/"))
        ):
            fail(where, "docs/examples gold must be a page under docs/ or examples/")
        if str(g.get("path", "")).startswith("docs/") and not str(g["path"]).endswith(".rst"):
            fail(where, "docs gold must be an .rst page")
        if g.get("symbol") and not str(g.get("path", "")).startswith(PKG + "/"):
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
            if os.path.isfile(page):
                lack = [s for s in feats if s not in read(page)]
                if lack:
                    fail(qid, g["path"], "lacks", lack)
    for rel, text in DEPRECATIONS.get(str(qid), []):
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            fail(qid, "deprecation source missing:", rel)
        elif text not in read(full):
            fail(qid, rel, "lacks deprecation statement", repr(text))
    return len(q["gold"])


def check_overlaps(q: dict[str, Any]) -> None:
    """Two gold items of one query in the same file must not overlap (one hit would match
    both by the line-overlap rule)."""
    items = [g for g in q["gold"] if g.get("lines")]
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            same = a["path"] == b["path"]
            if same and a["lines"][0] <= b["lines"][1] and b["lines"][0] <= a["lines"][1]:
                fail(q["id"], "gold spans overlap:", a.get("symbol"), b.get("symbol"))


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
            gs = [g for g in q["gold"] if g.get("symbol") == tgt]
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
        if g.get("symbol") and g["symbol"] not in covered:
            fail(qid, "error gold without a registered fragment:", g["symbol"])
    if not any(not g.get("symbol") for g in q["gold"]):
        fail(qid, "error query has no doc page gold")
    for rel, text in MESSAGE_TEXT.get(qid, []):
        full = os.path.join(root, rel)
        if not os.path.isfile(full) or text not in read(full):
            fail(qid, rel, "lacks message text", repr(text))
    for g in q["gold"]:
        if g.get("symbol"):
            continue
        kws = ERROR_DOC_KEYWORDS.get((qid, g["path"]))
        page = os.path.join(root, g["path"])
        if kws is None:
            fail(qid, "no keyword registered for doc", g["path"])
        elif os.path.isfile(page):
            lack = [kw for kw in kws if kw not in read(page)]
            if lack:
                fail(qid, g["path"], "lacks", lack)


def corpus_notes(root: str) -> None:
    """Informational: literalinclude targets the sdist does not ship."""
    missing: list[str] = []
    for dp, dn, fn in os.walk(os.path.join(root, "docs")):
        dn.sort()
        for f in sorted(fn):
            if not f.endswith(".rst"):
                continue
            full = os.path.join(dp, f)
            for m in re.finditer(r"^\.\. literalinclude:: (\S+)", read(full), re.M):
                target = os.path.normpath(os.path.join(dp, m.group(1)))
                if not os.path.exists(target):
                    missing.append(f"{os.path.relpath(full, root)} -> {m.group(1)}")
    if missing:
        print(f"  note: {len(missing)} literalinclude targets absent from the sdist:")
        for m_ in missing:
            print("    " + m_)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--target", help="folder written by get_marshmallow_corpus.sh (root TARGET/marshmallow)"
    )
    ap.add_argument("--root", action="append", default=[], help="marshmallow=PATH")
    ap.add_argument("--file", default=os.path.join(HERE, "marshmallow_dev.jsonl"))
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
        sys.exit(f"missing corpus root for {REPO!r} (use --target DIR or --root marshmallow=PATH)")

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
    for reg in (FRAGMENTS, MESSAGE_TEXT, DEPRECATIONS):
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
