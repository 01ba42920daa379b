"""Section titles inside an autodoc or description directive (`.. automodule:: x` whose
content groups its classes under titles, as Sphinx's `nested_parse_with_titles` reads
them) are sections: each documented object's chunk has its own breadcrumb instead of
one for the whole page, and no "Unexpected section title" warning is logged for them
(they are no error of the user's)."""

from __future__ import annotations

import logging

import pytest

from ctxhub.ingest.docs.chunks import chunk_doc_file, parse_doc_file

LOCKS = """``acme.locks`` -- Synchronization primitives
=============================================

Coordinate coroutines with primitives like the standard library's, for coroutines
in one thread rather than for threads.

.. automodule:: acme.locks

   Condition
   ---------
   .. autoclass:: Condition
    :members:

   Event
   -----
   .. autoclass:: Event
    :members:

   Waiting
   ^^^^^^^

   Event waiters park on a future that `set` resolves; a timeout given to `wait`
   cancels that future and raises a timeout error in the waiter, while the other
   waiters keep waiting until the flag is set, cleared or the loop is closed.

Notes
-----

A top-level section after the module's keeps its own level.
"""

DESCRIBED = """Reference
=========

.. class:: Queue(maxsize=0)

   A queue of tasks.

   Putting
   -------

   `put` waits while the queue is full.
"""


def test_titles_inside_automodule_are_sections_with_their_own_breadcrumbs() -> None:
    result = parse_doc_file("acme", "docs/locks.rst", LOCKS)
    assert result.warnings == []
    sections = [c.section for c in result.chunks]
    title = "acme.locks -- Synchronization primitives"
    assert sections == [
        title,
        f"{title} > Condition",
        f"{title} > Event > Waiting",
        f"{title} > Notes",
    ], sections
    by_section = {c.section: c for c in result.chunks}
    assert "class Condition" in by_section[f"{title} > Condition"].content
    assert "class Event" in by_section[f"{title} > Event > Waiting"].content
    assert "future that set resolves" in by_section[f"{title} > Event > Waiting"].content
    # the autodoc stub alone is no answer (lookup-only); prose under it is
    assert by_section[f"{title} > Condition"].lookup_only
    assert not by_section[f"{title} > Event > Waiting"].lookup_only


def test_titles_inside_a_description_directive_parse_without_warnings(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="ctxhub.ingest.docs.chunks"):
        chunks = chunk_doc_file("acme", "docs/reference.rst", DESCRIBED)
    assert "Unexpected section title" not in caplog.text
    assert [c.section for c in chunks][-1] == "Reference > Putting"
    assert "put waits while the queue is full." in chunks[-1].content
