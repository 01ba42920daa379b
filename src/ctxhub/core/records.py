"""The memory vocabulary: what an agent logs (`RecordInput`), what the store keeps
(`Record`), and what logging, rating and searching answer.

Language, framework, libraries and tags are normalised on the way in (stripped,
lowercased, de-duplicated), so `Python`, `python ` and `PYTHON` are one filter value.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from ctxhub.core.limits import MAX_TEXT

#: Where a record came from. `github:owner/repo` for imported issues.
SOURCE_PATTERN = re.compile(r"^(local|session|hook|import|github:[\w.-]+/[\w.-]+)$")
#: uuid5 namespace for deterministic record ids (imports, mined sessions).
RECORD_NAMESPACE = uuid.UUID("6f1c3a52-6f5e-4a39-9a55-2c1f0d6e8b17")

LogAction = Literal["created", "merged", "variant", "updated", "unchanged"]


def record_id_for(*parts: str) -> str:
    """A deterministic id: the same issue or session step always maps to the same record."""
    return str(uuid.uuid5(RECORD_NAMESPACE, "\x1f".join(parts)))


def normalise_label(value: str | None) -> str | None:
    if value is None:
        return None
    value = " ".join(value.split()).lower()
    return value or None


def normalise_labels(
    values: list[str] | None, normalise: Callable[[str | None], str | None] = normalise_label
) -> list[str]:
    """Each value normalised (`normalise`), empty ones and repeats left out."""
    out: list[str] = []
    for value in values or []:
        label = normalise(value)
        if label and label not in out:
            out.append(label)
    return out


#: Other names of one language, so that a filter finds them all: GitHub reports "C++",
#: "C#", "HCL" and "Jupyter Notebook" (notebook repositories are Python's); the hook and
#: mining name a language by file extension; agents write "golang", "js", "py".
LANGUAGE_ALIASES = {
    "c++": "cpp", "c#": "csharp", "f#": "fsharp", "hcl": "terraform", "golang": "go",
    "jupyter notebook": "python", "py": "python", "js": "javascript", "ts": "typescript",
    "bash": "shell", "sh": "shell", "zsh": "shell",
}  # fmt: skip


def normalise_language(value: str | None) -> str | None:
    label = normalise_label(value)
    return LANGUAGE_ALIASES.get(label, label) if label else None


#: A label compared case-insensitively: language, framework, tag, library.
Label = Annotated[str | None, AfterValidator(normalise_label)]
#: A language label, with its aliases folded into one name.
Language = Annotated[str | None, AfterValidator(normalise_language)]
Labels = Annotated[list[str], AfterValidator(normalise_labels)]


#: A record's history: what merging into it keeps (or, with counters="max", raises).
HISTORY = ("worked", "not_worked", "occurrences", "created_at", "last_seen")
Counters = Literal["keep", "max"]


class RecordInput(BaseModel):
    """One problem and (usually) its solution, as an agent, importer or hook reports it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    problem: str = Field(min_length=1, max_length=MAX_TEXT)
    solution: str = Field(default="", max_length=MAX_TEXT)
    error_type: str | None = Field(default=None, max_length=200)
    stack_trace: str | None = Field(default=None, max_length=MAX_TEXT)
    code_snippet: str | None = Field(default=None, max_length=MAX_TEXT)
    code_diff: str | None = Field(default=None, max_length=MAX_TEXT)
    language: Language = Field(default=None, max_length=60)
    framework: Label = Field(default=None, max_length=100)
    libraries: Labels = Field(default_factory=list, max_length=50)
    tags: Labels = Field(default_factory=list, max_length=50)
    file_path: str | None = Field(default=None, max_length=1000)
    agent: str | None = Field(default=None, max_length=100)
    #: Who logged it: the name of the bearer token it came with (a team hub); None
    #: locally. Set by the server, never by the caller.
    logged_by: str | None = Field(default=None, max_length=100)
    os: str | None = Field(default=None, max_length=100)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    resolved: bool = True
    source: str = "local"
    session_id: str | None = Field(default=None, max_length=200)
    url: str | None = Field(default=None, max_length=2000)
    created_at: float | None = None  # unix time; importers keep the original date
    last_seen: float | None = None

    @field_validator("error_type", "stack_trace", "code_snippet", "code_diff", "file_path")
    @classmethod
    def _blank_is_none(cls, v: str | None) -> str | None:
        return v or None

    @field_validator("source")
    @classmethod
    def _source(cls, v: str) -> str:
        if not SOURCE_PATTERN.match(v):
            raise ValueError(
                f"source must be local, session, hook, import or github:OWNER/REPO (got {v!r})"
            )
        return v

    def code_text(self) -> str:
        """The code context: snippet, diff and stack trace; empty when there is no code."""
        parts = (self.code_snippet, self.code_diff, self.stack_trace)
        return "\n".join(p for p in parts if p)


class Record(RecordInput):
    """A stored record: the input plus identity, history and feedback."""

    id: str
    created_at: float = 0.0
    last_seen: float = 0.0
    occurrences: int = 1
    worked: int = 0
    not_worked: int = 0
    variant_of: str | None = None
    linked_symbols: list[str] = Field(default_factory=list)
    stale_symbols: list[str] = Field(default_factory=list)  # linked symbols that changed

    @property
    def ratings(self) -> int:
        return self.worked + self.not_worked


class LogResult(BaseModel):
    """What `log_solution` did: a new record, a merge into an existing one, or a variant."""

    id: str
    action: LogAction
    matched_id: str | None = None  # the record merged into, or the original of a variant
    problem_similarity: float | None = None
    solution_similarity: float | None = None
    linked_symbols: list[str] = Field(default_factory=list)
    message: str = ""


class RateResult(BaseModel):
    id: str
    target: Literal["memory", "knowledge"]
    worked: bool
    worked_total: int
    not_worked_total: int
    message: str = ""


class MemoryFilters(BaseModel):
    """Filters over records, applied before ranking; labels compare normalised."""

    model_config = ConfigDict(extra="forbid")

    language: Language = None
    framework: Label = None
    tags: Annotated[list[str] | None, AfterValidator(normalise_labels)] = None  # all must match
    error_type: str | None = None  # case-insensitive exact
    source: str | None = None  # exact, or a prefix ending in ':' (e.g. "github:")


@dataclass(frozen=True)
class TermStats:
    """Which query terms the store's records hold: `doc_freq[term]` records out of
    `records` in all, and `present[record id]`, the terms each candidate holds."""

    records: int
    doc_freq: dict[str, int]
    present: dict[str, set[str]]
