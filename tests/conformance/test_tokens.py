"""Bearer tokens and who-did-what, on every backend: tokens kept by digest, names unique
among live tokens, revocation seen by another handle on the same store at once, and the
author of a rating and a record kept."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from ctxhub.core.records import Record
from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def other_handle(store: HubStore, tmp_path: Path) -> HubStore:
    """A second store on the same database, as another server process would open it."""
    location = getattr(store, "_dsn", None) or str(tmp_path / "ctxhub.db")
    return open_store(location)


def test_tokens_are_found_by_digest_and_revoked_everywhere(
    hub_store: HubStore, tmp_path: Path
) -> None:
    assert not hub_store.tokens_configured()
    assert hub_store.add_token("alice", digest("s-alice"), read_only=False)
    assert hub_store.add_token("ci-bot", digest("s-bot"), read_only=True)
    assert not hub_store.add_token("alice", digest("s-other"), read_only=False)  # live name

    other = other_handle(hub_store, tmp_path)
    try:
        found = other.token_for(digest("s-bot"))
        assert found is not None and found.name == "ci-bot" and found.read_only
        assert other.token_for(digest("s-other")) is None  # the refused add wrote nothing
        assert other.token_for("s-alice") is None  # the secret itself is no key

        assert hub_store.revoke_token("alice")
        assert not hub_store.revoke_token("alice")  # already revoked
        assert not hub_store.revoke_token("nobody")
        assert other.token_for(digest("s-alice")) is None  # at once, through the other
        assert other.tokens_configured()  # a revoked token still means auth is on
        listed = {t.name: t for t in other.tokens()}
        assert list(listed) == ["alice", "ci-bot"]
        assert listed["alice"].revoked_at is not None and listed["ci-bot"].live
    finally:
        other.close()

    # a revoked name can be given a new secret; the old one stays dead
    assert hub_store.add_token("alice", digest("s-alice-2"), read_only=True)
    again = hub_store.token_for(digest("s-alice-2"))
    assert again is not None and again.read_only and again.live
    assert hub_store.token_for(digest("s-alice")) is None


def test_ratings_and_records_carry_their_author(hub_store: HubStore) -> None:
    hub_store.bind_model("m", 4)
    record = Record(
        id="r1", problem="p", solution="s", logged_by="alice", created_at=1.0, last_seen=1.0
    )
    vec = np.full(4, 0.5, dtype=np.float32)
    hub_store.put_record(record, "h", {"problem": vec}, "m")
    (stored,) = hub_store.get_records(["r1"])
    assert stored.logged_by == "alice"

    hub_store.add_feedback("r1", "memory", True, author="bob")
    hub_store.add_feedback("r1", "memory", False, author="bob")
    hub_store.add_feedback("r1", "memory", True, author="alice")
    hub_store.add_feedback("r1", "memory", True)  # a local rating: no author
    assert hub_store.ratings_by("r1") == [("alice", 1, 0), ("bob", 1, 1)]
    (rated,) = hub_store.get_records(["r1"])
    assert (rated.worked, rated.not_worked) == (3, 1)
