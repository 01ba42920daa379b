"""Incremental refresh: snapshot each source, re-extract only changed units, embed after.

Lexical first: each unit's chunks are written (and BM25-searchable) as soon as they are
extracted; vectors fill in afterwards from the embedding cache or the model, and search
works throughout (dense joins as vectors arrive). A source that cannot be read keeps
its previous chunks and is reported as failed; a unit that cannot be parsed keeps its
last good chunks and is counted and named as skipped.
"""

from __future__ import annotations

import logging
import posixpath
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from ctxhub.core.doc_paths import normalize_doc_path
from ctxhub.core.errors import SkipFile, SourceError
from ctxhub.core.progress import NO_PROGRESS, Progress
from ctxhub.embed.base import Embedder
from ctxhub.ingest.examples.taxonomy import taxonomies_for
from ctxhub.ingest.refresh.embedding import embed_missing
from ctxhub.ingest.refresh.extract import ExtractContext, extract_unit
from ctxhub.ingest.refresh.plan import Plan, plan_units
from ctxhub.ingest.refresh.running import (
    INDEXING,
    INTERRUPTED,
    PARTIAL,
    WARNING,
    owner,
    without_owner,
)
from ctxhub.sources import materialize
from ctxhub.sources.base import Snapshot, SourceSpec
from ctxhub.store.protocol import FileState, HubStore, SourceState

log = logging.getLogger(__name__)

#: Left-out files (path, reason) kept in a source's stats for `status`; the count is exact.
MAX_LEFT_OUT = 500


class SourceSummary(BaseModel):
    name: str
    status: str = "ok"  # ok | warning (refreshed, and nothing indexed: `warning` says why) | failed
    error: str | None = None
    kinds: list[str] = Field(default_factory=list)
    version: str | None = None
    commit: str | None = None
    files: int = 0  # every file the source lists (junk excluded)
    #: the files some unit takes (the rest are left out or skipped, with a reason)
    indexed_files: int = 0
    units: int = 0
    unchanged_units: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    #: deprecation records written by the units re-read (code and changelogs)
    deprecations: int = 0
    skipped: list[tuple[str, str]] = Field(default_factory=list)  # (unit, reason)
    #: (page, "target: why") of the includes refused in the pages re-read: a path that
    #: leads outside the source, a URL; nothing is read for them
    refused_includes: list[tuple[str, str]] = Field(default_factory=list)
    #: (file, reason) of the files no unit takes: tests, loose scripts, a LICENSE, ...
    left_out: list[tuple[str, str]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: the notes that say what the origin did not give and how to get it (an installed
    #: wheel without docs: the `add ... --sdist` that reads them); printed by refresh
    advice: list[str] = Field(default_factory=list)
    #: why a source that refreshed fine holds nothing ("no supported files: found ...")
    warning: str | None = None
    #: on failure: the source had been indexed before, and those chunks stay searchable
    kept_previous: bool = False
    seconds: float = 0.0


class RefreshSummary(BaseModel):
    sources: list[SourceSummary]
    embedded: int = 0  # texts the model embedded (cache misses)
    lexical_seconds: float = 0.0
    embed_seconds: float = 0.0


def _framework_versions(
    store: HubStore, own: str, packages: set[str], version: str | None
) -> dict[str, str]:
    """package -> version of every indexed Python source, so examples can be checked."""
    out: dict[str, str] = {}
    for state in store.sources():
        if state.name != own and state.version:
            for pkg in state.stats.get("packages", []):
                out.setdefault(pkg, state.version)
    for pkg in packages:
        if version:
            out[pkg] = version
    return out


def _context(store: HubStore, spec: SourceSpec, snapshot: Snapshot, plan: Plan) -> ExtractContext:
    ctx = ExtractContext(
        source=spec.name,
        version=plan.version,
        packages=plan.packages,
        modules=plan.modules,
        known_modules=frozenset(plan.modules.values()),
        base_url=spec.base_url,
        doc_pages={normalize_doc_path(u.key) for u in plan.units if u.kind == "docs"},
        helpers=plan.helpers,
        types=plan.types,
        nav_titles=plan.nav_titles,
        changelogs={u.key for u in plan.units if u.reads_own_records},
    )
    examples = [u.example for u in plan.units if u.example is not None]
    if examples:
        versions = _framework_versions(store, spec.name, plan.packages, plan.version)
        framework = set(versions) | plan.packages

        def read(rel: str) -> str:
            return snapshot.read(rel).decode("utf-8", "replace")

        ctx.taxonomies = taxonomies_for(
            examples, read, framework_packages=framework, framework_version=versions or None
        )
    return ctx


def _index_units(
    store: HubStore,
    spec: SourceSpec,
    snapshot: Snapshot,
    plan: Plan,
    summary: SourceSummary,
    *,
    force: bool,
    progress: Progress,
) -> None:
    """Remove the units that vanished, then extract and write every changed unit of the
    plan, counting into `summary`."""
    ctx = _context(store, spec, snapshot, plan)
    known = store.file_states(spec.name)
    # vanished units go first: a file that moved to another unit (regrouped examples)
    # keeps its chunk ids, which the old unit's chunks would still hold
    current = {u.key for u in plan.units}
    for key in sorted(set(known) - current):
        summary.removed += store.remove_file(spec.name, key)
    progress.start(f"{spec.name}: units", len(plan.units))  # files, pages, examples
    for unit in plan.units:
        prior = known.get(unit.key)
        if not force and prior is not None and prior.hash == unit.hash:
            summary.unchanged_units += 1
            if prior.status == "skipped":
                # still skipped, as status says: an unchanged refresh reports it too
                summary.skipped.append((unit.key, prior.reason or prior.status))
            progress.advance(1)
            continue
        state = FileState(path=unit.key, hash=unit.hash, kind=unit.kind)
        try:
            extracted = extract_unit(unit, snapshot, ctx)
        except (SkipFile, SyntaxError, UnicodeError, ValueError, OSError, SourceError) as exc:
            reason = str(exc) or type(exc).__name__
            # INFO: the summary every caller gets lists it (a warning printed it twice)
            log.info("%s: skipped %s: %s", spec.name, unit.key, reason)
            summary.skipped.append((unit.key, reason))
            store.mark_file(
                spec.name, state.model_copy(update={"status": "skipped", "reason": reason})
            )
            progress.advance(1)
            continue
        result = store.replace_file(
            spec.name, unit.key, extracted.chunks, state, extracted.deprecations, extracted.texts
        )
        summary.added += result.added
        summary.updated += result.updated
        summary.removed += result.removed
        summary.deprecations += len(extracted.deprecations)
        summary.notes.extend(extracted.warnings)
        summary.refused_includes.extend(extracted.refused)  # the chunker logged each
        progress.advance(1)
    progress.done()


def refresh_source(
    store: HubStore,
    spec: SourceSpec,
    sources_dir: Path,
    *,
    force: bool = False,
    progress: Progress = NO_PROGRESS,
    say: Callable[[str], None] = lambda _: None,
) -> SourceSummary:
    started = time.perf_counter()
    summary = SourceSummary(name=spec.name)
    previous = next((s for s in store.sources() if s.name == spec.name), None)
    try:
        snapshot = materialize(spec, sources_dir, say=say)
        plan = plan_units(snapshot, spec.kind or snapshot.kinds)
        if not plan.units and spec.path and Path(spec.path).is_file():
            # one file that nothing reads is a mistake to say, not an empty `ok` source
            why = plan.left_out[0][1] if plan.left_out else "not a supported file"
            raise SourceError(f"nothing to index in {Path(spec.path).name}: {why}")
    except (SourceError, OSError) as exc:
        summary.status, summary.error = "failed", str(exc)
        summary.kept_previous = previous is not None
        failed = previous or SourceState(name=spec.name, origin=spec.origin)
        update = {"status": "failed", "error": str(exc), "stats": without_owner(failed.stats)}
        store.upsert_source(failed.model_copy(update=update))
        summary.seconds = time.perf_counter() - started
        return summary

    summary.kinds, summary.version, summary.commit = list(plan.kinds), plan.version, snapshot.commit
    summary.files, summary.units, summary.notes = (
        len(snapshot.files),
        len(plan.units),
        list(snapshot.notes),
    )
    summary.advice = list(snapshot.advice)
    # files the walk or the plan left out (bad links, over the size cap) count as skipped
    left_out = [*snapshot.skipped, *plan.skipped]
    summary.skipped.extend(left_out)
    summary.left_out = list(plan.left_out)
    for rel, why in plan.left_out:  # the summary counts them by why; `-v` names each one
        log.info("%s: left out %s: %s", spec.name, rel, why)
    summary.indexed_files = len({m for u in plan.units for m in u.members})
    # Marked `indexing` before the first write: a refresh killed from here on leaves a
    # source that status reports as partial, not chunks without a source.
    base = previous or SourceState(name=spec.name, kinds=list(plan.kinds), origin=snapshot.origin)
    marked = {"status": INDEXING, "error": None, "stats": {**base.stats, **owner()}}
    store.upsert_source(base.model_copy(update=marked), bump=False)
    try:
        _index_units(store, spec, snapshot, plan, summary, force=force, progress=progress)
    except BaseException:
        try:  # best effort: a full disk or a broken store may refuse this write too
            interrupted = {
                "status": PARTIAL,
                "error": INTERRUPTED,
                "stats": without_owner(base.stats),
            }
            store.upsert_source(base.model_copy(update=interrupted))
        except Exception:
            log.debug("could not mark %s partial", spec.name, exc_info=True)
        raise

    relabelled = store.relabel_version(spec.name, plan.version)
    if relabelled:
        log.info("%s: %d unchanged chunks now say version %s", spec.name, relabelled, plan.version)
    if not plan.units:
        # refreshed without error, yet nothing to search: not `ok` (status, sources)
        summary.status, summary.warning = WARNING, nothing_indexed(snapshot.files, plan.kinds)
        log.warning("%s: %s", spec.name, summary.warning)
    elif _empty_changelog(spec, plan, summary):
        summary.status = "failed"
        summary.error = f"nothing to index in {plan.units[0].key}: no deprecation or removal entry"
    store.upsert_source(
        SourceState(
            name=spec.name,
            kinds=list(plan.kinds),
            origin=snapshot.origin,
            root=str(snapshot.root),
            version=plan.version,
            commit=snapshot.commit,
            status=summary.status,
            error=summary.error,
            last_refresh=time.time(),
            stats={
                "packages": sorted(plan.packages),
                "files": len(snapshot.files),
                "units": len(plan.units),
                "skipped": len(summary.skipped),
                "ignored_files": len(plan.left_out),
                # the files no unit takes, by why (housekeeping, a site's assets, tests)
                "left_out_reasons": dict(Counter(r for _, r in plan.left_out).most_common()),
                # what status counts besides the units marked skipped in `files`
                "left_out": [list(x) for x in left_out[:MAX_LEFT_OUT]],
                "left_out_count": len(left_out),
                "warning": summary.warning,
                # where the source is defined, and the entry itself: `sources`, `refresh`
                # and `remove` work on it from any folder
                "manifest": spec.manifest,
                "spec": spec.model_dump(mode="json", exclude_defaults=True),
            },
        )
    )
    summary.seconds = time.perf_counter() - started
    return summary


def _empty_changelog(spec: SourceSpec, plan: Plan, summary: SourceSummary) -> bool:
    """One changelog file, just read, that records nothing: not an `ok` empty source."""
    one_file = bool(spec.path) and Path(str(spec.path)).is_file()
    only_changelog = [u.kind for u in plan.units] == ["changelog"]
    read_now = summary.unchanged_units == 0 and not summary.skipped
    return one_file and only_changelog and read_now and summary.deprecations == 0


def nothing_indexed(files: Sequence[str], kinds: Sequence[str]) -> str:
    """Why a source yields no chunks: what it holds, by extension, most common first."""
    if not files:
        return "no files: the source is empty (or every file was skipped)"
    by_ext = Counter(
        (posixpath.splitext(f)[1].lower() or posixpath.basename(f)) for f in files
    ).most_common(4)
    found = ", ".join(f"{n} {ext}" for ext, n in by_ext)
    wanted = "/".join(kinds) if kinds else "docs, python or examples"
    if "python" in kinds and any(f.endswith((".py", ".pyi")) for f in files):
        # .py files are supported: these sit in folders that are not packages
        return (
            f"nothing importable for python: found {found}, none in a package (a folder "
            "with __init__.py, or under src/); index loose scripts with --kind examples"
        )
    return f"no supported files for {wanted}: found {found}"


def _order(specs: Sequence[SourceSpec]) -> list[SourceSpec]:
    """Python sources first: examples are checked against the framework versions."""
    return sorted(specs, key=lambda s: 0 if s.package or "python" in s.kind else 1)


def refresh(
    store: HubStore,
    specs: Sequence[SourceSpec],
    sources_dir: Path,
    embedder: Embedder | None,
    *,
    force: bool = False,
    progress: Progress = NO_PROGRESS,
    batch_size: int = 32,
    check: bool = True,
    say: Callable[[str], None] = lambda _: None,
) -> RefreshSummary:
    """Refresh `specs` (lexical pass), then embed what has no vector yet.

    `check` first runs the store's integrity check (`PRAGMA quick_check`): nothing is
    written into a damaged file (StoreCorruptError names the fix). A full disk raises
    StoreFullError; the unit being written rolls back and what committed stays. `say`
    receives one-line notes while it runs (a release being fetched)."""
    if check:
        store.check_integrity()
    started = time.perf_counter()
    summaries = [
        refresh_source(store, spec, sources_dir, force=force, progress=progress, say=say)
        for spec in _order(specs)
    ]
    lexical = time.perf_counter() - started
    embedded = 0
    if embedder is not None:
        embedded = embed_missing(store, embedder, progress=progress, batch_size=batch_size)
    return RefreshSummary(
        sources=summaries,
        embedded=embedded,
        lexical_seconds=round(lexical, 2),
        embed_seconds=round(time.perf_counter() - started - lexical, 2),
    )
