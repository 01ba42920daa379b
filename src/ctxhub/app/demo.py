"""The demo: a real corpus (pipecat-ai-flows 1.4.0 from PyPI), three searches through the
tools, one logged solution found again, and memory saying when it knows nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from ctxhub.session import HubSession
from ctxhub.sources.pypi_release import fetch_release
from ctxhub.tools.run import call

PACKAGE, VERSION = "pipecat-ai-flows", "1.4.0"
SHA256 = "3cdcecf66606bc8ed7e1cfeb3eec2e13e7a40af894a9c8c7717d8f713955f608"
QUERIES = (
    ("search_api", "FlowManager.set_node_from_config"),
    ("search_examples", "switch between LLM providers during a conversation"),
    ("search", "how does a node transition happen after a function handler returns"),
)


def fetch_sdist(dest: Path, say: Callable[[str], None] = lambda _: None) -> Path:
    """Download (once) and unpack the demo sdist, its archive pinned; the unpacked root."""
    return fetch_release(PACKAGE, VERSION, dest, sha256=SHA256, say=say).root


#: The demo's memory record (agent "demo", so it is easy to find and `ctxhub forget`).
DEMO_RECORD: dict[str, object] = {
    "problem": "Running a flows example fails: No module named 'pipecat_flows'",
    "error_type": "ModuleNotFoundError",
    "solution": "The distribution is pipecat-ai-flows but the import name is pipecat_flows:"
    " `pip install pipecat-ai-flows` in the environment that runs the example.",
    "language": "python",
    "framework": "pipecat",
    "agent": "demo",
}
DEMO_RECALL = (
    "ModuleNotFoundError: No module named 'pipecat_flows'",
    "how do I rotate TLS certificates on a kubernetes ingress",
)


def demo_steps(hub: HubSession) -> Iterator[tuple[str, str]]:
    """(title, the tool's text) for each step, as an agent would call them."""
    for tool, query in QUERIES:
        yield f"{tool}: {query}", call(hub, tool, query=query, limit=3).text
    # memory: what an agent logs after a fix, found again from the raw error
    yield "log_solution", call(hub, "log_solution", **DEMO_RECORD).text
    for query in DEMO_RECALL:
        yield f"search_solutions: {query}", call(hub, "search_solutions", query=query, limit=1).text
