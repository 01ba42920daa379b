"""The CLI as the unit tests run it: click's runner, a home of the test's own, piped
output (not a terminal), the exit code checked."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from ctxhub.cli.main import cli


def run(home: Path, *args: str, code: int = 0) -> Result:
    """`ctxhub ARGS` with CTXHUB_HOME=home/store; fails unless it exits `code`."""
    result = CliRunner().invoke(cli, list(args), env={"CTXHUB_HOME": str(home / "store")})
    assert result.exit_code == code, result.output
    return result
