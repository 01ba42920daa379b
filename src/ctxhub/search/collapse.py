"""One hit per place: the best-ranked chunk per doc page and per example, and one of each
text indexed in several places (a vendored copy of a package), the others named as its
duplicates. Five hits, five answers.

A long doc page answers several questions, one per section, and the best-ranked chunk of
a page is often a near tie with another section of it (both paths rank both in their top
three). So a page's other sections are not thrown away: the page's hit lists them
(`Candidate.on_page`, shown as `also_on_page` when they rank among the hits shown). A
second hit per page for a near tie was measured and dropped: the page's second section
took the place of another page the question needed (Pipecat dev-030, docs/EVAL.md)."""

from __future__ import annotations

from ctxhub.search.rank import Candidate

#: Other sections of a page a hit lists in `also_on_page` at most.
MAX_PAGE_SECTIONS = 3


def collapse_key(cand: Candidate) -> tuple[str, str]:
    """Docs collapse by page, examples by example; API chunks are each their own place."""
    chunk = cand.chunk
    if chunk.kind == "doc":
        return (chunk.source, "page:" + chunk.path)
    if chunk.kind == "example" and chunk.metadata.example:
        return (chunk.source, "example:" + chunk.metadata.example)
    return (chunk.source, "id:" + chunk.id)


def _copy_key(cand: Candidate) -> tuple[str, str] | None:
    """What two copies of one definition share across packages (a vendored module):
    the chunk type and the qualified name inside the module's last part."""
    c = cand.chunk
    if c.kind != "api" or not c.symbol:
        return None
    module = c.metadata.module or c.symbol
    tail = module.rsplit(".", 1)[-1]
    inner = c.symbol[len(module) :] if c.symbol.startswith(module) else c.symbol
    return (c.metadata.chunk_type or "", tail + inner)


def _words(text: str) -> set[str]:
    return set(text.split())


def _near_copy(a: Candidate, b: Candidate) -> bool:
    wa, wb = _words(a.chunk.content), _words(b.chunk.content)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= 0.8


def section_of(cand: Candidate) -> str:
    """The heading breadcrumb a doc chunk is under (its page title above the first
    heading): windows of one section share it."""
    return cand.chunk.section or cand.chunk.title


def collapse(ranked: list[Candidate]) -> list[Candidate]:
    """Keep the best-ranked chunk per page and per example, and one of each text indexed
    in several places (a vendored copy of a package): five hits, five answers. A page's
    other sections (their best chunk each; another window of a section already shown
    adds nothing) go to its hit's `on_page`, in rank order."""
    first_of: dict[tuple[str, str], Candidate] = {}
    sections: dict[tuple[str, str], set[str]] = {}  # per page: shown or listed
    by_text: dict[str, Candidate] = {}
    by_copy: dict[tuple[str, str], Candidate] = {}
    out: list[Candidate] = []

    for cand in ranked:
        key = collapse_key(cand)
        first = by_text.get(cand.chunk.content_hash)
        copy_key = _copy_key(cand)
        if first is None and copy_key is not None:
            other = by_copy.get(copy_key)
            if (
                other is not None
                and other.chunk.source != cand.chunk.source
                and _near_copy(other, cand)
            ):
                first = other
        if first is not None:
            c = cand.chunk
            first.duplicates.append(f"{c.source}:{c.path}:{c.line_start or 1}")
            continue
        hit = first_of.get(key)
        if hit is None:
            first_of[key] = cand
            sections[key] = {section_of(cand)}
            by_text[cand.chunk.content_hash] = cand
            if copy_key is not None:
                by_copy.setdefault(copy_key, cand)
            out.append(cand)
            continue
        section = section_of(cand)
        if cand.chunk.kind != "doc" or section in sections[key]:
            continue
        sections[key].add(section)
        hit.on_page.append(cand)
    return out


def page_sections(cand: Candidate, floor: float) -> list[dict[str, str | int | None]]:
    """The other sections of a hit's page that score at least `floor` (the last hit
    shown: each would have been shown but for its page), as `get_doc` opens them."""
    sections: list[dict[str, str | int | None]] = [
        {
            "id": o.chunk.id,
            "section": section_of(o),
            "line_start": o.chunk.line_start,
            "line_end": o.chunk.line_end,
        }
        for o in cand.on_page
        if o.score >= floor
    ]
    return sections[:MAX_PAGE_SECTIONS]
