"""The store contract, run against every backend in BACKENDS.

A new backend (PostgreSQL) adds one entry: a factory from a temporary folder to an open
`HubStore`. Every test in this folder then runs against it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ctxhub.store.factory import open_store
from ctxhub.store.protocol import HubStore

BACKENDS: dict[str, Callable[[Path], HubStore]] = {
    "sqlite": lambda folder: open_store(folder / "ctxhub.db"),
}


@pytest.fixture(params=sorted(BACKENDS))
def hub_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[HubStore]:
    store = BACKENDS[request.param](tmp_path)
    try:
        yield store
    finally:
        store.close()
