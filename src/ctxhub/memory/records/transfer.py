"""`ctxhub export FILE` / `ctxhub import FILE`: records as JSON Lines.

The first line is a header naming the embedding model; each further line is one record,
with its vectors (base64 float32 per space) when exported with them. Import keeps the
file's vectors only when they come from the model this store uses; otherwise it
re-embeds. Importing a record that exists keeps the larger of each feedback counter, so
importing the same file twice counts nothing twice. Records logged locally on another
machine arrive with source `import`. A bad line is skipped, with its line
number and reason, and everything else is still imported.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from ctxhub.core.records import Record, RecordInput
from ctxhub.embed.base import Vectors
from ctxhub.memory.records.links import symbol_links
from ctxhub.memory.records.log import clean, embed_spaces, space_texts, texts_hash
from ctxhub.session import HubSession

FORMAT = "ctxhub-memory"
VERSION = 1


class FileImportSummary(BaseModel):
    created: int = 0
    updated: int = 0
    reembedded: int = 0
    skipped: list[str] = Field(default_factory=list)  # "line N: reason"


def _encode(vec: Vectors) -> str:
    return base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode("ascii")


def _decode(text: str, dim: int) -> Vectors:
    arr: Vectors = np.frombuffer(base64.b64decode(text, validate=True), dtype="<f4").copy()
    if arr.shape[0] != dim:
        raise ValueError(f"vector has {arr.shape[0]} dimensions, expected {dim}")
    return arr


def export_records(hub: HubSession, out: IO[str], with_vectors: bool = False) -> int:
    model = hub.store.model
    header = {"format": FORMAT, "version": VERSION, "exported_at": time.time()}
    if with_vectors and model:
        header.update(model=model[0], dim=model[1])
    out.write(json.dumps(header) + "\n")
    n = 0
    for record in hub.store.iter_records():
        line: dict[str, Any] = {
            "record": record.model_dump(mode="json", exclude={"linked_symbols", "stale_symbols"})
        }
        if with_vectors and model:
            vectors = hub.store.record_vectors(record.id, model[0])
            line["vectors"] = {space: _encode(v) for space, v in vectors.items()}
        out.write(json.dumps(line) + "\n")
        n += 1
    return n


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, line


def import_records(hub: HubSession, path: Path) -> FileImportSummary:
    summary = FileImportSummary()
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        return summary
    try:
        header = json.loads(first[1])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a ctxhub memory export (no {FORMAT!r} header line)")
    if int(header.get("version", 0)) > VERSION:
        raise ValueError(f"{path} has export version {header['version']}; upgrade ctxhub")
    same_model = header.get("model") == hub.embedder.id and header.get("dim") == hub.embedder.dim
    for number, line in lines:
        try:
            data = json.loads(line)
            record = Record.model_validate(data["record"])
            vectors = None
            if same_model and data.get("vectors"):
                vectors = {
                    s: _decode(v, hub.embedder.dim) for s, v in dict(data["vectors"]).items()
                }
                if set(vectors) != set(space_texts(record)):
                    vectors = None  # spaces do not match the texts: trust the texts
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, ValidationError) as exc:
            reason = str(exc).splitlines()[0][:200]
            summary.skipped.append(f"line {number}: {reason}")
            continue
        _import_one(hub, record, vectors, summary)
    return summary


def _import_one(
    hub: HubSession, record: Record, vectors: dict[str, Vectors] | None, summary: FileImportSummary
) -> None:
    """Store one exported record. Its texts are redacted like any write (re-embedded if
    that changed them); a record logged locally elsewhere arrives here as `import`; a
    record that exists keeps the larger of each counter (see `put_record`)."""
    text = {k: v for k, v in record.model_dump().items() if k in RecordInput.model_fields}
    cleaned = clean(RecordInput.model_validate(text))
    if cleaned.model_dump() != text:
        record = record.model_copy(update=cleaned.model_dump())
        vectors = None
    if record.source == "local":
        record.source = "import"
    if hub.store.get_records([record.id]):
        summary.updated += 1
    else:
        summary.created += 1
    if vectors is None:
        vectors = embed_spaces(hub.embedder, space_texts(record))
        summary.reembedded += 1
    hub.store.put_record(
        record,
        texts_hash(record),
        vectors,
        hub.embedder.id,
        symbol_links(hub.store, record),
        counters="max",
    )
