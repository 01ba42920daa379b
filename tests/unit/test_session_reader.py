"""Reading Claude Code transcripts: tool calls paired with their results, bad lines
skipped, timestamps, and which transcript files a mining run reads."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from ctxhub.memory.capture.session_reader import (
    MAX_OUTPUT,
    parse_timestamp,
    read_transcript,
    transcript_files,
)
from tests.unit.session_transcripts import (
    FIXTURES,
    INVOICER,
    NEVER_FIXED,
    NODE_SESSION,
    PYTEST_SESSION,
    Transcript,
)

# --- reader -----------------------------------------------------------------------------


def test_reader_pairs_tool_calls_with_their_results() -> None:
    t = read_transcript(PYTEST_SESSION)
    assert t.session_id == "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c"
    assert (t.project, t.cwd, t.git_branch) == (
        INVOICER.name,
        "/home/dev/code/invoicer",
        "fix/expiry",
    )
    calls = {c.id: c for c in t.tool_calls}
    assert [c.name for c in t.tool_calls] == ["Bash", "Read", "Bash", "Edit", "Edit", "Bash"]
    failing = calls["toolu_01PyFail7Qm2cXfTtYb8Lk3D"]
    assert failing.command == "python -m pytest tests/test_dates.py -q"
    assert failing.result is not None and failing.result.is_error
    assert "TypeError: can't compare" in failing.result.output
    passing = calls["toolu_01PyPass2Wn8"].result
    assert passing is not None and not passing.is_error and "4 passed" in passing.output
    assert failing.timestamp == parse_timestamp("2025-06-03T09:14:15.117Z")
    # One truncated JSON line at the end; summary and file-history lines are not errors.
    assert (t.lines, t.lines_skipped, t.orphan_results) == (20, 1, 0)


def test_reader_takes_text_parts_of_a_result_and_skips_bad_lines() -> None:
    node = read_transcript(NODE_SESSION)
    first = node.tool_calls[0]
    assert first.result is not None and "Error [ERR_REQUIRE_ESM]" in first.result.output
    broken = read_transcript(NEVER_FIXED)
    assert broken.lines_skipped == 2  # a line of prose, a JSON array
    dangling = broken.tool_calls[-1]
    assert dangling.id == "toolu_01Dangling5" and dangling.result is None


def test_reader_survives_garbage(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_huge", "python gen.py", "x" * (MAX_OUTPUT * 3) + "\nValueError: at the end")
    t.result("toolu_unknown", "a result for a call this file never made")
    t._line("assistant", [{"type": "image", "source": {}}, {"type": "mystery"}, "bare"])
    t._line("assistant", {"not": "a list"})
    path = t.write(tmp_path / "s.jsonl")
    with path.open("ab") as f:
        f.write(
            b'\xff\xfe not utf-8 \x00\n{"type": "user", "message": 3}\n' + b"[" * 100_000 + b"\n"
        )
    read = read_transcript(path)
    huge = read.tool_calls[0].result
    assert huge is not None and len(huge.output) < MAX_OUTPUT + 100
    assert huge.output.endswith("ValueError: at the end")  # the tail is what matters
    assert read.orphan_results == 1
    assert read.lines_skipped == 2  # the undecodable line and the absurdly nested one


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("2025-06-03T09:14:02.117Z", 1748942042.117),
        ("2025-06-03T09:14:02Z", 1748942042.0),
        ("2025-06-03T09:14:02.1Z", 1748942042.1),
        ("2025-06-03T09:14:02.123456789+00:00", 1748942042.123456),
        ("yesterday", None),
        (None, None),
    ],
)
def test_timestamps(stamp: str | None, expected: float | None) -> None:
    got = parse_timestamp(stamp)
    assert got == pytest.approx(expected) if expected is not None else got is None


def test_transcript_files_filters_projects_and_age(tmp_path: Path) -> None:
    assert [p for _, p in transcript_files(FIXTURES, project="invoicer")] == sorted(
        INVOICER.glob("*.jsonl")
    )
    assert len(transcript_files(FIXTURES, project="-srv-apps-billing-api")) == 1
    assert transcript_files(FIXTURES, project="nothing-like-this") == []
    assert transcript_files(NODE_SESSION) == [(NODE_SESSION.parent.name, NODE_SESSION)]
    old = Transcript().write(tmp_path / "p" / "old.jsonl")
    new = Transcript().write(tmp_path / "p" / "new.jsonl")
    os.utime(old, (time.time() - 10 * 86400,) * 2)
    assert transcript_files(tmp_path, since=time.time() - 86400) == [("p", new)]
