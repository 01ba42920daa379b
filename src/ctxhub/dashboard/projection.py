"""The latent-space map: every chunk's vector projected to 3 principal components with
numpy, computed once per store generation and cached; memory records projected onto the
same axes as their own layer."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from ctxhub.core.knowledge import SearchFilters, content_hash
from ctxhub.session import HubSession

#: Chunks read per round (ids, then their rows, then their cached vectors).
BATCH = 1000
#: Most chunks mapped (the page renders 20k smoothly; beyond this, the first ones).
MAX_POINTS = 100_000
DIMS = 3

#: (store, generation) -> the chunks' map and its axes; one entry: an older generation
#: is never asked for again. The records layer is cheap and made per request.
_CACHE: dict[tuple[str, int], tuple[dict[str, Any], Any]] = {}
_LOCK = threading.Lock()


def _axes(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, top-DIMS principal directions as columns), from the covariance's
    eigenvectors: a 384x384 problem however many points there are."""
    mean = matrix.mean(axis=0)
    centred = matrix - mean
    cov = centred.T @ centred / max(1, len(matrix) - 1)
    _, vectors = np.linalg.eigh(cov)  # ascending eigenvalues
    axes = vectors[:, ::-1][:, :DIMS]
    if axes.shape[1] < DIMS:  # fewer dimensions than axes: pad with zeros
        axes = np.pad(axes, ((0, 0), (0, DIMS - axes.shape[1])))
    return mean, axes


def _scaled(coords: np.ndarray, scale: np.ndarray) -> list[list[float]]:
    """Coordinates in [-1, 1] per axis (by the chunks' extent), rounded for transport."""
    return [[round(float(v), 4) for v in row] for row in np.clip(coords / scale, -1.0, 1.0)]


def _chunks(hub: HubSession, model: str) -> tuple[list[dict[str, Any]], np.ndarray]:
    ids, _ = hub.store.list_ids(SearchFilters(), None, MAX_POINTS)
    meta: list[dict[str, Any]] = []
    rows: list[np.ndarray] = []
    for start in range(0, len(ids), BATCH):
        chunks = hub.store.get_chunks(ids[start : start + BATCH])
        hashes = [content_hash(c.embed_text) for c in chunks]
        vectors = hub.store.embeddings_for(model, list(dict.fromkeys(hashes)))
        for chunk, h in zip(chunks, hashes, strict=True):
            vec = vectors.get(h)
            if vec is None:
                continue  # not embedded yet (a refresh --no-embed, or one running)
            rows.append(np.asarray(vec, dtype=np.float32).reshape(-1))
            meta.append(
                {
                    "id": chunk.id,
                    "source": chunk.source,
                    "kind": chunk.kind,
                    "label": chunk.symbol or chunk.title or chunk.path,
                }
            )
    matrix = np.vstack(rows) if rows else np.zeros((0, 1), dtype=np.float32)
    return meta, matrix


Axes = tuple[np.ndarray, np.ndarray, np.ndarray]  # mean, directions, scale


def _compute(hub: HubSession, model: str) -> tuple[dict[str, Any], Axes | None]:
    meta, matrix = _chunks(hub, model)
    if len(meta) == 0:
        return {"points": [], "sources": [], "kinds": []}, None
    mean, axes = _axes(matrix)
    coords = (matrix - mean) @ axes
    scale = np.maximum(np.abs(coords).max(axis=0), 1e-9)
    sources = sorted({m["source"] for m in meta})
    kinds = sorted({m["kind"] for m in meta})
    xyz = _scaled(coords, scale)
    points = [
        [m["id"], *p, sources.index(m["source"]), kinds.index(m["kind"]), m["label"]]
        for m, p in zip(meta, xyz, strict=True)
    ]
    # one array per point keeps 20k points small: [id, x, y, z, source, kind, label]
    return {"points": points, "sources": sources, "kinds": kinds}, (mean, axes, scale)


def _records(hub: HubSession, model: str, axes: Axes) -> list[list[Any]]:
    """[id, x, y, z, problem] of each record's problem vector on the chunks' axes."""
    mean, directions, scale = axes
    out = []
    for record in hub.store.iter_records():
        vec = hub.store.record_vectors(record.id, model).get("problem")
        if vec is None:
            continue
        where = (np.asarray(vec, dtype=np.float32).reshape(-1) - mean) @ directions
        out.append([record.id, *_scaled(where[None, :], scale)[0], record.problem[:120]])
    return out


def projection(hub: HubSession) -> dict[str, Any]:
    """The map of the store as it is now: the chunks' part cached until a knowledge
    write moves the generation."""
    model = hub.store.model
    generation = hub.store.generation()
    if model is None:
        empty: dict[str, Any] = {"points": [], "sources": [], "kinds": [], "records": []}
        return {**empty, "model": None, "generation": generation}
    key = (hub.store.location, generation)
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            found = _compute(hub, model[0])
            _CACHE.clear()
            _CACHE[key] = found
    chunks, axes = found
    records = _records(hub, model[0], axes) if axes is not None else []
    return {**chunks, "records": records, "model": model[0], "generation": generation}
