"""A search limited to a source that holds nothing of the kind searched says so, rather
than "nothing found; try other words"."""

from __future__ import annotations

from pathlib import Path

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.render import search_response
from ctxhub.tools.search_tools import search_docs, search_examples


def test_a_search_in_a_source_without_docs_says_it_has_none(tmp_path: Path) -> None:
    pkg = tmp_path / "lib" / "wire"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('def connect(url):\n    """Open a connection."""\n')
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "connect.md").write_text("# Connecting\n\nCall connect(url).\n")
    home = tmp_path / "home"
    embedder = HashingEmbedder(dim=64)
    specs = [
        SourceSpec(name="wire", kind=["python"], path=str(tmp_path / "lib")),
        SourceSpec(name="guide", kind=["docs"], path=str(tmp_path / "guide")),
    ]
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home, embedder)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=home)) as hub:
            none = search_docs(hub, "open a connection", source="wire")
            assert not none.hits
            assert none.notice and "source wire has no docs indexed (kinds: python)" in none.notice
            assert "nothing found" not in search_response(none)
            examples = search_examples(hub, "open a connection", source="wire")
            assert examples.notice and "has no examples or docs indexed" in examples.notice
            # a source that has docs: an empty answer is only an empty answer
            other = search_docs(hub, "zzzqqq", source="guide")
            assert not other.notice or "has no" not in other.notice
            # a source with docs and no examples: its docs answer, and the notice says
            # there are no examples to match, not that none matched closely
            docs = search_examples(hub, "open a connection", source="guide")
            assert docs.hits and all(h.metadata.get("supplement") for h in docs.hits)
            assert docs.notice and "source guide has no examples indexed" in docs.notice
            assert "source guide has no examples indexed" in search_response(docs)
    finally:
        set_embedder(None)
