"""A write whose connection drops mid-transaction is run once more, whole, on a fresh
connection: never a traceback, never written twice. The drop is real: the backend
running the transaction is terminated (pg_terminate_backend) while it waits on a lock
another session holds, so the kill lands inside the transaction every time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import HubSession
from ctxhub.store.postgres.schema import LOCK_NAMESPACE, MEMORY_LOCK
from ctxhub.tools.run import Answer, call

PROBLEM = "zanzibar relay drops frames after a reconnect"


@pytest.fixture
def hub(pg_url: str, tmp_path: Path) -> Iterator[HubSession]:
    with HubSession(Settings(home=tmp_path, db=pg_url), HashingEmbedder(dim=64)) as h:
        yield h


def admin(pg_url: str, autocommit: bool = True) -> Any:
    import psycopg

    return psycopg.connect(pg_url, autocommit=autocommit)


def kill_when_blocked(pg_url: str, work: Callable[[], Answer], hold: Any) -> Answer:
    """Run `work` in a thread; once its backend waits on the lock `hold` keeps, terminate
    that backend, then let `hold` go. Returns what `work` returned (raises what it raised)."""
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["answer"] = work()
        except BaseException as exc:
            done["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    with admin(pg_url) as watcher:
        deadline = time.monotonic() + 30
        killed = 0
        while not killed and time.monotonic() < deadline:
            killed = watcher.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock' "
                "AND pid != pg_backend_pid()"
            ).fetchone()[0]
            time.sleep(0.05)
        assert killed == 1, "the write never waited inside its transaction"
    hold()
    thread.join(60)
    if "error" in done:
        raise done["error"]
    return done["answer"]  # type: ignore[no-any-return]


def test_log_solution_survives_a_killed_connection_and_writes_once(
    hub: HubSession, pg_url: str
) -> None:
    with admin(pg_url) as locker:
        # the memory lock log-or-merge takes first thing in its transaction
        locker.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_NAMESPACE, MEMORY_LOCK))
        release = lambda: locker.execute(  # noqa: E731
            "SELECT pg_advisory_unlock(%s, %s)", (LOCK_NAMESPACE, MEMORY_LOCK)
        )
        answer = kill_when_blocked(
            pg_url,
            lambda: call(hub, "log_solution", problem=PROBLEM, solution="reset the counter"),
            release,
        )
    assert answer.data["action"] == "created"
    assert hub.store.memory_counts()["records"] == 1
    (record,) = hub.store.get_records([answer.data["id"]])
    assert record.occurrences == 1


def test_a_rating_survives_a_killed_connection_and_counts_once(
    hub: HubSession, pg_url: str
) -> None:
    logged = call(hub, "log_solution", problem=PROBLEM, solution="reset the counter")
    record_id = logged.data["id"]
    with admin(pg_url, autocommit=False) as locker:
        # the record's row, locked as a concurrent rating would lock it
        locker.execute("SELECT 1 FROM records WHERE id = %s FOR UPDATE", (record_id,))
        answer = kill_when_blocked(
            pg_url, lambda: call(hub, "rate", id=record_id, worked=True), locker.rollback
        )
    assert (answer.data["worked_total"], answer.data["not_worked_total"]) == (1, 0)
    (record,) = hub.store.get_records([record_id])
    assert (record.worked, record.not_worked) == (1, 0)
