"""What `status`, `sources`, `doctor` and `get_hub_status` say when the environment moved under an
indexed `pypi:` source (upgraded, or uninstalled), that a search names the hits' sources
that are due a refresh, and that a long error is never cut silently. The store rows are
written directly: the refresh that made them is tested in test_refresh.py."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import HubSession, set_embedder
from ctxhub.store.protocol import SourceState
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, search_tools
from ctxhub.tools import hub_status as hub_status_module
from ctxhub.tools.hub_status import hub_status
from ctxhub.tools.render_status import hub_status as render_status
from tests.conftest import make_chunk
from tests.unit.cli_runner import run

GONE = "pypi:ctxhub-test-no-such-distribution"
ERROR = "distribution 'acme' is not installed in /home/someone/projects/acme/.venv/bin/python"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    embedder = HashingEmbedder(dim=64)
    set_embedder(embedder)
    monkeypatch.setattr("ctxhub.embed.load_default_embedder", lambda home: embedder)
    (tmp_path / "store").mkdir()
    installed = importlib.metadata.version("pydantic")
    with SQLiteStore(tmp_path / "store" / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        for name in ("moved", "now"):
            content = f"def load_settings():  # the {name} package's settings"
            chunk = make_chunk(name, f"{name}/config.py", f"{name}.config.load_settings", content)
            store.replace_file(name, f"{name}/config.py", [chunk])
        store.upsert_source(SourceState(name="moved", origin="pypi:pydantic", version="0.0.1"))
        store.upsert_source(SourceState(name="now", origin="pypi:pydantic", version=installed))
        store.upsert_source(SourceState(name="gone", origin=GONE, version="1.2.3"))
        store.upsert_source(
            SourceState(name="broken", origin="/x", version=None, status="failed", error=ERROR)
        )
    yield tmp_path
    set_embedder(None)


def test_an_uninstalled_distribution_is_reported_not_ok(home: Path) -> None:
    with SQLiteStore(home / "store" / "ctxhub.db") as store:
        report = hub_status(store, 30)
    by_name = {s.name: s for s in report.sources}
    assert by_name["gone"].not_installed and not by_name["gone"].refresh_due
    assert not by_name["now"].not_installed and not by_name["broken"].not_installed
    text = render_status(report)
    assert "not installed any more: 1.2.3 indexed is kept" in text
    assert "refresh due: " in text and ", 0.0.1 indexed" in text


def test_status_sources_and_doctor_name_the_version_change(home: Path) -> None:
    status = " ".join(run(home, "status").output.split())  # the table may wrap a cell
    assert "not installed any more" in status and "refresh due" in status
    sources = " ".join(run(home, "sources").output.split())
    assert "not installed any more" in sources and "refresh due" in sources
    doctor = run(home, "doctor").output
    notes = [line for line in doctor.splitlines() if line.startswith("note version:")]
    assert len(notes) == 2, doctor  # moved and gone; `now` and the folder say nothing
    assert any("moved refresh due" in n and "`ctxhub refresh moved`" in n for n in notes)
    assert any("gone not installed any more" in n for n in notes)


@pytest.mark.parametrize("width", [80, 200])
@pytest.mark.parametrize("command", ["status", "sources"])
def test_a_long_error_is_shown_whole_never_cut(
    home: Path, command: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's promise: no line is cut with an ellipsis; on a terminal none is
    wider than it (a long error wraps in its cell, or its row's block), and piped the
    error is one line to copy. Every word of it is kept either way."""
    import io

    from rich.console import Console

    piped = run(home, command).output
    assert "…" not in piped and f": {ERROR}" in piped  # whole, on one line
    terminal = Console(file=io.StringIO(), width=width, soft_wrap=False, highlight=False)
    monkeypatch.setattr(f"ctxhub.cli.{command}_cmds.out", terminal)
    run(home, command)
    shown = terminal.file.getvalue()  # type: ignore[attr-defined]
    assert "…" not in shown
    assert ERROR in " ".join(shown.split()), shown  # wrapped where it must be
    assert max(len(line) for line in shown.splitlines()) <= width, shown


def test_the_status_text_an_agent_reads_keeps_a_long_error_whole(home: Path) -> None:
    long_error = f"{ERROR} ({'the reason given at length, ' * 6}and the fix: pip install acme)"
    with SQLiteStore(home / "store" / "ctxhub.db") as store:
        store.upsert_source(
            SourceState(name="broken", origin="/x", status="failed", error=long_error)
        )
        text = render_status(hub_status(store, 30))
    assert f": {long_error} · " in text


def test_a_search_names_the_hits_sources_that_are_due_a_refresh(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    with HubSession(Settings(home=home / "store")) as hub:
        response = search_tools.search(hub, "load settings")
        assert {h.source for h in response.hits} == {"moved", "now"}
        (note,) = response.source_notes  # `now` is the version installed: nothing to say
        assert note.startswith("moved: refresh due: ") and ", 0.0.1 indexed" in note
        assert note.endswith("run `ctxhub refresh moved`")
        only_now = search_tools.search(hub, "load settings", source="now")
        assert only_now.hits and only_now.source_notes == []
    assert "moved: refresh due" in run(home, "search", "load settings").output


def test_the_installed_version_is_looked_up_once_per_interval(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def note(origin: str, indexed: str | None) -> str | None:
        asked.append(origin)
        return None

    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    monkeypatch.setattr(hub_status_module, "environment_note", note)
    with HubSession(Settings(home=home / "store")) as hub:
        for _ in range(3):
            search_tools.search(hub, "load settings")
        assert sorted(asked) == ["pypi:pydantic", "pypi:pydantic"]  # moved and now, once
        monkeypatch.setattr(hub_status_module, "INSTALLED_TTL_S", -1.0)
        search_tools.search(hub, "load settings")
        # past the interval each is asked again (by the source notes and the hits'
        # installed-version check alike: no interval at all is no cache)
        assert len(asked) >= 4 and sorted(set(asked[2:])) == ["pypi:pydantic"]


def test_a_snippet_names_its_source_when_it_is_due_a_refresh(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_status_module, "_looked_up", {})
    with HubSession(Settings(home=home / "store")) as hub:
        moved = code_tools.get_code_snippet(hub, symbol="moved.config.load_settings")
        assert len(moved.source_notes) == 1
        assert moved.source_notes[0].startswith("moved: refresh due: ")
        now = code_tools.get_code_snippet(hub, symbol="now.config.load_settings")
        assert now.source_notes == []
    assert "moved: refresh due" in run(home, "snippet", "moved.config.load_settings").output
