"""Code signals of a docs page: how much fenced code it holds, in which languages, and
whether it is a worked example (a guide whose code is a whole program, not a snippet)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ctxhub.ingest.docs.cleaned import CleanedText

#: A single block this long with imports and an entry point is a complete program.
PROGRAM_MIN_LINES = 20
#: Otherwise a worked example has this much code in all, with one block at least
#: WALKTHROUGH_BLOCK_LINES long that defines a function or class: code that is built up
#: and explained, not a page of one-line usage snippets.
WORKED_EXAMPLE_CODE_LINES = 40
WALKTHROUGH_BLOCK_LINES = 25

_IMPORT = re.compile(
    r"^\s*(?:import\s+[\w{*\"']|from\s+[\w.]+\s+import\s|(?:const|let|var)\s+\w+\s*=\s*"
    r"require\(|#include\s|use\s+[\w:]+;|package\s+\w)",
    re.MULTILINE,
)
_ENTRY = re.compile(
    r"__name__\s*==\s*['\"]__main__['\"]"
    r"|^(?:async\s+)?def\s+(?:main|run)\w*\s*\("
    r"|\b(?:asyncio|trio|anyio|uvloop)\.run\("
    r"|^\s*(?:func|fn)\s+main\s*\("
    r"|\bint\s+main\s*\("
    r"|\bstatic\s+void\s+main\s*\("
    r"|^\s*export\s+default\b"
    r"|\.listen\(",
    re.MULTILINE,
)
_DEFINES = re.compile(
    r"^\s*(?:async\s+def|def|class|(?:export\s+)?(?:async\s+)?function|func|fn)\s+\w+",
    re.MULTILINE,
)


@dataclass(frozen=True)
class CodeStats:
    code_lines: int  # lines inside code blocks (fence lines excluded)
    languages: list[str]  # most lines first
    complete_program: bool  # some block has imports, an entry point and some length
    largest_block: int = 0  # lines of the longest code block
    defines: bool = False  # some code block defines a function or class

    @property
    def primary_language(self) -> str | None:
        return self.languages[0] if self.languages else None


def code_stats(doc: CleanedText, first: int = 0, last: int | None = None) -> CodeStats:
    """Code in cleaned lines first..last (inclusive; whole page by default)."""
    end = len(doc.lines) if last is None else last + 1
    per_lang: Counter[str] = Counter()
    blocks: dict[int, list[str]] = {}
    total = 0
    for i in range(first, end):
        bid = doc.block[i]
        if bid < 0 or doc.marker[i]:
            continue
        total += 1
        blocks.setdefault(bid, []).append(doc.lines[i])
        lang = doc.languages.get(bid, "")
        if lang:
            per_lang[lang] += 1
    texts = {bid: "\n".join(body) for bid, body in blocks.items()}
    program = any(
        len(blocks[bid]) >= PROGRAM_MIN_LINES
        and bool(_IMPORT.search(text))
        and bool(_ENTRY.search(text))
        for bid, text in texts.items()
    )
    return CodeStats(
        code_lines=total,
        languages=[lang for lang, _ in per_lang.most_common()],
        complete_program=program,
        largest_block=max((len(b) for b in blocks.values()), default=0),
        defines=any(_DEFINES.search(t) for t in texts.values()),
    )


def is_worked_example(stats: CodeStats) -> bool:
    """A complete program, or a code walkthrough (see WORKED_EXAMPLE_CODE_LINES)."""
    return stats.complete_program or (
        stats.code_lines >= WORKED_EXAMPLE_CODE_LINES
        and stats.largest_block >= WALKTHROUGH_BLOCK_LINES
        and stats.defines
    )
