"""Where the dashboard is served: `ctxhub dashboard` on a loopback port, and `/` of
`ctxhub serve --http` behind the same token as /mcp (the page's files excepted)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
from starlette.testclient import TestClient

from ctxhub.config import Settings
from ctxhub.server.http import http_app

TOKEN = "s3cret-token"


def test_serve_http_mounts_the_dashboard_behind_the_token(indexed: Settings) -> None:
    app = http_app(indexed, "127.0.0.1", TOKEN)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        page = c.get("/")
        assert page.status_code == 200 and "<title>ctxhub dashboard</title>" in page.text
        assert c.get("/js/main.js").status_code == 200  # the page's files: no data
        assert c.get("/api/overview").status_code == 401
        assert c.post("/api/rate", json={"id": "x", "worked": True}).status_code == 401
        assert c.get("/../pyproject.toml").status_code in (401, 404)
        authed = {"Authorization": f"Bearer {TOKEN}"}
        overview = c.get("/api/overview", headers=authed)
        assert overview.status_code == 200 and len(overview.json()["sources"]) == 3
        assert c.post("/mcp", json={}).status_code == 401  # the MCP endpoint unchanged


def test_serve_http_refuses_a_foreign_host_on_loopback(indexed: Settings) -> None:
    """DNS rebinding: a page whose name resolves to 127.0.0.1 reads nothing."""
    app = http_app(indexed, "127.0.0.1", None)
    with TestClient(app, base_url="http://localhost:8765") as c:
        assert c.get("/api/overview").status_code == 200
        foreign = c.get("http://evil.example:8765/api/overview")
        assert foreign.status_code == 400


def test_ctxhub_dashboard_prints_its_url_and_serves(indexed: Settings, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    env["CTXHUB_HOME"] = str(indexed.home)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ctxhub", "dashboard", "--port", "0"],
        env=env,
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("ctxhub dashboard at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].split()[0]
        deadline = time.time() + 30
        while True:
            try:
                overview = httpx.get(f"{url}api/overview", timeout=10)
                break
            except httpx.ConnectError:
                assert time.time() < deadline
                time.sleep(0.1)
        assert overview.status_code == 200
        assert [s["name"] for s in overview.json()["sources"]] == [
            "chime",
            "chime-docs",
            "chime-examples",
        ]
        assert "ctxhub dashboard" in httpx.get(url, timeout=10).text
    finally:
        proc.terminate()
        proc.wait(10)


def test_ctxhub_dashboard_needs_a_token_off_loopback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    env["CTXHUB_HOME"] = str(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "ctxhub", "dashboard", "--host", "0.0.0.0"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "CTXHUB_TOKEN" in proc.stderr
