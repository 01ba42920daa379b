"""Secret redaction: API keys, tokens, passwords, private keys and credentials in URLs are
replaced by `[REDACTED:kind]` before any text is stored.

Pure functions over precompiled patterns (`ctxhub.memory.redaction.patterns`), applied in a
fixed order: whole blocks (PEM keys) first, then credentials inside URLs, then tokens
recognisable by their own shape (AWS, GitHub, OpenAI, Anthropic, Slack, Google, Stripe,
JWT ...), then Azure account keys and SAS signatures and the password a MySQL client takes
attached to `-p` (`mysql -pS3cret`), then the secrets other commands carry in their flags
and arguments (`sshpass -p X`, `docker login -p X`, `htpasswd -b FILE USER X`, `echo X |
gh auth login --with-token`: the table of `ctxhub.memory.redaction.commands`), then
authorization headers, then values assigned to secret-looking names (`password=`,
`"api_key": "..."`, `--token x`, `.netrc`), then prose ("the password is `...`"). Each
pattern runs only on text that contains one of its literal triggers (the command table: a
program's name), so ordinary text costs a few substring tests.

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

from ctxhub.memory.redaction.commands import TRIGGERS, command_secrets
from ctxhub.memory.redaction.patterns import (
    ASSIGNMENT,
    AUTH_HEADER,
    AWS_SECRET,
    AZURE_KEY,
    AZURE_SAS,
    BARE_WORD,
    BEARER,
    CLI_FLAG,
    CURL_USER,
    DOTTED_NAME,
    KIND_OF_WORD,
    LINE_END,
    LITERAL_WORDS,
    MYSQL_COMMAND,
    MYSQL_PASSWORD,
    NETRC,
    PEM,
    PLACEHOLDER_PREFIXES,
    PROSE,
    SAS_SIG,
    TOKENS,
    TYPE_NAMES,
    URL_CREDENTIALS,
    WORD_TRIGGERS,
)

if TYPE_CHECKING:  # the models (pydantic) load only for redact_record: hooks stay fast
    from ctxhub.core.records import RecordInput

MARK = "[REDACTED:{}]"


def marker(kind: str) -> str:
    return MARK.format(kind)


def _kind_of(key: str) -> str:
    key = key.lower()
    for word, kind in KIND_OF_WORD:
        if word in key:
            return kind
    return "secret"


def _is_placeholder(value: str) -> bool:
    """Values that are references or templates, not secrets: `$PW`, `${{ secrets.X }}`,
    `{password}`, `<your-token>`, `***`, `os.environ[...]`, a path, an earlier redaction."""
    v = value.strip().lower()
    if not v or v in LITERAL_WORDS or "[redacted:" in v:
        return True
    if v.startswith(PLACEHOLDER_PREFIXES):
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
    if DOTTED_NAME.fullmatch(value):
        lowered = value.lower()
        if key.lower() in lowered or lowered.endswith(("token", "key", "secret")):
            return True  # `token=token`, `password=self.password`
        if following in (",", ")"):
            return True  # `connect(password=pw)`: a keyword argument
        if spaced and ("." in value or BARE_WORD.fullmatch(value)):
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
    if len(value) < 4 or _is_placeholder(value) or value.lower() in TYPE_NAMES:
        return match.group(0)
    text, end = match.string, match.end()
    core = sep.strip(" \t\"'")
    if core == ":":
        # `password: hunter2` (YAML, a header) when the value ends the line or a quoted
        # string; mid-line only a value that looks like one ("password: hunter22 works"),
        # never a type annotation (`token: Optional[str],`).
        if not LINE_END.match(text, end) and (
            not _distinctive(value) or any(c in value for c in "[(.")
        ):
            return match.group(0)
    elif _is_code(key, sep, value, text[end : end + 1]):
        return match.group(0)
    return f"{key}{sep}{sink.add(kind, value)}"


def _flag(match: re.Match[str], sink: _Sink) -> str:
    secret = match.group("secret")
    if len(secret) < 4 or _is_placeholder(secret) or BARE_WORD.fullmatch(secret):
        return match.group(0)  # `--token $GH_TOKEN`, prose such as "the --password option"
    kind = _kind_of(match.group("head"))
    return match.group("head") + sink.add(kind, secret) + match.group("q")


def _attached_password(match: re.Match[str], sink: _Sink) -> str:
    """`-pSECRET` (or `-p'SECRET'`) of a MySQL client: the value, quotes kept around it."""
    value = match.group("secret")
    quote = value[0] if value[0] in "\"'" else ""
    inner = value[1:-1] if quote else value
    if not inner or _is_placeholder(inner):
        return match.group(0)  # `-p$MYSQL_PWD`, `-p"${PW}"`
    return match.group("head") + quote + sink.add("password", inner) + quote


def _mysql_command(match: re.Match[str], sink: _Sink) -> str:
    return MYSQL_PASSWORD.sub(lambda m: _attached_password(m, sink), match.group(0))


def _commands(text: str, sink: _Sink) -> str:
    """`text` with the secrets of known commands' flags and arguments replaced; their
    quotes stay (`-p '[REDACTED:password]'`). Placeholders (`-p "$PW"`, `-p '<password>'`)
    and values without a letter or digit (`-p -`) stay. A secret that names a program
    (`sshpass -p docker`) can change how the rest reads once it is gone, so then this runs
    again (each round only turns secrets into markers)."""
    for _ in range(4):
        parts: list[str] = []
        done, again = 0, False
        for start, end, kind in command_secrets(text):
            secret = text[start:end]
            if start < done or _is_placeholder(secret) or secret.lower() in TYPE_NAMES:
                continue
            if not any(c.isalnum() for c in secret):
                continue
            parts += (text[done:start], sink.add(kind, secret))
            done = end
            again = again or any(program in secret for program in TRIGGERS)
        if parts:
            text = "".join(parts) + text[done:]
        if not again:
            break
    return text


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
        text = PEM.sub(_whole("private_key", sink), text)
    if "://" in text and "@" in text:
        text = URL_CREDENTIALS.sub(_keep_head("password", sink), text)
    for kind, triggers, pattern in TOKENS:
        if any(t in text for t in triggers):
            text = pattern.sub(_whole(kind, sink), text)
    if "key" in low and ("account" in low or "sharedaccess" in low):
        text = AZURE_KEY.sub(_keep_head("azure_key", sink), text)
    if "sharedaccesssignature" in low:
        text = AZURE_SAS.sub(_keep_head("azure_sas", sink), text)
    if "sig=" in text:
        text = SAS_SIG.sub(_keep_head("azure_sas", sink), text)
    if " -p" in text and ("mysql" in low or "mariadb" in low):
        text = MYSQL_COMMAND.sub(lambda m: _mysql_command(m, sink), text)
    if any(program in text for program in TRIGGERS):
        text = _commands(text, sink)
    if "authorization" in low:
        text = AUTH_HEADER.sub(_keep_head("authorization", sink), text)
    if "earer" in text:
        text = BEARER.sub(_keep_head("bearer", sink), text)
    if "-u" in text:
        text = CURL_USER.sub(_keep_head("password", sink), text)
    if not any(t in low for t in WORD_TRIGGERS):
        return text
    if "secret" in low:
        text = AWS_SECRET.sub(_keep_head("aws_secret_key", sink), text)
    if "machine" in low or "default" in low:
        text = NETRC.sub(_keep_head("password", sink), text)
    if "-" in text:
        text = CLI_FLAG.sub(lambda m: _flag(m, sink), text)
    text = ASSIGNMENT.sub(lambda m: _assignment(m, sink), text)
    return PROSE.sub(lambda m: _prose(m, sink), text)


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


def _max_length(model: type[RecordInput], name: str) -> int | None:
    """The field's own `max_length` (a marker can make a text longer)."""
    lengths = [getattr(m, "max_length", None) for m in model.model_fields[name].metadata]
    return next((n for n in lengths if n is not None), None)


def redact_record(record: RecordInput, redactor: Redactor | None = None) -> RecordInput:
    """A copy of `record` with every text field redacted (and kept within its limit).

    A secret found in one field is also scrubbed from the others; pass a `redactor` that
    has learned from more text (the whole transcript) to scrub what it found there too.
    """
    from ctxhub.core.records import RecordInput

    redactor = redactor or Redactor()
    data = record.model_dump()
    texts = [data[name] for name in _TEXT_FIELDS if isinstance(data.get(name), str)]
    for text in texts:
        redactor.learn(text)
    for name in _TEXT_FIELDS:
        value = data.get(name)
        if isinstance(value, str):
            cleaned = redactor.redact(value)[: _max_length(RecordInput, name)]
            data[name] = cleaned or None
    data["problem"] = data["problem"] or "[REDACTED:secret]"
    data["solution"] = data["solution"] or ""
    return RecordInput.model_validate(data)
