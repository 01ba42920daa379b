"""Since when a deprecation holds, read from the comments next to it.

Projects that warn at runtime often date the warning in a comment rather than in its
text: `warnings.warn(  # deprecated in 13.1 - 2024-09-21`, or a comment above a group of
entries in a table of deprecated aliases. A comment counts when it is on the lines of the
statement itself or in the block of comments directly above it, and says "deprecated in
X", "deprecated since X" or "since X" (`deprecation_text.find_since`).
"""

from __future__ import annotations

import io
import tokenize

from ctxhub.ingest.python.deprecation_text import find_since


def comments_between(lines: list[str], first: int, last: int) -> list[tuple[int, str]]:
    """(line, text) of each comment on lines first..last (1-based), in order; a `#`
    inside a string is no comment."""
    chunk = "\n".join(lines[first - 1 : last])
    out: list[tuple[int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(chunk).readline):
            if token.type == tokenize.COMMENT:
                out.append((first + token.start[0] - 1, token.string.lstrip("#:").strip()))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # a cut through a statement: the comments read before the cut stand
    return out


def comment_block_above(lines: list[str], lineno: int) -> list[str]:
    """The contiguous comment lines directly above a line, nearest last."""
    block: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        block.append(lines[i].lstrip().lstrip("#:").strip())
        i -= 1
    return list(reversed(block))


def since_in_comments(texts: list[str]) -> str | None:
    """The version the last comment that dates a deprecation gives."""
    for text in reversed(texts):
        since = find_since(text)
        if since:
            return since
    return None


def statement_since(lines: list[str], first: int, last: int) -> str | None:
    """Since when, by the comments of a statement's own lines or those right above it."""
    if not lines or first < 1:
        return None
    own = [text for _, text in comments_between(lines, first, min(last, len(lines)))]
    return since_in_comments(own) or since_in_comments(comment_block_above(lines, first))
