"""Message templates: the literal parts of what code formats, and a pasted message that
fills one in finding the code, where word n-grams cross its placeholders."""

from __future__ import annotations

import ast

from ctxhub.core.knowledge import SearchRequest
from ctxhub.core.limits import MAX_QUERY
from ctxhub.core.message_templates import (
    matched_words,
    ngrams,
    normalized,
    segment_key,
    segments,
)
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.messages import (
    MAX_PARTS,
    MAX_TEMPLATE_LENGTH,
    MAX_TEMPLATES,
    emitted_templates,
    template_parts,
)
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


def unpack_pair(values):
    if len(values) not in (2, 3):
        raise ValueError(f"Expected 2 or 3 values, got {len(values)}")
    return values


def body_extractor(request):
    data = request.body
    if not data:
        raise ValidationException("Request body is empty")
    return data
'''


def test_text_is_normalised_to_lowercase_words() -> None:
    assert normalized("Missing required 'db' -- for path /x!") == "missing required db for path x"


def test_a_part_is_looked_up_by_its_first_run_of_three_words_that_says_enough() -> None:
    parts = ["Missing required ", "", " parameter ", "", " for path ", ""]
    assert segments(parts) == ["missing required"]  # " for path ": one telling word
    assert segments(["Not a valid ", "."]) == ["not a valid"]
    assert segments(["Invalid value"]) == ["invalid value"]  # two telling words do
    assert segments(["Invalid ", ""]) == []
    assert segment_key("is not installed but required. You can install it") == ("is not installed")
    assert segment_key("for the given path") == "the given path"  # the first telling run
    assert segments(["Not a valid ", "", "Not a valid ", ""]) == ["not a valid"]  # once


def test_query_ngrams_are_the_two_and_three_word_runs_that_say_enough() -> None:
    grams = ngrams("Missing required query parameter 'db' for path /x")
    assert grams[:3] == ["missing required", "missing required query", "required query"]
    assert "for path" not in grams  # one telling word
    assert all(len(g.split()) in (2, 3) for g in grams)


def test_a_template_matches_when_every_part_occurs_in_order() -> None:
    parts = ["Missing required ", "", " parameter ", "", " for path ", ""]
    message = normalized("Missing required query parameter 'db' for path /x")
    assert matched_words(parts, message) == 5
    assert matched_words(parts, normalized("for path /x: missing required parameter")) == 0
    assert matched_words(["Missing required ", "", " header ", ""], message) == 0
    assert matched_words(["Missing req"], message) == 0  # whole words only
    # ... except where a part touches a placeholder with no space: `f"Invalid {x}s found"`
    found = normalized("Invalid values found")
    assert matched_words(["Invalid ", "", "s found"], found) == 3
    assert matched_words(template_parts("Invalid {}s found"), found) == 3
    assert matched_words(["Invalid ", "", "s found"], normalized("Invalid values foundry")) == 0
    assert matched_words(["Invalid ", "", " found"], normalized("Invalid values foundry")) == 0


def test_a_function_records_the_templates_it_formats() -> None:
    tree = ast.parse(EXTRACTORS)
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    # the docstring is no message; `f"on_{...}"` builds a name; printf placeholders split;
    # an f-string's pieces are its parts, not templates of their own
    assert emitted_templates(funcs["query_extractor"]) == [
        ["Loaded ", " query parameters from ", ""],
        ["Missing required ", "", " parameter ", "", " for path ", ""],
    ]
    # a template of no two telling words in a row is no use to look up
    assert emitted_templates(ast.parse('def f(n):\n    log(f"Loaded {n} items")').body[0]) == []
    assert emitted_templates(funcs["header_extractor"]) == [["Missing header ", " on the request"]]
    # texts from a message table are templates too; `{name}` is a placeholder
    assert emitted_templates(funcs["body_extractor"], ["Not a valid {obj_type}."]) == [
        ["Request body is empty"],
        ["Not a valid ", "."],
    ]
    assert template_parts("Value %(name)r is %.2f or {0!r}") == ["Value ", " is ", " or ", ""]
    assert template_parts("Error rate above 50% every minute") == [
        "Error rate above 50% every minute"  # "% e" is no placeholder
    ]


def _templates_of(body: str) -> list[list[str]]:
    return emitted_templates(ast.parse("def f(x, d):\n" + body).body[0])


def test_what_a_function_formats_but_does_not_emit_is_no_template() -> None:
    # a format spec, a bare string statement (an attribute's doc), a dict's keys
    assert _templates_of('    return f"{x:%Y-%m-%d %H:%M} done"') == []
    assert _templates_of('    y = 1\n    """The value we start from."""\n    return y') == []
    assert _templates_of('    return {"request body size": x}') == []
    # the dict's values are texts it emits
    assert _templates_of('    return {"k": "Request body is empty"}') == [["Request body is empty"]]
    # rich markup is styling, not words; a bracketed word in a plain text stays
    assert _templates_of('    log(f"[b]Could not load[/b] {x} [dim]twice[/]")') == [
        ["Could not load ", "", " twice"]
    ]
    assert _templates_of('    raise KeyError("Missing key [name] in mapping")') == [
        ["Missing key [name] in mapping"]
    ]


def test_long_texts_are_cut_at_a_word_and_a_function_keeps_sixteen_templates() -> None:
    long = "word " * 100  # 500 characters
    [parts] = _templates_of(f'    raise ValueError("Cannot parse {long}")')
    assert len(parts[0]) <= MAX_TEMPLATE_LENGTH and parts[0].endswith(" ")
    many = "".join(f'    log("Cannot load plugin number {i}")\n' for i in range(40))
    assert len(_templates_of(many)) == MAX_TEMPLATES
    placeholders = "{}" * 60
    [parts] = _templates_of(f'    raise ValueError("Cannot parse {placeholders}")')
    assert len(parts) == MAX_PARTS


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
    # a message of numbers has no fragment (digits break word runs) and is still read
    numeric = "ValueError: Expected 2 or 3 values, got 5"
    assert not analyze(numeric).fragments and analyze(numeric).weights["template"] > 0
    found = retriever.rank(SearchRequest(query=numeric, kinds=["api"]))
    assert found.candidates[0].chunk.symbol == "fw.extract.unpack_pair"
    assert found.candidates[0].signals["template"].score == 6
    # the message at the end of the longest paste a tool takes is looked up like a short
    # one (a cut at the first N n-grams lost it)
    log_lines = " ".join(f"s{i} ok" for i in range(400))[: MAX_QUERY - len(query) - 8]
    pasted = f"Error: {log_lines} {query}"
    assert len(pasted) <= MAX_QUERY and len(ngrams(pasted)) > 600
    long = retriever.rank(SearchRequest(query=pasted, kinds=["api"]))
    assert any(
        "template" in c.signals and c.chunk.symbol == "fw.extract.query_extractor"
        for c in long.candidates
    )
