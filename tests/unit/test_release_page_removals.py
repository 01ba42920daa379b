"""Removals told by one release's page (tornado's `releases/v6.0.0.rst`): under a
module's heading, in a list after "This includes", or of a decorator, they answer
check_deprecation "removed in 6.0" for names the installed code no longer defines."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.python.changelog import _in_module
from ctxhub.tools.deprecation_tools import check_deprecation
from tests.unit.package_hub import tree_hub

RELEASE_6 = """\
What's new in Acme 6.0
======================

Backwards-incompatible changes
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

- APIs deprecated in Acme 5.1 have been removed.

`acme.gen`
~~~~~~~~~~

- Some older portions of this module have been removed. This includes
  ``engine``, ``YieldPoint``, and ``Task``.

`acme.loop`
~~~~~~~~~~~

- ``Loop.log_stack``,
  and ``Loop.handle_callback_exception`` have been removed.

`acme.web`
~~~~~~~~~~

- The ``asynchronous`` decorator has been removed.
"""

RELEASE_5 = """\
What's new in Acme 5.1
======================

`acme.web`
~~~~~~~~~~

- The ``asynchronous`` decorator is deprecated and will be removed in 6.0.
"""

FILES = {
    "acme/__init__.py": "",
    "acme/gen.py": 'def coroutine(f):\n    """Make a coroutine."""\n    return f\n',
    "acme/loop.py": 'class Loop:\n    def start(self):\n        """Run."""\n',
    "acme/queue.py": 'class Task:\n    """A queued task."""\n',
    "docs/releases/v6.0.0.rst": RELEASE_6,
    "docs/releases/v5.1.0.rst": RELEASE_5,
}


def test_removals_on_a_release_page_answer_removed(tmp_path: Path) -> None:
    with tree_hub(tmp_path, "acme", FILES, kinds=()) as hub:
        for asked in ("acme.web.asynchronous", "acme.gen.Task", "gen.Task", "YieldPoint"):
            answer = check_deprecation(hub, asked)
            assert answer.removed and answer.removed_in == "6.0", asked
        answer = check_deprecation(hub, "acme.loop.Loop.handle_callback_exception")
        assert answer.removed and answer.removed_in == "6.0"


def test_a_removal_under_one_module_is_not_another_modules_namesake(tmp_path: Path) -> None:
    """`acme.gen.Task` was removed; `acme.queue.Task` is defined and current."""
    with tree_hub(tmp_path, "acme", FILES, kinds=()) as hub:
        answer = check_deprecation(hub, "acme.queue.Task")
        assert answer.found and not answer.removed and not answer.deprecated


def test_names_under_a_module_heading_are_qualified_by_what_they_name() -> None:
    assert _in_module("Task", "tornado.gen") == "tornado.gen.Task"
    assert _in_module("gen.Task", "tornado.gen") == "tornado.gen.Task"
    assert _in_module("IOLoop.add_handler", "tornado.ioloop") == "tornado.ioloop.IOLoop.add_handler"
    # a sibling module's member, named under another module's heading
    assert _in_module("httputil.HTTPHeaders.get_all", "tornado.web") == (
        "tornado.httputil.HTTPHeaders.get_all"
    )
    assert _in_module("tornado.web.asynchronous", "tornado.gen") == "tornado.web.asynchronous"
