"""Doc page identity: one name for a page whether it came from a file or a dump URL."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

#: Suffixes that name the same page with or without them (`x.mdx` == `x` == `x.md`,
#: `x.rst` == `x`): every format a docs source indexes as pages.
PAGE_SUFFIXES = (".mdx", ".md", ".markdown", ".rst", ".txt", ".html", ".htm")

#: llms.txt-convention aggregates (llms.txt, llms-full.txt, llms-ctx.txt, ...): whole-site
#: dumps, never a page of their own.
_AGGREGATE = re.compile(r"llms(?:-[a-z0-9_-]+)?\.txt", re.IGNORECASE)


def normalize_doc_path(path_or_url: str) -> str:
    """The page path without host, leading slash, query/fragment or markdown suffix.

    `pipecat-cloud/guides/x.mdx`, `/pipecat-cloud/guides/x` and
    `https://docs.example.com/pipecat-cloud/guides/x.md` all give `pipecat-cloud/guides/x`.
    """
    s = path_or_url.strip().replace("\\", "/")
    # a URL's path; for a plain path, drop what a link may add (#anchor, ?query)
    s = urlsplit(s).path if "://" in s else s.split("#", 1)[0].split("?", 1)[0]
    s = unquote(s)
    parts = [p for p in s.split("/") if p not in ("", ".")]
    if not parts:
        return ""
    last = parts[-1]
    lower = last.lower()
    for suffix in PAGE_SUFFIXES:
        if lower.endswith(suffix) and len(last) > len(suffix):
            parts[-1] = last[: -len(suffix)]
            break
    return "/".join(parts)


def is_aggregate_doc(relpath: str) -> bool:
    """True for llms.txt / llms-full.txt style dumps that concatenate the whole site."""
    name = PurePosixPath(relpath.replace("\\", "/")).name
    return bool(_AGGREGATE.fullmatch(name))


def doc_url(base_url: str, relpath: str) -> str:
    """The page URL under a site base: base + normalised path (no markdown suffix; a
    built HTML page keeps its `.html`, which is how the site serves it)."""
    path = normalize_doc_path(relpath)
    html = relpath.lower().rsplit(".", 1)[-1] if relpath.lower().endswith((".html", ".htm")) else ""
    return f"{base_url.rstrip('/')}/{path}" + (f".{html}" if html else "")
