"""Text renderings of the hub's state: `get_hub_status`, and the version and memory
lines `ctxhub status`, `ctxhub sources` and the refresh table share."""

from __future__ import annotations

from ctxhub.core.outputs import HubStatus


def hub_status(status: HubStatus) -> str:
    lines = [
        f"store {status.store_path} ({status.store_bytes // 1024} KB, schema "
        f"{status.schema_version}, generation {status.generation})",
        f"model {status.model or '-'} (dim {status.dim or '-'}); "
        f"{status.chunks} chunks, {status.embedded} embedded"
        + (f", {status.lookup_only} lookup-only" if status.lookup_only else ""),
    ]
    if not status.sources:
        lines.append("no sources indexed; run `ctxhub add SOURCE`")
    for s in status.sources:
        version = version_label(s.version, s.commit, s.status != "failed" or bool(s.chunks))
        chunks = ", ".join(f"{k} {n}" for k, n in sorted(s.chunks.items())) or "0"
        age = "never" if s.age_days is None else f"{s.age_days:.1f} days ago"
        state = s.status + (" (stale)" if s.stale else "")
        if s.error:  # whole: a cut error hides the fix it names
            state += f": {s.error}"
        elif s.warning:
            state += f": {s.warning}"
        if note := version_note(s.version, s.installed_version, s.not_installed):
            state += f" ({note})"
        lines.append(
            f"- {s.name} [{','.join(s.kinds)}] {version} · {state} · {chunks} · refreshed {age}"
        )
    lines.append(memory_line(status))
    for query, n in status.memory.unhelpful_queries[:5]:
        lines.append(f"  rated not useful ({n}x): {query[:120]}")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def memory_line(status: HubStatus) -> str:
    m = status.memory
    if not m.records and not m.pending and not (m.knowledge_useful or m.knowledge_not_useful):
        return "memory: empty (agents add records with log_solution; `ctxhub log` by hand)"
    sources = ", ".join(f"{k} {n}" for k, n in sorted(m.by_source.items())) or "none"
    return (
        f"memory: {_count(m.records, 'record')} ({sources}); {_count(m.variants, 'variant')}; "
        f"ratings {m.worked} worked / {m.not_worked} not; {m.pending} pending; knowledge "
        f"hits {m.knowledge_useful} useful / {m.knowledge_not_useful} not useful"
    )


#: A source that was read but that no version or commit names: a folder outside any
#: versioned project (a project's docs folder gets its version: sources/project_version.py).
UNVERSIONED = "unversioned"


def version_label(version: str | None, commit: str | None, read: bool = True) -> str:
    """A source's version as shown: the version, else the commit, else `unversioned`
    for a source that was read, `-` for one that never was (failed, not indexed)."""
    if version:
        return version
    if commit:
        return commit[:10]
    return UNVERSIONED if read else "-"


def version_note(indexed: str | None, installed: str | None, not_installed: bool) -> str | None:
    """What changed in the environment since a `pypi:` source was indexed, if anything
    (the fields of `SourceStatus`, from `tools.hub_status.installed_state`)."""
    if not_installed:
        return f"not installed any more: {indexed or 'the last version'} indexed is kept"
    if installed is not None and installed != indexed:
        return f"refresh due: {installed} installed, {indexed} indexed"
    return None
