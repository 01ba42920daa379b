"""An example's prose in brief: the opening of a README or docstring, a script's leading
comment."""

from __future__ import annotations

import re

SUMMARY_CHARS = 300
#: README sections about getting set up say nothing about what the example does.
SETUP_HEADING = re.compile(
    r"prereq|install|set ?up|config|requirement|licen[cs]e|contribut|troubleshoot", re.I
)


def summarize(text: str, limit: int = SUMMARY_CHARS, fill: float = 1 / 3, sep: str = " ") -> str:
    """The first paragraph(s) of prose up to ~limit characters: headings, badges, HTML,
    code fences and license boilerplate skipped. Paragraphs are added until the text
    reaches `fill` of the limit (a one-line title alone says little)."""
    paras: list[str] = []
    cur: list[str] = []
    fenced = setup = False
    for raw in [*text.splitlines(), ""]:
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if line.startswith("#") and not fenced:
            setup = bool(SETUP_HEADING.search(line))
        skip = line.startswith(("#", "<", "![", "[![", "|", "---", "===")) or re.search(
            r"copyright|spdx-license|all rights reserved", line, re.I
        )
        if fenced or setup or not line or skip:
            if cur:
                paras.append(" ".join(cur))
                cur = []
            continue
        cur.append(line)
    out = ""
    for p in paras:
        out = f"{out}{sep}{p}" if out else p
        if len(out) >= limit * fill:
            break
    if len(out) > limit:
        cut = max(out.rfind(". ", 0, limit), out.rfind(" ", 0, limit))
        out = out[: cut + 1 if cut > limit // 2 else limit].rstrip() + " …"
    return out


def leading_comment(text: str) -> str:
    """The comment block a script starts with, as prose (for files without a docstring)."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#!"):
            continue
        if not line.startswith(("#", "//")):
            if line:
                break
            lines.append("")
            continue
        lines.append(line.lstrip("#/ ").rstrip())
    return "\n".join(lines)
