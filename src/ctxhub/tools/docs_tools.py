"""get_doc: a whole documentation page (or one section), rebuilt from its chunks."""

from __future__ import annotations

import difflib

from ctxhub.core.budget import estimate_tokens, token_chars
from ctxhub.core.doc_paths import normalize_doc_path
from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.core.knowledge import Chunk, ChunkQuery
from ctxhub.core.limits import DEFAULT_TOKENS, check_tokens
from ctxhub.core.outputs import DocPage
from ctxhub.session import HubSession
from ctxhub.tools.doc_sections import (
    fitting_sections,
    json_chars,
    loose,
    matching_chunks,
    own_section,
    trim_json,
)
from ctxhub.tools.hub_status import installed_first
from ctxhub.tools.source_check import check_sources

#: Tokens held back for the text rendering's header and JSON escaping.
_SLACK_TOKENS = 60
#: The least content a page answers with, however tight the budget.
MIN_CONTENT_CHARS = 300
#: What a whole page's list of sections may always take (about ten headings).
MIN_SECTIONS_CHARS = 600


def _strip_overlap(previous: str, current: str, max_overlap: int = 2000) -> str:
    """Drop the head of `current` that repeats the tail of `previous` (window overlap)."""
    limit = min(len(previous), len(current), max_overlap)
    for size in range(limit, 20, -1):
        if previous.endswith(current[:size]):
            return current[size:].lstrip("\n")
    return current


def _page_chunks(hub: HubSession, source: str, path: str) -> list[Chunk]:
    """A page's chunks in page order: by line, and by their order in the page where
    lines tie (the chunks of an included file all cite the include's line)."""
    chunks = hub.store.find_chunks(ChunkQuery(kind="doc", source=source, path=path))

    def order(c: Chunk) -> tuple[int, int, str]:
        index = c.metadata.extra.get("chunk_index")
        return (c.line_start or 0, index if isinstance(index, int) else 0, c.id)

    return sorted(chunks, key=order)


#: Page paths a not-found answer offers.
MAX_NEAR_PAGES = 5


def _near_pages(wanted: str, paths: list[str]) -> list[str]:
    """Stored page paths that `wanted` most likely means: those ending in it (`api` ->
    `docs/api.rst`, a folder left out), then those whose last part is spelt like it."""
    if not wanted:
        return []
    normal = {p: normalize_doc_path(p) for p in dict.fromkeys(paths)}
    tail = wanted.rsplit("/", 1)[-1]
    ending = [p for p, n in normal.items() if n.endswith("/" + wanted)]
    lasts = {p: n.rsplit("/", 1)[-1] for p, n in normal.items()}
    close = difflib.get_close_matches(tail, list(dict.fromkeys(lasts.values())), n=3, cutoff=0.75)
    spelt = [p for name in close for p, last in lasts.items() if last == name]
    return list(dict.fromkeys([*sorted(ending, key=len), *spelt]))[:MAX_NEAR_PAGES]


def _joined(chunks: list[Chunk]) -> str:
    """The chunks' text in page order, a section's window overlaps left out."""
    parts: list[str] = []
    last_section: str | None = None
    previous = ""
    for chunk in chunks:
        same = chunk.section == last_section
        parts.append(_strip_overlap(previous, chunk.content) if same else chunk.content)
        previous, last_section = chunk.content, chunk.section
    return "\n\n".join(p for p in parts if p.strip())


def _matching_pages(wanted: str, by_path: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(source, path) of the pages `wanted` names: the page itself, or its directory-style
    index (MkDocs' `hashing/` is `hashing/index.html`), compared as written, then
    loosely (case, typographic quotes and dashes); else the one page whose path ends in
    it (`cookbook` -> `docs/cookbook.html`), when exactly one does."""
    names = (wanted, f"{wanted}/index" if wanted else "index")
    for same in (str.__eq__, lambda a, b: loose(a) == loose(b)):
        for name in names:
            matches = [(s, p) for s, p, n in by_path if same(n, name)]
            if matches:
                return matches
    ending = [(s, p) for s, p, n in by_path if wanted and loose(n).endswith("/" + loose(wanted))]
    return ending if len({p for _, p in ending}) == 1 else []


def _including_pages(hub: HubSession, path: str, source: str | None) -> list[tuple[str, str]]:
    """(source, page) of the pages that include the file `path` as their text (a
    `HISTORY.md` shown through `docs/history.md`): asked for by its own name, the file is
    that page. Read only when no page has the name: it looks through every doc chunk."""
    wanted = path.strip().removeprefix("./").lower()
    if not wanted or "." not in wanted.rsplit("/", 1)[-1]:
        return []  # a page's name without a suffix is never an included file's
    found: dict[tuple[str, str], None] = {}
    for chunk in hub.store.find_chunks(ChunkQuery(kind="doc", source=source or None)):
        includes = chunk.metadata.extra.get("includes")
        if isinstance(includes, list) and any(str(i).lower() == wanted for i in includes):
            found[(chunk.source, chunk.path)] = None
    return list(found)


def _included_file(path: str, chunks: list[Chunk]) -> str | None:
    """The file the page includes that `path` names, when it names one."""
    wanted = path.strip().removeprefix("./").lower()
    for chunk in chunks[:1]:  # every chunk of a page lists the page's includes
        for name in chunk.metadata.extra.get("includes") or []:
            if str(name).lower() == wanted:
                return str(name)
    return None


def page_sources(hub: HubSession, path: str, source: str | None) -> list[tuple[str, str]]:
    """(source, stored path) of each page `path` names (see `_matching_pages`), else of
    each page that includes the file `path`, the installed version's source first."""
    wanted = normalize_doc_path(path)
    pages = hub.store.doc_pages(source or None)
    by_path = [(s, p, normalize_doc_path(p)) for s, p in pages]
    matches = _matching_pages(wanted, by_path) or _including_pages(hub, path, source)
    if not matches:
        near = _near_pages(wanted, [p for _, p, _ in by_path])
        raise NotFoundError(
            f"no doc page {shown(path)}"
            + (f" in {source}" if source else "")
            + (f"; did you mean {', '.join(near)}" if near else "")
            + "; use search_docs to find one"
        )
    order = installed_first(hub.store, [s for s, _ in matches])
    return sorted(matches, key=lambda m: order.index(m[0]))


def find_page(hub: HubSession, path: str, source: str | None) -> tuple[str, str]:
    """(source, stored path) of the page `path` names (page_sources' first)."""
    return page_sources(hub, path, source)[0]


def get_doc(
    hub: HubSession,
    doc_id: str | None = None,
    path: str | None = None,
    section: str | None = None,
    source: str | None = None,
    max_tokens: int = DEFAULT_TOKENS,
) -> DocPage:
    """A whole doc page, or its sections whose breadcrumb contains `section`."""
    check_tokens(max_tokens)
    check_sources(hub.store, source)
    if not doc_id and not path:
        raise InputError("give doc_id (from a search hit) or path")
    others: list[str] = []
    hit: Chunk | None = None
    if doc_id:
        found = hub.store.get_chunks([doc_id])
        if not found or found[0].kind != "doc":
            raise NotFoundError(
                f"no doc chunk with id {shown(doc_id)}; use search_docs to find one"
            )
        page_source, page_path = found[0].source, found[0].path
        hit = found[0]
    else:
        assert path is not None
        pages = page_sources(hub, path, source)
        page_source, page_path = pages[0]
        others = list(dict.fromkeys(s for s, _ in pages[1:] if s != page_source))
    chunks = _page_chunks(hub, page_source, page_path)
    sections = list(dict.fromkeys(c.section or c.title for c in chunks))
    chosen = chunks
    if hit is not None and section and loose(section) == loose(hit.section or hit.title or ""):
        # the hit's own whole breadcrumb (as `section` names it below): that section
        # exactly, never a namesake elsewhere on the page or the sections below it
        chosen = own_section(chunks, hit)
    elif section:
        chosen = matching_chunks(chunks, section)
        if not chosen:
            raise NotFoundError(
                f"page {page_path!r} has no section matching {shown(section)}; "
                f"its sections: {sections[:20]}"
            )
    first = chunks[0]
    page = DocPage(
        id=first.id,
        source=page_source,
        path=page_path,
        title=first.title,
        url=first.url.split("#", 1)[0] if first.url else None,  # the page, not a section
        version=first.version,
        section=section,
        content="",
        other_sources=others,
        included=_included_file(path, chunks) if path and not doc_id else None,
    )
    # Characters (as JSON) the content and the list of sections share; the citation is
    # never cut.
    room = token_chars(max_tokens - estimate_tokens(page.model_dump_json()) - _SLACK_TOKENS)
    content = _joined(chosen)
    at = next((i for i, c in enumerate(chunks) if hit and c.id == hit.id), 0)
    fits = json_chars(content) + json_chars(sections) <= room
    if hit is not None and not section and at > 0 and not fits:
        # the page does not fit: the hit's section, from its heading to its end, so the
        # part a search found is the answer (the page's top is one `section=` away)
        content = _joined(own_section(chunks, hit))
        page.section = hit.section or hit.title
    if page.section:
        # one section asked for (or a hit's): its text first, the list of the page's
        # sections in what is left
        page.content, page.truncated = trim_json(content, max(MIN_CONTENT_CHARS, room))
        page.sections = fitting_sections(sections, room - json_chars(page.content))
    else:
        # the whole page: its list of sections is how to ask for one, but it never
        # takes the content's place: half the room (MIN_SECTIONS_CHARS at least) less
        # what keeps the content at MIN_CONTENT_CHARS; at a small budget, what the
        # content leaves
        listed = max(
            room - json_chars(content),
            min(max(MIN_SECTIONS_CHARS, room // 2), room - MIN_CONTENT_CHARS),
        )
        page.sections = fitting_sections(sections, listed)
        left = max(MIN_CONTENT_CHARS, room - json_chars(page.sections))
        page.content, page.truncated = trim_json(content, left)
    page.sections_left_out = len(sections) - len(page.sections)
    return page
