"""Example chunks: files cut along top-level def/class boundaries (Python) or blank-line
blocks (everything else), plus one overview chunk per example for "is there an example
of X" queries.

Where a file is cut is `spans`' job; a file that does not parse, or is not valid UTF-8,
falls back to blank-line blocks and says so in `extra["issue"]`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ctxhub.core.knowledge import Chunk, ChunkMeta, chunk_id
from ctxhub.ingest.embed_text import build_embed_text
from ctxhub.ingest.examples.files import MAX_FILE_CHARS, README_RE, Reader, language_of
from ctxhub.ingest.examples.layout import Example, discover_examples
from ctxhub.ingest.examples.python_facts import python_facts
from ctxhub.ingest.examples.spans import (
    LINE_BREAK,
    TARGET_CHARS,
    file_spans,
    python_spans,
    text_spans,
)
from ctxhub.ingest.examples.taxonomy import Taxonomy

__all__ = ["TARGET_CHARS", "chunk_example", "discover_examples", "python_spans", "text_spans"]

#: A line this long means generated or minified content, not an example to read.
MAX_LINE_CHARS = 10_000


def _file_text(read: Reader, path: str) -> tuple[str | None, str | None]:
    """(text, issue); text None when the file is not indexed at all."""
    try:
        text = read(path)
    except UnicodeDecodeError:
        return None, "unreadable: not valid UTF-8"
    except (OSError, ValueError) as e:
        return None, f"unreadable: {e}"
    if len(text) > MAX_FILE_CHARS:
        return None, f"skipped: over {MAX_FILE_CHARS} characters"
    if any(len(line) > MAX_LINE_CHARS for line in text.splitlines()):
        return None, "skipped: generated (very long lines)"
    if "\ufffd" in text:
        return text, "not valid UTF-8 (undecodable bytes replaced); chunked by blank lines"
    return text, None


def _header_path(example: Example, path: str) -> str:
    return path if example.is_file else f"{path} (in {example.path or '.'})"


def chunk_example(
    source: str, example: Example, read: Reader, taxonomy: Taxonomy, *, version: str | None
) -> list[Chunk]:
    """Chunks of every file of an example, then (for role=example) its overview chunk."""
    chunks: list[Chunk] = []
    issues: dict[str, str] = dict(taxonomy.issues)
    issues.update({p: r for p, r in example.skipped})
    base_extra: dict[str, object] = {"example_path": example.path or ".", "role": example.role}
    line_counts: dict[str, int] = {}  # of each file read: the overview cites its main file
    if taxonomy.compatible is False:  # every file of an example pinned to another version
        base_extra["compatible"] = False
    for path in example.files:
        text, issue = _file_text(read, path)
        if text is None:
            issues[path] = issue or "unreadable"
            continue
        spans, issue, how = file_spans(path, text, issue)
        if issue:
            issues[path] = issue
        lines = LINE_BREAK.split(text)
        line_counts[path] = len(lines) - (1 if len(lines) > 1 and not lines[-1] else 0)
        rel = example.rel(path)
        is_readme = README_RE.match(posixpath.basename(path)) is not None
        imports = list(python_facts(text).imports) if how == "python" else []
        seen: dict[str, int] = {}
        for sp in spans:
            anchor = f"def:{sp.enclosing or sp.names[0]}" if sp.kind == "def" else sp.kind
            ordinal = seen.get(anchor, 0)
            seen[anchor] = ordinal + 1
            content = "\n".join(lines[sp.start - 1 : sp.end])
            where = f"{_header_path(example, path)} lines {sp.start}-{sp.end}"
            if sp.enclosing:
                where += f" · part {sp.part} of {sp.enclosing}"
            if sp.names:
                where += f" · defines {', '.join(sp.names)}"
            extra = {
                **base_extra,
                "file": rel,
                "defines": list(sp.names),
                "chunking": how,
                **({"enclosing": sp.enclosing, "part": sp.part} if sp.enclosing else {}),
                **({"issue": issue} if issue else {}),
            }
            chunks.append(
                Chunk(
                    id=chunk_id(source, path, anchor, ordinal),
                    source=source,
                    kind="example",
                    path=path,
                    title=example.name,
                    section=rel,
                    line_start=sp.start,
                    line_end=sp.end,
                    version=version,
                    content=content,
                    embed_text=build_embed_text(
                        [f"Example: {example.name} — {taxonomy.summary}", where], content
                    ),
                    metadata=ChunkMeta(
                        chunk_type="example_readme" if is_readme else "example_file",
                        example=example.name,
                        tags=taxonomy.tags,
                        capabilities=taxonomy.all_capabilities,
                        language=language_of(path),
                        execution_mode=taxonomy.execution_mode,
                        imports=imports,
                        extra=extra,
                    ),
                )
            )
    if example.role == "example":
        chunks.append(
            overview_chunk(source, example, taxonomy, issues, version=version, lines=line_counts)
        )
    return chunks


def _pin_line(t: Taxonomy) -> str:
    if not t.framework_pin:
        return "Framework pin: none found"
    where = f"{t.pin_file}{', inherited from an enclosing folder' if t.pin_inherited else ''}"
    verdict = {True: "satisfied by", False: "not satisfied by", None: "unknown for"}[t.compatible]
    return f"Framework pin: {t.framework_pin} ({where}; {verdict} the indexed version)"


def overview_chunk(
    source: str,
    example: Example,
    t: Taxonomy,
    issues: dict[str, str],
    *,
    version: str | None,
    lines: Mapping[str, int] | None = None,
) -> Chunk:
    """One chunk that describes the whole example: what it is, uses, defines, contains;
    cited as its main file, all of its `lines` (each file's line count, of those read)."""
    path = example.path or "."
    files = [example.rel(f) for f in example.files]
    parts = [
        f"Example: {example.name}",
        f"Path: {path}",
        f"Summary: {t.summary}" if t.summary else "",
        f"Description:\n{t.description}" if len(t.description) > len(t.summary) else "",
        f"Tags: {', '.join(t.tags)}" if t.tags else "",
        f"Uses: {', '.join(t.framework_names)}" if t.framework_names else "",
        f"Defines: {', '.join(t.defines)}" if t.defines else "",
        f"Language: {t.language or 'unknown'} · Execution: {t.execution_mode} "
        f"({'; '.join(t.execution_reasons)})",
        _pin_line(t),
        f"Entry point: {t.entry_point}" if t.entry_point else "",
        f"Environment: {', '.join(t.env_vars)}" if t.env_vars else "",
        "Files:\n" + "\n".join(f"- {f}" for f in files),
    ]
    content = "\n".join(p for p in parts if p)
    # A hit must name a file an agent can open: a folder example's overview points at its
    # entry point (or first file); the folder stays in `example_path`.
    hit_path = path
    counts = lines or {}
    if not example.is_file and example.files:
        hit_path = t.entry_point if t.entry_point in example.files else example.files[0]
        if hit_path not in counts:  # one that was read, whose lines can be cited
            hit_path = next((f for f in example.files if f in counts), hit_path)
    # ... and its lines: a hit without them cites nothing to open (the first line when
    # the file could not be read)
    line_end = counts.get(hit_path)
    # The embedder sees ~256 tokens: what it is, then the names a query would use.
    desc = t.description if t.description else t.summary
    uses = t.distinctive_names or t.framework_names
    body = "\n".join(
        p
        for p in (
            desc[:700],
            f"Defines: {', '.join(t.defines)}" if t.defines else "",
            # names most examples import would dilute the vector; the content keeps all
            f"Uses: {', '.join(uses)}" if uses else "",
            f"Tags: {', '.join(t.tags)}" if t.tags else "",
        )
        if p
    )
    # The summary repeats the description's opening; keep it only when it adds something.
    flat = " ".join(desc.split())
    header_summary = None if t.summary.rstrip(" …") in flat else t.summary
    return Chunk(
        id=chunk_id(source, path, f"example:{example.name}", 0),
        source=source,
        kind="example",
        path=hit_path,
        title=example.name,
        section=example.rel(hit_path) if hit_path != "." else None,
        line_start=1 if hit_path != "." else None,
        line_end=line_end,
        version=version,
        content=content,
        embed_text=build_embed_text([f"Example: {example.name} ({path})", header_summary], body),
        metadata=ChunkMeta(
            chunk_type="example",
            example=example.name,
            tags=t.tags,
            capabilities=t.all_capabilities,
            language=t.language,
            execution_mode=t.execution_mode,
            imports=t.framework_modules,
            extra={
                **t.to_extra(),
                "example_path": path,
                "role": example.role,
                "layout": example.layout,
                "files": files,
                "symbol": f"example:{example.name}",
                "issues": issues,
            },
        ),
    )
