"""A git repository: a shallow clone under <home>/sources/, fetched again on refresh."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ctxhub.core.errors import SourceError

GIT_TIMEOUT_S = 300


def _git(args: list[str], cwd: Path | None = None) -> str:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},  # never prompt for credentials
        )
    except FileNotFoundError as exc:
        raise SourceError("git is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise SourceError(f"git {args[0]} timed out after {GIT_TIMEOUT_S}s") from exc
    if done.returncode != 0:
        raise SourceError(f"git {args[0]} failed: {done.stderr.strip()[-500:]}")
    return done.stdout.strip()


def sync(url: str, dest: Path, ref: str | None = None) -> str:
    """Clone (or fetch and reset) `url` at `ref` into dest; return the commit sha.

    A first clone goes to a temporary folder renamed into place, so a failed clone
    leaves nothing behind; a failed fetch leaves the previous checkout untouched.
    """
    if (dest / ".git").is_dir():
        target = ref or "HEAD"
        _git(["fetch", "--depth", "1", "origin", target], cwd=dest)
        _git(["reset", "--hard", "FETCH_HEAD"], cwd=dest)
    else:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
        try:
            args = ["clone", "--depth", "1", "--quiet"]
            if ref:
                args += ["--branch", ref]
            _git([*args, url, str(tmp / "repo")])
            if dest.exists():
                shutil.rmtree(dest)
            (tmp / "repo").rename(dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return _git(["rev-parse", "HEAD"], cwd=dest)
