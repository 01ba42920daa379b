"""rate (records and knowledge hits), browse with a cursor, the digest, export/import."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import InputError, NotFoundError
from ctxhub.core.knowledge import SearchRequest
from ctxhub.core.records import MemoryFilters, RecordInput, record_id_for
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.memory.records.feedback import rate
from ctxhub.memory.records.log import upsert_record
from ctxhub.memory.records.transfer import export_records, import_records
from ctxhub.memory.search.browse import browse_solutions, ecosystem_digest
from ctxhub.search.retriever import Retriever
from ctxhub.session import HubSession
from tests.conftest import make_chunk


def make_hub(home: Path, dim: int = 256) -> HubSession:
    return HubSession(Settings(home=home), embedder=HashingEmbedder(dim=dim))


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    h = make_hub(tmp_path)
    for i in range(7):
        upsert_record(
            h,
            record_id_for("t", str(i)),
            RecordInput(
                problem=f"problem number {i} about widget {i}",
                solution=f"fix {i}: restart the widget" if i != 6 else "",
                resolved=i != 6,
                language="python" if i % 2 else "rust",
                framework="fastapi" if i == 1 else None,
                tags=["flaky"] if i < 3 else [],
                source="github:acme/widgets" if i < 2 else "local",
                last_seen=1_700_000_000 + i,
                created_at=1_700_000_000 + i,
            ),
        )
    yield h
    h.close()


def test_rate_records_counts_and_unknown_ids(hub: HubSession) -> None:
    rid = record_id_for("t", "1")
    assert rate(hub, rid, True).worked_total == 1
    result = rate(hub, rid, False, note="still broken on 3.12", agent="a", session_id="s")
    assert (result.target, result.worked_total, result.not_worked_total) == ("memory", 1, 1)
    with pytest.raises(NotFoundError, match="no record or knowledge hit"):
        rate(hub, "nope", True)
    with pytest.raises(InputError):
        rate(hub, " ", True)
    events = hub.store.conn.execute(
        "SELECT note, agent, session_id FROM feedback_events WHERE target = ? ORDER BY id",
        (rid,),
    ).fetchall()
    assert [tuple(e) for e in events] == [(None, None, None), ("still broken on 3.12", "a", "s")]


def test_knowledge_ratings_rerank_and_report_unhelpful_queries(hub: HubSession) -> None:
    good = make_chunk(path="pkg/a.py", symbol="pkg.a.connect_client", content="connect the client")
    bad = make_chunk(path="pkg/b.py", symbol="pkg.b.connect_server", content="connect the server")
    hub.store.replace_file("src", "pkg/a.py", [good])
    hub.store.replace_file("src", "pkg/b.py", [bad])
    retriever = Retriever(hub.store, None)
    request = SearchRequest(query="connect", limit=5)
    before = [h.id for h in retriever.search(request).hits]
    loser = before[0]
    for _ in range(3):
        assert rate(hub, loser, False, query="how to connect").target == "knowledge"
    after = retriever.search(request).hits
    assert after[0].id != loser
    assert next(h for h in after if h.id == loser).score < after[0].score
    assert hub.store.unhelpful_queries() == [("how to connect", 3)]


def test_browse_pages_filters_and_rejects_foreign_cursors(hub: HubSession) -> None:
    seen: list[str] = []
    cursor = None
    while True:
        page = browse_solutions(hub, MemoryFilters(), limit=3, cursor=cursor)
        assert page.total == 7
        seen += [h.id for h in page.hits]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 7
    assert seen[0] == record_id_for("t", "6")  # most recently seen first
    assert browse_solutions(hub, MemoryFilters(source="github:"), 10).total == 2
    assert browse_solutions(hub, MemoryFilters(tags=["FLAKY"], language="rust"), 10).total == 2
    first = browse_solutions(hub, MemoryFilters(), limit=3)
    with pytest.raises(InputError, match="another query"):
        browse_solutions(hub, MemoryFilters(language="rust"), 3, first.next_cursor)


def test_digest_lists_solved_problems_of_the_stack(hub: HubSession) -> None:
    for _ in range(3):
        rate(hub, record_id_for("t", "3"), False)
    digest = ecosystem_digest(hub, ["Python"])
    md = digest.markdown
    assert md.startswith("## Known problems and fixes")
    assert "### python / fastapi" in md and "### python\n" in md
    assert "fix 1: restart the widget" in md and "fix 5" in md
    assert "fix 3" not in md  # rated as not working
    assert "problem number 0" not in md  # rust
    assert digest.records == 2
    with pytest.raises(InputError):
        ecosystem_digest(hub, [])


def test_export_import_roundtrip_keeps_vectors_and_feedback(
    hub: HubSession, tmp_path: Path
) -> None:
    rid = record_id_for("t", "2")
    rate(hub, rid, True)
    buffer = io.StringIO()
    assert export_records(hub, buffer, with_vectors=True) == 7
    path = tmp_path / "export.jsonl"
    path.write_text(buffer.getvalue() + "{not json}\n", encoding="utf-8")
    other = make_hub(tmp_path / "other")
    summary = import_records(other, path)
    assert (summary.created, summary.reembedded) == (7, 0)
    assert summary.skipped and summary.skipped[0].startswith("line 9:")
    assert other.store.get_records([rid])[0].worked == 1
    model = hub.embedder.id
    assert (
        other.store.record_vectors(rid, model).keys() == hub.store.record_vectors(rid, model).keys()
    )
    again = import_records(other, path)  # importing twice counts nothing twice
    assert again.updated == 7 and other.store.get_records([rid])[0].worked == 1
    other.close()


def test_import_reembeds_when_the_model_differs(hub: HubSession, tmp_path: Path) -> None:
    buffer = io.StringIO()
    export_records(hub, buffer, with_vectors=True)
    path = tmp_path / "export.jsonl"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    other = make_hub(tmp_path / "other", dim=128)
    summary = import_records(other, path)
    assert summary.reembedded == 7
    rid = record_id_for("t", "0")
    assert other.store.record_vectors(rid, other.embedder.id)["problem"].shape == (128,)
    other.close()


def test_import_rejects_a_file_that_is_not_an_export(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"record": {}}) + "\n", encoding="utf-8")
    with make_hub(tmp_path) as h, pytest.raises(ValueError, match="not a ctxhub memory export"):
        import_records(h, path)


def test_digest_counts_unlabelled_records_for_the_frameworks_asked(hub: HubSession) -> None:
    upsert_record(
        hub,
        record_id_for("gh", "1"),
        RecordInput(
            problem="websocket transport closes after the bot replies",
            solution="keep the endpoint open until the pipeline ends",
            framework="pipecat",
            source="github:pipecat-ai/pipecat",
        ),
    )
    assert "keep the endpoint open" in ecosystem_digest(hub, ["python"], ["pipecat"]).markdown
    assert "keep the endpoint open" not in ecosystem_digest(hub, ["python"]).markdown


def test_browse_pages_stay_stable_when_a_record_is_seen_again(hub: HubSession) -> None:
    first = browse_solutions(hub, MemoryFilters(), limit=3)
    moved = record_id_for("t", "0")  # the oldest: on the last page
    hub.store.add_occurrence(moved, [], 1_800_000_000.0)  # now the most recent
    seen = [h.id for h in first.hits]
    cursor = first.next_cursor
    while cursor:
        page = browse_solutions(hub, MemoryFilters(), limit=3, cursor=cursor)
        seen += [h.id for h in page.hits]
        cursor = page.next_cursor
    assert len(seen) == len(set(seen))  # nothing twice
    assert set(seen) == {record_id_for("t", str(i)) for i in range(1, 7)}  # none skipped
    again = browse_solutions(hub, MemoryFilters(), limit=3)
    assert again.hits[0].id == moved
    with pytest.raises(InputError, match="not one this server returned"):
        browse_solutions(hub, MemoryFilters(), 3, "garbage")
