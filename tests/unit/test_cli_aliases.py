"""Command names from the MCP side: a tool's name runs its command, and an unknown name
is answered with the commands it is likely meant as (cli/aliases.py)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.cli_runner import run


def test_a_tool_name_runs_the_command_that_calls_it(tmp_path: Path) -> None:
    result = run(tmp_path, "trace_calls", "--help")
    assert "SYMBOL" in result.output
    assert "--callers" in result.output


def test_a_tool_names_first_word_suggests_its_command(tmp_path: Path) -> None:
    result = run(tmp_path, "trace", "pkg.f", code=2)
    assert "error: No such command 'trace'. Did you mean 'calls'?" in result.output


def test_a_misspelt_command_suggests_the_command(tmp_path: Path) -> None:
    assert "Did you mean 'search'?" in run(tmp_path, "serch", "x", code=2).output


def test_a_name_like_nothing_says_only_that(tmp_path: Path) -> None:
    output = run(tmp_path, "zzz", code=2).output
    assert "No such command 'zzz'." in output and "Did you mean" not in output
