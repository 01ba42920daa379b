"""`ctxhub demo`: index a real framework (fetched from PyPI) with the real model, search it.

The corpus is the source distribution of pipecat-ai-flows 1.4.0: a Python package, its
examples and its docs, small enough to index in well under a minute on two cores.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import click
from rich.markup import escape

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out
from ctxhub.cli.refreshing import run_refresh
from ctxhub.core.errors import SourceError
from ctxhub.core.knowledge import SearchRequest
from ctxhub.session import HubSession
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.manifest import writable_manifest
from ctxhub.tools import memory_tools, render, render_memory, search_tools

PACKAGE, VERSION = "pipecat-ai-flows", "1.4.0"
SHA256 = "3cdcecf66606bc8ed7e1cfeb3eec2e13e7a40af894a9c8c7717d8f713955f608"
QUERIES = (
    ("search_api", "FlowManager.set_node_from_config"),
    ("search_examples", "switch between LLM providers during a conversation"),
    ("search", "how does a node transition happen after a function handler returns"),
)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_sdist(dest: Path) -> Path:
    """Download (once) and unpack the demo sdist; returns the unpacked root."""
    archive = dest / f"{PACKAGE.replace('-', '_')}-{VERSION}.tar.gz"
    root = dest / f"{PACKAGE}-{VERSION}"
    if root.is_dir() and archive.is_file() and _sha256(archive) == SHA256:
        return root
    dest.mkdir(parents=True, exist_ok=True)
    if not archive.is_file():
        err.print(f"downloading {PACKAGE}=={VERSION} (sdist) from PyPI")
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(dest),
                f"{PACKAGE}=={VERSION}",
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not archive.is_file():
            raise SourceError(
                f"pip download {PACKAGE}=={VERSION} failed: {done.stderr.strip()[-400:]}"
            )
    if _sha256(archive) != SHA256:
        archive.unlink()
        raise SourceError(f"{archive.name}: sha256 mismatch, deleted; run the demo again")
    tmp = dest / ".unpack"
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # refuses links and paths outside `tmp`
            tar.extractall(tmp, filter="data")
        else:  # pragma: no cover - Pythons before 3.10.12
            tar.extractall(tmp)
    [top] = list(tmp.iterdir())
    if root.exists():
        shutil.rmtree(root)
    top.rename(root)
    tmp.rmdir()
    return root


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


@click.command()
@pass_ctx
def demo(ctx: Context) -> None:
    """Index pipecat-ai-flows 1.4.0 (fetched from PyPI), run three searches, then log a
    solution and find it again (and see memory say when it knows nothing)."""
    root = fetch_sdist(ctx.settings.home / "demo")
    spec = SourceSpec(name=PACKAGE, path=str(root))
    manifest = writable_manifest(ctx.settings.home)
    manifest.add(spec, replace=True)
    manifest.save()
    summary = run_refresh(ctx, [spec], force=False, embed=True, as_json=False)
    if any(s.status != "ok" for s in summary.sources):
        sys.exit(1)
    with HubSession(ctx.settings) as hub:
        for tool, query in QUERIES:
            out.rule(f"{tool}: {query}")
            if tool == "search_api":
                response = search_tools.search_api(hub, query, limit=3)
            elif tool == "search_examples":
                response = search_tools.search_examples(hub, query, limit=3)
            else:
                response = hub.retriever.search(SearchRequest(query=query, limit=3))
            out.print(escape(render.search_response(response)))
        # memory: what an agent logs after a fix, found again from the raw error
        logged = memory_tools.log_solution(hub, **DEMO_RECORD)
        out.rule(f"log_solution: {logged.action}")
        out.print(escape(render_memory.log_result(logged)))
        for query in DEMO_RECALL:
            out.rule(f"search_solutions: {query}")
            found = memory_tools.search_solutions(hub, query, limit=1)
            out.print(escape(render_memory.solution_response(found)))
    out.print(
        f"\n[bold]ready.[/bold] `ctxhub search QUERY`, or `ctxhub serve` for agents "
        f"(store: {ctx.settings.store_location}, manifest: {manifest.path})"
    )


COMMANDS = [demo]
