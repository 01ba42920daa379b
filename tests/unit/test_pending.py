"""The pending queue: drained records are stored, invalid ones rejected, and nothing is
lost when the store fails or two processes drain at once."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.core.records import LogResult, RecordInput
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.capture import hook_state, hooks
from ctxhub.memory.records.pending import (
    CLAIM_MARK,
    MAX_STORE_FAILURES,
    drain_pending,
    pending_count,
    rejected_count,
)
from ctxhub.session import HubSession


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    with HubSession(Settings(home=tmp_path), embedder=HashingEmbedder(dim=256)) as h:
        yield h


def record(n: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "problem": f"`pytest` failed: ImportError: cannot import name 'thing{n}' from 'pkg{n}'",
        "solution": f"Edited src/pkg{n}/__init__.py: exported thing{n}.",
        "error_type": "ImportError",
        "source": "hook",
        "agent": "claude-code",
        "confidence": 0.55,
        "session_id": "s1",
        "language": "python",
        "created_at": time.time() - 60,
        "last_seen": time.time(),
        **extra,
    }


def queue(home: Path, name: str, content: object) -> Path:
    folder = home / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_drain_stores_records_and_deletes_their_files(hub: HubSession) -> None:
    home = hub.settings.home
    for n in range(3):
        queue(home, f"r{n}.json", record(n))
    summary = drain_pending(hub)
    assert (summary.stored, summary.rejected, summary.failed, summary.remaining) == (3, 0, 0, 0)
    assert pending_count(hub.settings) == 0 and not list((home / "pending").iterdir())
    stored = hub.store.get_records([r.id for r in summary.results])
    assert len(stored) == 3
    assert {r.source for r in stored} == {"hook"} and {r.agent for r in stored} == {"claude-code"}
    assert "3 stored" in summary.message()
    # drained again: nothing to do, and the same record queued twice merges
    queue(home, "again.json", record(0))
    again = drain_pending(hub)
    assert again.stored == 1 and again.results[0].action == "merged"


def test_drain_without_a_queue_is_a_no_op(hub: HubSession) -> None:
    summary = drain_pending(hub)
    assert summary.seen == 0 and summary.remaining == 0
    assert not (hub.settings.home / "pending").exists()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        ([1, 2], "not a JSON object"),
        ({"solution": "no problem field"}, "not a valid record"),
        ({**record(), "unknown_field": 1}, "not a valid record"),
        ({**record(), "source": "somewhere"}, "not a valid record"),
        ({**record(), "confidence": 7}, "not a valid record"),
    ],
)
def test_invalid_files_move_to_rejected_with_a_reason(
    hub: HubSession, content: object, reason: str
) -> None:
    home = hub.settings.home
    queue(home, "bad.json", content)
    queue(home, "good.json", record())
    summary = drain_pending(hub)
    assert summary.stored == 1 and summary.rejected == 1
    rejected = home / "pending" / "rejected"
    assert (rejected / "bad.json").is_file()
    assert reason in (rejected / "bad.json.reason.txt").read_text()
    assert rejected_count(hub.settings) == 1 and pending_count(hub.settings) == 0
    assert any("bad.json" in e for e in summary.errors)


def test_files_stay_queued_when_the_store_fails(hub: HubSession) -> None:
    home = hub.settings.home
    names = [f"r{n}.json" for n in range(MAX_STORE_FAILURES + 2)]
    for n, name in enumerate(names):
        queue(home, name, record(n))
    calls: list[str] = []

    def failing(hub: HubSession, rec: RecordInput) -> LogResult:
        calls.append(rec.problem)
        raise RuntimeError("database is locked")

    summary = drain_pending(hub, log_fn=failing)
    assert summary.stored == 0 and summary.failed == MAX_STORE_FAILURES
    assert len(calls) == MAX_STORE_FAILURES  # the store is down: stop trying
    assert sorted(p.name for p in (home / "pending").glob("*")) == sorted(names)
    assert "database is locked" in summary.errors[0]
    # the store is back: everything goes through
    assert drain_pending(hub).stored == len(names)
    assert pending_count(hub.settings) == 0


def test_one_failing_record_does_not_block_the_rest(hub: HubSession) -> None:
    from ctxhub.memory.records.log import log_solution

    home = hub.settings.home
    for n in range(3):
        queue(home, f"r{n}.json", record(n))

    def picky(hub: HubSession, rec: RecordInput) -> LogResult:
        if "thing1" in rec.problem:
            raise ValueError("this one is odd")
        return log_solution(hub, rec)

    summary = drain_pending(hub, log_fn=picky)
    assert summary.stored == 2 and summary.failed == 1
    assert [p.name for p in (home / "pending").glob("*.json")] == ["r1.json"]


def test_limit_bounds_one_drain(hub: HubSession) -> None:
    for n in range(5):
        queue(hub.settings.home, f"r{n}.json", record(n))
    summary = drain_pending(hub, limit=2)
    assert summary.stored == 2 and summary.remaining == 3


def test_claims_of_live_processes_are_left_alone_dead_ones_come_back(hub: HubSession) -> None:
    home = hub.settings.home
    live = queue(home, "live.json", record(1))
    live.rename(live.with_name(f"live.json{CLAIM_MARK}{os.getppid()}"))
    dead = queue(home, "dead.json", record(2))
    dead.rename(dead.with_name(f"dead.json{CLAIM_MARK}999999999"))
    summary = drain_pending(hub)
    assert summary.stored == 1  # the dead process's file
    assert [p.name for p in (home / "pending").iterdir()] == [
        f"live.json{CLAIM_MARK}{os.getppid()}"
    ]


def test_two_drains_at_once_store_each_file_once(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    for n in range(40):
        queue(tmp_path, f"r{n:02d}.json", record(n))
    seen: list[str] = []
    lock = threading.Lock()

    def counting(hub: HubSession, rec: RecordInput) -> LogResult:
        with lock:
            seen.append(rec.problem)
        time.sleep(0.001)
        return LogResult(id=rec.problem, action="created")

    summaries = []

    def drain() -> None:
        with HubSession(settings, embedder=HashingEmbedder(dim=256)) as hub:
            summaries.append(drain_pending(hub, log_fn=counting))

    threads = [threading.Thread(target=drain) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == sorted(set(seen)) and len(seen) == 40
    assert sum(s.stored for s in summaries) == 40
    assert pending_count(settings) == 0


def test_hook_capture_end_to_end(hub: HubSession) -> None:
    """fail -> edit -> pass through the hook, then the drain stores a findable record."""
    home = hub.settings.home
    env = {"CTXHUB_HOME": str(home)}
    base = {"session_id": "abc", "cwd": "/p", "tool_response": {"stdout": "", "stderr": ""}}
    steps: list[dict[str, Any]] = [
        {
            **base,
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "python -m pytest"},
            "error": "ModuleNotFoundError: No module named 'yaml'",
        },
        {
            **base,
            "tool_name": "Edit",
            "tool_input": {
                "file_path": "/p/pyproject.toml",
                "old_string": "deps = []",
                "new_string": 'deps = ["pyyaml"]',
            },
        },
        {
            **base,
            "tool_name": "Bash",
            "tool_input": {"command": "python -m pytest"},
            "tool_response": {"stdout": "4 passed", "stderr": ""},
        },
    ]
    for step in steps:
        assert hooks.run(["post-tool-use"], json.dumps(step), env) == 0
    assert pending_count(hub.settings) == 1
    summary = drain_pending(hub)
    assert summary.stored == 1 and summary.results[0].action == "created"
    [stored] = hub.store.get_records([summary.results[0].id])
    assert stored.source == "hook" and stored.error_type == "ModuleNotFoundError"
    # a config file edited to fix a Python run: the record is about Python, not TOML
    assert stored.file_path == "pyproject.toml" and stored.language == "python"
    assert stored.libraries == ["yaml"] and stored.tags == ["pytest"]  # tagged as mining tags
    assert stored.confidence == pytest.approx(0.55)


def test_hook_drain_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ctxhub.cli.main import cli
    from ctxhub.session import set_embedder

    monkeypatch.setenv("CTXHUB_HOME", str(tmp_path))
    monkeypatch.delenv("CTXHUB_DB", raising=False)
    queue(tmp_path, "a.json", record(1))
    queue(tmp_path, "b.json", "{broken")
    set_embedder(HashingEmbedder(dim=256))
    try:
        done = CliRunner().invoke(cli, ["hook", "drain", "--json"])
    finally:
        set_embedder(None)
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["stored"] == 1 and report["rejected"] == 1 and report["remaining"] == 0
    assert report["results"][0]["action"] == "created"


class ElsewhereSettings(Settings):
    """Settings whose queue is not under `<home>/pending`."""

    @property
    def pending_dir(self) -> Path:
        return self.home / "queue-elsewhere"


def test_the_queue_is_where_settings_say(tmp_path: Path) -> None:
    settings = ElsewhereSettings(home=tmp_path)
    folder = settings.pending_dir
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(record(1)))
    (folder / "b.json").write_text("{broken")
    queue(tmp_path, "ignored.json", record(2))  # <home>/pending is not this queue
    assert pending_count(settings) == 2
    with HubSession(settings, embedder=HashingEmbedder(dim=256)) as hub:
        summary = drain_pending(hub)
    assert (summary.stored, summary.rejected, summary.remaining) == (1, 1, 0)
    assert rejected_count(settings) == 1 and (folder / "rejected" / "b.json").is_file()
    assert [p.name for p in (tmp_path / "pending").iterdir()] == ["ignored.json"]


def test_the_hook_queues_where_settings_pending_dir_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hook may not import pydantic, so hook_state computes the folder itself: it
    # must stay the same as Settings.pending_dir for the same CTXHUB_HOME.
    home = tmp_path / "my hub"
    monkeypatch.setenv("CTXHUB_HOME", str(home))
    hook_home = hooks._home({"CTXHUB_HOME": str(home)})
    written = Path(hook_state.write_pending(hook_home, record(3)))
    assert written.parent == Settings.from_env().pending_dir
    assert pending_count(Settings.from_env()) == 1


def test_settings_and_the_hook_agree_on_a_home_with_tilde(monkeypatch: pytest.MonkeyPatch) -> None:
    from ctxhub.memory.capture import hooks

    monkeypatch.setenv("CTXHUB_HOME", "~/somewhere/hub")
    expected = Path("~/somewhere/hub").expanduser()
    assert Settings.from_env().pending_dir == expected / "pending"
    assert Path(hooks._home(dict(os.environ))) == expected


def test_read_tools_never_write_the_server_drains_in_the_background(hub: HubSession) -> None:
    from ctxhub.server import runtime
    from ctxhub.tools import memory_tools

    home = hub.settings.home
    queue(home, "r0.json", record(0))
    before = hub.store.memory_generation()
    memory_tools.search_solutions(hub, "ImportError: cannot import name 'thing0'")
    memory_tools.browse_solutions(hub)
    assert pending_count(hub.settings) == 1  # a read tool left the queue alone
    assert hub.store.memory_generation() == before
    assert runtime.has_pending(home / "pending")

    from ctxhub.session import set_embedder

    set_embedder(HashingEmbedder(dim=256))  # the drainer's HubSessions embed as this one does
    drained = threading.Event()

    def once(*_: object) -> None:
        drained.set()
        raise SystemExit  # stop the loop after its first pass

    pool = runtime.HubPool(hub.settings)
    original = time.sleep
    try:
        runtime.time.sleep = once  # type: ignore[assignment]
        with pytest.raises(SystemExit):
            runtime.drain_forever(hub.settings, pool)
    finally:
        runtime.time.sleep = original  # type: ignore[assignment]
        pool.close()
        set_embedder(None)
    assert drained.is_set() and pending_count(hub.settings) == 0
    assert not runtime.has_pending(home / "pending")
