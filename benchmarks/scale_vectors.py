"""How benchmarks/scale_build.py makes each copy's vectors (its `--vectors`): the
original's plus Gaussian noise (`noise`, as replicate()), or turned by one random
orthogonal matrix per copy (`rotate`, `rotate-mean`); see scale_build.py's docstring for
why each exists."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

NOISE = 0.3  # per dimension N(0, NOISE / sqrt(dim)), as replicate()


def noisy(base: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """Each row of `base` plus Gaussian noise, renormalised (replicate()'s vectors)."""
    dim = base.shape[1]
    v = base + rng.normal(0, NOISE / np.sqrt(dim), base.shape).astype(np.float32)
    out: npt.NDArray[np.float32] = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    return out


def orthogonal(dim: int, rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """A random orthogonal matrix (Haar: QR of a Gaussian matrix, signs fixed by R's
    diagonal)."""
    q, r = np.linalg.qr(rng.normal(size=(dim, dim)))
    out: npt.NDArray[np.float64] = q * np.sign(np.diag(r))
    return out


def rotated(
    base: npt.NDArray[np.float32], places: list[int], k: int, rng: np.random.Generator
) -> npt.NDArray[np.float32]:
    """Rows `places` of `base` times copy k's random orthogonal matrix, renormalised;
    copy 0 the rows as they are. The whole cloud turns: its mean direction too, so copies
    lie near-orthogonal to each other (cosine ~0 across copies, ~0.3 within one)."""
    rows: npt.NDArray[np.float32] = base[places]
    if k == 0:
        return rows  # a copy already (fancy indexing)
    v = rows @ orthogonal(base.shape[1], rng).astype(np.float32).T
    out: npt.NDArray[np.float32] = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    return out


def rotated_about_mean(
    base: npt.NDArray[np.float32], places: list[int], k: int, rng: np.random.Generator
) -> npt.NDArray[np.float32]:
    """As `rotated`, but the matrix keeps the originals' mean direction u and turns only
    its orthogonal complement (R = B diag(1, Q) B^T, B an orthonormal basis with u
    first): the copies share the real vectors' common component, so a chunk of copy k is
    as near another copy's chunks as two unrelated real chunks are (cosine ~0.3)."""
    rows: npt.NDArray[np.float32] = base[places]
    if k == 0:
        return rows  # a copy already (fancy indexing)
    dim = base.shape[1]
    u = base.astype(np.float64).mean(axis=0)
    basis, _ = np.linalg.qr(np.column_stack([u, rng.normal(size=(dim, dim - 1))]))
    turn = np.eye(dim)
    turn[1:, 1:] = orthogonal(dim - 1, rng)
    v = rows @ (basis @ turn @ basis.T).astype(np.float32).T
    out: npt.NDArray[np.float32] = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    return out


Maker = Callable[
    [npt.NDArray[np.float32], list[int], int, np.random.Generator], npt.NDArray[np.float32]
]
#: how copy k's vectors are made: (the originals' vectors, the rows wanted, k, rng)
MAKERS: dict[str, Maker] = {
    "noise": lambda base, places, k, rng: noisy(base[places], rng),
    "rotate": rotated,
    "rotate-mean": rotated_about_mean,
}
