"""Which names a changelog entry is about.

An entry's subject is the enumeration of code-marked names that opens a sentence
("Both `a` and `b` have been deprecated", "Remove the deprecated `x` module"), the
first such sentence of the entry; a name the prose only passes by ("Trying to use
absolute deadlines on a `Cls` now raises", "Removed special `X` traceback handling")
is none. Names of the language or its standard library (`RuntimeError`, `Any`,
`contextvars`) are never the package's API.
"""

from __future__ import annotations

import builtins
import re
import sys
import typing

from ctxhub.ingest.python.deprecation_text import clean_name

_BACKTICKED = re.compile(r"`{1,2}([^`\n]+?)`{1,2}")
_FIRST_SENTENCE = re.compile(r"[.:;](?:\s|$)")
_KIND = (
    r"(?:settings?|methods?|functions?|class(?:es)?|parameters?|arguments?|attributes?"
    r"|propert(?:y|ies)|fields?|modules?|options?|frames?|services?|aliases?|hooks?"
    r"|decorators?|constants?|exceptions?|mixins?)"
)
_SEPARATOR = re.compile(rf"^\s*(?:{_KIND}\s*)?(?:,|/|&)?\s*(?:(?:and|or)\s+)?(?:the\s+)?$", re.I)
# "`Cls` methods `a()`, `b()`" and "`Cls`'s `a`": what follows are members of Cls.
_MEMBERS_OF = re.compile(
    r"^(?:\s+(?:methods?|attributes?|propert(?:y|ies)|fields?)|['’]s)\s+$", re.I
)
# Words that make a name a parameter ("the *x* argument", "`x` keyword").
_PARAM_WORD = r"(?:argument|parameter|keyword|kwarg|option|flag)s?\b"
# "`Cls()`'s *x* argument": what follows the owner names its parameter.
_OWNER_PARAM = re.compile(
    rf"^\s*(?:['’]s)?\s+(?:the\s+)?(?P<m>[*_`]{{1,2}})(?P<p>[A-Za-z_]\w*)=?(?P=m)\s+"
    rf"(?:keyword\s+)?{_PARAM_WORD}"
)
# "`x` argument (of|to|for|in) `Owner`": the names before were parameters.
_PARAM_AFTER = re.compile(
    rf"^\s*(?:keyword\s+)?{_PARAM_WORD}(?:\s+(?:of|to|for|in|on)\s+(?:the\s+)?"
    r"`{1,2}(?P<owner>[^`\n]+)`{1,2})?"
)
# `Cls(x=...)` names parameter x of Cls; a bare `x=` names a parameter of some owner.
_CALL_KEYWORD = re.compile(r"^~?[\w.]+\(\s*(?P<p>[A-Za-z_]\w*)\s*=")
_KEYWORD = re.compile(r"^(?P<p>[A-Za-z_]\w*)=(?![\w.]*\()")
# "`clear` method on `trio.Event`": the name is a member of the one that follows.
_MEMBER_ON = re.compile(
    r"^\s+(?:methods?|attributes?|propert(?:y|ies)|fields?)\s+(?:on|of|from)\s+(?:the\s+)?"
    r"(?::[\w:]+:)?$",
    re.I,
)
_SENTENCE_END = re.compile(r"[.;](?:\s|$)|:\s")
_ROLE = re.compile(r":[\w:]+:$")  # a Sphinx role (`:class:`) right before a name
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\w.]*")
# Words that may open a sentence before its subject: articles and quantifiers, the
# adjectives of an API's status, the kind of thing named, and the verbs of removal.
_OPENERS = frozenset(
    "the a an both all entire whole old previous former deprecated undocumented legacy"
    " obsolete unused long"
    " private public internal long-deprecated already now support for of use usage"
    " method methods function functions class classes parameter parameters argument"
    " arguments attribute attributes property properties field fields module modules"
    " submodule submodules option options alias aliases keyword keywords setting settings"
    " name names".split()
)
_VERB = re.compile(r"^(?:remov|deprecat|drop|delet|renam)\w*$", re.I)
# whole words: `drop_constraint` says nothing of dropping
_ABOUT = re.compile(
    r"\b(?:deprecat\w*|remov\w*|dropp?(?:ed|s|ing)?|delet\w*|renam\w*|no\s+longer)\b", re.I
)
# After the names: a plain noun ("`X` traceback handling") makes them modifiers of it.
_AFTER_NAMES = re.compile(r"^\s+(?P<w>[a-z][a-z-]*)\b")
_FOLLOWERS = frozenset(
    "is are was were has have had will would can could should must may now and or in on"
    " of for from to which that as at by since with without instead been being no not"
    " nor also still were here there its their it they this these those so but then"
    " have"
    # "`x` support" / "`x` compatibility": what is removed is x itself
    " support compatibility usage use".split()
)
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)
_LANGUAGE = frozenset(dir(builtins)) | frozenset(getattr(typing, "__all__", ()))


def subjects(text: str) -> tuple[list[tuple[str, str | None]], int]:
    """The names the entry is about (each with the parameter it names, if any) and where
    the text after them starts: from its first sentence whose opening names them, else
    from a later sentence that says they are deprecated or removed."""
    start = 0
    first = True
    while start < len(text):
        end_match = _SENTENCE_END.search(text, start)
        end = end_match.end() if end_match else len(text)
        sentence = text[start:end]
        if first or _ABOUT.search(sentence):
            names, after = _sentence_subjects(text[start:])
            if names and _opens_with_names(sentence) and not _modifies_noun(text, start + after):
                return names, start + after
        first = False
        start = end
    return _unmarked_subjects(text)


# "Deprecate WSGIMiddleware in favor of ...", "Removed pkg.old_helper": a name set in no
# code marks still reads as code when it is CamelCase or dotted and the entry opens by
# deprecating or removing it.
_CODE_WORD = r"(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|(?=[A-Z]\w*[a-z])[A-Z]\w*[A-Z]\w*)"
_BARE_OPENING = re.compile(
    r"^(?i:deprecated?|deprecates|remove[ds]?|drop(?:ped|s)?)\s+(?i:the\s+)?"
    rf"(?P<n>{_CODE_WORD})(?:\(\))?(?=[\s,.;:]|$)"
)
_BARE_PASSIVE = re.compile(
    rf"^(?i:the\s+)?(?P<n>{_CODE_WORD})(?:\(\))?\s+(?i:{_KIND}\s+)?"
    r"(?i:is|are|was|were|has\s+been|have\s+been)\s+(?i:now\s+)?(?i:deprecated|removed)\b",
)
# "Passing a generator to `Router(lifespan=)` is deprecated": one way of passing one
# argument, the only code the sentence names.
_KEYWORD_CALL = re.compile(r"`{1,2}~?(?P<owner>[\w.]+)\(\s*(?P<p>[A-Za-z_]\w*)\s*=[^`]*`{1,2}")


_USAGE = re.compile(r"^(?:passing|using|calling)\b", re.I)


def is_usage(text: str) -> bool:
    """The entry is about one way of calling ("Passing a generator to `f(x=)` ..."), not
    the parameter it names."""
    return bool(_USAGE.match(text))


# "`Policy` will emit a warning if an application ... without passing a `hashalg`
# argument": advice on one way of using the thing (a condition), not its deprecation
_CONDITIONAL_WARNING = re.compile(
    r"\b(?:emits?|raises?|issues?|shows?|logs?|gives?)\s+an?\s+(?:\w+\s+)?warning\s+"
    r"(?:if|when|whenever|unless)\b|\bwarns?\s+(?:if|when|whenever|unless)\b",
    re.I,
)


def warns_on_condition(sentence: str) -> bool:
    """The sentence says a warning is emitted on some condition (an argument not passed,
    a setting used): one usage of its names is advised against, not the names."""
    return bool(_CONDITIONAL_WARNING.search(sentence))


# "Accessing package metadata as attributes on the *kit* module is deprecated": one way
# of using the module (its first sentence opens with what is done to it), not the module
_MODULE_USAGE = re.compile(
    r"^(?:accessing|importing|reading|getting|setting|using|calling)\b[^.;]*?"
    r"\b(?:on|of|from|in|through)\s+the\s+(?P<m>[*`]{1,2})(?P<n>[A-Za-z_][\w.]*)(?P=m)\s+"
    r"(?:module|package)\b[^.;]*?\b(?:is|are)\s+(?:now\s+)?deprecated\b",
    re.I,
)


def module_usage(text: str) -> str | None:
    """The module whose usage an entry's opening deprecates, if it does so."""
    match = _MODULE_USAGE.match(text)
    return match.group("n") if match and not is_language_name(match.group("n")) else None


def _unmarked_subjects(text: str) -> tuple[list[tuple[str, str | None]], int]:
    """The subject of an entry whose names are not where `subjects` looks: a bare
    CamelCase or dotted name it opens by deprecating, or the one `Owner(param=)` a
    sentence about passing it says is deprecated."""
    bare = _BARE_OPENING.match(text) or _BARE_PASSIVE.match(text)
    if bare is not None and not is_language_name(bare.group("n")):
        return [(bare.group("n"), None)], bare.end()
    usage = _MODULE_USAGE.match(text)
    if usage is not None and module_usage(text) is not None:
        return [(usage.group("n"), None)], usage.end()
    end = _SENTENCE_END.search(text)
    first = text[: end.start()] if end else text
    calls = list(_KEYWORD_CALL.finditer(first))
    if len(calls) == 1 and len(_BACKTICKED.findall(first)) == 1 and _ABOUT.search(first):
        return [(calls[0].group("owner"), calls[0].group("p"))], len(first)
    return [], 0


def _opens_with_names(sentence: str) -> bool:
    """Only openers come before the sentence's first code-marked name ("The old `x`",
    "Remove the deprecated `x`"), or a removal verb opens a list in parentheses or after
    a colon ("Remove all the APIs deprecated in 0.9.0 or earlier (`a`, `b`)")."""
    match = _BACKTICKED.search(sentence)
    if match is None:
        return False
    before = _ROLE.sub("", sentence[: match.start()].rstrip()).rstrip()
    words = _WORD.findall(before)
    # a label in capitals ("BACKWARDS INCOMPATIBLE Removed the `x` method") is no prose
    if all(w.lower() in _OPENERS or _VERB.match(w) or (w.isupper() and len(w) > 1) for w in words):
        return True
    return bool(words and _VERB.match(words[0]) and before.endswith(("(", ":")))


def _modifies_noun(text: str, after: int) -> bool:
    """The names are followed by a plain word that is not a verb, conjunction or
    preposition: they qualify a noun ("`X` traceback handling"), not the subject."""
    match = _AFTER_NAMES.match(text[after:])
    if match is None:
        return False
    word = match.group("w")
    return word not in _FOLLOWERS and not _KIND_WORD.match(word)


_KIND_WORD = re.compile(rf"^(?:{_KIND}|{_PARAM_WORD}|name|names)$", re.I)


def is_language_name(name: str) -> bool:
    """A builtin, a `typing` name, or a module of the standard library (or a name under
    one): never what a package's changelog deprecates of its own."""
    head = name.split(".", 1)[0]
    return name in _LANGUAGE or head in _STDLIB


def _sentence_subjects(text: str) -> tuple[list[tuple[str, str | None]], int]:
    """The names an entry opens with (each with the parameter it names, if any: `Cls(x=...)`
    or a bare `x=`, whose owner is then ""), and where the text after them starts."""
    end_first = _FIRST_SENTENCE.search(text)
    limit = end_first.start() if end_first else len(text)
    names: list[tuple[str, str | None]] = []
    container: str | None = None
    last_end = -1  # end of the previous backticked token; -1 before the first
    for match in _BACKTICKED.finditer(text):
        if match.start() > limit:
            break
        raw = match.group(1).strip()
        name = clean_name(raw)
        keyword = _KEYWORD.match(raw)
        call = _CALL_KEYWORD.match(raw)
        if last_end >= 0:
            between = text[last_end : match.start()]
            if len(names) == 1 and container is None and _MEMBERS_OF.match(between):
                container = names.pop()[0]  # "`Cls` methods `a()`, `b()`": members of Cls
            elif len(names) == 1 and name and names[0][0] and _MEMBER_ON.match(between):
                names[0] = (f"{name}.{names[0][0]}", names[0][1])  # "`a` method on `Cls`"
                last_end = match.end()
                break
            elif not _SEPARATOR.match(between):
                break  # the opening enumeration has ended
        last_end = match.end()
        # A non-name token (`pkg-extra`, `model:v2`) still holds a place in the list.
        if name and "." in name and text[: match.start()].endswith(":paramref:"):
            owner, _, param = name.rpartition(".")  # Sphinx's mark for a parameter
            names.append((owner, param))
        elif keyword:
            names.append((container or "", keyword.group("p")))
        elif name is not None:
            inside = container and not name.startswith(container + ".")
            names.append((f"{container}.{name}" if inside else name, call and call.group("p")))
    return names, max(last_end, 0)


def parameters(subjects: list[tuple[str, str | None]], rest: str) -> list[tuple[str, str | None]]:
    """(owner, parameter) where the words after the names say they are parameters:
    "`Cls()`'s *x* argument", "`x` argument of `f()`", "`f`'s `x` keyword"."""
    owner_param = _OWNER_PARAM.match(rest)
    if owner_param and len(subjects) == 1 and subjects[0][1] is None:
        return [(subjects[0][0], owner_param.group("p"))]
    after = _PARAM_AFTER.match(rest)
    if not after:
        return [s for s in subjects if s[0]]  # a bare `x=` with no owner names nothing
    said = clean_name(after.group("owner")) if after.group("owner") else None
    out: list[tuple[str, str | None]] = []
    for name, param in subjects:
        if param is not None:
            owner = name or said
        else:
            owner, _, param = name.rpartition(".") if said is None else (said, "", name)
            param = param.rsplit(".", 1)[-1]
        if owner:
            out.append((owner, param))
    return out
