"""Docs that pull code from files: the included code goes into the page, where its
chunks can show it, instead of the bare directive.

Three spellings: MkDocs snippets (`--8<-- "docs_src/app.py"`, also inside a code fence),
FastAPI-style `{* ../../docs_src/app.py hl[3] *}`, and reST `.. literalinclude:: app.py`
(MyST's ```` ```{literalinclude} app.py ```` too).
A path is tried relative to the page's folder, then to each folder above it (tools
resolve them from their config's folder, which the page does not say); only files of the
same source can be read. The included lines take the directive's line number, so every
chunk still cites the page's own lines.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from ctxhub.ingest.docs.cleaned import CleanedText

#: relpath -> the file's text, or None when the source has no such file
Reader = Callable[[str], str | None]

MAX_LINES = 400
_PATTERNS = (
    re.compile(r"""^\s*-{1,2}8<-{1,2}\s+["']([^"']+)["']\s*$"""),
    re.compile(r"^\s*\{\*\s*(\S+?)(?:\s+[^*]*)?\*\}\s*$"),
    re.compile(r"^\s*\.\.\s+literalinclude::\s*(\S+)\s*$"),
    # MyST's fence (myst.py rewrites it to the reST line above for expansion)
    re.compile(r"^\s*(?:`{3,}|~{3,}|:{3,})\{literalinclude\}\s+(\S+)\s*$"),
)
_LANGUAGES = {"py": "python", "js": "javascript", "ts": "typescript", "sh": "bash", "yml": "yaml"}


def _target(line: str) -> str | None:
    for pattern in _PATTERNS:
        m = pattern.match(line)
        if m:
            return m.group(1)
    return None


def include_targets(text: str) -> list[str]:
    """The paths a page's include directives name, as written."""
    return [t for line in text.splitlines() if (t := _target(line)) is not None]


def candidate_paths(page: str, target: str) -> list[str]:
    """Where an include of `target` on `page` may live, nearest folder first."""
    folder = posixpath.dirname(page)
    out = []
    while True:
        path = posixpath.normpath(posixpath.join(folder, target.lstrip("/")))
        if not path.startswith(".."):
            out.append(path)
        if not folder:
            return out
        folder = posixpath.dirname(folder)


def expand_includes(doc: CleanedText, page: str, read: Reader) -> tuple[CleanedText, list[str]]:
    """`doc` with every include replaced by the file's lines; (doc, included paths)."""
    lines: list[str] = []
    spans: list[tuple[int, int]] = []
    block: list[int] = []
    marker: list[bool] = []
    languages = dict(doc.languages)
    next_block = max([*doc.block, -1]) + 1
    included: list[str] = []
    warnings = list(doc.warnings)
    for i, line in enumerate(doc.lines):
        target = _target(line)
        found = None
        if target is not None:
            found = next(
                ((p, t) for p in candidate_paths(page, target) if (t := read(p)) is not None), None
            )
            if found is None:
                warnings.append(f"include not found: {target}")
        if found is None:
            lines.append(line)
            spans.append(doc.spans[i])
            block.append(doc.block[i])
            marker.append(doc.marker[i])
            continue
        path, text = found
        included.append(path)
        code = text.splitlines()[:MAX_LINES]
        inside = doc.block[i] >= 0
        bid = doc.block[i] if inside else next_block
        if not inside:
            next_block += 1
            ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
            languages[bid] = _LANGUAGES.get(ext, ext)
            code = ["```" + languages[bid], *code, "```"]
        for k, code_line in enumerate(code):
            lines.append(code_line)
            spans.append(doc.spans[i])
            block.append(bid)
            marker.append(not inside and k in (0, len(code) - 1))
    cleaned = CleanedText(
        lines,
        spans,
        block,
        marker,
        languages,
        frontmatter=doc.frontmatter,
        warnings=warnings,
        frontmatter_lines=doc.frontmatter_lines,
    )
    return cleaned, included
