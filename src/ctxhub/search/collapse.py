"""One hit per place: the best-ranked chunk per doc page and per example, and one of each
text indexed in several places (a vendored copy of a package), the others named as its
duplicates. Five hits, five answers."""

from __future__ import annotations

from ctxhub.search.rank import Candidate


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


def collapse(ranked: list[Candidate]) -> list[Candidate]:
    """Keep the best-ranked chunk per page and per example, and one of each text indexed
    in several places (a vendored copy of a package): five hits, five answers."""
    seen: set[tuple[str, str]] = set()
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
        if key not in seen:
            seen.add(key)
            by_text[cand.chunk.content_hash] = cand
            if copy_key is not None:
                by_copy.setdefault(copy_key, cand)
            out.append(cand)
    return out
