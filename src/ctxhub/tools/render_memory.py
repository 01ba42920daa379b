"""Text renderings of the memory tools' outputs (the structured content has everything)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxhub.core.budget import trim

if TYPE_CHECKING:  # renderings only read the models: `ctxhub rate` loads none of them
    from collections.abc import Sequence

    from ctxhub.core.knowledge import Hit
    from ctxhub.core.outputs import BrowseResponse, DigestResponse, SolutionSearchResponse
    from ctxhub.core.records import LogResult, RateResult, Record


def _why(hit: Hit) -> str:
    paths = ", ".join(
        f"{p} #{s.rank} ({s.score:.3g})"
        for p, s in sorted(hit.signals.items(), key=lambda i: i[1].rank)
    )
    factors = hit.metadata.get("multipliers") or {}
    times = ", ".join(f"{k} {v:.2f}" for k, v in factors.items())
    return f"why: {paths or 'listed'}" + (f"; × {times}" if times else "")


def record_block(n: int, hit: Hit, show_why: bool = True) -> list[str]:
    meta = hit.metadata
    facts = [hit.source]
    stack = "/".join(str(meta[k]) for k in ("language", "framework") if meta.get(k))
    if stack:
        facts.append(stack)
    if meta.get("error_type"):
        facts.append(str(meta["error_type"]))
    if meta.get("worked") or meta.get("not_worked"):
        total = int(meta.get("worked", 0)) + int(meta.get("not_worked", 0))
        facts.append(f"rated {meta.get('worked', 0)}/{total} worked")
    if int(meta.get("occurrences", 1)) > 1:
        facts.append(f"seen {meta['occurrences']}x")
    if meta.get("variant_of"):
        facts.append(f"variant of {meta['variant_of']}")
    if meta.get("logged_by"):
        facts.append(f"logged by {meta['logged_by']}")
    # a memory hit's score is the probability that it answers the question
    score = f" p {hit.score:.2f}" if hit.score else ""
    lines = [f"{n}. {hit.id}{score} · {' · '.join(facts)}"]
    if meta.get("possibly_stale"):
        changed = ", ".join(meta.get("stale_symbols", [])[:5])
        lines.append(f"   POSSIBLY STALE: linked code changed since: {changed}")
    lines.append(
        f"   problem: {trim(' '.join(str(meta.get('problem', hit.title)).split()), 300)[0]}"
    )
    if hit.snippet:
        lines.append(f"   solution: {trim(' '.join(hit.snippet.split()), 600)[0]}")
    code = meta.get("code_snippet") or meta.get("code_diff")
    if code:
        lines.append("   code:\n" + "\n".join("     " + c for c in str(code).splitlines()[:15]))
    if hit.url:
        lines.append(f"   url: {hit.url}")
    if show_why:
        lines.append("   " + _why(hit))
    return lines


def solution_response(r: SolutionSearchResponse) -> str:
    head = f"{r.tool} [{r.shape}] confidence {r.confidence:.2f}"
    if r.nothing_relevant:
        lines = [f"{head}: {r.message}"]
        if r.nearest:
            lines.append("nearest records (below the relevance floor):")
            for i, hit in enumerate(r.nearest, start=1):
                lines += record_block(i, hit, show_why=False)
        return "\n".join(lines)
    lines = [f"{head}: {len(r.hits)} of {r.candidates} candidates"]
    for i, hit in enumerate(r.hits, start=1):
        lines += record_block(i, hit)
    lines.append("After trying one: rate(id, worked=true|false).")
    return "\n".join(lines)


def log_result(r: LogResult) -> str:
    text = f"{r.action}: {r.message or r.id}"
    if r.linked_symbols:
        text += f"\nlinked to: {', '.join(r.linked_symbols[:10])}"
    return text


def rate_result(r: RateResult) -> str:
    return f"{r.id}: {r.message}"


def browse_response(r: BrowseResponse) -> str:
    lines = [f"{len(r.hits)} of {r.total} records"]
    for i, hit in enumerate(r.hits, start=1):
        lines += record_block(i, hit, show_why=False)
    if r.next_cursor:
        lines.append(f"more: cursor={r.next_cursor}")
    return "\n".join(lines)


def digest(r: DigestResponse) -> str:
    return r.markdown


def record_text(r: Record, raters: Sequence[tuple[str, int, int]] = ()) -> str:
    """A memory record in full, for `ctxhub show`; `raters`: (who, worked, did not work)
    of the ratings made with a named token."""
    rated = f"rated {r.worked}/{r.ratings} worked" if r.ratings else "not rated yet"
    labels = [x for x in (r.language, r.framework) if x] + list(r.tags)
    by = ", ".join(f"{who} {good}/{good + bad} worked" for who, good, bad in raters)
    lines = [
        f"record {r.id} · seen {r.occurrences}x · {rated}",
        f"logged by {r.logged_by}" if r.logged_by else "",
        f"rated by {by}" if by else "",
        f"labels: {', '.join(labels)}" if labels else "",
        f"variant of {r.variant_of}" if r.variant_of else "",
        "",
        "problem:",
        r.problem,
    ]
    if r.error_type:
        lines += ["", f"error: {r.error_type}"]
    if r.stack_trace:
        lines += ["", "stack trace:", r.stack_trace]
    if r.code_snippet:
        lines += ["", "code:", r.code_snippet]
    if r.code_diff:
        lines += ["", "diff:", r.code_diff]
    lines += ["", "solution:", r.solution or "(none recorded)"]
    if r.stale_symbols:
        lines += ["", f"possibly stale: {', '.join(r.stale_symbols)} changed since it was logged"]
    return "\n".join(line for i, line in enumerate(lines) if line or i > 4)
