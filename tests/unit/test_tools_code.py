"""Edge cases of the drill-down tool functions, on the test corpus indexed with the hashing
embedder (fast, in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.budget import estimate_tokens
from ctxhub.core.errors import InputError, NotFoundError
from ctxhub.core.knowledge import SearchResponse
from ctxhub.core.outputs import DocPage
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import (
    code_tools,
    deprecation_tools,
    docs_tools,
    example_tools,
    nearest,
    run,
    trace_tools,
)
from ctxhub.tools.fit import compact

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"


def received(answer: run.Answer) -> str:
    """The JSON-RPC response a client receives for `answer`, as it travels."""
    result = {
        "content": [{"type": "text", "text": answer.text}],
        "structuredContent": answer.data,
        "isError": False,
    }
    return '{"jsonrpc":"2.0","id":12345,"result":' + compact(result) + "}"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    home = tmp_path_factory.mktemp("tools-home")
    embedder = HashingEmbedder(dim=256)
    specs = [
        SourceSpec(name="chime", kind=["python"], path=str(CORPUS / "pkg")),
        SourceSpec(name="chime-docs", kind=["docs"], path=str(CORPUS / "docs")),
        SourceSpec(name="chime-examples", kind=["examples"], path=str(CORPUS / "examples")),
    ]
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home / "sources", embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_snippet_budget_cuts_lines_but_keeps_the_span(hub: HubSession) -> None:
    full = code_tools.get_code_snippet(hub, symbol="SpeechService._synthesize")
    small = code_tools.get_code_snippet(hub, symbol="SpeechService._synthesize", max_tokens=300)
    assert not full.truncated and small.truncated
    assert (small.full_line_start, small.full_line_end) == (
        full.full_line_start,
        full.full_line_end,
    )
    assert small.line_start == full.line_start and small.line_end < full.line_end
    assert full.code.startswith(small.code)
    assert small.line_end - small.line_start + 1 == len(small.code.splitlines())
    assert estimate_tokens(small.model_dump_json()) <= 300


def test_snippet_by_id_path_window_and_bad_input(hub: HubSession) -> None:
    method = code_tools.get_code_snippet(hub, symbol="FrameProcessor.link")
    by_id = code_tools.get_code_snippet(hub, chunk_id=method.id)
    assert by_id.resolution == "id" and by_id.code == method.code
    # a path + line inside a definition returns that definition's rest by default
    inside = code_tools.get_code_snippet(
        hub, path=method.path, line_start=method.full_line_start + 1
    )
    assert inside.resolution == "path" and inside.line_end == method.full_line_end
    with pytest.raises(NotFoundError):
        code_tools.get_code_snippet(hub, chunk_id="0123456789abcdef")
    with pytest.raises(NotFoundError):
        code_tools.get_code_snippet(hub, path="chime/nowhere.py", line_start=1)
    with pytest.raises(InputError, match="line_end >= line_start"):
        code_tools.get_code_snippet(hub, path=method.path, line_start=5, line_end=2)
    with pytest.raises(InputError, match="max_lines"):
        code_tools.get_code_snippet(hub, symbol="Pipeline", max_lines=0)
    with pytest.raises(InputError, match="max_tokens"):
        code_tools.get_code_snippet(hub, symbol="Pipeline", max_tokens=100)
    with pytest.raises(InputError, match="give symbol"):
        code_tools.get_code_snippet(hub)


def test_an_unknown_symbol_is_not_found_with_the_nearest_names(hub: HubSession) -> None:
    with pytest.raises(NotFoundError, match="no definition named 'SpeechServce'") as caught:
        code_tools.get_code_snippet(hub, symbol="SpeechServce")  # a typo
    assert "did you mean chime.services.tts.SpeechService" in str(caught.value)
    # with a description of what it does, the semantic lookup still answers
    found = code_tools.get_code_snippet(
        hub, symbol="synthesize_speech_chunks", intent="run text to speech"
    )
    assert found.resolution == "semantic" and found.kind == "api"


def test_did_you_mean_offers_the_name_spelled_closest_even_when_search_misses_it(
    tmp_path: Path,
) -> None:
    from tests.conftest import make_chunk

    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        app = make_chunk("fw", "fw/app.py", "fw.app.Litestar", chunk_type="class")
        store.replace_file("fw", "fw/app.py", [app])
        # twelve helpers whose text holds the typo itself: a search for it finds them
        helpers = [
            make_chunk("fw", "fw/misc.py", f"fw.misc.helper_{i}", content=f"Litestr note {i}")
            for i in range(12)
        ]
        store.replace_file("fw", "fw/misc.py", helpers)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            assert nearest.nearest_names(hub, "Litestr")[0] == "fw.app.Litestar"
            assert nearest.nearest_names(hub, "Litestr", source="other") == []
            with pytest.raises(NotFoundError, match=r"did you mean fw\.app\.Litestar"):
                code_tools.get_code_snippet(hub, symbol="Litestr")
    finally:
        set_embedder(None)


def test_an_unbound_import_path_is_not_found_and_an_inner_path_is(tmp_path: Path) -> None:
    from ctxhub.tools import resolve
    from tests.conftest import make_chunk

    with SQLiteStore(tmp_path / "s.db") as store:
        module = make_chunk("fw", "fw/response/file.py", "fw.response.file", chunk_type="module")
        cls = make_chunk("fw", "fw/response/file.py", "fw.response.file.File", chunk_type="class")
        store.replace_file("fw", "fw/response/file.py", [module, cls])
        # `fw.response` records no import of `File`: that import path does not exist
        assert resolve.find_symbol(store, "fw.response.File") == ([], "")
        found, how = resolve.find_symbol(store, "response.File")  # an inner part of a path
        assert (found[0].symbol, how) == ("fw.response.file.File", "partial path")


def test_trace_budget_keeps_nearest_nodes(hub: HubSession) -> None:
    full = trace_tools.trace_calls(hub, "FrameProcessor.push_frame", "callers", depth=3)
    assert len(full.nodes) >= 4 and not full.truncated
    small = trace_tools.trace_calls(hub, "FrameProcessor.push_frame", "callers", 3, max_tokens=330)
    assert small.truncated and 0 < len(small.nodes) < len(full.nodes)
    assert [n.id for n in small.nodes] == [n.id for n in full.nodes[: len(small.nodes)]]
    with pytest.raises(InputError, match="direction"):
        trace_tools.trace_calls(hub, "Pipeline.run", direction="sideways")
    with pytest.raises(InputError, match="symbol must not be empty"):
        trace_tools.trace_calls(hub, "  ")


def test_doc_budget_and_section_errors(hub: HubSession) -> None:
    page = docs_tools.get_doc(hub, path="guides/quickstart")
    small = docs_tools.get_doc(hub, path="guides/quickstart", max_tokens=200)
    assert small.truncated and not page.truncated and small.url == page.url
    # at a small budget the page's text comes before its list of sections, cut on a line
    assert small.sections == [] and small.sections_left_out == len(page.sections)
    kept = small.content.removesuffix("\n…")
    assert page.content.startswith(kept + "\n") and len(kept.splitlines()) > 1
    roomy = docs_tools.get_doc(hub, path="guides/quickstart", max_tokens=600)
    assert roomy.sections == page.sections
    with pytest.raises(NotFoundError, match="its sections"):
        docs_tools.get_doc(hub, path="guides/quickstart", section="Billing")
    with pytest.raises(NotFoundError, match="search_docs"):
        docs_tools.get_doc(hub, path="guides/nothing-here")
    with pytest.raises(InputError):
        docs_tools.get_doc(hub)


@pytest.mark.parametrize("max_tokens", [200, 300, 600, 1500])
def test_a_small_budget_keeps_every_hit_citation_in_the_text(
    hub: HubSession, max_tokens: int
) -> None:
    """Whatever the budget, the text cites every hit the structured content holds (its
    header and `id · source:path:lines` line), and a snippet is cut after a whole line
    (or, in prose, a sentence)."""
    answer = run.call(hub, "search", query="speech pipeline audio", max_tokens=max_tokens)
    assert isinstance(answer.output, SearchResponse) and answer.output.hits
    for rank, hit in enumerate(answer.output.hits, start=1):
        assert f"## {rank}. [{hit.kind}] " in answer.text
        lines = f":{hit.line_start}" if hit.line_start else ""
        assert f"id {hit.id} · {hit.source}:{hit.path}{lines}" in answer.text
        [chunk] = hub.store.get_chunks([hit.id])
        kept = hit.snippet.removesuffix("…").rstrip("\n")
        assert chunk.content.startswith(kept)
        after = chunk.content[len(kept) :][:1]
        assert not kept or after in ("", "\n") or kept.endswith((".", "!", "?"))
    if max_tokens >= 600:
        assert estimate_tokens(received(answer)) <= max_tokens


def test_a_doc_opened_by_id_at_a_small_budget_shows_its_text_after_the_citation(
    hub: HubSession,
) -> None:
    """About 300 tokens: the page's text gets the room the citation leaves, cut on a
    line, and says how to read on."""
    source, path = docs_tools.find_page(hub, "guides/quickstart", None)
    first = docs_tools._page_chunks(hub, source, path)[0]
    answer = run.call(hub, "get_doc", doc_id=first.id, max_tokens=300)
    page = answer.output
    assert isinstance(page, DocPage) and page.truncated
    kept = page.content.removesuffix("\n…")
    whole = docs_tools.get_doc(hub, doc_id=first.id).content
    assert whole.startswith(kept + "\n") and "Chime turns frames" in kept
    assert f"id {page.id} · {source}:{path}" in answer.text and kept in answer.text
    assert "(cut to fit max_tokens: raise max_tokens to read on, or read one section" in (
        answer.text
    )
    assert estimate_tokens(received(answer)) <= 300


def test_a_doc_hit_opened_by_its_id_shows_its_part_of_a_page_too_long_to_fit(
    hub: HubSession,
) -> None:
    source, path = docs_tools.find_page(hub, "guides/quickstart", None)
    chunks = docs_tools._page_chunks(hub, source, path)
    last = chunks[-1]
    assert len(chunks) > 1 and last.content.strip()
    whole = docs_tools.get_doc(hub, doc_id=last.id)
    assert not whole.truncated and whole.section is None  # it fits: the whole page
    small = docs_tools.get_doc(hub, doc_id=last.id, max_tokens=200)
    assert small.section == (last.section or last.title)
    assert small.content.startswith(last.content.strip()[:40])
    # the page's first section still opens at the top
    first = docs_tools.get_doc(hub, doc_id=chunks[0].id, max_tokens=200)
    assert first.section is None


def test_example_budget_lists_every_file(hub: HubSession) -> None:
    [row] = hub.store.conn.execute(
        "SELECT id FROM chunks WHERE kind = 'example' AND chunk_type = 'example' "
        "AND path LIKE '%phone_agent%'"
    ).fetchall()
    whole = example_tools.get_example(hub, str(row[0]))
    small = example_tools.get_example(hub, str(row[0]), max_tokens=500)
    assert not whole.omitted and small.omitted
    assert sorted([f.path for f in small.files] + small.omitted) == sorted(
        f.path for f in whole.files
    )
    assert estimate_tokens(small.model_dump_json()) <= 500
    with pytest.raises(NotFoundError):
        example_tools.get_example(hub, "nope")


def test_deprecation_of_unknown_and_empty_symbols(hub: HubSession) -> None:
    unknown = deprecation_tools.check_deprecation(hub, "Nothing.like_this")
    assert not unknown.deprecated and not unknown.found
    known = deprecation_tools.check_deprecation(hub, "SpeechService")
    assert not known.deprecated and known.found and known.checked
    with pytest.raises(InputError):
        deprecation_tools.check_deprecation(hub, "   ")


def test_removed_is_not_deprecated(tmp_path: Path) -> None:
    from ctxhub.core.knowledge import Deprecation
    from ctxhub.tools.render_deprecation import deprecation_report

    def entry(note: str, since: str) -> Deprecation:
        return Deprecation(
            source="fw", symbol="old_api", note=note, since=since, origin="changelog"
        )

    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            hub.store.replace_file(
                "fw",
                "CHANGELOG.md",
                [],
                deprecations=[
                    entry("`old_api` is deprecated and will be removed in 2.0", "1.5"),
                    entry("Breaking: Removed the `old_api()` function.", "2.0"),
                ],
            )
            report = deprecation_tools.check_deprecation(hub, "old_api")
    finally:
        set_embedder(None)
    assert report.deprecated and report.removed
    assert (report.since, report.removed_in) == ("1.5", "2.0")
    assert deprecation_report(report).startswith("old_api: REMOVED in 2.0 (deprecated since 1.5)")


def test_check_deprecation_can_be_limited_to_one_source(tmp_path: Path) -> None:
    """The same name deprecated in one framework and current in another."""
    from ctxhub.core.knowledge import Deprecation
    from tests.conftest import make_chunk

    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            for fw in ("old-fw", "new-fw"):
                hub.store.replace_file(fw, "fw.py", [make_chunk(fw, "fw.py", "fw.connect")])
            hub.store.replace_file(
                "old-fw",
                "CHANGELOG.md",
                [],
                deprecations=[
                    Deprecation(
                        source="old-fw", symbol="connect", note="`connect` is deprecated",
                        since="3.0", origin="changelog",
                    )
                ],
            )  # fmt: skip
            anywhere = deprecation_tools.check_deprecation(hub, "connect")
            elsewhere = deprecation_tools.check_deprecation(hub, "connect", source="new-fw")
            there = deprecation_tools.check_deprecation(hub, "connect", source="old-fw")
    finally:
        set_embedder(None)
    assert anywhere.deprecated and there.deprecated and there.since == "3.0"
    assert not elsewhere.deprecated


def test_a_module_level_alias_leads_to_its_definition(tmp_path: Path) -> None:
    from ctxhub.ingest.python.chunks import extract_python_file

    source = b"""
class WebsocketListenerRouteHandler:
    def __init__(self, path):
        self.path = path
        self.ready = False
        self.closed = False


websocket_listener = WebsocketListenerRouteHandler
TIMEOUT = 30
"""
    extracted = extract_python_file(
        "fw", "fw/listener.py", source, version="1.0", internal_packages={"fw"}
    )
    aliases = [c for c in extracted.chunks if c.metadata.chunk_type == "alias"]
    assert [(c.symbol, c.metadata.extra["alias_of"]) for c in aliases] == [
        ("fw.listener.websocket_listener", "fw.listener.WebsocketListenerRouteHandler")
    ]  # a constant is no alias
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            hub.store.replace_file("fw", "fw/listener.py", extracted.chunks)
            for name in ("websocket_listener", "fw.listener.websocket_listener"):
                found = code_tools.get_code_snippet(hub, symbol=name)
                assert found.symbol == "fw.listener.WebsocketListenerRouteHandler", name
                assert found.resolution == "alias"
    finally:
        set_embedder(None)


def test_search_api_steps_private_definitions_back_for_usage_questions(hub: HubSession) -> None:
    """search_api answers "how do I use X": a private helper keeps its place in the list,
    with the factor that moved it named in its boosts; `search` leaves it alone."""
    from ctxhub.tools.search_tools import search, search_api

    query = "synthesize speech bytes for a text"
    api = {h.symbol: h for h in search_api(hub, query, limit=20).hits}
    private = api["chime.services.tts.SpeechService._synthesize"]
    assert private.metadata["boosts"]["public"] == 0.8
    assert all(
        "public" not in h.metadata.get("boosts", {})
        for s, h in api.items()
        if "._" not in (s or "")
    )
    anywhere = search(hub, query, limit=20).hits
    assert all("public" not in h.metadata.get("boosts", {}) for h in anywhere)


def test_a_name_the_framework_builds_says_where_it_is_looked_up(tmp_path: Path) -> None:
    pkg = tmp_path / "src" / "fw"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "keys.py").write_text(
        "def dispatch_key(widget, key):\n"
        '    """Call the widget\'s key_<name> method."""\n'
        '    method = getattr(widget, f"key_{key}", None)\n'
        "    return method() if method else False\n"
    )
    embedder = HashingEmbedder(dim=64)
    home = tmp_path / "home"
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, [SourceSpec(name="fw", kind=["python"], path=str(tmp_path))], home, embedder)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=home)) as hub:
            with pytest.raises(NotFoundError) as caught:
                code_tools.get_code_snippet(hub, symbol="key_space")
            assert "names like it (key_*) are looked up by fw.keys.dispatch_key" in str(
                caught.value
            )
            with pytest.raises(NotFoundError) as plain:
                code_tools.get_code_snippet(hub, symbol="render_page")
            assert "looked up by" not in str(plain.value)
            # under a module the index holds, the name is no handler of the user's own
            with pytest.raises(NotFoundError) as qualified:
                code_tools.get_code_snippet(hub, symbol="fw.keys.key_space")
            assert "looked up by" not in str(qualified.value)
    finally:
        set_embedder(None)


def test_an_example_file_by_path_is_its_own_chunk_not_the_overview_citing_it(
    hub: HubSession,
) -> None:
    # a small example file is one chunk of all its lines, as its overview cites them
    snippet = code_tools.get_code_snippet(
        hub, path="examples/echo_llm.py", line_start=1, source="chime-examples"
    )
    [chunk] = hub.store.get_chunks([snippet.id])
    assert chunk.metadata.chunk_type == "example_file"
