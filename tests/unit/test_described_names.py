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
    # the long description of `task` is a window of its own, which continues `task`
    # (the first window holds only its signature line); a window that opens with a
    # description does not continue the one before
    assert described == [["Huey"], ["task"], ["lock_task", "is_locked"], None]


def test_described_names_read_signatures_not_prose_code_or_stubs() -> None:
    lines = [
        "class Store(url)",
        "The class names are lower case.",
        "```python",
        "function not_a_description()",
        "```",
        "attribute timeout: float",
        "In seconds.",
        "method Store.get(key)",  # a stub: `.. automethod::`, the next line another one
        "method Store.put(key, value)",
        "Stores it.",
        "function parse(text) -> dict",
        "Parses it.",
    ]
    block = [-1, -1, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1]
    # the window opens inside Store's description: Store is continued
    assert described_names(lines, block, 1, 11, 0) == ["Store", "timeout", "Store.put", "parse"]


def test_search_docs_finds_the_window_that_describes_an_identifier(tmp_path: Path) -> None:
    with tree_hub(tmp_path, "q", {"docs/api.rst": _API}, kinds=("docs",)) as hub:
        response = search_docs(hub, "lock_task", limit=3)
    top = response.hits[0]
    # before: the Notes section, which names lock_task three times, ranked first
    assert top.section == "API > Huey object", [h.section for h in response.hits]
    assert "lock_task" in top.metadata["describes"]


_TYPES = """API
===

Types
-----

The storage types a queue can be built on, and what each keeps.

.. py:class:: PriorityRedisExpireHuey

    Combines both behaviors: the queue is a sorted set, so tasks run in the order of
    their priority, and each task result is a key of its own with a time to live,
    removed when it expires whether or not it was read.
"""

_GUIDE = """Guide
=====

Priority queues on Redis: a Huey on Redis can expire results; the priority Redis Huey
and the expire Redis Huey share the Redis connection, and each Huey expires on Redis.
"""


def test_the_symbol_path_finds_doc_windows_describing_a_name(tmp_path: Path) -> None:
    files = {"docs/api.rst": _TYPES, "docs/guide.rst": _GUIDE}
    with tree_hub(tmp_path, "q", files, kinds=("docs",)) as hub:
        response = search_docs(hub, "PriorityRedisExpireHuey", limit=3)
    # a doc chunk has no symbol: before, no doc hit was ever found by the symbol path
    top = response.hits[0]
    assert top.path == "docs/api.rst" and "symbol" in top.signals
    assert top.metadata["describes"] == ["PriorityRedisExpireHuey"]
    assert all("symbol" not in h.signals for h in response.hits[1:])


def test_a_question_naming_a_class_gets_no_doc_window_from_the_symbol_path(
    tmp_path: Path,
) -> None:
    """Only a query that is one name looks up the windows that describe it: a question
    that names a class is answered by the guide, and the reference page that describes
    the class took its place (aiohttp's proxy question, docs/RETRIEVAL.md)."""
    files = {"docs/api.rst": _TYPES, "docs/guide.rst": _GUIDE}
    with tree_hub(tmp_path, "q", files, kinds=("docs",)) as hub:
        response = search_docs(hub, "how do I order tasks with PriorityRedisExpireHuey?")
    assert response.hits and all("symbol" not in h.signals for h in response.hits)
