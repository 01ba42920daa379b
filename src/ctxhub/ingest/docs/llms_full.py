"""Split an `llms-full.txt` dump (every page of a docs site, concatenated) into pages.

A page starts at a `# Title` line followed (after at most one blank line) by
`Source: URL`; lookalikes inside code fences are page content, never a page start.
Text before the first page (the dump's own preamble) belongs to no page. A page whose
Source is on another host than most pages is named `host/path` (e.g. an external SDK
reference linked from the navigation), so it never collides with a page of the site.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from ctxhub.core.doc_paths import normalize_doc_path
from ctxhub.ingest.docs.cleaned import FENCE_OPEN, is_fence_close

_TITLE = re.compile(r"# (.+?)(?:[ \t]+#+)?[ \t]*")
_SOURCE = re.compile(r"Source:[ \t]*(\S+)[ \t]*")


@dataclass(frozen=True)
class DocPage:
    """One page of a dump. `text` starts at its `# Title` line (page line 1), which is
    dump line `line_offset + 1`; `path` is the normalised path of its Source URL."""

    title: str
    url: str
    path: str
    text: str
    line_offset: int
    origin: str | None = None  # the dump's own path, when the caller knows it

    @property
    def source_line(self) -> int:
        """Page line (1-based) of the `Source:` line."""
        for i, line in enumerate(self.text.split("\n")[:3]):
            if _SOURCE.fullmatch(line):
                return i + 1
        return 0


def _page_start(lines: Sequence[str], i: int) -> tuple[str, str] | None:
    m = _TITLE.fullmatch(lines[i])
    if not m:
        return None
    for k in (i + 1, i + 2):
        if k >= len(lines):
            return None
        s = _SOURCE.fullmatch(lines[k])
        if s:
            return m.group(1).strip(), s.group(1)
        if lines[k].strip():
            return None
    return None


def split_llms_full(text: str, *, origin: str | None = None) -> list[DocPage]:
    """Pages of an llms-full.txt dump, in dump order."""
    lines = text.replace("\r\n", "\n").split("\n")
    starts: list[tuple[int, str, str]] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        if fence is not None:
            if is_fence_close(line, fence):
                fence = None
            continue
        fm = FENCE_OPEN.match(line)
        if fm and not (fm.group(2)[0] == "`" and "`" in fm.group(3)):
            fence = fm.group(2)
            continue
        if line.startswith("# "):
            found = _page_start(lines, i)
            if found:
                starts.append((i, *found))
    # The site is the host most pages live on; a page elsewhere (a link to another site
    # in the navigation) keeps its host in its path so it cannot pose as a site page.
    hosts = Counter(urlsplit(url).netloc.lower() for _, _, url in starts)
    site = hosts.most_common(1)[0][0] if hosts else ""
    pages: list[DocPage] = []
    for k, (i, title, url) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        host = urlsplit(url).netloc.lower()
        path = normalize_doc_path(url)
        if host != site:
            path = f"{host}/{path}".strip("/")
        pages.append(DocPage(title, url, path or "index", "\n".join(lines[i:end]), i, origin))
    return pages


def dump_pages_without_file(pages: Iterable[DocPage], file_paths: Iterable[str]) -> list[DocPage]:
    """Pages whose path no docs file names: the ones worth indexing beside the files."""
    have = {normalize_doc_path(p) for p in file_paths}
    return [p for p in pages if p.path not in have]
