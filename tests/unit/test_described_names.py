"""A window of a Sphinx API page names the definitions it describes (`extra.describes`,
in the names column of the text index), so a search for an identifier finds the window
that documents it before a section that only mentions it (huey's api.rst: 40 methods
under the one heading "Huey object")."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.ingest.docs.described import described_names
from ctxhub.tools.search_tools import search_docs
from tests.unit.package_hub import tree_hub

_TASK_TEXT = " ".join(
    f"Sentence {i} on how the decorated function is queued, retried and scheduled."
    for i in range(30)
)

_API = f"""API
===

Huey object
-----------

.. py:class:: Huey(name)

    The queue.

    .. py:method:: task(retries=0, retry_delay=0)

        {_TASK_TEXT}

    .. py:method:: lock_task(lock_name)

        :param str lock_name: Name to use for the lock.

        Prevents overlapping runs: a second invocation that cannot acquire the lock
        raises an exception and does not run.

    .. py:method:: is_locked(lock_name) -> bool

        Whether the lock is held.

Notes
-----

Call lock_task around the body, or decorate with lock_task; lock_task is per name.
"""


def test_each_window_names_what_it_describes() -> None:
    chunks = chunk_doc_file("docs", "api.rst", _API)
    described = [c.metadata.extra.get("describes") for c in chunks]
    assert [c.section for c in chunks] == ["API > Huey object"] * 3 + ["API > Notes"]
    # the long description of `task` is a window of its own, which continues `task`;
    # a window that opens with a description does not continue the one before
    assert described == [["Huey", "task"], ["task"], ["lock_task", "is_locked"], None]


def test_described_names_read_signatures_not_prose_or_code() -> None:
    lines = [
        "class Store(url)",
        "The class names are lower case.",
        "```python",
        "function not_a_description()",
        "```",
        "attribute timeout: float",
        "function parse(text) -> dict",
    ]
    block = [-1, -1, 0, 0, 0, -1, -1]
    assert described_names(lines, block, 1, 6, 0) == ["Store", "timeout", "parse"]


def test_search_docs_finds_the_window_that_describes_an_identifier(tmp_path: Path) -> None:
    with tree_hub(tmp_path, "q", {"docs/api.rst": _API}, kinds=("docs",)) as hub:
        response = search_docs(hub, "lock_task", limit=3)
    top = response.hits[0]
    # before: the Notes section, which names lock_task three times, ranked first
    assert top.section == "API > Huey object", [h.section for h in response.hits]
    assert "lock_task" in top.metadata["describes"]
