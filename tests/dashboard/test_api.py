"""The /api/ endpoints against the real app and a real store (no browser)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from ctxhub.config import Settings
from ctxhub.dashboard.app import dashboard_app

JSON = {"content-type": "application/json"}


def client(settings: Settings) -> TestClient:
    return TestClient(dashboard_app(settings))


def first_hit(c: TestClient, query: str = "websocket reconnect") -> dict[str, Any]:
    answer = c.post("/api/call", json={"tool": "search", "args": {"query": query}})
    assert answer.status_code == 200, answer.text
    hits: list[dict[str, Any]] = answer.json()["data"]["hits"]
    assert hits
    return hits[0]


def test_overview_lists_every_source_with_counts(indexed: Settings) -> None:
    data = client(indexed).get("/api/overview").json()
    names = [s["name"] for s in data["sources"]]
    assert names == ["chime", "chime-docs", "chime-examples"]
    assert all(s["refreshable"] for s in data["sources"])
    assert data["sources"][0]["chunks"].get("api", 0) > 0
    assert data["chunks"] == sum(sum(s["chunks"].values()) for s in data["sources"])
    assert data["empty"] is False and data["memory"]["records"] == 2


def test_empty_store_says_how_to_add_a_source(empty: Settings) -> None:
    c = client(empty)
    data = c.get("/api/overview").json()
    assert data["empty"] is True
    assert data["empty_message"].startswith("add a source: ctxhub add")
    assert c.get("/api/projection").json()["points"] == []
    assert c.get("/api/memory").json()["total"] == 0
    assert c.get("/api/feedback").json() == {"queries": [], "failing": []}


def test_search_hits_explain_their_ranks(indexed: Settings) -> None:
    hit = first_hit(client(indexed))
    assert hit["signals"], hit  # which paths found it, at which rank
    assert set(hit["signals"]) <= {"bm25", "dense", "symbol", "phrase"}
    assert all(s["rank"] >= 1 for s in hit["signals"].values())
    assert 0.0 <= hit["score"] <= 1.0


def test_the_playground_refuses_tools_that_write(indexed: Settings) -> None:
    answer = client(indexed).post("/api/call", json={"tool": "log_solution", "args": {}})
    assert answer.status_code == 400
    assert "log_solution" in answer.json()["error"]


def test_rating_a_hit_counts_it(indexed: Settings) -> None:
    c = client(indexed)
    hit = first_hit(c)
    before = c.get(f"/api/chunks/{hit['id']}").json()["not_useful"]
    rated = c.post(
        "/api/rate", json={"id": hit["id"], "worked": False, "query": "websocket reconnect"}
    )
    assert rated.status_code == 200, rated.text
    assert rated.json()["not_worked_total"] == before + 1
    assert c.get(f"/api/chunks/{hit['id']}").json()["not_useful"] == before + 1
    queries = c.get("/api/feedback").json()["queries"]
    assert queries[0]["query"] == "websocket reconnect" and queries[0]["not_useful"] == 1
    assert [h["id"] for h in queries[0]["rated"]] == [hit["id"]]  # what the agent got
    assert queries[0]["rated"][0]["rated_for_query"] == 1


def test_unknown_ids_are_404_with_a_message(indexed: Settings) -> None:
    c = client(indexed)
    for path in ("/api/chunks/nope", "/api/memory/nope", "/api/jobs/99", "/api/nothing"):
        answer = c.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"], path
    assert "nope" in c.get("/api/chunks/nope").json()["error"]
    assert c.delete("/api/memory/nope", headers=JSON).status_code == 404
    assert c.post("/api/refresh/nope", headers=JSON).status_code == 404
    rated = c.post("/api/rate", json={"id": "nope-at-all", "worked": True})
    assert rated.status_code == 404


def test_writes_need_a_json_request(indexed: Settings) -> None:
    """A form another site posts (no JSON content type) is refused."""
    c = client(indexed)
    hit = first_hit(c)
    answer = c.post("/api/rate", content=f'{{"id": "{hit["id"]}", "worked": true}}')
    assert answer.status_code == 415


def test_memory_filters_tags_forget_and_export(indexed: Settings) -> None:
    c = client(indexed)
    records = c.get("/api/memory", params={"tag": "websocket"}).json()
    assert records["total"] == 1
    record = records["records"][0]
    assert record["tags"] == ["websocket", "network"]
    edited = c.put(f"/api/memory/{record['id']}/tags", json={"tags": ["Websocket", "retry"]})
    assert edited.status_code == 200, edited.text
    assert edited.json()["tags"] == ["websocket", "retry"]
    assert c.get("/api/memory", params={"tag": "network"}).json()["total"] == 0
    assert c.get("/api/memory", params={"language": "python"}).json()["total"] == 2
    exported = c.get("/api/memory/export")
    assert exported.status_code == 200 and len(exported.text.splitlines()) == 3  # header + 2
    assert c.delete(f"/api/memory/{record['id']}", headers=JSON).json()["deleted"] == record["id"]
    assert c.get(f"/api/memory/{record['id']}").status_code == 404
    assert c.get("/api/memory").json()["total"] == 1


def test_projection_maps_every_embedded_chunk_and_the_records(indexed: Settings) -> None:
    c = client(indexed)
    data = c.get("/api/projection").json()
    overview = c.get("/api/overview").json()
    assert len(data["points"]) == overview["embedded"]
    ids = {p[0] for p in data["points"]}
    assert len(ids) == len(data["points"])
    assert all(-1.0 <= v <= 1.0 for p in data["points"] for v in p[1:4])
    assert {data["sources"][p[4]] for p in data["points"]} == {
        "chime",
        "chime-docs",
        "chime-examples",
    }
    assert len(data["records"]) == 2
    again = c.get("/api/projection").json()
    assert again["points"] == data["points"]  # cached per generation: the same map


def test_refresh_runs_through_the_refresh_use_case(indexed: Settings) -> None:
    import time

    c = client(indexed)
    started = c.post("/api/refresh/chime-docs", headers=JSON)
    assert started.status_code == 202, started.text
    job = started.json()
    deadline = time.time() + 60
    while job["state"] == "running" and time.time() < deadline:
        time.sleep(0.1)
        job = c.get(f"/api/jobs/{job['id']}").json()
    assert job["state"] == "ok", job
    assert job["summary"]["sources"][0]["name"] == "chime-docs"
    assert c.get("/api/overview").json()["jobs"][0]["id"] == job["id"]


@dataclass
class _Caller:
    name: str | None
    read_only: bool


class _As:
    """Stands in for the auth middleware's contract: it sets scope['ctxhub_caller']."""

    def __init__(self, app: ASGIApp, caller: _Caller) -> None:
        self.app, self.caller = app, caller

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["ctxhub_caller"] = self.caller
        await self.app(scope, receive, send)


def test_a_read_only_caller_reads_but_cannot_write(indexed: Settings) -> None:
    c = TestClient(_As(dashboard_app(indexed), _Caller("viewer", read_only=True)))
    assert c.get("/api/overview").status_code == 200
    hit = first_hit(c)
    for answer in (
        c.post("/api/rate", json={"id": hit["id"], "worked": True}),
        c.post("/api/refresh/chime", headers=JSON),
        c.put("/api/memory/x/tags", json={"tags": []}),
        c.delete("/api/memory/x", headers=JSON),
    ):
        assert answer.status_code == 403
        assert "read-only" in answer.json()["error"]


def test_a_named_caller_rates_as_itself(indexed: Settings) -> None:
    from ctxhub.session import HubSession

    c = TestClient(_As(dashboard_app(indexed), _Caller("alice", read_only=False)))
    hit = first_hit(c)
    assert c.post("/api/rate", json={"id": hit["id"], "worked": True}).status_code == 200
    with HubSession(indexed) as hub:
        assert hub.store.knowledge_feedback([hit["id"]])[hit["id"]] == (1, 0)


def test_the_page_loads_nothing_from_the_network() -> None:
    """Offline: every script and style is a file of the package (shipped in the wheel:
    hatch packs src/ctxhub whole); no URL points off the server."""
    import re

    from ctxhub.dashboard.app import STATIC

    files = [p for p in STATIC.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"index.html", "main.js", "map.js", "style.css"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", text), path
        assert not re.search(r"""(import|from)\s*\(?\s*["']https?://""", text), path
    for name in re.findall(r"""(?:src|href)="([^"#:]+)\"""", (STATIC / "index.html").read_text()):
        assert (STATIC / name).is_file(), name


def test_overview_counts_follow_every_write(indexed: Settings) -> None:
    """The embedding coverage is kept per generation: a write shows at the next call."""
    from ctxhub.core.knowledge import content_hash
    from ctxhub.embed.hashing import HashingEmbedder
    from ctxhub.session import HubSession
    from tests.conftest import make_chunk

    c = client(indexed)
    before = c.get("/api/overview").json()
    chunk = make_chunk(source="chime", path="extra.py", symbol="chime.extra.f")
    with HubSession(indexed) as hub:
        hub.store.replace_file("chime", "extra.py", [chunk])
    added = c.get("/api/overview").json()
    assert (added["chunks"], added["embedded"]) == (before["chunks"] + 1, before["embedded"])
    with HubSession(indexed) as hub:
        model = HashingEmbedder(dim=256)
        hub.store.put_embeddings(
            model.id, [(content_hash(chunk.embed_text), model.embed([chunk.embed_text])[0])]
        )
    assert c.get("/api/overview").json()["embedded"] == before["embedded"] + 1
