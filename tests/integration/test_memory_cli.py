"""The memory commands end to end: `ctxhub log / recall / rate / browse / digest / export /
import` as subprocesses, with the real model and a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.conftest import run_ctxhub

pytestmark = pytest.mark.integration


def test_log_recall_rate_export_import(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    logged = json.loads(
        run_ctxhub(
            home,
            "log",
            "--problem",
            "numpy 1.24 removed np.int so old code raises AttributeError",
            "--solution",
            "Replace np.int with the builtin int or np.int64",
            "--error-type",
            "AttributeError",
            "--language",
            "Python",
            "--tag",
            "NumPy",
            "--json",
        ).stdout
    )
    assert logged["action"] == "created"
    found = json.loads(
        run_ctxhub(
            home, "recall", "AttributeError: module 'numpy' has no attribute 'int'", "--json"
        ).stdout
    )
    assert found["hits"][0]["id"] == logged["id"]
    text = run_ctxhub(home, "recall", "AttributeError: module 'numpy' has no attribute 'int'")
    assert "np.int64" in text.stdout and "why:" in text.stdout
    run_ctxhub(home, "rate", logged["id"], "worked")
    rated = json.loads(run_ctxhub(home, "rate", logged["id"], "failed", "--json").stdout)
    assert (rated["worked_total"], rated["not_worked_total"]) == (1, 1)
    assert run_ctxhub(home, "rate", "missing-id", "worked", check=False).returncode == 1
    listed = json.loads(run_ctxhub(home, "browse", "--tag", "numpy", "--json").stdout)
    assert listed["total"] == 1
    assert "np.int64" in run_ctxhub(home, "digest", "--language", "python").stdout

    export = tmp_path / "memory.jsonl"
    run_ctxhub(home, "export", str(export), "--vectors")
    other = tmp_path / "other"
    other.mkdir()
    summary = json.loads(run_ctxhub(other, "import", str(export), "--json").stdout)
    assert (summary["created"], summary["reembedded"], summary["skipped"]) == (1, 0, [])
    again = json.loads(
        run_ctxhub(other, "recall", "np.int attribute error after upgrading numpy", "--json").stdout
    )
    assert again["hits"][0]["id"] == logged["id"]
    status = json.loads(run_ctxhub(other, "status", "--json").stdout)
    assert status["memory"]["records"] == 1 and status["memory"]["worked"] == 1


def test_doctor_says_an_empty_store_is_empty(tmp_path: Path) -> None:
    """Empty is not broken (exit 0), but the check says what to do next."""
    done = run_ctxhub(tmp_path, "doctor")
    assert "the store is empty; index a source with `ctxhub add SOURCE`" in done.stdout
    assert "FAIL" not in done.stdout
