"""`ctxhub mine`: error -> fix -> passing-run sequences from Claude Code transcripts.

A sequence starts with a failing shell run (see `session_mining.run_outcome`), continues with
the edits the agent made (Edit, MultiEdit, Write, NotebookEdit) or the packages it installed,
and ends with a later successful run of the same command or a similar one
(`shell_commands.similar_commands`, the rule the live hook uses too). Each sequence becomes one
`RecordInput` (source "session", agent "claude-code") whose id is
`record_id_for("session", session_id, failing_tool_use_id)`, so
mining the same transcripts twice maps every sequence to the same record. A failure that
never passes again, or passes on a plain re-run with no change in between, yields nothing.

Every text field is redacted (`ctxhub.memory.redaction.redact`) before a record leaves this module.
Nothing here touches the store: the command writes what `mine_sessions` returns.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field

from ctxhub.core.limits import MAX_TEXT
from ctxhub.core.progress import NO_PROGRESS, Progress
from ctxhub.core.records import RecordInput, record_id_for
from ctxhub.memory.capture.session_mining import (
    EDIT_TOOLS,
    RUN_TOOLS,
    call_diff,
    path_of,
    run_outcome,
)
from ctxhub.memory.capture.session_reader import (
    TextEvent,
    ToolCall,
    Transcript,
    clip,
    read_transcript,
    transcript_files,
)
from ctxhub.memory.capture.shell_commands import (
    command_signature,
    only_inspects,
    shown_command,
    similar_commands,
)
from ctxhub.memory.capture.tool_runs import (
    error_type_of,
    join_diffs,
    key_error_lines,
    language_of,
    libraries_of,
    problem_text,
    relative_path,
    stack_trace,
)
from ctxhub.memory.redaction.redact import Redactor, redact_record

log = logging.getLogger(__name__)

AGENT = "claude-code"
MAX_DIFF = 8_000
MAX_TRACE = 6_000
MAX_NOTES = 4_000

# Texts that only announce the next step ("Let me run the tests again.").
_CHATTER = re.compile(
    r"^(?:now,? |ok(?:ay)?,? |great[,!]? )?(?:let me|let's|i'll|i will) "
    r"(?:now )?(?:run|re-?run|check|look|read|see|try|verify|test)\b[^.\n]*[.!:]?$",
    re.I,
)


class MinedRecord(BaseModel):
    id: str
    project: str
    path: str
    record: RecordInput


class MineSummary(BaseModel):
    files: int = 0
    files_failed: int = 0  # unreadable or unparseable files
    sessions: int = 0
    lines: int = 0
    lines_skipped: int = 0  # malformed lines
    failures: int = 0  # failing runs seen
    unresolved: int = 0  # failures never followed by a fix and a passing run
    redactions: int = 0  # secrets replaced in the records
    records: list[MinedRecord] = Field(default_factory=list)


@dataclass
class _Open:
    """A failure waiting for its passing run."""

    failure: ToolCall
    signature: str
    attempts: int = 1
    edits: list[ToolCall] = field(default_factory=list)
    commands: list[ToolCall] = field(default_factory=list)  # installs, sed -i ...
    analysis: list[str] = field(default_factory=list)  # text before the first change
    notes: list[str] = field(default_factory=list)  # text after it

    def note(self, text: str) -> None:
        (self.notes if self.edits or self.commands else self.analysis).append(text)


def _useful(text: str) -> bool:
    text = text.strip()
    return bool(text) and not _CHATTER.match(text)


def _join_notes(notes: list[str], limit: int) -> str:
    kept = [clip(n.strip(), 1_500) for n in notes if _useful(n)]
    return clip("\n\n".join(kept), limit)


def _learn(redactor: Redactor, transcript: Transcript) -> None:
    """Teach `redactor` every secret the transcript shows, so that a password first seen
    in a `cat .env` is scrubbed from the record even where no pattern would catch it."""
    for event in transcript.events:
        if isinstance(event, TextEvent):
            redactor.learn(event.text)
            continue
        for value in _strings(event.input):
            redactor.learn(value)
        if event.result is not None:
            redactor.learn(event.result.output)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _build(
    item: _Open, passing: ToolCall, closing: list[str], transcript: Transcript, redactor: Redactor
) -> MinedRecord:
    fail = item.failure
    assert fail.result is not None
    output = fail.result.output
    cwd = fail.cwd or transcript.cwd
    lines = key_error_lines(output)
    program = command_signature(fail.command).program

    problem = problem_text(shown_command(fail.command, cwd), lines)
    analysis = _join_notes(item.analysis, 1_000)
    if analysis:
        problem += "\n\n" + analysis

    edited: list[str] = []
    for edit in item.edits:
        path = path_of(edit)
        if path and relative_path(path, cwd) not in edited:
            edited.append(relative_path(path, cwd))
    explanation = _join_notes(item.notes + closing, MAX_NOTES) or analysis
    actions = []
    if edited:
        actions.append("Edited " + ", ".join(edited) + ".")
    if item.commands:
        ran = "; ".join(f"`{shown_command(c.command, cwd)}`" for c in item.commands)
        actions.append(f"Ran {ran}.")
    actions.append(f"Verified: `{shown_command(passing.command, cwd)}` passed.")
    solution = (explanation + "\n\n" if explanation else "") + " ".join(actions)

    diff = join_diffs([call_diff(e, cwd) for e in item.edits], MAX_DIFF)
    exact = " ".join(passing.command.split()) == " ".join(fail.command.split())
    confidence = 0.7 if exact else 0.6
    confidence -= 0.05 * min(item.attempts - 1, 3)
    if not item.edits:
        confidence = min(confidence, 0.55)

    passed_at = passing.result.timestamp if passing.result else None
    error_type = error_type_of(output, lines)
    trace = stack_trace(output)
    record = RecordInput(
        problem=clip(problem, MAX_TEXT // 2),
        solution=clip(solution, MAX_TEXT // 2),
        error_type=error_type[:200] if error_type else None,
        stack_trace=clip(trace, MAX_TRACE) if trace else None,
        code_diff=diff or None,
        file_path=edited[-1][:1000] if edited else None,  # the latest edit, as the hook
        language=language_of(edited[::-1], program),
        libraries=libraries_of(output),
        tags=[program] if program else [],
        agent=AGENT,
        confidence=round(max(confidence, 0.4), 2),
        resolved=True,
        source="session",
        session_id=fail.session_id[:200],
        created_at=fail.timestamp,
        last_seen=passed_at or passing.timestamp or fail.timestamp,
    )
    record_id = record_id_for("session", fail.session_id, fail.id)
    return MinedRecord(
        id=record_id,
        project=transcript.project,
        path=str(transcript.path),
        record=redact_record(record, redactor),
    )


@dataclass
class TranscriptResult:
    records: list[MinedRecord]
    failures: int
    unresolved: int
    redactions: int


def mine_transcript(transcript: Transcript, since: float | None = None) -> TranscriptResult:
    """The error -> fix -> pass sequences of one transcript, as records."""
    result = TranscriptResult([], 0, 0, 0)
    redactor: Redactor | None = None
    pending: list[_Open] = []  # open failures, oldest first
    events = transcript.events
    for index, event in enumerate(events):
        if isinstance(event, TextEvent):
            if event.role == "assistant":
                for waiting in pending:
                    waiting.note(event.text)
            continue
        if event.name in EDIT_TOOLS:
            if event.result is None or not event.result.is_error:
                for waiting in pending:
                    waiting.edits.append(event)
            continue
        if event.name not in RUN_TOOLS:
            continue
        outcome = run_outcome(event)
        previous = _similar(pending, event.command) if outcome else None
        if outcome == "failed":
            result.failures += 1
            assert event.result is not None
            lines = key_error_lines(event.result.output)
            signature = error_type_of(event.result.output, lines) or (lines[0] if lines else "")
            if previous is not None and previous.signature == signature:
                previous.attempts += 1  # the same error again: still the same problem
                continue
            if previous is not None:
                pending.remove(previous)
                result.unresolved += 1  # a different error: the first one is not verified
            pending.append(_Open(failure=event, signature=signature))
            continue
        if outcome != "passed":
            continue
        item = previous
        if item is None:
            if not only_inspects(event.command):  # it changed something: a step, as in the hook
                for waiting in pending:
                    waiting.commands.append(event)
            continue
        pending.remove(item)
        if not item.edits and not item.commands:
            result.unresolved += 1  # passed on a plain re-run: flaky, nothing learned
            continue
        closing: list[str] = []
        for later in events[index + 1 :]:
            if not isinstance(later, TextEvent):
                break
            if later.role == "assistant":
                closing.append(later.text)
        created = item.failure.timestamp
        if since is not None and created is not None and created < since:
            continue
        if redactor is None:
            redactor = Redactor()
            _learn(redactor, transcript)
        result.records.append(_build(item, event, closing, transcript, redactor))
    result.unresolved += len(pending)
    result.redactions = sum(redactor.counts.values()) if redactor else 0
    return result


def _similar(pending: list[_Open], command: str) -> _Open | None:
    """The latest open failure that `command` re-runs."""
    return next(
        (o for o in reversed(pending) if similar_commands(o.failure.command, command)), None
    )


def mine_sessions(
    directory: Path,
    project: str | None = None,
    since: float | None = None,
    progress: Progress = NO_PROGRESS,
) -> MineSummary:
    """Mine every transcript under `directory` (see `transcript_files`). Never raises on a
    bad transcript: unreadable or unparseable files and malformed lines are counted and
    skipped."""
    summary = MineSummary()
    files = transcript_files(directory, project=project, since=since)
    seen_ids: set[str] = set()
    sessions: set[str] = set()
    progress.start("transcripts", len(files))
    for name, path in files:
        summary.files += 1
        try:
            transcript = read_transcript(path, project=name)
            mined = mine_transcript(transcript, since=since)
        except Exception as exc:  # a transcript must never stop the others
            log.warning("skipped transcript %s: %s", path, exc)
            summary.files_failed += 1
            progress.advance(1)
            continue
        summary.lines += transcript.lines
        summary.lines_skipped += transcript.lines_skipped
        if transcript.events:
            sessions.add(transcript.session_id)
        summary.failures += mined.failures
        summary.unresolved += mined.unresolved
        for record in mined.records:
            if record.id in seen_ids:
                continue  # a resumed session repeats its parent's lines
            seen_ids.add(record.id)
            summary.records.append(record)
        summary.redactions += mined.redactions
        progress.advance(1)
    progress.done()
    summary.sessions = len(sessions)
    return summary
