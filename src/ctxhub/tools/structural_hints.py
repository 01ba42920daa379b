"""Questions about the code's structure asked in words ("classes that subclass
HookCaller", "who calls push_frame"): the search answers them by text, and a line says
which tool answers them exactly, with its arguments. Only when the name resolves to an
indexed definition, so the hint is one an agent can call as written."""

from __future__ import annotations

import re

from ctxhub.store.protocol import Store
from ctxhub.tools import resolve

_NAME = r"`?(?P<name>[A-Za-z_][\w.]*[A-Za-z_0-9])`?(?:\(\))?"
#: (pattern, hint template): the first that matches and whose name resolves is offered.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:sub-?class(?:es)?|child\s+classes|implementations|classes|which\s+\w+)"
            r"\s+(?:of|(?:that\s+)?(?:sub-?class(?:es)?|inherits?\s+from|extends?|derives?"
            r"\s+from|implements?)|(?:inherit(?:ing)?|deriv(?:ed|ing))\s+from)\s+" + _NAME,
            re.I,
        ),
        "search_api(base_class={last!r}) lists the classes that derive from {name} "
        "directly (`ctxhub search-api --base {last}`)",
    ),
    (
        re.compile(
            r"\b(?:who|what|which\s+\w+)\s+(?:calls|invokes|uses)\s+"
            + _NAME
            + r"|\bcallers\s+of\s+"
            + _NAME.replace("name", "name2"),
            re.I,
        ),
        "trace_calls({name!r}, direction='callers') lists what calls it "
        "(`ctxhub calls {name} --callers`)",
    ),
    (
        re.compile(r"\bwhat\s+(?:does|do)\s+" + _NAME + r"\s+call\b", re.I),
        "trace_calls({name!r}) lists what it calls (`ctxhub calls {name}`)",
    ),
    (
        re.compile(
            r"\b(?:what|which\s+class(?:es)?)\s+(?:does|do)\s+"
            + _NAME
            + r"\s+(?:sub-?class|inherit\s+from|extend|derive\s+from)",
            re.I,
        ),
        "get_code_snippet(symbol={name!r}) shows its class line and bases "
        "(`ctxhub snippet {name}`)",
    ),
)


def structural_hint(store: Store, query: str) -> str | None:
    """The exact tool for a structural question in words, or None."""
    for pattern, template in _PATTERNS:
        match = pattern.search(query)
        if match is None:
            continue
        name = match.groupdict().get("name") or match.groupdict().get("name2")
        if not name or not resolve.find_symbol(store, name)[0]:
            continue
        return "structural question: " + template.format(name=name, last=name.rsplit(".", 1)[-1])
    return None
