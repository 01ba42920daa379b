"""Secrets that a command line carries in its own flags and arguments: `sshpass -p X`,
`docker login -p X`, `redis-cli -a X`, `htpasswd -b FILE USER X`, `echo X | gh auth login
--with-token`, found from a declarative table (`COMMANDS`) of which flag or argument of
which program (and subcommand) holds a secret.

`ctxhub.memory.redaction.redact` calls `command_secrets()` only on text that contains one of
`TRIGGERS` (the programs' names) and decides what is a placeholder; this module
only reads shell words. Standard library only (the hook imports the redactor).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ctxhub.memory.redaction.patterns import KIND_OF_WORD, SECRET_NAME


class Rule(NamedTuple):
    """Where a secret sits on one program's command line.

    The rule applies to `programs` (the command's name, any directory before it) when its
    first positional arguments are `path` (each word may list alternatives: `"a|b"`), every
    `when` flag is present and no `unless` flag is. Its secret is then the value of one of
    `flags` (after the path), the positional argument `positional` after the path (-1: the
    last), or the standard input (`stdin`: `echo X | prog`, `prog <<< X`).
    """

    programs: tuple[str, ...]
    path: tuple[str, ...] = ()
    #: flags whose value is the secret; `forms`: `s` `-p X`, `a` `-pX` (a one-letter flag),
    #: `=` `-p=X` / `--password=X`.
    flags: tuple[str, ...] = ()
    forms: str = "sa="
    positional: int | None = None
    #: the positional that names the setting (`aws configure set NAME VALUE`): the rule
    #: applies only when it matches `name` (by default: a secret word); `NAME=VALUE` in one
    #: word holds its own value.
    name_at: int | None = None
    name: re.Pattern[str] | None = None
    when: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    stdin: bool = False
    #: the secret is what follows this in the value (`user:secret`, `pass:secret`)
    after: str = ""
    #: other flags that take a value, so that it is not taken for a positional argument
    value_flags: tuple[str, ...] = ()
    #: whether flags may follow positional arguments (`sshpass -p X ssh -p 22`: they may not)
    interspersed: bool = True
    #: the kind of secret; empty: from the setting's name
    kind: str = "password"


_DOCKER_GLOBAL = ("-c", "--context", "-H", "--host", "--config", "-l", "--log-level")
_LOGIN = ("-u", "--username", *_DOCKER_GLOBAL)
_REDIS = ("-h", "-p", "-s", "-n", "-u", "-r", "-i", "-d", "--user", "-a", "--pass")
_NPM = ("--location", "-L", "--userconfig", "--registry")
_RABBIT = ("-n", "--node", "-t", "--timeout", "-p", "--vhost")
_KUBE = ("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s")
_VAULT = ("-address", "-namespace", "-path", "-field", "-format", "--address", "--path")
_AWS = ("--profile", "--region", "--output", "--endpoint-url")
_MONGO = ("mongosh", "mongo", "mongodump", "mongorestore", "mongoexport", "mongoimport")
_LDAP = ("ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapmodrdn")
_REGISTRY = ("docker", "podman", "nerdctl", "buildah", "skopeo", "oras")
_ARCHIVERS = ("7z", "7za", "7zz", "7zr", "rar", "unrar")
_KEYTOOL = ("-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass")
_OPENSSL = ("-passin", "-passout", "-pass", "-password")
_PW = ("-p", "--password")
_CREDS = ("--creds", "--src-creds", "--dest-creds")
_STDIN_PW = ("--password-stdin",)
_SECRET_STRING = ("secretsmanager", "create-secret|put-secret-value|update-secret")
_REDIS_AUTH = re.compile(r"(?i)^(?:requirepass|masterauth)$")

# fmt: off
COMMANDS: tuple[Rule, ...] = (
    Rule(_REGISTRY, ("login",), _PW, value_flags=_LOGIN),
    Rule(_REGISTRY, ("login",), when=_STDIN_PW, stdin=True, value_flags=_LOGIN),
    Rule(("docker", "podman"), ("secret", "create"), when=("-",), stdin=True, kind="secret"),
    Rule(("helm",), ("registry", "login"), _PW, value_flags=("-u",)),
    Rule(("helm",), ("registry", "login"), when=_STDIN_PW, stdin=True),
    Rule(("crane",), ("auth", "login"), _PW, value_flags=("-u",)),
    Rule(("skopeo", "podman", "buildah"), (), _CREDS, after=":"),
    Rule(("sshpass",), (), ("-p",), value_flags=("-f", "-d", "-P"), interspersed=False),
    Rule(("redis-cli",), (), ("-a", "--pass"), forms="s"),
    Rule(("redis-cli",), ("config", "set"), positional=1, name_at=0, name=_REDIS_AUTH,
         value_flags=_REDIS),
    Rule(("redis-server",), (), ("--requirepass", "--masterauth"), forms="s"),
    Rule(("az",), ("login",), _PW),
    Rule(("az",), (), ("--account-key",), kind="azure_key"),
    Rule(("htpasswd",), (), positional=-1, when=("-b",), value_flags=("-C", "-r")),
    Rule(("htpasswd",), (), when=("-i",), stdin=True),
    Rule(("aws",), ("configure", "set"), positional=1, name_at=0, value_flags=_AWS, kind=""),
    Rule(("aws",), _SECRET_STRING, ("--secret-string",), kind="secret"),
    Rule(("npm", "pnpm", "yarn"), ("config", "set"), positional=1, name_at=0, value_flags=_NPM,
         kind=""),
    Rule(("npm",), ("set",), positional=1, name_at=0, value_flags=_NPM, kind=""),
    Rule(("poetry",), ("config",), positional=1, name_at=0, name=re.compile(r"^pypi-token\."),
         kind="token"),
    Rule(("poetry",), ("config",), positional=2, name_at=0, name=re.compile(r"^http-basic\.")),
    Rule(("twine",), ("upload|register",), _PW),
    Rule(("vault",), ("login",), positional=0, unless=("-method", "--method"), value_flags=_VAULT,
         kind="token"),
    Rule(("vault",), ("login",), when=("-",), stdin=True, kind="token"),
    Rule(("gh",), ("auth", "login"), when=("--with-token",), stdin=True, kind="token"),
    Rule(("gh",), ("secret", "set"), ("-b", "--body"), kind="secret"),
    Rule(("gh",), ("secret", "set"), unless=("-b", "--body", "-f", "--env-file"), stdin=True,
         kind="secret"),
    Rule(("kubectl", "oc"), ("create", "secret"), ("--from-literal",), after="=",
         value_flags=_KUBE, kind=""),
    Rule(("oc", "cf"), ("login",), _PW),
    Rule(("cf",), ("auth",), positional=1),
    Rule(("doctl",), ("auth", "init"), ("-t", "--access-token"), kind="token"),
    Rule(("openssl",), (), _OPENSSL, forms="s", after="pass:"),
    Rule(("openssl",), (), ("-k",), forms="s"),
    Rule(("ssh-keygen",), (), ("-N", "-P")),
    Rule(("keytool", "jarsigner"), (), (*_KEYTOOL, "-destkeypass", "-new"), forms="s"),
    Rule(_ARCHIVERS, (), ("-p",), forms="a"),
    Rule(("zip", "unzip"), (), ("-P",), forms="s"),
    Rule(_LDAP, (), ("-w",)),
    Rule(("ldappasswd",), (), ("-w", "-s", "-a")),
    Rule(("sqlcmd", "bcp", "mssql-cli"), (), ("-P",)),
    Rule(_MONGO, (), _PW),
    Rule(("curl",), (), ("-u", "--user", "-U", "--proxy-user"), forms="sa", after=":"),
    Rule(("smbclient",), (), ("-U", "--user"), after="%"),
    Rule(("lftp",), (), ("-u", "--user"), after=","),
    Rule(("rabbitmqctl",), ("add_user|change_password",), positional=1, value_flags=_RABBIT),
    Rule(("chpasswd",), (), stdin=True, after=":"),
    Rule(("passwd",), (), when=("--stdin",), stdin=True),
)
# fmt: on

_BY_PROGRAM: dict[str, list[Rule]] = {}
for _rule in COMMANDS:
    for _program in _rule.programs:
        _BY_PROGRAM.setdefault(_program, []).append(_rule)
#: The programs' names: the command scan runs only on text that contains one of them.
TRIGGERS: tuple[str, ...] = tuple(sorted(_BY_PROGRAM))

# `echo X |` or `printf FMT X |` right before the program (`sudo` and a directory allowed).
_PIPE_TO = re.compile(r"[ \t]*(?:sudo(?:[ \t]+-\S+)*[ \t]+)?[^\s|]*")
_STDIN_SOURCE = re.compile(
    r"(?<![^\s;&|(])(?P<cmd>echo|printf)(?P<args>(?:[ \t]+(?:\"(?:[^\"\\\n]|\\.)*\""
    r"|'[^'\n]*'|[^\s;|&'\"`()<>]+))+)[ \t]*\|" + _PIPE_TO.pattern + r"\Z"
)
# A shell word: plain characters, escapes, quoted strings (one left open runs to the end of
# its line), `$(...)` (one level of nesting); and the blanks between words.
_WORD = re.compile(
    r"(?:[^\s;|&`()'\"\\$]|\\.|'[^'\n]*(?:'|(?=\n)|\Z)|\"(?:[^\"\\\n]|\\.)*(?:\"|(?=\n)|\Z)"
    r"|\$\((?:[^()\n]|\([^()\n]*\))*\)|\$)+"
)
_GAP = re.compile(r"(?:[ \t]|\\\r?\n)*")
_QUOTING = re.compile(r"\\(.)|[\"']")
#: How far past a program's name its command is read (a bound on the work per mention).
_REACH = 2_000
# A redirection (`>`, `2>>`, `<`, `<<<`): the operator, maybe with its target attached.
_REDIRECT = re.compile(r"\d*(?:<<<|<<|>>|<|>)")


class Secret(NamedTuple):
    """A secret's place in the text (quotes around it stay outside) and its kind."""

    start: int
    end: int
    kind: str


def _kind(name: str) -> str:
    name = name.lower()
    return next((kind for word, kind in KIND_OF_WORD if word in name), "secret")


def _words(text: str, i: int, n: int) -> list[tuple[int, int]]:
    """The spans of the shell words in text[i:n] up to the end of the command (`;`, `|`,
    `&`, a newline, a backtick, a parenthesis or a comment; `\\` + newline goes on)."""
    spans: list[tuple[int, int]] = []
    while True:
        i = _GAP.match(text, i, n).end()  # type: ignore[union-attr]  # it matches ""
        word = _WORD.match(text, i, n) if text[i : i + 1] != "#" else None
        if word is None:
            return spans
        spans.append(word.span())
        i = word.end()


def _unquoted(text: str) -> str:
    if "'" not in text and '"' not in text and "\\" not in text:
        return text
    return _QUOTING.sub(r"\1", text)


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] without the quotes around it, or an unclosed one at either end (a
    command quoted inside another: `git commit -m 'sshpass -p X'`)."""
    if end > start and text[start] in "'\"":
        quotes = text.count(text[start], start, end)
        if quotes == 2 and end - start >= 2 and text[end - 1] == text[start]:
            return start + 1, end - 1
        if quotes == 1:
            return start + 1, end
    if end > start and text[end - 1] in "'\"" and text.count(text[end - 1], start, end) == 1:
        return start, end - 1
    return start, end


def _value(text: str, start: int, end: int, rule: Rule) -> Secret | None:
    """The secret in the value text[start:end] (its quotes kept out)."""
    start, end = _strip(text, start, end)
    kind = rule.kind
    if rule.after:
        at = text.find(rule.after, start, end)
        if at < 0 or "[REDACTED" in text[start:at]:
            return None  # no `user:`, or the `:` of an earlier marker
        kind = kind or _kind(text[start:at])  # `--from-literal=password=...`
        start, end = _strip(text, at + len(rule.after), end)
    return Secret(start, end, kind or "secret") if end > start else None


def _matches(word: str, flags: tuple[str, ...]) -> bool:
    """Whether `word` is one of `flags` (`-b` also with its value, `-bX`, or in a group of
    letters, `-nb`)."""
    for flag in flags:
        if word == flag or word.startswith(flag + "="):
            return True
        short = len(flag) == 2 and flag[0] == "-" and flag[1].isalpha()
        group = word[:1] == "-" and word[1:2] != "-"
        if short and group and (word.startswith(flag) or (word[1:].isalpha() and flag[1] in word)):
            return True
    return False


def _flag_value(
    rule: Rule, text: str, spans: list[tuple[int, int]], i: int
) -> tuple[Secret | None, int] | None:
    """What the word spans[i] gives as one of `rule.flags`: its secret (if any) and how
    many more words it takes; None when it is none of them."""
    ws, we = _strip(text, *spans[i])
    word = text[ws:we]
    for flag in rule.flags:
        if word == flag:
            if "s" not in rule.forms or i + 1 >= len(spans):
                return None, 0
            vs, ve = spans[i + 1]
            if text[vs] == "-":
                return None, 0  # `-p --other`: no value
            return _value(text, vs, ve, rule), 1
        if "=" in rule.forms and word.startswith(flag + "="):
            return _value(text, ws + len(flag) + 1, we, rule), 0
        if len(flag) == 2 and "a" in rule.forms and word.startswith(flag) and len(word) > 2:
            return _value(text, ws + 2, we, rule), 0
    return None


def _apply(rule: Rule, text: str, spans: list[tuple[int, int]], at: int) -> list[Secret]:
    """The secrets `rule` finds in the command words `spans` of the program at `at`."""
    secrets: list[Secret] = []
    positionals: list[tuple[int, int]] = []
    seen: list[str] = []  # the words after the path: `when` and `unless` look at them
    depth = 0  # how many words of the path were found
    takes_value = (*rule.value_flags, *(rule.flags if "s" in rule.forms else ()))
    i, options = 0, True
    while i < len(spans):
        s, e = spans[i]
        word = _unquoted(text[s:e])
        path_done = depth == len(rule.path)
        redirect = _REDIRECT.match(text, s, e)  # unquoted: `'<password>'` is a word
        if options and redirect:
            alone = redirect.end() == e
            if word.startswith("<<<") and rule.stdin and path_done:
                target = spans[i + 1] if alone and i + 1 < len(spans) else (s + 3, e)
                found = _value(text, *target, rule)
                secrets.extend([found] if found else [])
            i += 2 if alone else 1  # `> file`: the file is no argument
            continue
        if options and word == "--":
            options = False
        elif options and word[:1] == "-" and word != "-":
            if path_done:
                seen.append(word)
                given = _flag_value(rule, text, spans, i) if rule.flags else None
                if given is not None:
                    secret, more = given
                    secrets.extend([secret] if secret else [])
                    i += 1 + more
                    continue
            if "=" not in word and word in takes_value:
                i += 1
        elif not path_done:
            if word.lower() not in rule.path[depth].split("|"):
                return []
            depth += 1
        else:
            seen.append(word)
            positionals.append((s, e))
            if not rule.interspersed:
                break
        i += 1
    if depth < len(rule.path):
        return []
    if not all(any(_matches(w, (flag,)) for w in seen) for flag in rule.when):
        return []
    if rule.unless and any(_matches(w, rule.unless) for w in seen):
        return []
    if rule.positional is not None:
        secrets.extend(_positional(rule, text, positionals))
    if rule.stdin:
        secrets.extend(_stdin(rule, text, at))
    return secrets


def _positional(rule: Rule, text: str, words: list[tuple[int, int]]) -> list[Secret]:
    assert rule.positional is not None
    kind = rule.kind
    if rule.name_at is not None:
        if len(words) <= rule.name_at:
            return []
        s, e = words[rule.name_at]
        name = _unquoted(text[s:e])
        pattern = rule.name or SECRET_NAME
        if "=" in name and rule.positional == rule.name_at + 1:  # `NAME=VALUE`
            name = name.split("=", 1)[0]
            if not pattern.search(name):
                return []
            found = _value(text, s, e, rule._replace(after="=", kind=kind or _kind(name)))
            return [found] if found else []
        if not pattern.search(name):
            return []
        kind = kind or _kind(name)
    if rule.positional < 0 and len(words) < 2:
        return []  # htpasswd -b: at least the user and the password
    if not -len(words) <= rule.positional < len(words):
        return []
    found = _value(text, *words[rule.positional], rule._replace(kind=kind))
    return [found] if found else []


def _stdin(rule: Rule, text: str, at: int) -> list[Secret]:
    """What `echo` / `printf` pipes into the command that starts at `at`."""
    lo = max(text.rfind("\n", 0, at) + 1, at - 500)
    bar = text.rfind("|", lo, at)
    if bar < 0 or not _PIPE_TO.fullmatch(text, bar + 1, at):
        return []
    begin = max(text.rfind("echo", lo, bar), text.rfind("printf", lo, bar))
    source = _STDIN_SOURCE.match(text, begin, at) if begin >= 0 else None
    if source is None:
        return []
    words = _words(text, source.start("args"), source.end("args"))
    values = [w for w in words if not re.fullmatch(r"-[neE]+", text[w[0] : w[1]])]
    if source["cmd"] == "printf" and len(values) > 1 and "%" in text[slice(*values[0])]:
        values = values[1:]  # the format
    found = (_value(text, s, e, rule) for s, e in values)
    return [f for f in found if f is not None]


def command_secrets(text: str) -> list[Secret]:
    """Where the secrets may sit in the commands of `text` that `COMMANDS` knows, in
    order (a value `$(...)` can hold another command's). A program named again within its
    own command (`curl ... curl`) is read once: the work stays linear in the text."""
    found: list[Secret] = []
    for program in TRIGGERS:
        at, read_to = text.find(program), -1
        while at >= 0:
            end = at + len(program)
            before = text[at - 1] if at else " "
            after = text[end : end + 1] or "\n"
            command = after in " \t\n;|&)" and not (before.isalnum() or before in "_.-")
            if command and at >= read_to:
                spans = _words(text, end, min(len(text), end + _REACH))
                read_to = spans[-1][1] if spans else end
                for rule in _BY_PROGRAM[program]:
                    found.extend(_apply(rule, text, spans, at))
            at = text.find(program, end)
    return sorted(set(found))
