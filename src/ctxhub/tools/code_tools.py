"""get_code_snippet: exact source by symbol, line range, chunk id or intent."""

from __future__ import annotations

from ctxhub.core.budget import CUT_MARK, estimate_tokens, token_chars
from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.core.knowledge import Chunk, ChunkQuery, SearchFilters, SearchRequest
from ctxhub.core.limits import DEFAULT_LINES, DEFAULT_TOKENS, MAX_LINE, MAX_LINES, check_tokens
from ctxhub.core.outputs import CodeSnippet, Companion, TypedStub
from ctxhub.search.budget import MIN_SNIPPET_CHARS, hit_metadata, slim_metadata
from ctxhub.search.reexports import public_paths_of
from ctxhub.session import HubSession
from ctxhub.tools import call_edges, resolve, search_tools
from ctxhub.tools.copies import split_copies
from ctxhub.tools.fold import fold_header
from ctxhub.tools.hub_status import installed_first, installed_ranks, source_notes
from ctxhub.tools.not_found import no_such_symbol
from ctxhub.tools.source_check import check_sources
from ctxhub.tools.typing_stubs import is_typing_stub, registered_implementations

MAX_COMPANIONS = 50
MAX_STUB_REFS = 10
#: Tokens held back for the response envelope and the text rendering's headers.
_SLACK_TOKENS = 60


def line_cap(max_tokens: int) -> int:
    """The lines shown when max_lines is not given: DEFAULT_LINES within the default
    budget (an answer stays short unless more is asked for); a budget raised above it
    is itself the ask, so only the budget (and MAX_LINES) limits the lines."""
    return DEFAULT_LINES if max_tokens <= DEFAULT_TOKENS else MAX_LINES


def _fit_lines(lines: list[str], room_chars: int) -> list[str]:
    """The longest prefix of `lines` whose joined text fits room_chars (whole lines
    only: none when the first does not fit)."""
    shown: list[str] = []
    used = 0
    for line in lines:
        used += len(line) + 1
        if used > room_chars:
            break
        shown.append(line)
    return shown


def _code_room(snippet: CodeSnippet, max_tokens: int) -> int:
    """Characters of code that fit beside the snippet's citation and metadata."""
    overhead = estimate_tokens(snippet.model_dump_json(exclude={"code"})) + _SLACK_TOKENS
    return max(0, token_chars(max_tokens - overhead))


def _lines_of(hub: HubSession, chunk: Chunk) -> tuple[list[str], int]:
    """The definition's source lines and the line number of the first one."""
    start, end = chunk.line_start or 1, chunk.line_end or chunk.line_start or 1
    text = hub.store.file_text(chunk.source, chunk.path)
    if text is not None:
        return text.splitlines()[start - 1 : end], start
    return chunk.content.splitlines(), start


def _snippet(
    hub: HubSession,
    chunk: Chunk,
    resolution: str,
    max_lines: int,
    alternatives: list[str],
    window: tuple[int, int] | None = None,
    max_tokens: int = DEFAULT_TOKENS,
    stubs: list[TypedStub] | None = None,
    alias: str | None = None,
) -> CodeSnippet:
    full_start = chunk.line_start or 1
    full_end = chunk.line_end or full_start
    if window is not None:
        text = hub.store.file_text(chunk.source, chunk.path) or ""
        lines = text.splitlines()[window[0] - 1 : window[1]]
        first = window[0]
    else:
        lines, first = _lines_of(hub, chunk)
    truncated = len(lines) > max_lines
    # (line number, text): a long signature folded so the lines shown reach the body
    numbered = (fold_header(lines, first, max_lines) if window is None else None) or list(
        enumerate(lines[:max_lines], start=first)
    )
    shown = [text for _, text in numbered]
    companions: list[Companion] = []
    if chunk.kind == "api" and chunk.metadata.calls:
        found, _ = call_edges.callees(hub.store, chunk)
        companions = [
            Companion(
                name=edge.name,
                symbol=edge.target.symbol or "",
                id=edge.target.id,
                path=edge.target.path,
                line_start=edge.target.line_start,
                through=edge.through,
            )
            for edge in found[:MAX_COMPANIONS]
        ]
    metadata = hit_metadata(chunk)  # a long signature elided: the code shows it whole
    snippet = CodeSnippet(
        id=chunk.id,
        source=chunk.source,
        path=chunk.path,
        symbol=chunk.symbol,
        kind=chunk.kind,
        resolution=resolution,
        line_start=first,
        line_end=numbered[-1][0] if numbered else first,
        full_line_start=full_start,
        full_line_end=full_end,
        truncated=truncated,
        code="\n".join(shown),
        signature=metadata.get("signature"),
        public_path=_public_path(hub, chunk),
        version=chunk.version,
        alias=alias,
        metadata=metadata,
        companions=companions,
        alternatives=alternatives[:10],
        stubs=stubs or [],
        source_notes=source_notes(hub.store, {chunk.source}) + _unread_file_note(hub, chunk),
    )
    # The budget trims the code, never the citation (ids, paths, full line range); the
    # metadata, which is not the answer, gives way before the code does.
    room_chars = _code_room(snippet, max_tokens)
    if len(snippet.code) > room_chars:
        snippet.metadata = slim_metadata(snippet.metadata)
        snippet.signature = snippet.metadata.get("signature")
        room_chars = _code_room(snippet, max_tokens)
    if room_chars < MIN_SNIPPET_CHARS < len(snippet.code):
        # the code's first lines are the signature: its two copies give way to them
        snippet.metadata.pop("signature", None)
        snippet.signature = None
        room_chars = _code_room(snippet, max_tokens)
    if len(snippet.code) > room_chars:
        fitted = _fit_lines(shown, room_chars)
        snippet.code = "\n".join(fitted) or CUT_MARK
        snippet.line_end = numbered[len(fitted) - 1][0] if fitted else first
        snippet.truncated = True
    return snippet


def _public_path(hub: HubSession, chunk: Chunk) -> str | None:
    return public_paths_of(hub.store, [chunk]).get(chunk.symbol or "")


def installed_first_of(hub: HubSession, found: list[Chunk]) -> tuple[list[Chunk], list[Chunk]]:
    """resolve.prefer_sources ranked by which source holds the installed version; the
    environment is asked only when one symbol is defined in several sources."""
    first = found[0].symbol if found else None
    names = {c.source for c in found if c.symbol == first}
    if len(names) < 2:
        return found, []
    return resolve.prefer_sources(found, installed_ranks(hub.store, names))


def _stub_ref(chunk: Chunk) -> TypedStub:
    return TypedStub(
        symbol=chunk.symbol or "",
        id=chunk.id,
        path=chunk.path,
        line_start=chunk.line_start,
        signature=chunk.metadata.signature,
    )


def _unread_file_note(hub: HubSession, chunk: Chunk) -> list[str]:
    """A note when the last refresh could not read the chunk's file (it stopped parsing):
    the code shown is the last good index of it, not what the file now holds."""
    state = hub.store.file_states(chunk.source).get(chunk.path)
    if state is None or state.status == "ok":
        return []
    why = state.reason or state.status
    return [f"{chunk.path}: the last refresh could not read it ({why}); shown as last indexed"]


def _covering_chunk(
    hub: HubSession, source: str | None, path: str, line: int
) -> tuple[Chunk | None, list[str]]:
    """The narrowest chunk of `path` whose span contains `line`, from the installed
    version's source when several hold the path; and the other sources that do."""
    chunks = hub.store.find_chunks(ChunkQuery(source=source, path=path, covering_line=line))
    if not chunks:
        return None, []
    order = installed_first(hub.store, sorted({c.source for c in chunks}))
    mine = [c for c in chunks if c.source == order[0]]
    # an example's overview cites its whole main file: the file's own chunks come first
    return min(
        mine,
        key=lambda c: (
            (c.line_end or 0) - (c.line_start or 0),
            c.metadata.chunk_type == "example",
            c.id,
        ),
    ), order[1:]


def _alias_line(chunk: Chunk) -> str:
    """Where and how an alias binds its name (`frozen = partial(define, frozen=True)`)."""
    return f"{chunk.path}:{chunk.line_start}: {' '.join(chunk.content.split())}"


def get_code_snippet(
    hub: HubSession,
    symbol: str | None = None,
    path: str | None = None,
    line_start: int | None = None,
    line_end: int | None = None,
    intent: str | None = None,
    source: str | None = None,
    max_lines: int | None = None,
    chunk_id: str | None = None,
    max_tokens: int = DEFAULT_TOKENS,
) -> CodeSnippet:
    """Exact source by chunk id, symbol (exact -> Class.method -> class -> method, then a
    semantic lookup of the name), path + line range, or a description of the intent.
    Without `max_lines`: `line_cap(max_tokens)` lines at most."""
    if max_lines is not None and not 1 <= max_lines <= MAX_LINES:
        raise InputError(f"max_lines must be between 1 and {MAX_LINES}, got {max_lines}")
    check_tokens(max_tokens)
    max_lines = max_lines if max_lines is not None else line_cap(max_tokens)
    if not any((chunk_id, symbol, path, intent)):
        raise InputError("give symbol, path + line_start, intent, or chunk_id")
    check_sources(hub.store, source)
    if chunk_id:
        by_id = hub.store.get_chunks([chunk_id])
        if not by_id:
            raise NotFoundError(f"no chunk with id {shown(chunk_id)}; ids come from search hits")
        return _snippet(hub, by_id[0], "id", max_lines, [], max_tokens=max_tokens)
    if symbol:
        found, resolution = resolve.find_symbol(hub.store, symbol, source)
        # the code that runs, not its type stub (which may stand for an alias)
        found, stubs = resolve.runtime_first(hub.store, found)
        asked = found[0] if found and found[0].metadata.chunk_type == "alias" else None
        found, resolution = resolve.through_alias(hub.store, found, resolution)
        if found:
            found, elsewhere = installed_first_of(hub, found)
            if asked is not None:  # the alias line of the version shown
                asked = next(
                    (
                        c
                        for c in found + elsewhere
                        if c.symbol == asked.symbol and c.source == found[0].source
                    ),
                    asked,
                )
            # the same definition at the same version in another source (the wheel
            # and the sdist) is this answer, not another match
            copies, elsewhere = split_copies(found[0], elsewhere)
            alternatives = list(
                dict.fromkeys(
                    [f"{c.symbol} (source {c.source})" for c in elsewhere]
                    + [c.symbol for c in found[1:] if c.symbol and c.symbol != found[0].symbol]
                )
            )[:10]
            refs = [_stub_ref(c) for c in stubs[:MAX_STUB_REFS]]
            snippet = _snippet(
                hub,
                found[0],
                resolution,
                max_lines,
                alternatives,
                max_tokens=max_tokens,
                stubs=refs,
                alias=_alias_line(asked) if asked is not None and asked is not found[0] else None,
            )
            snippet.also_in = copies
            if is_typing_stub(hub.store, found[0]):
                snippet.typing_stub = True
                snippet.implementations = [
                    _stub_ref(c) for c in registered_implementations(hub.store, found[0])
                ]
            return snippet
        if not intent and not path:
            # A name that is defined nowhere is "not found", with the nearest names:
            # never some other definition presented as the answer.
            raise NotFoundError(no_such_symbol(hub, symbol, source))
    if path:
        if line_start is None:
            raise InputError("path needs line_start (and optionally line_end)")
        if line_start < 1 or (line_end is not None and line_end < line_start):
            raise InputError("line_start must be >= 1 and line_end >= line_start")
        if max(line_start, line_end or 0) > MAX_LINE:
            raise InputError(f"line numbers must be at most {MAX_LINE:,}")
        chunk, others = _covering_chunk(hub, source, path, line_start)
        if chunk is None:
            raise NotFoundError(f"no indexed code at {shown(path)}:{line_start}")
        end = line_end if line_end is not None else (chunk.line_end or line_start)
        snippet = _snippet(
            hub, chunk, "path", max_lines, [], window=(line_start, end), max_tokens=max_tokens
        )
        snippet.other_sources = others
        return snippet
    assert intent is not None
    request = SearchRequest(
        query=intent,
        kinds=["api"],
        filters=SearchFilters(source=[source] if source else None),
        limit=5,
    )
    hits = hub.retriever.search(request, search_tools.options(hub)).hits
    if not hits:
        raise NotFoundError(f"nothing in the index matches {shown(intent)}")
    [chunk] = hub.store.get_chunks([hits[0].id])
    others = list(
        dict.fromkeys(h.symbol for h in hits[1:] if h.symbol and h.symbol != chunk.symbol)
    )
    return _snippet(hub, chunk, "semantic", max_lines, others, max_tokens=max_tokens)
