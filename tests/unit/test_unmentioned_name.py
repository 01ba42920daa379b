"""`search_docs` for a code name that no doc hit mentions says so, and where the name is
defined, instead of offering hits that only share its words as its docs (tornado's
`run_on_executor`: autodoc builds its docs from the docstring, and the release notes
that name it are not ranked)."""

from __future__ import annotations

from pathlib import Path

from ctxhub.tools.search_tools import search_docs
from tests.unit.package_hub import tree_hub

_CODE = '''
def run_on_executor(*args, **kwargs):
    """Decorator to run a synchronous method asynchronously on an executor."""
    return args
'''

_GUIDE = """# Guide

## Blocking calls

Run a blocking function on an executor with `IOLoop.run_in_executor`, so the event
loop keeps serving other requests while it runs.
"""


def test_a_name_no_doc_hit_mentions_gets_a_notice(tmp_path: Path) -> None:
    files = {"web/__init__.py": "", "web/concurrent.py": _CODE, "docs/guide.md": _GUIDE}
    with tree_hub(tmp_path, "web", files, kinds=("python", "docs")) as hub:
        response = search_docs(hub, "run_on_executor")
        named = search_docs(hub, "run_in_executor")
    assert response.hits  # the guide shares words with it
    assert response.notice is not None
    assert "no doc hit mentions 'run_on_executor'" in response.notice
    assert "get_code_snippet(symbol='web.concurrent.run_on_executor')" in response.notice
    # a name the hits mention gets no such notice
    assert named.hits and "no doc hit mentions" not in (named.notice or "")
