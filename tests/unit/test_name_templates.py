"""Names built by convention: template keys from code, the keys a query name could
match, and the retriever finding the code that looks a user's method up."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import SearchRequest
from ctxhub.core.name_templates import keys_for_name, template_keys
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.name_templates import function_templates
from ctxhub.search.retriever import TEMPLATE_SCORE, Retriever
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import make_chunk

DISPATCH = """
def dispatch_key(pump, key):
    name = f"key_{key}"
    log(f"Invalid key {key!r}")          # a message, not a name
    label = f"{pump.name}_changed"
    return getattr(pump, name, None) or getattr(pump, f"_key_{key}", None)
"""


def test_template_keys_need_a_placeholder_identifier_text_and_a_real_affix() -> None:
    assert template_keys(["key_", None]) == ["key_*"]
    assert template_keys(["on_", None, "_", None]) == ["on_*"]
    assert template_keys([None, "_changed"]) == ["*_changed"]
    assert template_keys(["key_"]) == []  # no placeholder: a plain string
    assert template_keys(["Invalid key ", None]) == []  # a message
    assert template_keys(["x_", None]) == [] and template_keys([None, "_a"]) == []


def test_a_function_records_the_names_it_builds() -> None:
    (node,) = ast.parse(DISPATCH).body
    assert isinstance(node, ast.FunctionDef)
    assert function_templates(node) == ["key_*", "*_changed", "_key_*"]


def test_a_query_name_becomes_every_key_it_could_be_built_from() -> None:
    keys = keys_for_name("on_color_button_selected")
    assert {"on_*", "on_color_*", "*_selected", "*_button_selected"} <= set(keys)
    assert keys_for_name("widget.key_space") == ["key_*", "*_space"]
    assert keys_for_name("_key_space") == ["_key_*", "*_space"]
    assert keys_for_name("render") == []


def test_the_code_that_looks_up_a_users_method_is_found_by_its_name(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    keys = make_chunk(
        "fw",
        "fw/keys.py",
        "fw.keys.dispatch_key",
        DISPATCH,
        chunk_type="function",
        extra={"name_templates": ["key_*", "*_changed", "_key_*"]},
    )
    bind = make_chunk(
        "fw", "fw/keys.py", "fw.keys.Bindings.bind", "def bind(self, keys): ...", ordinal=1
    )
    store.replace_file("fw", "fw/keys.py", [keys, bind])
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 100)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    retriever = Retriever(store, embedder)
    query = "how does fw find my key_space method and what if it returns False?"
    ranking = retriever.rank(SearchRequest(query=query, kinds=["api"]))
    first = ranking.candidates[0]
    assert first.chunk.symbol == "fw.keys.dispatch_key"
    assert first.signals["symbol"].score == TEMPLATE_SCORE  # found by the shape it builds
    # a name no code builds finds nothing by shape
    other = retriever.rank(SearchRequest(query="where is zap_space used", kinds=["api"]))
    assert all("symbol" not in c.signals for c in other.candidates)
