"""Session mining: the failure signals, and the error -> fix -> pass sequences found in
the fixture transcripts and in edge cases, redacted and deterministic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctxhub.core.records import record_id_for
from ctxhub.memory.capture.session_mining import call_diff, is_failure
from ctxhub.memory.capture.session_reader import (
    ToolCall,
    ToolResult,
    parse_timestamp,
    read_transcript,
)
from ctxhub.memory.capture.sessions import MineSummary, mine_sessions, mine_transcript
from tests.unit.session_transcripts import (
    FIXTURES,
    INVOICER,
    NEVER_FIXED,
    SECRETS,
    SECRETS_SESSION,
    Transcript,
    mine_one,
)
from tests.unit.tool_samples import PYTEST_FAIL, TRACE

# --- signals (the judging itself is tested in test_tool_runs.py) ----------------------


def _call(command: str, output: str, error: bool) -> ToolCall:
    call = ToolCall("t1", "Bash", {"command": command}, None, "s", None)
    call.result = ToolResult(output, error, None)
    return call


def test_failures_come_from_exit_status_or_output() -> None:
    assert is_failure(_call("pytest", "Exit code 1\n" + PYTEST_FAIL, True))
    assert is_failure(_call("pytest | tail -3", "1 failed, 1 passed\nFAILED tests/a.py::t", False))
    assert not is_failure(_call("pytest", "2 passed in 0.1s", False))
    assert not is_failure(_call("grep -r foo .", "Exit code 1", True))  # no match is not a bug
    assert not is_failure(_call("rm build/app.o", "rm: cannot remove 'build/app.o'", True))
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected"
    assert not is_failure(_call("docker compose up -d", rejected, True))
    edit = ToolCall("t2", "Edit", {"file_path": "a.py"}, None, "s", None)
    edit.result = ToolResult("String to replace not found", True, None)
    assert not is_failure(edit)


def test_edit_diffs_are_relative_to_the_session_cwd() -> None:
    edit = ToolCall("t", "Edit", {"file_path": "/work/app/src/a.py", "old_string": "x = 1\n",
                                   "new_string": "x = 2\n"}, None, "s", "/work/app")  # fmt: skip
    assert call_diff(edit, "/work/app") == "--- a/src/a.py\n+++ b/src/a.py\n@@\n-x = 1\n+x = 2"
    write = ToolCall("t", "Write", {"file_path": "/elsewhere/b.txt", "content": "hi\nthere"},
                     None, "s", None)  # fmt: skip
    assert call_diff(write, "/work/app") == "+++ b//elsewhere/b.txt (written)\n+hi\n+there"
    notebook = ToolCall("t", "NotebookEdit", {"notebook_path": "/work/app/nb.ipynb",
                        "new_source": "x = 1"}, None, "s", None)  # fmt: skip
    assert call_diff(notebook, "/work/app") == "--- a/nb.ipynb\n+++ b/nb.ipynb\n@@\n+x = 1"


# --- sequences on the fixture transcripts ------------------------------------------------


@pytest.fixture(scope="module")
def mined() -> MineSummary:
    return mine_sessions(FIXTURES)


def _by_session(summary: MineSummary, session_id: str) -> list[Any]:
    return [m.record for m in summary.records if m.record.session_id == session_id]


def test_fixture_totals(mined: MineSummary) -> None:
    assert (mined.files, mined.sessions, mined.files_failed) == (4, 4, 0)
    assert mined.lines_skipped == 3
    assert len(mined.records) == 3
    # npm run lint, the migration and the flaky re-run never led to a verified fix.
    assert (mined.failures, mined.unresolved) == (6, 3)


def test_pytest_failure_fixed_by_an_edit(mined: MineSummary) -> None:
    [found] = [m for m in mined.records if m.project == INVOICER.name]
    r = found.record
    assert found.id == record_id_for(
        "session", "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c", "toolu_01PyFail7Qm2cXfTtYb8Lk3D"
    )
    assert r.problem.startswith(
        "`python -m pytest tests/test_dates.py -q` failed: TypeError: can't compare"
        " offset-naive and offset-aware datetimes"
    )
    assert "naive `datetime.now()`" in r.problem  # the agent's diagnosis after the error
    assert r.error_type == "TypeError"
    assert r.stack_trace is not None and "src/invoicer/dates.py:18: TypeError" in r.stack_trace
    assert r.solution.startswith("All 4 tests pass. `is_expired` now takes")
    assert "Now let me run the tests again" not in r.solution
    assert r.solution.endswith(
        "Edited src/invoicer/dates.py. Verified: `python -m pytest tests/test_dates.py -q` passed."
    )
    assert r.code_diff is not None
    assert "-        return datetime.now() > self.expires_at" in r.code_diff
    assert "+        return datetime.now(timezone.utc) > self.expires_at" in r.code_diff
    assert "+from datetime import datetime, timezone" in r.code_diff
    assert (r.file_path, r.language, r.tags) == ("src/invoicer/dates.py", "python", ["pytest"])
    assert (r.source, r.agent, r.resolved, r.confidence) == ("session", "claude-code", True, 0.7)
    assert r.created_at == parse_timestamp("2025-06-03T09:14:15.117Z")
    assert r.last_seen is not None and r.created_at is not None and r.last_seen > r.created_at


def test_node_esm_error_fixed_by_imports_and_package_json(mined: MineSummary) -> None:
    [r] = _by_session(mined, "8c41d0b2-77e3-4f0e-a6b1-2c9d5e8f0a13")
    assert r.error_type == "ERR_REQUIRE_ESM"
    assert r.problem.startswith("`node src/index.js` failed: Error [ERR_REQUIRE_ESM]")
    assert "require() of ES Module" in r.problem and "ES module only" in r.problem
    assert r.code_diff is not None
    assert '+  "type": "module",' in r.code_diff
    assert "-const fetch = require('node-fetch');\n+import fetch from 'node-fetch';" in r.code_diff
    assert "+export { getWeather };" in r.code_diff
    assert "Edited package.json, src/client.js, src/index.js." in r.solution
    # the latest edit, as the live hook reports it
    assert (r.language, r.libraries, r.file_path) == ("javascript", ["node-fetch"], "src/index.js")


def test_unfixed_and_flaky_failures_give_no_record(mined: MineSummary) -> None:
    assert _by_session(mined, "b7e9d3a4-0c1f-4a2b-8d6e-5f7a9b1c3d2e") == []
    result = mine_transcript(read_transcript(NEVER_FIXED))
    assert (result.records, result.failures, result.unresolved) == ([], 2, 2)


def test_secrets_never_leave_the_miner(mined: MineSummary) -> None:
    [found] = [m for m in mined.records if m.project == "-srv-apps-billing-api"]
    blob = found.record.model_dump_json()
    for secret in SECRETS:
        assert secret in SECRETS_SESSION.read_text()  # the fixture really leaks it ...
        assert secret not in blob  # ... and the record does not
    r = found.record
    assert "postgres://billing:[REDACTED:password]@db.internal:5432/billing" in r.problem
    assert "the password `[REDACTED:password]`" in r.solution  # prose
    assert "stop accepting [REDACTED:secret] then" in r.solution  # learned from the URL
    assert r.code_diff is not None and "STRIPE_SECRET_KEY=[REDACTED:stripe_key]" in r.code_diff
    assert r.error_type == "NoSuchModuleError" and mined.redactions >= 8


def test_a_secret_seen_anywhere_in_the_session_is_scrubbed(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_env", "cat .env", "DB_USER=app\nDB_PASSWORD=Qx7!mPz2k\n")
    t.bash(
        "toolu_f", "python seed.py", "RuntimeError: login rejected for app/Qx7!mPz2k", error=True
    )
    t.edit("toolu_e", "/work/app/seed.py", "user=app", "user='app'")
    t.bash("toolu_p", "python seed.py", "seeded 12 rows")
    [found] = mine_one(t, tmp_path).records
    assert "Qx7!mPz2k" not in found.record.model_dump_json()
    assert "login rejected for app/[REDACTED:secret]" in found.record.problem


def test_mining_is_deterministic() -> None:
    first, second = mine_sessions(FIXTURES), mine_sessions(FIXTURES)
    assert [m.id for m in first.records] == [m.id for m in second.records]
    assert first.model_dump() == second.model_dump()


# --- sequences on edge cases -------------------------------------------------------------


def test_a_similar_command_counts_as_the_passing_run(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest tests/test_calc.py -x", PYTEST_FAIL, error=True)
    t.edit("toolu_e", "/work/app/calc.py", "return a - b", "return a + b")
    t.bash("toolu_p", "python -m pytest", "2 passed in 0.01s")
    [found] = mine_one(t, tmp_path).records
    assert found.id == record_id_for("session", "sess-1", "toolu_f")
    assert found.record.confidence == 0.6  # not the exact same command
    assert found.record.solution == "Edited calc.py. Verified: `python -m pytest` passed."


def test_an_unrelated_passing_command_does_not_close_a_failure(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest", PYTEST_FAIL, error=True)
    t.edit("toolu_e", "/work/app/calc.py", "a - b", "a + b")
    t.bash("toolu_p", "npm test", "Tests: 3 passed")
    summary = mine_one(t, tmp_path)
    assert summary.records == [] and summary.unresolved == 1


def test_a_run_of_another_target_does_not_close_a_failure(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest tests/test_calc.py", PYTEST_FAIL, error=True)
    t.edit("toolu_e", "/work/app/calc.py", "a - b", "a + b")
    t.bash("toolu_o", "pytest tests/test_other.py", "3 passed")  # says nothing of calc
    t.bash("toolu_p", "pytest tests/test_calc.py -q", "2 passed")
    [found] = mine_one(t, tmp_path).records
    assert found.record.solution.endswith("Verified: `pytest tests/test_calc.py -q` passed.")


def test_an_install_is_a_fix(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "python app.py", TRACE, error=True)
    t.say("PyYAML is missing from the environment.")
    t.bash("toolu_i", "pip install pyyaml", "Successfully installed PyYAML-6.0.2")
    t.bash("toolu_p", "python app.py", "loaded 3 settings")
    [found] = mine_one(t, tmp_path).records
    r = found.record
    assert r.error_type == "ModuleNotFoundError" and r.libraries == ["yaml"]
    assert "Ran `pip install pyyaml`." in r.solution and r.code_diff is None
    assert r.confidence <= 0.55


def test_a_shell_command_that_changes_files_is_a_fix_as_in_the_hook(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest tests/test_calc.py", PYTEST_FAIL, error=True)
    t.bash("toolu_r", "grep -n 'a - b' calc.py", "3:    return a - b")  # only looks
    t.bash("toolu_s", "sed -i 's/a - b/a + b/' calc.py", "")
    t.bash("toolu_p", "pytest tests/test_calc.py", "2 passed")
    [found] = mine_one(t, tmp_path).records
    assert "Ran `sed -i 's/a - b/a + b/' calc.py`." in found.record.solution
    assert "grep" not in found.record.solution


def test_the_same_error_again_is_one_problem_with_more_attempts(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f1", "pytest", PYTEST_FAIL, error=True)
    t.edit("toolu_e1", "/work/app/calc.py", "a - b", "a * b")
    t.bash("toolu_f2", "pytest", PYTEST_FAIL, error=True)
    t.edit("toolu_e2", "/work/app/calc.py", "a * b", "a + b")
    t.bash("toolu_p", "pytest", "2 passed")
    [found] = mine_one(t, tmp_path).records
    assert found.id == record_id_for("session", "sess-1", "toolu_f1")
    assert found.record.confidence == 0.65
    assert found.record.code_diff is not None and found.record.code_diff.count("--- a/calc.py") == 2


def test_a_failed_edit_is_no_fix_and_a_plain_rerun_is_flaky(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest", PYTEST_FAIL, error=True)
    t.edit("toolu_e", "/work/app/calc.py", "not there", "x", error=True)
    t.bash("toolu_p", "pytest", "2 passed")
    summary = mine_one(t, tmp_path)
    assert summary.records == [] and (summary.failures, summary.unresolved) == (1, 1)


def test_failure_shown_only_in_output_counts(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest 2>&1 | tail -3", PYTEST_FAIL)  # exit 0 through the pipe
    t.edit("toolu_e", "/work/app/calc.py", "a - b", "a + b")
    t.bash("toolu_p", "pytest 2>&1 | tail -3", "2 passed")
    [found] = mine_one(t, tmp_path).records
    assert found.record.error_type == "AssertionError" and found.record.confidence == 0.7


def test_since_drops_older_sequences(tmp_path: Path) -> None:
    t = Transcript()
    t.bash("toolu_f", "pytest", PYTEST_FAIL, error=True)
    t.edit("toolu_e", "/work/app/calc.py", "a - b", "a + b")
    t.bash("toolu_p", "pytest", "2 passed")
    path = t.write(tmp_path / "p" / "s.jsonl")
    assert len(mine_sessions(tmp_path, since=t.clock - 3600).records) == 1
    assert mine_sessions(tmp_path, since=t.clock + 3600).records == []
    assert path.exists()
