"""browse_solutions (filtered listing with a cursor) and ecosystem_digest (the known
problems and fixes of a stack, as Markdown for a project's agent instructions file)."""

from __future__ import annotations

import time
from datetime import datetime, timezone

from ctxhub.core.budget import trim
from ctxhub.core.cursor import cursor_key, cursor_position, make_cursor
from ctxhub.core.errors import InputError
from ctxhub.core.outputs import BrowseResponse, DigestResponse
from ctxhub.core.records import MemoryFilters, Record, normalise_labels, normalise_language
from ctxhub.memory.search.hits import record_hit
from ctxhub.session import HubSession

MAX_PAGE = 100
#: A record rated at least this often and mostly "did not work" stays out of digests.
DIGEST_MIN_RATINGS = 3


def browse_solutions(
    hub: HubSession, filters: MemoryFilters, limit: int = 20, cursor: str | None = None
) -> BrowseResponse:
    """Records matching the filters, most recently seen first, a page at a time."""
    if not 1 <= limit <= MAX_PAGE:
        raise InputError(f"limit must be between 1 and {MAX_PAGE} (got {limit})")
    key = cursor_key("browse", filters.model_dump_json())
    records, total, last = hub.store.records_after(filters, limit, _position(cursor, key))
    hits = [record_hit(r, 0.0, 0.0, {}, {}) for r in records]
    more = last is not None and len(records) == limit
    return BrowseResponse(
        hits=hits,
        total=total,
        next_cursor=make_cursor(f"{last[0]!r}/{last[1]}", key) if more and last else None,
    )


def _position(cursor: str | None, key: str) -> tuple[float, int] | None:
    """The keyset position a browse cursor carries: `<last_seen>/<rowid>`."""
    return cursor_position(cursor, key, _keyset)


def _keyset(position: str) -> tuple[float, int]:
    seen, _, rowid = position.partition("/")
    return float(seen), int(rowid)


def digest_rank(record: Record) -> tuple[float, ...]:
    ratio = record.worked / record.ratings if record.ratings else 0.5
    return (-ratio, -record.occurrences, -record.confidence, -record.last_seen)


def _usable(record: Record) -> bool:
    if not record.resolved or not record.solution:
        return False
    return not (record.ratings >= DIGEST_MIN_RATINGS and record.worked < record.not_worked)


def _line(record: Record) -> str:
    problem = " ".join(record.problem.split())
    if record.error_type and record.error_type.lower() not in problem.lower():
        problem = f"{record.error_type}: {problem}"
    solution = " ".join(record.solution.split())
    facts = []
    if record.occurrences > 1:
        facts.append(f"seen {record.occurrences}x")
    if record.ratings:
        facts.append(f"worked {record.worked}/{record.ratings}")
    if record.stale_symbols:
        facts.append("check: " + ", ".join(f"`{s}` changed" for s in record.stale_symbols[:3]))
    tail = f" ({'; '.join(facts)})" if facts else ""
    return (
        f"- **{trim(problem, 160)[0].rstrip('…').strip()}**: "
        f"{trim(solution, 400)[0].rstrip('…').strip()}{tail} `{record.id[:8]}`"
    )


def ecosystem_digest(
    hub: HubSession, languages: list[str], frameworks: list[str] | None = None, limit: int = 30
) -> DigestResponse:
    langs = normalise_labels(languages, normalise_language)
    if not langs:
        raise InputError("languages must name at least one language, e.g. ['python']")
    if not 1 <= limit <= 200:
        raise InputError(f"limit must be between 1 and 200 (got {limit})")
    fws: list[str | None] = list(normalise_labels(frameworks)) or [None]
    groups: dict[tuple[str, str | None], list[Record]] = {}
    seen: set[str] = set()
    for lang in langs:
        for fw in fws:
            records, _ = hub.store.list_records(
                MemoryFilters(language=lang, framework=fw), 500, order="useful"
            )
            if fw is not None:
                # records without a language (imported issues, often) count for the
                # frameworks asked for, under the first language
                unlabelled, _ = hub.store.list_records(
                    MemoryFilters(framework=fw), 500, order="useful"
                )
                records += [r for r in unlabelled if r.language is None and lang == langs[0]]
            for record in records:
                if _usable(record) and record.id not in seen:
                    seen.add(record.id)
                    groups.setdefault((lang, record.framework), []).append(record)
    chosen: list[Record] = []
    for key in sorted(groups, key=lambda k: (k[0], k[1] or "")):
        groups[key].sort(key=digest_rank)
    # take the best of every group in turn, so one busy framework does not crowd out others
    pending = {k: list(v) for k, v in groups.items()}
    placed: dict[tuple[str, str | None], list[Record]] = {}
    while len(chosen) < limit and any(pending.values()):
        for key in sorted(pending, key=lambda k: (k[0], k[1] or "")):
            if pending[key] and len(chosen) < limit:
                record = pending[key].pop(0)
                chosen.append(record)
                placed.setdefault(key, []).append(record)
    day = datetime.fromtimestamp(time.time(), tz=timezone.utc).strftime("%Y-%m-%d")
    scope = ", ".join(langs) + (f" ({', '.join(f for f in fws if f)})" if fws != [None] else "")
    lines = [
        "## Known problems and fixes",
        "",
        f"_From ctxhub memory, {day}: {len(chosen)} solved problems for {scope}._"
        " Search more with `search_solutions`; after fixing something new, `log_solution`.",
    ]
    shown = [key for key in sorted(groups, key=lambda k: (k[0], k[1] or "")) if key in placed]
    for lang, fw in shown:
        lines += ["", f"### {lang}{' / ' + fw if fw else ''}", ""]
        lines += [_line(r) for r in placed[(lang, fw)]]
    if not chosen:
        lines += ["", "_No solved problems recorded yet for this stack._"]
    return DigestResponse(
        markdown="\n".join(lines) + "\n", records=len(chosen), ids=[r.id for r in chosen]
    )
