"""Secret redaction: API keys, tokens, passwords, private keys and credentials in URLs are
replaced by `[REDACTED:kind]` before any text is stored.

Pure functions over precompiled patterns, applied in a fixed order: whole blocks (PEM keys)
first, then credentials inside URLs, then tokens recognisable by their own shape (AWS, GitHub,
OpenAI, Anthropic, Slack, Google, Stripe, JWT ...), then authorization headers, then values
assigned to secret-looking names (`password=`, `"api_key": "..."`, `--token x`, `.netrc`),
then prose ("the password is `...`"). Each pattern runs only on text that contains one of its
literal triggers, so ordinary text costs a few substring tests.

Assignments are redacted only where the value is a literal: `password = os.environ["PW"]`,
`def get_token():` or `password_field = forms.CharField()` are code, not secrets, and stay.
Redaction is idempotent: `redact(redact(text)) == redact(text)`. A `Redactor` also remembers
the values it found, to scrub them from related texts where no pattern would see them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the models (pydantic) load only for redact_record: hooks stay fast
    from ctxhub.memory.models import RecordInput

MARK = "[REDACTED:{}]"


def marker(kind: str) -> str:
    return MARK.format(kind)


# --- shapes -----------------------------------------------------------------------------

_PEM = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
    r"(?:.*?-----END \1-----|(?:[A-Za-z0-9+/=:\s-]|\\n)*)",
    re.DOTALL,
)

# scheme://user:password@host -> keeps scheme, user and host.
_URL_CREDENTIALS = re.compile(
    r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@'\"<>]*:)"
    r"(?P<secret>[^\s/'\"<>]+)(?P<tail>@)"
)

#: (kind, pattern): tokens recognisable by their shape alone; the whole match is replaced.
#: (kind, literal triggers, pattern): tokens recognisable by their shape alone; the whole
#: match is replaced. A pattern runs only on text containing one of its triggers (a
#: substring test is far cheaper than a regex scan).
_TOKENS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    (
        "aws_access_key",
        ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA"),
        re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
    ),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{22,255})"),
    ),
    ("gitlab_token", ("glpat-",), re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("anthropic_key", ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai_key", ("sk-",), re.compile(r"\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{32,}")),
    ("slack_token", ("xox",), re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    (
        "slack_webhook",
        ("hooks.slack.com",),
        re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]+"),
    ),
    ("google_api_key", ("AIza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    (
        "stripe_key",
        ("_live_", "_test_"),
        re.compile(r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}"),
    ),
    ("stripe_webhook_secret", ("whsec_",), re.compile(r"\bwhsec_[0-9A-Za-z]{24,}")),
    ("npm_token", ("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("pypi_token", ("pypi-",), re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}")),
    ("huggingface_token", ("hf_",), re.compile(r"\bhf_[A-Za-z0-9]{34,}\b")),
    (
        "jwt",
        ("eyJ",),
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
)
#: Lowercase substrings without which no secret-word pattern can match.
_WORD_TRIGGERS = ("pass", "pwd", "secret", "token", "key")

# `aws_secret_access_key = wJalr...` (40 characters of base64).
_AWS_SECRET = re.compile(
    r"(?i)(?P<head>aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)

# `Authorization: Bearer abc`, `"authorization": "Basic dXNlcjpwYXNz"`.
_AUTH_HEADER = re.compile(
    r"(?i)(?P<head>\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|digest|token|bot)[ \t]+)?)"
    r"(?P<secret>[A-Za-z0-9._~+/=-]{8,})"
)

# A bare `Bearer <token>` anywhere else; the token must contain a digit (prose has none).
_BEARER = re.compile(
    r"(?P<head>\b[Bb]earer[ \t]+)(?P<secret>(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*)"
)

# `.netrc`: machine HOST login USER password SECRET (one line or several).
_NETRC = re.compile(
    r"(?P<head>\b(?:machine[ \t]+\S+|default)(?:\s+login[ \t]+\S+)?\s+password[ \t]+)"
    r"(?P<secret>\S+)"
)

# `curl -u user:secret`.
_CURL_USER = re.compile(
    r"(?P<head>(?<![\w-])(?:-u|--user)[ \t]+[\"']?[^\s:\"']+:)(?P<secret>[^\s\"']+)"
)

_SECRET_WORD = (
    r"(?:passw(?:or)?d|passphrase|(?<![A-Za-z0-9])pass|(?<![A-Za-z0-9])pwd|secret"
    r"|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key"
    r"|signing[_-]?key|encryption[_-]?key|master[_-]?key)"
)

# `--password hunter2` (`--api-key=...` is an assignment).
_CLI_FLAG = re.compile(
    r"(?i)(?P<head>(?<![\w-])--?[a-z0-9-]*" + _SECRET_WORD + r"[ \t]+(?P<q>[\"']?))"
    r"(?P<secret>(?!-)[^\s\"'`]+)(?P=q)"
)

# name <sep> value, where the name ends in a secret word (so `password_field` never
# qualifies). Values: a quoted string, or a bare word (judged in _assignment()).
_ASSIGNMENT = re.compile(
    r"(?i)(?P<key>" + _SECRET_WORD + r")"
    r"(?P<sep>[\"']?[ \t]*(?:"
    r":=|=>|(?::[ \t]*[A-Za-z_][\w.\[\]| ]{0,40}?[ \t]*)?(?<![=!<>])=(?![=~>])|:"
    r")[ \t]*)"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`,;)}\]&<>]+)"
)

# Prose: "the password is `Wz8kLq2vRt`", "token was 'abc123def'", "password is hunter22".
_PROSE = re.compile(
    r"(?i)(?P<head>\b(?:passw(?:or)?d|passphrase|secret|token|api[ _-]?key|access[ _-]?key)"
    r"(?:[ \t]+(?:is|was|of|for \S+ is))?[ \t]+(?P<q>[`'\"]?))"
    r"(?P<secret>(?<=[`'\"])[^`'\"\s]{4,200}(?=[`'\"])"
    r"|(?<![`'\"])[^\s`'\",;()\[\]{}<>]{6,200})(?P=q)"
)

_KIND_OF_WORD: tuple[tuple[str, str], ...] = (
    ("pass", "password"),
    ("pwd", "password"),
    ("token", "token"),
    ("secret", "secret"),
    ("key", "key"),
)

_LITERAL_WORDS = frozenset(
    {"none", "null", "nil", "true", "false", "undefined", "empty", "required", "optional"}
)
_TYPE_NAMES = frozenset(
    {
        "str",
        "string",
        "bytes",
        "int",
        "integer",
        "bool",
        "boolean",
        "number",
        "any",
        "object",
        "secretstr",
        "secretbytes",
        "text",
        "optional",
    }
)
_PLACEHOLDER_PREFIXES = (
    "$",
    "[",
    "{",
    "<",
    "%(",
    "%s",
    "process.env",
    "os.environ",
    "os.getenv",
    "/",
    "./",
    "../",
    "~/",
)
_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")  # a variable or attribute
_WORD = re.compile(r"[A-Za-z_]+")
_LINE_END = re.compile(r"[ \t]*(?:#.*)?(?:\r?\n|$)|[\"']")


def _kind_of(key: str) -> str:
    key = key.lower()
    for word, kind in _KIND_OF_WORD:
        if word in key:
            return kind
    return "secret"


def _is_placeholder(value: str) -> bool:
    """Values that are references or templates, not secrets: `$PW`, `${{ secrets.X }}`,
    `{password}`, `<your-token>`, `***`, `os.environ[...]`, a path, an earlier redaction."""
    v = value.strip().lower()
    if not v or v in _LITERAL_WORDS:
        return True
    if v.startswith(_PLACEHOLDER_PREFIXES):
        return True
    if set(v) <= set("*x.-_•"):
        return True
    return "your" in v and any(w in v for w in ("key", "token", "pass", "secret"))


def _is_code(key: str, sep: str, value: str, following: str) -> bool:
    """Whether an unquoted `key = value` is code (a variable, a call) rather than a literal."""
    if "(" in value or "[" in value or following in ("(", "[", "."):
        return True  # `token = make_token(...)`, `pw = creds["pw"]`
    core = sep.strip("\"'")
    spaced = core != core.strip(" \t")
    if _NAME.fullmatch(value):
        lowered = value.lower()
        if key.lower() in lowered or lowered.endswith(("token", "key", "secret")):
            return True  # `token=token`, `password=self.password`
        if following in (",", ")"):
            return True  # `connect(password=pw)`: a keyword argument
        if spaced and ("." in value or _WORD.fullmatch(value)):
            return True  # `api_key = key`, `password = settings.db_password`
    return False


class _Sink:
    """What one pass found: counts per kind, and the secret values themselves."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.values: set[str] = set()

    def add(self, kind: str, value: str) -> str:
        self.counts[kind] += 1
        self.values.add(value)
        return marker(kind)


def _assignment(match: re.Match[str], sink: _Sink) -> str:
    key, sep, value = match.group("key", "sep", "value")
    kind = _kind_of(key)
    if value[:1] in "\"'":
        inner = value[1:-1]
        if len(inner) < 3 or _is_placeholder(inner):
            return match.group(0)
        return f"{key}{sep}{value[0]}{sink.add(kind, inner)}{value[0]}"
    if len(value) < 4 or _is_placeholder(value) or value.lower() in _TYPE_NAMES:
        return match.group(0)
    text, end = match.string, match.end()
    core = sep.strip(" \t\"'")
    if core == ":":
        # `password: hunter2` (YAML, a header) when the value ends the line or a quoted
        # string; mid-line only a value that looks like one ("password: hunter22 works"),
        # never a type annotation (`token: Optional[str],`).
        if not _LINE_END.match(text, end) and (
            not _distinctive(value) or any(c in value for c in "[(.")
        ):
            return match.group(0)
    elif _is_code(key, sep, value, text[end : end + 1]):
        return match.group(0)
    return f"{key}{sep}{sink.add(kind, value)}"


def _flag(match: re.Match[str], sink: _Sink) -> str:
    secret = match.group("secret")
    if len(secret) < 4 or _is_placeholder(secret) or _WORD.fullmatch(secret):
        return match.group(0)  # `--token $GH_TOKEN`, prose such as "the --password option"
    kind = _kind_of(match.group("head"))
    return match.group("head") + sink.add(kind, secret) + match.group("q")


def _prose(match: re.Match[str], sink: _Sink) -> str:
    secret, quoted = match.group("secret"), bool(match.group("q"))
    if _is_placeholder(secret) or not _distinctive(secret):
        return match.group(0)  # "the password is required"
    if not quoted and not any(c.isdigit() for c in secret):
        return match.group(0)  # "Secret redaction: API keys ...", "token chunks)"
    kind = _kind_of(match.group("head"))
    return match.group("head") + sink.add(kind, secret) + match.group("q")


def _keep_head(kind: str, sink: _Sink) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        secret = match.group("secret")
        if _is_placeholder(secret):
            return match.group(0)
        tail = match.groupdict().get("tail") or ""
        return match.group("head") + sink.add(kind, secret) + tail

    return replace


def _whole(kind: str, sink: _Sink) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        return sink.add(kind, match.group(0))

    return replace


def _distinctive(value: str) -> bool:
    """Whether a secret value is safe to scrub wherever else it appears: long enough and
    not a plain word or identifier (a password `postgres` must not eat `postgres://`,
    "the token `GITHUB_TOKEN`" names a variable)."""
    if len(value) < 6 or value.startswith("[REDACTED"):
        return False
    if value.isdigit():
        return len(value) >= 8
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    symbols = any(not c.isalnum() and c not in "_-." for c in value)
    return letters and (digits or symbols)


def _redact(text: str, sink: _Sink) -> str:
    if not text:
        return text
    low = text.lower()
    if "PRIVATE KEY" in text:
        text = _PEM.sub(_whole("private_key", sink), text)
    if "://" in text and "@" in text:
        text = _URL_CREDENTIALS.sub(_keep_head("password", sink), text)
    for kind, triggers, pattern in _TOKENS:
        if any(t in text for t in triggers):
            text = pattern.sub(_whole(kind, sink), text)
    if "authorization" in low:
        text = _AUTH_HEADER.sub(_keep_head("authorization", sink), text)
    if "earer" in text:
        text = _BEARER.sub(_keep_head("bearer", sink), text)
    if "-u" in text:
        text = _CURL_USER.sub(_keep_head("password", sink), text)
    if not any(t in low for t in _WORD_TRIGGERS):
        return text
    if "secret" in low:
        text = _AWS_SECRET.sub(_keep_head("aws_secret_key", sink), text)
    if "machine" in low or "default" in low:
        text = _NETRC.sub(_keep_head("password", sink), text)
    if "-" in text:
        text = _CLI_FLAG.sub(lambda m: _flag(m, sink), text)
    text = _ASSIGNMENT.sub(lambda m: _assignment(m, sink), text)
    return _PROSE.sub(lambda m: _prose(m, sink), text)


def redact(text: str) -> str:
    """`text` with every secret replaced by `[REDACTED:kind]`."""
    return _redact(text, _Sink())


def redact_counted(text: str) -> tuple[str, Counter[str]]:
    """`redact(text)` and how many secrets of each kind it replaced."""
    sink = _Sink()
    return _redact(text, sink), sink.counts


class Redactor:
    """Redaction across several texts that belong together (one transcript, one record).

    `learn()` notes the secret values the patterns find; `redact()` then also replaces any
    other occurrence of a learned value, such as a password first seen in a
    `postgres://user:pw@host` URL and later quoted in prose.
    """

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._known: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def learn(self, text: str) -> None:
        sink = _Sink()
        _redact(text, sink)
        new = {v for v in sink.values if _distinctive(v)} - self._known
        if new:
            self._known |= new
            self._pattern = None

    def redact(self, text: str) -> str:
        sink = _Sink()
        text = _redact(text, sink)
        self.counts.update(sink.counts)
        if self._known and text:
            if self._pattern is None:
                ordered = sorted(self._known, key=len, reverse=True)
                self._pattern = re.compile("|".join(re.escape(v) for v in ordered))
            text, n = self._pattern.subn(marker("secret"), text)
            if n:
                self.counts["secret"] += n
        return text


_TEXT_FIELDS = (
    "problem",
    "solution",
    "error_type",
    "stack_trace",
    "code_snippet",
    "code_diff",
    "file_path",
    "url",
)
_LIMITS = {"error_type": 200, "file_path": 1000, "url": 2000}  # RecordInput's max_length


def redact_record(record: RecordInput, redactor: Redactor | None = None) -> RecordInput:
    """A copy of `record` with every text field redacted (and kept within its limit).

    A secret found in one field is also scrubbed from the others; pass a `redactor` that
    has learned from more text (the whole transcript) to scrub what it found there too.
    """
    from ctxhub.memory.models import MAX_TEXT, RecordInput

    redactor = redactor or Redactor()
    data = record.model_dump()
    texts = [data[name] for name in _TEXT_FIELDS if isinstance(data.get(name), str)]
    for text in texts:
        redactor.learn(text)
    for name in _TEXT_FIELDS:
        value = data.get(name)
        if isinstance(value, str):
            cleaned = redactor.redact(value)[: _LIMITS.get(name, MAX_TEXT)]
            data[name] = cleaned or None
    data["problem"] = data["problem"] or "[REDACTED:secret]"
    data["solution"] = data["solution"] or ""
    return RecordInput.model_validate(data)
