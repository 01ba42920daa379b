"""A file that stops parsing keeps its last good chunks (a failed refresh loses
nothing), and a snippet of it says the code is the last index, not what the file holds."""

from __future__ import annotations

from pathlib import Path

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools

GOOD = '''
def backoff(attempt):
    """Seconds to wait before the next attempt."""
    delay = 2**attempt
    return min(delay, 60)
'''


def _refresh(home: Path, spec: SourceSpec, embedder: HashingEmbedder) -> None:
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, [spec], home, embedder)


def _notes(home: Path) -> list[str]:
    with HubSession(Settings(home=home)) as hub:
        snippet = code_tools.get_code_snippet(hub, symbol="mypkg.good.backoff")
        assert "min(delay, 60)" in snippet.code  # the last good code, kept
        return snippet.source_notes


def test_a_snippet_of_a_file_that_stopped_parsing_says_so(tmp_path: Path) -> None:
    pkg = tmp_path / "src" / "mypkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    good = pkg / "good.py"
    good.write_text(GOOD)
    home = tmp_path / "home"
    embedder = HashingEmbedder(dim=64)
    spec = SourceSpec(name="local", kind=["python"], path=str(tmp_path / "src"))
    set_embedder(embedder)
    try:
        _refresh(home, spec, embedder)
        assert _notes(home) == []
        good.write_text(GOOD + "\ndef oops(:\n")
        _refresh(home, spec, embedder)
        [note] = _notes(home)
        assert note.startswith("mypkg/good.py: the last refresh could not read it")
        good.write_text(GOOD)
        _refresh(home, spec, embedder)
        assert _notes(home) == []
    finally:
        set_embedder(None)
