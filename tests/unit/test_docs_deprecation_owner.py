"""A Sphinx `.. deprecated::` nested in an `.. attribute::` (or `.. data::`) description is
about that description's name: never the neighbouring description's, although the
rendered text loses the nesting and the neighbour's text mentions the name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools.deprecation_docs import docs_deprecations

CONSTANTS = """\
Rules
=====

Constants
---------

.. attribute:: Anyone

    The principal granted to every request. Its value is ``'system.Anyone'``.

    .. deprecated:: 2.0

        Moved to :data:`acme.rules.Anyone`.

.. attribute:: EVERY_RIGHT

    Matches every right. An entry using it reads
    ``('Deny', 'system.Anyone', EVERY_RIGHT)``.

    .. deprecated:: 2.0

        Moved to :data:`acme.rules.EVERY_RIGHT`.

.. data:: NO_RIGHTS

    Denies everything, as ``('Deny', 'system.Anyone', EVERY_RIGHT)`` does.

    .. deprecated:: 2.1

        Moved to :data:`acme.rules.NO_RIGHTS`.

.. attribute:: Current

    A value nobody deprecated, described after ``NO_RIGHTS``.
"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            chunks = chunk_doc_file("acme", "docs/api/rules.rst", CONSTANTS)
            session.store.replace_file("acme", "docs/api/rules.rst", chunks)
            yield session
    finally:
        set_embedder(None)


@pytest.mark.parametrize(
    ("name", "since"),
    [("Anyone", "2.0"), ("EVERY_RIGHT", "2.0"), ("NO_RIGHTS", "2.1")],
)
def test_a_nested_admonition_is_its_descriptions(hub: HubSession, name: str, since: str) -> None:
    stated = docs_deprecations(hub.store, f"acme.security.{name}")
    assert stated, name
    assert {(d.since, d.replacement) for d in stated} == {(since, f"acme.rules.{name}")}


def test_a_description_without_an_admonition_takes_none_of_its_neighbours(
    hub: HubSession,
) -> None:
    assert docs_deprecations(hub.store, "acme.security.Current") == []
