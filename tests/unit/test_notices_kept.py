"""A search answer's own notice (search_examples' "no example matches", search_docs'
"no doc hit mentions it") is kept when a structural hint is added beside it: each says
something the other does not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.knowledge import SearchResponse
from ctxhub.search.examples_first import NO_EXAMPLE_MATCHES
from ctxhub.session import HubSession
from ctxhub.tools.run import call
from tests.unit.package_hub import tree_hub

FILES = {
    "acme/__init__.py": "",
    "acme/jobs.py": (
        "def schedule(job):\n"
        '    """Put a job on the schedule."""\n'
        "    return job\n\n\n"
        "def nightly():\n"
        "    return schedule('backup')\n"
    ),
    "docs/jobs.md": "# Jobs\n\nWho calls schedule: the nightly job calls schedule for backups.\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root: Path = tmp_path_factory.mktemp("notices-kept")
    with tree_hub(root, "acme", FILES, kinds=("python", "docs")) as session:
        yield session


def test_no_example_notice_survives_a_structural_hint(hub: HubSession) -> None:
    answer = call(hub, "search_examples", query="who calls schedule")
    found = answer.output
    assert isinstance(found, SearchResponse) and found.hits
    assert found.notice is not None
    assert NO_EXAMPLE_MATCHES in found.notice
    assert "trace_calls('schedule', direction='callers')" in found.notice
    assert NO_EXAMPLE_MATCHES in answer.text
