"""What the dashboard's tests and screenshots show: the test corpus (tests/fixtures/corpus)
as three sources and two memory records, seeded into a hub.

Here rather than in tests/ because scripts/dashboard_screenshots.py uses it too (a script
does not import from tests), and rather than in the package because the corpus it names
is a file of this checkout, not something ctxhub ships. tests/dashboard/conftest.py
imports it as `scripts.dashboard_seed`.
"""

from __future__ import annotations

from pathlib import Path

from ctxhub.app.refresh import refresh_index
from ctxhub.config import Settings
from ctxhub.core.records import RecordInput
from ctxhub.ingest.refresh.incremental import RefreshSummary
from ctxhub.memory.records.log import log_solution
from ctxhub.session import HubSession
from ctxhub.sources.base import SourceSpec

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "corpus"
SPECS = [
    SourceSpec(name="chime", kind=["python"], path=str(CORPUS / "pkg")),
    SourceSpec(name="chime-docs", kind=["docs"], path=str(CORPUS / "docs")),
    SourceSpec(name="chime-examples", kind=["examples"], path=str(CORPUS / "examples")),
]
RECORDS = [
    RecordInput(
        problem="ConnectionResetError when the chime websocket reconnects",
        solution="raise the ping interval to 20 seconds",
        error_type="ConnectionResetError",
        language="python",
        framework="chime",
        tags=["websocket", "network"],
    ),
    RecordInput(
        problem="pip install chime fails behind a proxy",
        solution="set HTTPS_PROXY before running pip",
        language="python",
        tags=["pip"],
    ),
]


def seed(settings: Settings) -> RefreshSummary:
    """SPECS indexed into the store of `settings` (by the same use case as `ctxhub
    refresh`, with the process's embedder), then RECORDS logged; the refresh's summary."""
    summary = refresh_index(settings, SPECS)
    with HubSession(settings) as hub:
        for record in RECORDS:
            log_solution(hub, record)
    return summary
