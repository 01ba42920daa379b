"""Messages emitted by key: the tables, the texts each function uses, and a pasted
validation error finding the method that raises it."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.definitions import collect_definitions
from ctxhub.ingest.python.messages import MessageTables, tables_in
from ctxhub.search.analyzer import analyze
from ctxhub.search.retriever import Retriever
from ctxhub.store.sqlite.store import SQLiteStore

SCHEMA = """
from gettext import gettext as _

ERRORS = {"closed": "Store is closed."}


class Field:
    default_error_messages = {"required": "Missing data for required field."}
    options = {"strict": "yes please"}  # not a message table: the name says nothing

    def make_error(self, key):
        return ValueError(self.error_messages[key])

    def validate_missing(self, value):
        if value is None:
            raise self.make_error("required")
        return value


class Integer(Field):
    default_error_messages = {"invalid": _("Not a valid integer.")}

    def convert(self, value):
        try:
            return int(value)
        except ValueError:
            raise self.make_error("invalid") from None

    def require(self, value):
        if value is None:
            raise self.make_error("required")  # a key only its base's table has
        return value


class Schema:
    _default_error_messages = {"unknown": "Unknown field.", "type": "Invalid input type."}
    type_errors = {"unknown": "Unknown type name."}

    def _deserialize(self, data, errors):
        for key in data:
            if key not in self.fields:
                errors.append(self.error_messages["unknown"])
        return {k: v for k, v in data.items() if k in self.fields}

    def close(self):
        if self.closed:
            raise RuntimeError(ERRORS["closed"])
        self.closed = True

    def load(self, data):
        options = self.get("strict")  # a key of no message table of this class
        self.log("unknown")  # a key, but `log` is no method that raises by key
        return self._deserialize(data, [])

    def resolve(self, name):
        if name not in self.types:
            raise TypeError(self.TYPE_ERRORS["unknown"])  # the table this name says
        return self.types[name]
"""


def _tables() -> tuple[ast.Module, MessageTables]:
    tree = ast.parse(SCHEMA)
    return tree, MessageTables(tree, collect_definitions(tree))


def _function(tree: ast.Module, cls: str, name: str) -> ast.FunctionDef:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    raise AssertionError(f"{cls}.{name} not in the fixture")


def test_a_table_is_a_message_named_dict_of_texts() -> None:
    tree = ast.parse(SCHEMA)
    assert tables_in(tree.body) == {"ERRORS": {"closed": "Store is closed."}}
    field = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Field")
    # `options` maps keys to strings too, but its name does not say message or error
    assert list(tables_in(field.body)) == ["default_error_messages"]
    integer = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Integer")
    # a translated text is read through its `_()` call
    assert tables_in(integer.body) == {
        "default_error_messages": {"invalid": "Not a valid integer."}
    }


def test_a_function_emits_the_texts_of_the_keys_it_uses() -> None:
    tree, tables = _tables()
    emitted = {
        (cls, name): tables.emitted(_function(tree, cls, name), cls)
        for cls, name in [
            ("Schema", "_deserialize"),
            ("Schema", "close"),
            ("Schema", "load"),
            ("Field", "validate_missing"),
            ("Integer", "convert"),
            ("Integer", "require"),
            ("Schema", "resolve"),
        ]
    }
    assert emitted[("Schema", "_deserialize")] == ["Unknown field."]  # a subscript
    assert emitted[("Schema", "close")] == ["Store is closed."]  # the module's table
    assert emitted[("Schema", "load")] == []  # "strict" is in no message table
    assert emitted[("Field", "validate_missing")] == ["Missing data for required field."]
    # a subclass's own table first; its base's table is reached through the bases
    assert emitted[("Integer", "convert")] == ["Not a valid integer."]
    assert emitted[("Integer", "require")] == ["Missing data for required field."]
    # a subscript of a named table reads that table (its name in any case)
    assert emitted[("Schema", "resolve")] == ["Unknown type name."]
    assert tables.emitted(_function(tree, "Integer", "convert"), None) == []


def test_the_chunker_records_the_messages_on_the_emitting_method() -> None:
    ex = extract_python_file("fw", "fw/schema.py", SCHEMA, version=None, internal_packages={"fw"})
    by_symbol = {c.symbol: c for c in ex.chunks}
    assert by_symbol["fw.schema.Schema._deserialize"].metadata.extra["messages"] == [
        "Unknown field."
    ]
    assert "messages" not in by_symbol["fw.schema.Schema.load"].metadata.extra


def test_a_quoted_two_word_message_is_a_fragment() -> None:
    a = analyze("ValidationError: {'extra': ['Unknown field.']} — my client sends extra keys")
    assert "Unknown field" in a.fragments
    # quoted, capitalised: `unknown field.` or an unquoted "Unknown field" is prose
    lowercase = analyze("ValidationError: {'extra': ['unknown field.']}")
    assert "unknown field" not in lowercase.fragments
    assert "Unknown field" not in analyze("ValidationError: Unknown field, extra keys").fragments
    # two words of prose between punctuation are not a message
    assert not any(f.count(" ") == 1 for f in analyze("Error: it broke, sadly now").fragments)


def test_a_pasted_validation_error_finds_the_method_that_raises_it(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    ex = extract_python_file("fw", "fw/schema.py", SCHEMA, version=None, internal_packages={"fw"})
    store.replace_file("fw", "fw/schema.py", ex.chunks)
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 100)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    query = "ValidationError: {'extra': ['Unknown field.']} when the client sends more keys"
    ranking = Retriever(store, embedder).rank(SearchRequest(query=query, kinds=["api"]))
    found = {c.chunk.symbol: c for c in ranking.candidates}
    method = found["fw.schema.Schema._deserialize"]
    assert "phrase" in method.signals  # its text holds only the key; the message is linked
    assert method.boosts.get("literal", 1.0) > 1.0
    assert ranking.candidates.index(method) < 3
