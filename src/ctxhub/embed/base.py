"""The Embedder seam: anything that turns texts into L2-normalised float32 vectors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]
else:  # only ever an annotation: numpy loads where vectors are made, not with this seam
    Vectors = "numpy.ndarray[float32]"
#: Called with the number of texts just embedded (for progress bars).
Progress = Callable[[int], None]


@runtime_checkable
class Embedder(Protocol):
    @property
    def id(self) -> str:
        """Stable model id recorded in the store (a different id means different vectors)."""
        ...

    @property
    def dim(self) -> int: ...

    def warm(self) -> None:
        """Load the model now (a server warms it in the background at start)."""
        ...

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: Progress | None = None
    ) -> Vectors:
        """Return an array of shape (len(texts), dim), rows L2-normalised."""
        ...
