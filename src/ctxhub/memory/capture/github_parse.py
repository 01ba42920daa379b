"""GitHub issue -> memory record: pure functions over the REST API's JSON objects.

Nothing here does I/O. `issue_to_record` maps one issue and its comments to a
`RecordInput`, with every secret redacted (`ctxhub.memory.redaction.redact`); the helpers pick the
resolving comment, extract the error type, the first fenced code block and a Python
traceback, and trim Markdown without cutting a code block in half.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ctxhub.core.records import RecordInput
from ctxhub.memory.redaction.redact import Redactor, redact_record

Json = dict[str, Any]
ResolutionKind = Literal[
    "maintainer-fix", "maintainer-last", "author", "most-reacted", "linked-fix"
]

MAINTAINER_ROLES = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
PROBLEM_LIMIT = 8_000
SOLUTION_LIMIT = 8_000
CODE_LIMIT = 6_000
#: A maintainer's comment up to this long after closing still counts as "before closing".
CLOSE_SLACK_S = 600.0

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
#: A fenced block; one left open runs to the end of the text, as GitHub renders it.
_FENCE = re.compile(
    r"^ {0,3}(?P<fence>`{3,}|~{3,})[^\n]*(?:\n|\Z)(?P<code>.*?)"
    r"(?:^ {0,3}(?P=fence)[`~]*[ \t]*$|\Z)",
    re.MULTILINE | re.DOTALL,
)
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_ERROR = re.compile(
    r"\b(?:[A-Za-z_]\w*\.)*(?P<exc>[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning))\b"
    r"|\b(?P<node>ERR_[A-Z0-9_]{3,})\b"
    r"|\b(?P<rust>E0\d{3})\b"
    r"|\b(?P<ts>TS\d{4,5})\b"
    r"|\b(?P<errno>E(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT"
    r"|NOTFOUND|MFILE|PIPE|NOSPC|AI_AGAIN))\b"
)
_TRACEBACK_HEAD = "Traceback (most recent call last):"
_CHAIN = ("During handling of the above exception", "The above exception was the direct cause")
_EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(:|$)")
_FIX_MARKER = re.compile(
    r"\b(fixed|fixes|resolved|resolves|solved|patched|released in|landed in|merged)\b"
    r"|\buse\b.{1,80}?\binstead\b"
    r"|\b(upgrade|update|bump|downgrade|pin)\w*\b.{0,40}?\bto\b"
    r"|\bworkaround\b"
    r"|(?<![\w&])#\d+\b"
    r"|\b(?=[0-9a-f]{7,40}\b)(?=[0-9a-f]*[a-f])[0-9a-f]*\d[0-9a-f]*\b"
    r"|https://github\.com/[\w.-]+/[\w.-]+/(pull|commit)/",
    re.IGNORECASE,
)
_NON_ANSWER = re.compile(
    r"^\W*(thanks|thank you|\+1|same|me too|any update|bump|ping|closing|locking"
    r"|this issue has been automatically|duplicate of)\b",
    re.IGNORECASE,
)
#: "Fixed by #12", "fixes #12", "closed via owner/repo#12", "resolved in abc1234", a PR URL.
_LINKED_FIX = re.compile(
    r"\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\s+(?:(?:by|in|via|with)\s+)?"
    r"(?:(?P<url>https://github\.com/[\w.-]+/[\w.-]+/(?:pull|issues|commit)/[0-9a-f]+)"
    r"|(?P<xrepo>[\w.-]+/[\w.-]+)?#(?P<num>\d+)"
    r"|(?P<sha>[0-9a-f]{7,40})\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Resolution:
    """The text that answers an issue, and where it came from."""

    kind: ResolutionKind
    text: str
    by_maintainer: bool
    comment_url: str | None = None


def clean_markdown(text: str | None) -> str:
    """CRLF -> LF, issue-template HTML comments removed, outer whitespace stripped."""
    if not text:
        return ""
    return _HTML_COMMENT.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def code_blocks(text: str) -> list[str]:
    """The contents of the fenced (``` or ~~~) code blocks of a Markdown text, in order."""
    return [m.group("code").strip("\n") for m in _FENCE.finditer(text)]


def first_code_block(text: str) -> str | None:
    blocks = [b for b in code_blocks(text) if b.strip()]
    return blocks[0] if blocks else None


def trim_markdown(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters at a line break; a code block left open
    by the cut is closed again, so the code that is kept still reads as code."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if "\n" in cut[limit // 2 :]:
        cut = cut[: cut.rfind("\n")]
    fences = _FENCE_LINE.findall(cut)
    tail = f"\n{fences[-1]}" if len(fences) % 2 else ""
    return f"{cut.rstrip()}{tail}\n\n[... truncated]"


def extract_traceback(text: str) -> str | None:
    """The first Python traceback in `text` (chained ones included), through its
    exception line; None when there is none."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if _TRACEBACK_HEAD in line), None)
    if start is None:
        return None
    base = len(lines[start]) - len(lines[start].lstrip())
    out: list[str] = []
    ended = False
    for line in lines[start:]:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            break
        indent = len(line) - len(line.lstrip())
        if ended:
            if not stripped:
                continue
            if not (stripped.startswith(_CHAIN) or _TRACEBACK_HEAD in stripped):
                break
            out.append("")
            ended = False
        out.append(line[base:] if indent >= base else line.lstrip())
        if indent <= base and stripped != _TRACEBACK_HEAD and _EXC_LINE.match(stripped):
            ended = not stripped.startswith(_CHAIN)
    block = "\n".join(out).strip("\n")
    return trim_markdown(block, CODE_LIMIT) if block else None


def extract_error_type(*texts: str) -> str | None:
    """The first error name in the texts, in order: a Python/Java exception
    (`ModuleNotFoundError`, the last part of a dotted name), a Node code
    (`ERR_REQUIRE_ESM`), a Rust (`E0463`) or TypeScript (`TS2307`) code, an errno name."""
    for text in texts:
        match = _ERROR.search(text)
        if match:
            return next(v for v in match.groupdict().values() if v)
    return None


def _traceback_error(trace: str) -> str | None:
    lines = [line.strip() for line in trace.split("\n")]
    for line in reversed(lines):
        if line and _EXC_LINE.match(line) and not line.startswith(_CHAIN):
            return extract_error_type(line.split(":", 1)[0])
    return None


def parse_time(value: object) -> float | None:
    """A GitHub timestamp ("2024-03-01T12:00:00Z") as unix time; None when absent."""
    if not isinstance(value, str) or not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def _is_bot(comment: Json) -> bool:
    user = comment.get("user") or {}
    return user.get("type") == "Bot" or str(user.get("login", "")).endswith("[bot]")


def _login(obj: Json) -> str:
    return str((obj.get("user") or {}).get("login", ""))


def _reaction_score(comment: Json) -> int:
    r = comment.get("reactions") or {}
    positive = ("+1", "heart", "hooray", "rocket", "laugh")
    return sum(int(r.get(k, 0) or 0) for k in positive) - int(r.get("-1", 0) or 0)


def _substantive(body: str) -> bool:
    """Not a "+1", "thanks", "any update?" or "closing/locking" note (short ones only:
    "Same here; the fix is ..." is an answer)."""
    return len(body) >= 20 and not (len(body) < 120 and _NON_ANSWER.match(body))


def choose_resolution(
    issue: Json, comments: list[Json], owner: str, repo: str
) -> Resolution | None:
    """The comment (or linked fix) that resolves the issue, by preference:

    1. the last maintainer comment (OWNER/MEMBER/COLLABORATOR) that names a fix ("fixed in",
       an issue/PR number, a commit sha, "use X instead", "upgrade to", "workaround");
    2. on a closed issue, the last substantive maintainer comment before it was closed;
    3. on a closed issue, the author's own answer that names a fix or shows code;
    4. the most-reacted comment (positive reactions, at least one);
    5. a fix linked from the comments or the body ("Fixed by #456" -> its URL).
    Bots and non-answers ("+1", "thanks", stale notices) never count.
    """
    closed = issue.get("state") == "closed"
    closed_at = parse_time(issue.get("closed_at"))
    people: list[tuple[Json, str]] = []
    for c in comments:
        body = clean_markdown(c.get("body"))
        if body and not _is_bot(c) and _substantive(body):
            people.append((c, body))
    maintainers = [(c, b) for c, b in people if c.get("author_association") in MAINTAINER_ROLES]

    def pick(kind: ResolutionKind, comment: Json, body: str) -> Resolution:
        text = trim_markdown(body, SOLUTION_LIMIT)
        maintainer = comment.get("author_association") in MAINTAINER_ROLES
        return Resolution(kind, text, maintainer, comment.get("html_url"))

    fixes = [(c, b) for c, b in maintainers if _FIX_MARKER.search(b)]
    if fixes:
        return pick("maintainer-fix", *fixes[-1])
    if closed:
        before = [
            (c, b)
            for c, b in maintainers
            if closed_at is None
            or (parse_time(c.get("created_at")) or 0.0) <= closed_at + CLOSE_SLACK_S
        ]
        if before:
            return pick("maintainer-last", *before[-1])
        author = _login(issue)
        own = [
            (c, b)
            for c, b in people
            if author and _login(c) == author and (_FIX_MARKER.search(b) or code_blocks(b))
        ]
        if own:
            return pick("author", *own[-1])
    scored = [(_reaction_score(c), i) for i, (c, _) in enumerate(people)]
    best = max(scored, default=(0, -1), key=lambda s: (s[0], -s[1]))
    if best[0] > 0:
        return pick("most-reacted", *people[best[1]])
    texts = [clean_markdown(c.get("body")) for c in reversed(comments)]
    for text in [*texts, clean_markdown(issue.get("body"))]:
        link = linked_fix_url(text, owner, repo)
        if link:
            return Resolution("linked-fix", f"Fixed by {link}", False, link)
    return None


def linked_fix_url(text: str, owner: str, repo: str) -> str | None:
    """The URL of the fix a text points at ("Fixed by #456", "closed via o/r#7",
    "resolved in 1a2b3c4", a PR or commit URL), or None."""
    match = _LINKED_FIX.search(text)
    if not match:
        return None
    if match.group("url"):
        return match.group("url")
    if match.group("num"):
        target = match.group("xrepo") or f"{owner}/{repo}"
        # /issues/N redirects to /pull/N when N is a pull request.
        return f"https://github.com/{target}/issues/{match.group('num')}"
    return f"https://github.com/{owner}/{repo}/commit/{match.group('sha')}"


def confidence_for(resolution: Resolution | None, resolved: bool) -> float:
    if resolution is None or not resolved:
        return 0.5
    return 0.75 if resolution.by_maintainer else 0.6


def is_resolved(issue: Json, resolution: Resolution | None) -> bool:
    """Closed with an answer; a "not planned" close counts only when a maintainer answered."""
    if issue.get("state") != "closed" or resolution is None:
        return False
    return issue.get("state_reason") != "not_planned" or resolution.by_maintainer


def issue_to_record(
    issue: Json,
    comments: list[Json],
    owner: str,
    repo: str,
    *,
    framework: str | None = None,
    language: str | None = None,
) -> tuple[RecordInput, Resolution | None]:
    """One issue and its comments as a record, and the resolution it was built from.

    The record's texts are redacted (tokens, passwords in URLs, keys ...); a secret found
    anywhere in the thread (a comment that is not the solution included) is scrubbed from
    every field. The resolution's own text is not redacted: it is not stored."""
    title = " ".join(str(issue.get("title") or "").split()) or f"Issue #{issue.get('number')}"
    body = clean_markdown(issue.get("body"))
    problem = trim_markdown(f"{title}\n\n{body}" if body else title, PROBLEM_LIMIT)
    trace = extract_traceback(body)
    resolution = choose_resolution(issue, comments, owner, repo)
    snippet = first_code_block(resolution.text) if resolution else None
    if snippet is None:
        blocks = [b for b in code_blocks(body) if b.strip() and _TRACEBACK_HEAD not in b]
        snippet = blocks[0] if blocks else None
    error_type = (_traceback_error(trace) if trace else None) or extract_error_type(title, body)
    resolved = is_resolved(issue, resolution)
    labels = [str(lb.get("name", "")) for lb in issue.get("labels") or [] if isinstance(lb, dict)]
    created = parse_time(issue.get("created_at"))
    record = RecordInput(
        problem=problem,
        solution=resolution.text if resolution else "",
        error_type=error_type,
        stack_trace=trace,
        code_snippet=trim_markdown(snippet, CODE_LIMIT) if snippet else None,
        language=language,
        framework=framework if framework is not None else repo.lower(),
        tags=labels[:50],
        confidence=confidence_for(resolution, resolved),
        resolved=resolved,
        source=f"github:{owner}/{repo}",
        url=issue.get("html_url"),
        created_at=created,
        last_seen=parse_time(issue.get("updated_at")) or created,
    )
    redactor = Redactor()
    for comment in comments:
        redactor.learn(clean_markdown(comment.get("body")))
    return redact_record(record, redactor), resolution
