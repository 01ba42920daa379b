"""Turning a Python file's bytes into text and an `ast` tree, or a reason to skip it.

One broken file (a syntax error, bytes in an unknown encoding, a stray NUL) must not
stop a source from indexing, so every such failure becomes a `SkipFile` the caller can
count and name.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings

from ctxhub.core.errors import SkipFile

# `ast` counts \r\n, \r and \n as line ends; str.splitlines() also splits on \f, \x1c,
# \u2028 ... which would shift every line number after one of them.
_LINE_END = re.compile(r"\r\n|\r|\n")


def decode_source(data: str | bytes) -> str:
    """Text of a Python file: its PEP 263 coding cookie or BOM, else UTF-8, strictly."""
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        # Raised for an unknown codec in the cookie, a BOM/cookie clash, or first lines
        # that are not UTF-8 at all; say which, since the fix differs.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise SkipFile(f"not decodable as utf-8: {bad}") from e
        raise SkipFile(f"bad encoding declaration: {e}") from e
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as e:
        raise SkipFile(f"not decodable as {encoding}: {e}") from e
    return text[1:] if text.startswith("\ufeff") else text


def parse_source(text: str, relpath: str) -> ast.Module:
    """The module's tree; SkipFile on anything the compiler rejects."""
    if "\x00" in text:
        raise SkipFile("contains NUL bytes")
    try:
        with warnings.catch_warnings():
            # Invalid escape sequences in old code warn at parse time; not our concern.
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=relpath, type_comments=False)
    except SyntaxError as e:
        raise SkipFile(f"syntax error at line {e.lineno}: {e.msg}") from e
    except (ValueError, RecursionError, MemoryError) as e:
        raise SkipFile(f"unparsable: {type(e).__name__}") from e


def split_lines(text: str) -> list[str]:
    """Lines as `ast` numbers them (index 0 is line 1), without their line ends."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # a final newline does not start another line
    return lines


def segment(lines: list[str], start: int, end: int) -> str:
    """Source lines start..end (1-based, inclusive) joined with newlines."""
    return "\n".join(lines[start - 1 : end])
