"""Sentences joined into one message (a search notice, a trace's note): each part is a
sentence that may or may not end in punctuation, and a message reads "a. B", never
"a B" (two sentences run together) nor "a.. B"."""

from __future__ import annotations

import re

#: What ends a sentence already: nothing more goes between it and the next.
TERMINAL = (".", "!", "?")
#: A part that opens with a plain word (not a code name: `base_class=...`, `x.y`).
_PLAIN_START = re.compile(r"[a-z]+(?=[ ,:;])")


def join_sentences(*parts: str | None) -> str:
    """The non-empty `parts` as one text: ". " after a part that lacks terminal
    punctuation, " " after one that has it; a later part that opens with a plain
    lower-case word (notices do: "no definition named ...") is capitalised; the last
    part is left as it ends."""
    kept = [p.strip() for p in parts if p and p.strip()]
    out = ""
    for part in kept:
        if out:
            out += " " if out.endswith(TERMINAL) else ". "
            if _PLAIN_START.match(part):
                part = part[0].upper() + part[1:]
        out += part
    return out
