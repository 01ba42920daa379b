"""One unit of a plan -> its chunks and deprecations, by calling the right extractor."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ctxhub.core.doc_paths import normalize_doc_path
from ctxhub.core.errors import SkipFile, SourceError
from ctxhub.core.knowledge import Chunk, Deprecation
from ctxhub.ingest.docs import chunks as docs
from ctxhub.ingest.docs.includes import decode_included
from ctxhub.ingest.docs.llms_full import split_llms_full
from ctxhub.ingest.examples.chunks import chunk_example
from ctxhub.ingest.examples.taxonomy import Taxonomy
from ctxhub.ingest.python import chunks as python_api
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers
from ctxhub.ingest.python.deprecations import extract_changelog_deprecations
from ctxhub.ingest.python.package_types import PackageTypes
from ctxhub.ingest.python.source import decode_source
from ctxhub.ingest.refresh.included_changelogs import included_changelog_records
from ctxhub.ingest.refresh.plan import Unit
from ctxhub.sources.base import Snapshot


@dataclass
class ExtractContext:
    source: str
    version: str | None
    packages: set[str]  # this source's top-level packages (imports under them are internal)
    modules: dict[str, str] = field(default_factory=dict)  # python file -> dotted module
    known_modules: frozenset[str] = frozenset()  # every module of the source
    base_url: str | None = None
    doc_pages: set[str] = field(default_factory=set)  # normalised paths of doc files
    taxonomies: dict[str, Taxonomy] = field(default_factory=dict)  # by example path
    #: the package's deprecation helpers (the plan's first pass over its Python files)
    helpers: DeprecationHelpers | None = None
    #: what the package's modules state about types (the plan's first pass)
    types: PackageTypes | None = None
    #: docs page -> the title an MkDocs `nav` gives it
    nav_titles: dict[str, str] = field(default_factory=dict)
    #: changelogs whose own unit reads their records (`Unit.reads_own_records`): a page
    #: that includes one does not read it again
    changelogs: set[str] = field(default_factory=set)


@dataclass
class Extracted:
    chunks: list[Chunk]
    deprecations: list[Deprecation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    texts: dict[str, str] | None = None  # code files' text, kept for snippets by line
    #: (page, "target: why") of each include refused: nothing read for it
    refused: list[tuple[str, str]] = field(default_factory=list)


def _included(snapshot: Snapshot, path: str) -> str | None:
    """A file a docs page includes, if this source has it (a listed file, or one left
    out for its extension only: a `.pt` template); NotText when it is binary."""
    if not snapshot.includable(path):
        return None
    try:
        data = snapshot.read(path)
    except (OSError, SourceError):
        return None
    return decode_included(data)


#: A string escape that makes a lone surrogate (`"\\ud800"`): Python evaluates it, UTF-8
#: cannot store it, and one such constant read into a chunk's metadata would fail the
#: whole write. Only source that spells one can hold one (the text itself is decoded).
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}")
_Model = TypeVar("_Model", Chunk, Deprecation)


def _encodable(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, list | tuple):
        return [_encodable(v) for v in value]
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    return value


def _storable(items: list[_Model], text: str) -> list[_Model]:
    """`items` with every lone surrogate (from an escaped string constant) as `?`."""
    if not _SURROGATE_ESCAPE.search(text):
        return items
    return [type(item).model_validate(_encodable(item.model_dump())) for item in items]


def extract_unit(unit: Unit, snapshot: Snapshot, ctx: ExtractContext) -> Extracted:
    """Chunks of one unit. Raises SkipFile when the unit cannot be used at all."""
    if unit.kind == "python":
        rel = unit.members[0]
        text = decode_source(snapshot.read(rel))
        result = python_api.extract_python_file(
            ctx.source,
            rel,
            text,
            version=ctx.version,
            internal_packages=ctx.packages,
            module=ctx.modules.get(rel),
            known_modules=ctx.known_modules,
            helpers=ctx.helpers,
            types=ctx.types,
        )
        return Extracted(
            _storable(result.chunks, text),
            _storable(result.deprecations, text),
            texts={rel: text},
        )
    if unit.kind == "changelog":
        rel = unit.members[0]
        text = decode_source(snapshot.read(rel))
        return Extracted([], extract_changelog_deprecations(ctx.source, rel, text))
    if unit.kind == "docs":
        rel = unit.members[0]
        data = snapshot.read(rel)
        parsed = docs.parse_doc_file(
            ctx.source,
            rel,
            data,
            version=ctx.version,
            base_url=ctx.base_url,
            include=lambda path: _included(snapshot, path),
            nav_title=ctx.nav_titles.get(rel),
        )
        refused = [(rel, why) for why in parsed.refused]
        records = included_changelog_records(
            ctx.source, rel, docs.decode_doc(data)[0], parsed.included_texts, ctx.changelogs
        )
        return Extracted(docs.raise_or_return(parsed, rel), records, refused=refused)
    if unit.kind == "dump":
        rel = unit.members[0]
        text = snapshot.read(rel).decode("utf-8", "replace")
        chunks: list[Chunk] = []
        skipped = 0
        for page in split_llms_full(text, origin=rel):
            if normalize_doc_path(page.path) in ctx.doc_pages:
                skipped += 1  # the page is indexed from its own file already
                continue
            chunks.extend(docs.chunk_doc_page(ctx.source, page, version=ctx.version))
        notes = [f"{rel}: {skipped} pages also present as files were taken from the files"]
        return Extracted(chunks, warnings=notes if skipped else [])
    if unit.kind == "examples":
        example = unit.example
        if example is None:
            raise SkipFile(f"{unit.key}: example unit without an example")

        def read(rel: str) -> str:
            return snapshot.read(rel).decode("utf-8", "replace")

        taxonomy = ctx.taxonomies.get(example.path)
        if taxonomy is None:
            raise SkipFile(f"{unit.key}: no taxonomy computed")
        chunks = chunk_example(ctx.source, example, read, taxonomy, version=ctx.version)
        texts = {rel: read(rel) for rel in example.files}
        return Extracted(_storable(chunks, "\n".join(texts.values())), texts=texts)
    raise SkipFile(f"{unit.key}: unknown unit kind {unit.kind}")
