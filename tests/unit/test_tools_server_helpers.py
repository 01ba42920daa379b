"""The server's budget and error helpers, and the text rendering's edge cases."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
from pydantic import BaseModel, Field, ValidationError

from ctxhub.config import Settings
from ctxhub.core.budget import estimate_tokens
from ctxhub.core.errors import NotFoundError, describe_validation
from ctxhub.core.knowledge import Hit, SearchResponse
from ctxhub.server.http import is_loopback, loopback_security
from ctxhub.server.runtime import HubPool
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import render
from ctxhub.tools.fit import fit_search


class Args(BaseModel):
    limit: Annotated[int, Field(ge=1, le=50)]
    query: str


def test_describe_validation_is_one_precise_line() -> None:
    with pytest.raises(ValidationError) as caught:
        Args.model_validate({"limit": 500})
    text = describe_validation(caught.value)
    assert text == (
        "limit: Input should be less than or equal to 50 (got 500); query: Field required"
    )


def _response(n: int) -> SearchResponse:
    hits = [
        Hit(id=f"id{i}", kind="api", source="s", path="p.py", metadata={"bases": ["B"] * 40})
        for i in range(n)
    ]
    return SearchResponse(query="q", hits=hits, confidence=0.5, low_confidence=False)


def test_fit_search_asks_for_fewer_hits_until_it_fits() -> None:
    asked: list[int] = []

    def call(limit: int) -> SearchResponse:
        asked.append(limit)
        return _response(limit)

    response = fit_search(call, 50, 1000)
    assert estimate_tokens(response.model_dump_json()) <= 1000
    assert asked[0] == 50 and asked[-1] == len(response.hits) < 50
    assert response.truncated
    assert fit_search(call, 2, 8000).hits == _response(2).hits


def test_fence_outgrows_backticks_in_the_code() -> None:
    hit = Hit(
        id="x",
        kind="example",
        source="s",
        path="README.md",
        snippet="```bash\nls\n```",
        metadata={"language": "markdown"},
    )
    text = render.render_hit(1, hit)
    assert "````\n```bash\nls\n```\n````" in text
    assert text.splitlines()[1].startswith("id x · s:README.md")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", False),
        ("::", False),
        ("::ffff:10.0.0.1", False),
        ("192.168.1.5", False),
        ("example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_loopback_security_names_the_bound_address() -> None:
    security = loopback_security("127.0.0.2")
    assert security.enable_dns_rebinding_protection
    assert "127.0.0.2:*" in security.allowed_hosts and "evil.com:*" not in security.allowed_hosts
    assert "http://127.0.0.2:*" in security.allowed_origins
    assert "[::1]:*" in loopback_security("::1").allowed_hosts


def test_hub_pool_reuses_until_a_commit_or_an_error(tmp_path: Path) -> None:
    pool = HubPool(Settings(home=tmp_path))
    with pool.hub() as first:
        pass
    with pool.hub() as again:
        assert again is first  # idle HubSession reused: its connection's cache stays warm
        with pytest.raises(NotFoundError), pool.hub() as concurrent:
            assert concurrent is not first  # never shared while checked out
            raise NotFoundError("benign")
    with pool.hub() as reused:
        assert reused in (first, concurrent)
    with SQLiteStore(tmp_path / "ctxhub.db") as writer, writer.transaction():
        pass  # a commit moves the generation
    with pool.hub() as fresh:
        assert fresh is not first and fresh is not concurrent
    with pytest.raises(RuntimeError), pool.hub() as broken:
        raise RuntimeError("unexpected")
    with pool.hub() as after:
        assert after is not broken
    pool.close()
