"""The dashboard's endpoints on a PostgreSQL store: the same reads and writes through the
store protocols (the session's server from tests/conformance; skipped without one,
failed under CI)."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from ctxhub.dashboard.app import dashboard_app
from ctxhub.embed.hashing import HashingEmbedder
from tests.conformance.conftest import _stop_postgres, fresh_database
from tests.dashboard.conftest import index

__all__ = ["_stop_postgres"]  # the session's server stops after the tests


def test_every_page_reads_and_writes_a_postgres_store(
    tmp_path: Path, hashing_embedder: HashingEmbedder
) -> None:
    settings = index(tmp_path / "home", db=fresh_database())
    c = TestClient(dashboard_app(settings))
    overview = c.get("/api/overview").json()
    assert overview["store_path"].startswith("postgresql://")
    assert [s["name"] for s in overview["sources"]] == ["chime", "chime-docs", "chime-examples"]
    hits = c.post("/api/call", json={"tool": "search", "args": {"query": "websocket"}}).json()
    hit = hits["data"]["hits"][0]
    rated = c.post("/api/rate", json={"id": hit["id"], "worked": False, "query": "websocket"})
    assert rated.json()["not_worked_total"] == 1
    feedback = c.get("/api/feedback").json()
    assert feedback["queries"][0]["rated"][0]["id"] == hit["id"]
    record = c.get("/api/memory", params={"tag": "pip"}).json()["records"][0]
    edited = c.put(f"/api/memory/{record['id']}/tags", json={"tags": ["proxy"]})
    assert edited.json()["tags"] == ["proxy"]
    projection = c.get("/api/projection").json()
    assert len(projection["points"]) == overview["embedded"] and len(projection["records"]) == 2
