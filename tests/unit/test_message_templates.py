"""Message templates: the literal parts of what code formats, and a pasted message that
fills one in finding the code, where word n-grams cross its placeholders."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import SearchRequest
from ctxhub.core.message_templates import matched_words, ngrams, normalized, segments
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.messages import emitted_templates, template_parts
from ctxhub.search.analyzer import analyze
from ctxhub.search.retriever import Retriever
from ctxhub.store.sqlite.store import SQLiteStore

EXTRACTORS = '''
import logging

log = logging.getLogger(__name__)


def query_extractor(param, path, values):
    """Read one query parameter; raise when a required one is absent."""
    if param.name not in values:
        raise ValidationException(
            f"Missing required {param.kind} parameter {param.alias!r} for path {path}"
        )
    handler = f"on_{param.name}"  # a name it builds, not a message
    log.info("Loaded %s query parameters from %(source)s", len(values))
    return values[param.name]


def header_extractor(param, values):
    if param.name not in values:
        raise ValidationException("Missing header %s on the request" % param.name)
    return values[param.name]


def body_extractor(request):
    data = request.body
    if not data:
        raise ValidationException("Request body is empty")
    return data
'''


def test_text_is_normalised_to_lowercase_words() -> None:
    assert normalized("Missing required 'db' -- for path /x!") == "missing required db for path x"


def test_segments_need_two_words_that_are_not_filler() -> None:
    parts = ["Missing required ", " parameter ", " for path ", ""]
    assert segments(parts) == ["missing required"]  # " for path " is one telling word
    assert segments(["Not a valid ", "."]) == ["not a valid"]
    assert segments(["Invalid ", ""]) == []
    long = "is not installed but required. You can install it by running pip"
    assert segments([long]) == ["is not installed but required you can install"]  # 8 words


def test_query_ngrams_cover_every_segment_a_message_could_hold() -> None:
    grams = ngrams("Missing required query parameter 'db' for path /x")
    assert "missing required" in grams
    assert "missing required query parameter" in grams
    assert "for path" not in grams  # one telling word


def test_a_template_matches_when_every_part_occurs_in_order() -> None:
    parts = ["Missing required ", " parameter ", " for path ", ""]
    message = normalized("Missing required query parameter 'db' for path /x")
    assert matched_words(parts, message) == 5
    assert matched_words(parts, normalized("for path /x: missing required parameter")) == 0
    assert matched_words(["Missing required ", " header ", ""], message) == 0
    assert matched_words(["Missing req", ""], message) == 0  # whole words only


def test_a_function_records_the_templates_it_formats() -> None:
    tree = ast.parse(EXTRACTORS)
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    query = emitted_templates(funcs["query_extractor"])
    assert ["Missing required ", "", " parameter ", "", " for path ", ""] in query
    # the docstring is no message; `f"on_{...}"` builds a name; printf placeholders split
    assert all("Read one query" not in "".join(t) for t in query)
    assert all(t[0] != "on_" for t in query)
    assert ["Loaded ", " query parameters from ", ""] in query
    # a template of no two telling words in a row is no use to look up
    assert emitted_templates(ast.parse('def f(n):\n    log(f"Loaded {n} items")').body[0]) == []
    assert emitted_templates(funcs["header_extractor"]) == [["Missing header ", " on the request"]]
    # texts from a message table are templates too; `{name}` is a placeholder
    assert emitted_templates(funcs["body_extractor"], ["Not a valid {obj_type}."]) == [
        ["Request body is empty"],
        ["Not a valid ", "."],
    ]
    assert template_parts("Value %(name)r is %.2f or {0!r}") == ["Value ", " is ", " or ", ""]


def test_a_pasted_message_finds_the_code_that_formats_it(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    ex = extract_python_file(
        "fw", "fw/extract.py", EXTRACTORS, version=None, internal_packages={"fw"}
    )
    store.replace_file("fw", "fw/extract.py", ex.chunks)
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 100)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    retriever = Retriever(store, embedder)

    query = (
        'every call returns 400 {"detail":"Missing required query parameter \'db\' for path /x"}'
    )
    analysis = analyze(query)
    assert analysis.weights["template"] > 0 and analysis.messages
    ranking = retriever.rank(SearchRequest(query=query, kinds=["api"]))
    top = ranking.candidates[0]
    assert top.chunk.symbol == "fw.extract.query_extractor"
    assert top.signals["template"].score == 5  # literal words of the template it filled
    # "Missing header" shares "missing" only: the template path does not list it
    assert all(
        "template" not in c.signals
        for c in ranking.candidates
        if c.chunk.symbol == "fw.extract.header_extractor"
    )
    # a message no template fills finds nothing by template
    other = retriever.rank(
        SearchRequest(query="Error: connection reset by peer while reading", kinds=["api"])
    )
    assert all("template" not in c.signals for c in other.candidates)
