"""A Sphinx API page's section that only names definitions for autodoc to fill in at
build time says nothing in the source: it stays readable by get_doc but is lookup-only,
never ranked as a search answer or an example."""

from __future__ import annotations

from pathlib import Path

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import docs_tools, search_tools

API = """API Reference
=============

Retry Main API
--------------

.. autofunction:: tenacity.retry

.. autoclass:: tenacity.Retrying
   :members:

Retry Functions
---------------

Those functions can be used as the retry keyword argument of
:py:func:`tenacity.retry`.

.. automodule:: tenacity.retry
   :members:

Writing your own
----------------

To retry while the function returns None, pass ``retry_if_result(lambda r: r is None)``
to the decorator; any predicate over the result works the same way, and so does a
callable you write yourself.

.. autoclass:: tenacity.retry_if_result
"""


def test_autodoc_only_sections_are_lookup_only(tmp_path: Path) -> None:
    chunks = chunk_doc_file("docs", "doc/api.rst", API)
    stub = {c.section: c.lookup_only for c in chunks}
    assert stub == {
        "API Reference > Retry Main API": True,
        "API Reference > Retry Functions": True,
        "API Reference > Writing your own": False,  # it says something
    }
    (tmp_path / "site" / "doc").mkdir(parents=True)
    (tmp_path / "site" / "doc" / "api.rst").write_text(API)
    home = tmp_path / "home"
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        spec = SourceSpec(name="docs", kind=["docs"], path=str(tmp_path / "site"))
        refresh(store, [spec], home, embedder)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=home)) as hub:
            found = search_tools.search(hub, "retry functions keyword argument", limit=10)
            assert {h.section for h in found.hits} == {"API Reference > Writing your own"}
            page = docs_tools.get_doc(hub, path="doc/api")
            assert "module tenacity.retry" in page.content  # still on the page
    finally:
        set_embedder(None)
