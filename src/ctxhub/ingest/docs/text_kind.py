"""What a `.txt` file of a docs source is, from its content: an llms-full dump (pages
introduced by `# Title` + `Source: URL`), Markdown (a docs page or a dump of pages
without Source lines), or neither. Dumps are served under many names (`docs.txt`,
`full.txt`, `llms-ctx.txt`), so the name alone decides nothing but the link index
`llms.txt` and Sphinx's `_sources/*.txt` copies."""

from __future__ import annotations

import re
from typing import Literal

TextKind = Literal["dump", "markdown"]

_DUMP_SOURCE = re.compile(rb"^Source:[ \t]*https?://", re.M)
#: An ATX heading followed by a blank line: Markdown's, not a `# comment` of a
#: requirements file or robots.txt (the next line there is content).
_HEADING = re.compile(r"^#{1,6}[ \t]+\S[^\n]*\n[ \t]*(\n|$)", re.M)
_PROSE = re.compile(r"^(?!#)\S+(?:[ \t]+\S+){3,}", re.M)
#: Text files that are never docs whatever they hold.
_NOT_DOCS = re.compile(r"^(requirements|constraints)[\w.-]*\.txt$|^(robots|cmakelists)\.txt$", re.I)
HEAD_BYTES = 65536


def text_kind(name: str, head: bytes) -> TextKind | None:
    """The kind of a `.txt` docs file from its name and first bytes, or None."""
    if _NOT_DOCS.match(name):
        return None
    if len(_DUMP_SOURCE.findall(head)) >= 2:
        return "dump"
    text = head.decode("utf-8", "replace").replace("\r\n", "\n")
    if _HEADING.search(text) and _PROSE.search(text):
        return "markdown"
    return None
