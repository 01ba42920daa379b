"""Commands import only what they use: the model runtime (onnx, onnxruntime), the MCP SDK
and Rich cost seconds to import on a slow machine, so `--version`, `--help` and the small
memory commands must not load them (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("onnx", "onnxruntime", "mcp", "tokenizers", "rich", "httpx", "pydantic_settings")
PROBE = """
import json, sys
sys.argv = ["ctxhub", *json.loads(sys.argv[1])]
from ctxhub.cli.entry import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED " + json.dumps(sorted(m for m in sys.modules if "." not in m)) + "\\n")
"""


def loaded(home: Path, *argv: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTXHUB_")}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv)],
        env={**env, "CTXHUB_HOME": str(home)},
        cwd=home,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("LOADED "))
    return set(json.loads(line.removeprefix("LOADED ")))


@pytest.mark.parametrize("argv", [["--version"], ["rate", "--help"], ["log", "--help"]])
def test_version_and_command_help_import_nothing_heavy(tmp_path: Path, argv: list[str]) -> None:
    assert loaded(tmp_path, *argv).isdisjoint(HEAVY)


def test_the_command_list_loads_neither_the_model_nor_the_sdk(tmp_path: Path) -> None:
    # `--help` reads every command's help, so each command module is imported; none of
    # them may load the model runtime or the MCP SDK at import time.
    assert loaded(tmp_path, "--help").isdisjoint({"onnx", "onnxruntime", "mcp", "tokenizers"})


def test_rating_a_record_imports_no_model_sdk_or_rich(tmp_path: Path) -> None:
    from ctxhub.config import Settings
    from ctxhub.core.records import RecordInput, record_id_for
    from ctxhub.embed.hashing import HashingEmbedder
    from ctxhub.memory.records.log import upsert_record
    from ctxhub.session import HubSession

    record = record_id_for("t", "one")
    with HubSession(Settings(home=tmp_path), embedder=HashingEmbedder()) as hub:
        upsert_record(hub, record, RecordInput(problem="pip cannot build a wheel"))
    modules = loaded(tmp_path, "rate", record, "worked")
    assert modules.isdisjoint({*HEAVY, "numpy"}), modules & {*HEAVY, "numpy"}
    assert "sqlite3" in modules  # it did run: the rating went to the store
