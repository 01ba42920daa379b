"""Window texts of long chunks: how they are cut, which chunks get them, and how the
dense path ranks a long chunk by the window that matches (real SQLite store)."""

from __future__ import annotations

from ctxhub.core.knowledge import SearchFilters, SearchRequest
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.embed_text import MAX_WINDOWS, WINDOW_CHARS, window_texts
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.search.fusion import merge_windows
from ctxhub.search.retriever import Retriever, SearchOptions
from ctxhub.store.sqlite.store import SQLiteStore
from tests.conftest import make_chunk


def _params(n: int) -> str:
    return "\n".join(f"    param_{i}: the setting number {i} of the application" for i in range(n))


def test_short_content_has_no_windows() -> None:
    assert window_texts("pkg.f", "def f():\n    return 1\n") == []


def test_windows_cut_at_line_ends_cover_the_content_in_order() -> None:
    content = _params(40)
    windows = window_texts("pkg.App", content)
    assert 1 < len(windows) <= MAX_WINDOWS
    bodies = []
    for w in windows:
        name, _, body = w.partition("\n")
        assert name == "pkg.App"
        assert len(body) <= WINDOW_CHARS
        assert body.startswith("param_") and body.endswith("application")  # whole lines
        bodies.append(body)
    lines = [line.strip() for line in "\n".join(bodies).splitlines()]
    assert lines == [line.strip() for line in content.splitlines()]  # every line, once
    # a very long chunk stops at MAX_WINDOWS windows
    assert len(window_texts("pkg.App", _params(400))) == MAX_WINDOWS


def test_python_chunks_longer_than_one_vector_get_windows() -> None:
    source = (
        'def short(a, b):\n    """Add."""\n    c = a + b\n    return c\n\n\n'
        f'def configure(**kw):\n    """Configure the app.\n\n{_params(30)}\n    """\n'
        "    return kw\n"
    )
    ex = extract_python_file("fw", "pkg/app.py", source, version="1.0", internal_packages={"pkg"})
    chunks = {c.symbol: c for c in ex.chunks}
    assert chunks["pkg.app.short"].embed_windows == []
    windows = chunks["pkg.app.configure"].embed_windows
    assert len(windows) >= 2 and all(w.startswith("pkg.app.configure\n") for w in windows)
    assert "param_29" in windows[-1]


def test_merge_windows_adds_part_of_a_windows_lead() -> None:
    own = [("a", 0.6), ("b", 0.5), ("c", 0.4)]
    windows = [("c", 0.4, 0.9), ("b", 0.5, 0.45)]  # c's window leads; b's trails its own
    merged = dict(merge_windows(own, windows, 10, gain=0.5))
    assert merged == {"a": 0.6, "b": 0.5, "c": 0.4 + 0.5 * 0.5}
    assert [cid for cid, _ in merge_windows(own, windows, 2, gain=0.5)] == ["c", "a"]
    # a chunk only the window list found enters with its merged score
    assert dict(merge_windows([], [("d", 0.1, 0.3)], 5, gain=1.0)) == {"d": 0.3}


def test_dense_path_finds_a_long_chunk_by_a_window(
    store: SQLiteStore, embedder: HashingEmbedder
) -> None:
    lifespan = "lifespan hooks startup shutdown callables"
    app = make_chunk("fw", "pkg/app.py", "pkg.app.App.__init__", "def __init__(self): ...")
    app = app.model_copy(
        update={"embed_windows": ["pkg.app.App.__init__\nrouting tables", f"x\n{lifespan}"]}
    )
    other = make_chunk("fw", "pkg/other.py", "pkg.other.Thing", "class Thing: plain thing")
    store.replace_file("fw", "pkg/app.py", [app])
    store.replace_file("fw", "pkg/other.py", [other])
    store.bind_model(embedder.id, embedder.dim)
    missing = store.missing_embeddings(embedder.id, 100)
    vectors = embedder.embed([t for _, t in missing])
    store.put_embeddings(embedder.id, list(zip([h for h, _ in missing], vectors, strict=True)))
    (query,) = embedder.embed([lifespan])
    own = dict(store.dense(query, SearchFilters(), None, 5))
    assert own[app.id] < 0.5  # its own text does not say it
    dense_only = SearchOptions(paths=("dense",))
    hits = Retriever(store, embedder).search(SearchRequest(query=lifespan), dense_only).hits
    assert hits[0].id == app.id
