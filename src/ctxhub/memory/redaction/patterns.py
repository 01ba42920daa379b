"""The secret patterns `ctxhub.memory.redaction.redact` applies, and the words it uses to tell a
literal secret from a placeholder or from code.

Standard library only (the hook imports the redactor). Each `(?P<head>...)(?P<secret>...)`
pattern keeps its head and replaces only the secret; the others replace the whole match.
"""

from __future__ import annotations

import re

# A PEM private key; one cut off before its END line runs to where the base64 stops.
PEM = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
    r"(?:.*?-----END \1-----|(?:[A-Za-z0-9+/=:\s-]|\\n)*)",
    re.DOTALL,
)

# scheme://user:password@host -> keeps scheme, user and host.
URL_CREDENTIALS = re.compile(
    r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@'\"<>]*:)"
    r"(?P<secret>[^\s/'\"<>]+)(?P<tail>@)"
)

#: (kind, literal triggers, pattern): tokens recognisable by their shape alone; the whole
#: match is replaced. A pattern runs only on text containing one of its triggers (a
#: substring test is far cheaper than a regex scan).
TOKENS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
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
    # HashiCorp Vault service, batch and recovery tokens (`hvs.CAES...`).
    ("vault_token", ("hvs.", "hvb.", "hvr."), re.compile(r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}")),
    (
        "jwt",
        ("eyJ",),
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
)
# Azure storage / Service Bus connection strings: `AccountKey=<base64>;`,
# `SharedAccessKey=...`, `AZURE_STORAGE_ACCOUNT_KEY=...`. The value must hold a digit, `+`
# or `/` (base64 does; an identifier such as `accountKeyFromEnvironment` does not).
AZURE_KEY = re.compile(
    r"(?i)(?P<head>(?:account|sharedaccess)[_-]?key[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(?P<secret>(?=[A-Za-z0-9+/]*[0-9+/])[A-Za-z0-9+/]{16,}={0,2})(?![A-Za-z0-9+/=])"
)
# `SharedAccessSignature=sv=...&sig=...` in a connection string: the whole token.
AZURE_SAS = re.compile(
    r"(?i)(?P<head>\bSharedAccessSignature[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(?P<secret>[^\s;\"'<>]{8,})"
)
# The signature of a SAS URL (`...blob.core.windows.net/c/b?sv=...&sig=<url-encoded>`).
SAS_SIG = re.compile(r"(?P<head>[?&]sig=)(?P<secret>[A-Za-z0-9%+/=_-]{16,})")

# MySQL / MariaDB clients take the password attached to `-p` (`mysql -u root -pS3cret`,
# `mysqldump -p'x y' db`); `-p` alone prompts, `-p 3306` is `-p` then a database name and
# `-P3306` is the port. Only inside a command of theirs: `ssh -p2222` is a port too.
MYSQL_COMMAND = re.compile(
    r"(?<![\w.-])(?:mysql(?:dump|admin|import|show|check|pump|slap|binlog|sh)?"
    r"|mariadb(?:-(?:dump|admin|import|show|check|slap|binlog))?)[ \t]"
    r"(?:\"[^\"\n]*\"|'[^'\n]*'|[^\n;|&\"'])*"
)
MYSQL_PASSWORD = re.compile(
    r"(?P<head>(?<![^ \t])-p)(?P<secret>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`;|&]+)"
)

#: Lowercase substrings without which no secret-word pattern can match.
WORD_TRIGGERS = ("pass", "pwd", "secret", "token", "key")

# `aws_secret_access_key = wJalr...` (40 characters of base64).
AWS_SECRET = re.compile(
    r"(?i)(?P<head>aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)

# `Authorization: Bearer abc`, `"authorization": "Basic dXNlcjpwYXNz"`.
AUTH_HEADER = re.compile(
    r"(?i)(?P<head>\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|digest|token|bot)[ \t]+)?)"
    r"(?P<secret>[A-Za-z0-9._~+/=-]{8,})"
)

# A bare `Bearer <token>` anywhere else; the token must contain a digit (prose has none).
BEARER = re.compile(
    r"(?P<head>\b[Bb]earer[ \t]+)(?P<secret>(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*)"
)

# `.netrc`: machine HOST login USER password SECRET (one line or several).
NETRC = re.compile(
    r"(?P<head>\b(?:machine[ \t]+\S+|default)(?:\s+login[ \t]+\S+)?\s+password[ \t]+)"
    r"(?P<secret>\S+)"
)

# `curl -u user:secret` (a user never holds a `[`: `-u bob,[REDACTED:password]` stays).
CURL_USER = re.compile(
    r"(?P<head>(?<![\w-])(?:-u|--user)[ \t]+[\"']?[^\s:\"'\[]+:)(?P<secret>[^\s\"']+)"
)

_SECRET_WORD = (
    r"(?:passw(?:or)?d|passphrase|(?<![A-Za-z0-9])pass|(?<![A-Za-z0-9])pwd|secret"
    r"|token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key"
    r"|signing[_-]?key|encryption[_-]?key|master[_-]?key)"
)

#: A setting's name that says its value is a secret (`aws_secret_access_key`,
#: `//registry.npmjs.org/:_authToken`, npm's `_auth`).
SECRET_NAME = re.compile(r"(?i)" + _SECRET_WORD + r"|(?<![A-Za-z0-9])_auth$")

# `--password hunter2` (`--api-key=...` is an assignment).
CLI_FLAG = re.compile(
    r"(?i)(?P<head>(?<![\w-])--?[a-z0-9-]*" + _SECRET_WORD + r"[ \t]+(?P<q>[\"']?))"
    r"(?P<secret>(?!-)[^\s\"'`]+)(?P=q)"
)

# name <sep> value, where the name ends in a secret word (so `password_field` never
# qualifies). Values: a quoted string, or a bare word (judged in redact._assignment()).
ASSIGNMENT = re.compile(
    r"(?i)(?P<key>" + _SECRET_WORD + r")"
    r"(?P<sep>[\"']?[ \t]*(?:"
    r":=|=>|(?::[ \t]*[A-Za-z_][\w.\[\]| ]{0,40}?[ \t]*)?(?<![=!<>])=(?![=~>])|:"
    r")[ \t]*)"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`,;)}\]&<>]+)"
)

# Prose: "the password is `Wz8kLq2vRt`", "token was 'abc123def'", "password is hunter22".
PROSE = re.compile(
    r"(?i)(?P<head>\b(?:passw(?:or)?d|passphrase|secret|token|api[ _-]?key|access[ _-]?key)"
    r"(?:[ \t]+(?:is|was|of|for \S+ is))?[ \t]+(?P<q>[`'\"]?))"
    r"(?P<secret>(?<=[`'\"])[^`'\"\s]{4,200}(?=[`'\"])"
    r"|(?<![`'\"])[^\s`'\",;()\[\]{}<>]{6,200})(?P=q)"
)

#: The kind a secret's name gives it: that of the first of these words it contains.
KIND_OF_WORD: tuple[tuple[str, str], ...] = (
    ("pass", "password"),
    ("pwd", "password"),
    ("token", "token"),
    ("secret", "secret"),
    ("key", "key"),
)

#: Values that are no secret (`password = None`, `token: required`).
LITERAL_WORDS = frozenset(
    {"none", "null", "nil", "true", "false", "undefined", "empty", "required", "optional"}
)
#: Type names: `password: str` is an annotation, not a value.
TYPE_NAMES = frozenset(
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
#: How references and templates begin (`$PW`, `{token}`, `os.environ[...]`, a path).
PLACEHOLDER_PREFIXES = (
    "$",
    "[",
    "{",
    "<",
    "%(",
    "%s",
    "process.env",
    "os.environ",
    "os.getenv",
    "env:",  # OpenSSL's `-passin env:VAR`, `file:PATH`, `fd:N`
    "file:",
    "fd:",
    "/",
    "./",
    "../",
    "~/",
)
DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")  # a variable or attribute
BARE_WORD = re.compile(r"[A-Za-z_]+")
# After a value: the end of its line (a comment at most) or of its quoted string.
LINE_END = re.compile(r"[ \t]*(?:#.*)?(?:\r?\n|$)|[\"']")
