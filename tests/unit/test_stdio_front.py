"""The handshake cache behind the stdio front: what it answers, for which session, and
when it forgets (the process-level behaviour is in tests/integration/test_mcp_server.py)."""

from __future__ import annotations

from pathlib import Path

from ctxhub.server.stdio_front import HandshakeCache, package_key

INIT = {"protocolVersion": "2025-06-18", "capabilities": {}}


def test_slots_follow_the_protocol_version_asked_for() -> None:
    assert HandshakeCache.slot("initialize", INIT, None) == "initialize@2025-06-18"
    assert HandshakeCache.slot("tools/list", {}, "2025-06-18") == "tools/list@2025-06-18"
    assert HandshakeCache.slot("ping", None, "2025-06-18") == "ping@2025-06-18"
    # no handshake seen (another protocol flow), a later page, or any other request
    assert HandshakeCache.slot("tools/list", {}, None) is None
    assert HandshakeCache.slot("tools/list", {"cursor": "2"}, "2025-06-18") is None
    assert HandshakeCache.slot("tools/call", {"name": "search"}, "2025-06-18") is None
    assert HandshakeCache.slot("initialize", {}, None) is None


def test_answers_are_learned_saved_and_kept_for_the_same_key(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "handshake.json"
    cache = HandshakeCache(path, "k1")
    assert cache.answers == {}
    assert cache.learn("tools/list@v", {"tools": [{"name": "search"}]})
    cache.save()
    again = HandshakeCache(path, "k1")
    assert again.answers == {"tools/list@v": {"tools": [{"name": "search"}]}}
    assert again.learn("tools/list@v", {"tools": [{"name": "search"}]})  # unchanged


def test_a_changed_answer_is_reported_stale_and_relearned(tmp_path: Path) -> None:
    cache = HandshakeCache(tmp_path / "h.json", "k")
    cache.learn("tools/list@v", {"tools": []})
    assert not cache.learn("tools/list@v", {"tools": [{"name": "search"}]})
    assert cache.answers["tools/list@v"] == {"tools": [{"name": "search"}]}


def test_another_key_or_a_broken_file_starts_empty(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    cache = HandshakeCache(path, "old")
    cache.learn("ping@v", {})
    cache.save()
    assert HandshakeCache(path, "new").answers == {}
    path.write_text("{not json", encoding="utf-8")
    assert HandshakeCache(path, "old").answers == {}


def test_the_package_key_is_stable_within_one_install() -> None:
    assert package_key() == package_key() and len(package_key()) == 16
