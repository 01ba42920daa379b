"""Redaction as its callers use it: idempotent and counted, a learned secret scrubbed
everywhere, every text field of a record cleaned, fast on a large log."""

from __future__ import annotations

import time

from ctxhub.core.records import RecordInput
from ctxhub.memory.redaction.redact import Redactor, redact, redact_counted, redact_record
from tests.unit.redact_samples import GITHUB, OPENAI, PEM


def test_redaction_is_idempotent_and_counted() -> None:
    text = (
        f"DATABASE_URL=postgres://app:Sup3rS3cret@db/app\nGITHUB_TOKEN={GITHUB}\n"
        f"password: hunter22\n{PEM}\n"
    )
    once, counts = redact_counted(text)
    assert redact(once) == once
    assert counts == {"password": 2, "github_token": 1, "private_key": 1}


def test_redactor_scrubs_a_learned_secret_everywhere() -> None:
    redactor = Redactor()
    redactor.learn("postgres://billing:Wz8kLq2vRt@db.internal/billing")
    out = redactor.redact("it worked once Wz8kLq2vRt was set")
    assert out == "it worked once [REDACTED:secret] was set"
    assert redactor.counts["secret"] == 1
    # A plain word never becomes a known secret: it would eat ordinary text.
    plain = Redactor()
    plain.learn("postgres://postgres:postgres@localhost/db")
    assert plain.redact("run postgres locally") == "run postgres locally"


def test_redact_record_cleans_every_text_field_and_keeps_the_rest() -> None:
    record = RecordInput(
        problem=f"push failed with GITHUB_TOKEN={GITHUB}",
        solution="set password: hunter22 in the config; hunter22 must be quoted",
        error_type="AuthError",
        stack_trace=f"Authorization: Bearer {GITHUB}",
        code_snippet=f"client = OpenAI(api_key='{OPENAI}')",
        code_diff="-DB_PASSWORD=old\n+DB_PASSWORD=n3w-Passw0rd",
        file_path="config/.env",
        url="https://bob:Xy9pass@git.example.com/repo",
        language="Python",
        tags=["auth"],
        confidence=0.8,
        source="session",
        session_id="s-1",
    )
    clean = redact_record(record)
    dumped = clean.model_dump_json()
    for secret in (GITHUB, OPENAI, "hunter22", "n3w-Passw0rd", "Xy9pass"):
        assert secret not in dumped
    assert clean.language == "python" and clean.tags == ["auth"] and clean.confidence == 0.8
    assert clean.error_type == "AuthError" and clean.file_path == "config/.env"
    assert clean.url == "https://bob:[REDACTED:password]@git.example.com/repo"


def test_redaction_is_fast_on_a_large_log() -> None:
    line = "2025-06-03 09:14:02 INFO worker.py:88 processed batch 1234 in 0.52s token_count=17\n"
    text = line * 20_000 + f"GITHUB_TOKEN={GITHUB}\n"  # ~1.7 MB
    started = time.perf_counter()
    out = redact(text)
    assert GITHUB not in out and out.count("[REDACTED:") == 1
    assert time.perf_counter() - started < 5.0
