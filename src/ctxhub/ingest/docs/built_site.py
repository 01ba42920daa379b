"""A built docs site inside a source (Sphinx, MkDocs, ... output): which folder is one,
which of its files are pages, and why the rest (theme JS/CSS, fonts, search indexes,
Sphinx's `_sources/` copies) is no content.

A folder is a built site when it holds HTML pages directly and a mark only a site
generator leaves: `objects.inv`, `searchindex.js`, `.buildinfo`, `sitemap.xml`, MkDocs'
`search/search_index.json`, or Sphinx's `_static/`, `_sources/`, `.doctrees/` folders.
Its pages are docs whatever the folder is called; its other files are never examples.

A source that ships both a built site and the Sphinx project it was built from (a
folder with `conf.py` under the same top folder, as an sdist's `docs/` and
`docs/build/` can be) would index each page twice: the source page is indexed (its
lines are the file's lines, its directives are read) and its built twin left out.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

PAGE_EXT = (".html", ".htm")
#: Files at a site's root that only a docs generator writes.
_MARK_FILES = frozenset(
    {"objects.inv", "searchindex.js", ".buildinfo", "sitemap.xml", "search/search_index.json"}
)
#: Folders at a site's root that only a docs generator writes.
_MARK_DIRS = frozenset({"_static", "_sources", ".doctrees"})
#: Folders of a site that hold no pages, only what the pages load or copy.
_ASSET_DIRS = frozenset({"_static", "_images", "_downloads", "_sources", ".doctrees", "assets"})
#: Where a Sphinx project keeps its theme's HTML templates.
_TEMPLATES = "_templates"
#: What a page loads: scripts, styles, source maps, fonts, images, data and indexes.
_ASSET_EXT = frozenset(
    """js mjs css map json xml gz inv woff woff2 ttf otf eot png jpg jpeg gif svg ico webp
    bmp pickle doctree""".split()
)

TEMPLATE = "a docs theme's template (_templates/), not a page"
BUILT_TWIN = "a built docs page whose source page is indexed instead"
SOURCE_COPY = "a built docs site's copy of a page source (_sources/): its HTML page is indexed"
SITE_INDEX = "a built docs site's index (objects.inv, search index, sitemap), not a page"
ASSET = "a built docs site's asset (theme JS/CSS, fonts, images), not docs or examples"


def site_roots(files: Iterable[str]) -> frozenset[str]:
    """The folders ("" for the root) that are built docs sites, outermost only."""
    pages: set[str] = set()
    marked: set[str] = set()
    for rel in files:
        folder = posixpath.dirname(rel)
        if rel.lower().endswith(PAGE_EXT):
            pages.add(folder)
        parts = rel.split("/")
        for cut in range(len(parts)):
            base, rest = "/".join(parts[:cut]), "/".join(parts[cut:])
            if rest in _MARK_FILES or (parts[cut] in _MARK_DIRS and cut < len(parts) - 1):
                marked.add(base)
    roots = sorted(pages & marked)
    return frozenset(r for r in roots if not any(_under(r, o) for o in roots if o != r))


def _under(rel: str, root: str) -> bool:
    return not root or rel == root or rel.startswith(root + "/")


def site_root_of(rel: str, roots: Iterable[str]) -> str | None:
    return next((r for r in roots if _under(rel, r)), None)


def is_site_page(rel: str, roots: Iterable[str]) -> bool:
    """An HTML page of a built site (not one its theme ships under `_static/`)."""
    root = site_root_of(rel, roots)
    if root is None or not rel.lower().endswith(PAGE_EXT):
        return False
    inner = rel[len(root) + 1 :] if root else rel
    if _TEMPLATES in inner.split("/")[:-1]:
        return False
    return inner.split("/", 1)[0] not in _ASSET_DIRS or "/" not in inner


def site_file_reason(rel: str, roots: Iterable[str]) -> str | None:
    """Why a file of a built site is no content (None for a page, or outside any site)."""
    root = site_root_of(rel, roots)
    if root is None or is_site_page(rel, [root]):
        return None
    inner = rel[len(root) + 1 :] if root else rel
    if inner.startswith("_sources/"):
        return SOURCE_COPY
    if _TEMPLATES in inner.split("/")[:-1]:
        return TEMPLATE
    if inner in _MARK_FILES or inner.endswith((".inv", "sitemap.xml.gz")):
        return SITE_INDEX
    ext = posixpath.splitext(inner)[1].lower().lstrip(".")
    if inner.split("/", 1)[0] in _ASSET_DIRS or ext in _ASSET_EXT:
        return ASSET
    return None  # an llms-full.txt or a Markdown copy beside the pages: read as usual


#: Page sources a Sphinx project builds into a page of the same name.
_SOURCE_EXT = (".rst", ".md", ".txt")


def _top(rel: str) -> str:
    return rel.split("/", 1)[0] if "/" in rel else ""


def built_twins(pages: Iterable[str], roots: Iterable[str], files: Iterable[str]) -> dict[str, str]:
    """{built page: its source page} for the built pages among `pages` whose source page
    (same path under a `conf.py` folder beside the site) is among `pages` too."""
    page_set = set(pages)
    projects = [posixpath.dirname(f) for f in files if posixpath.basename(f) == "conf.py"]
    roots = list(roots)
    twins: dict[str, str] = {}
    for page in sorted(page_set):
        root = site_root_of(page, roots)
        if root is None or not page.lower().endswith(PAGE_EXT):
            continue
        stem = posixpath.splitext(page[len(root) + 1 :] if root else page)[0]
        for project in projects:
            if _top(project + "/x") != _top(page):
                continue
            found = next(
                (
                    c
                    for ext in _SOURCE_EXT
                    if (c := posixpath.join(project, stem + ext)) in page_set
                ),
                None,
            )
            if found is not None:
                twins[page] = found
                break
    return twins
