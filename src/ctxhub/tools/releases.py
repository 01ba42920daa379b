"""Release numbers as a deprecation answer compares and names them (a leaf module: the
renderer and the answer both use it)."""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

from ctxhub.core.outputs import RunningVersion


def release(version: str | None) -> tuple[int, ...] | None:
    """The release numbers of `version`, trailing zeros dropped (`6.3.0` is `6.3`); a
    pre- or dev release counts as its release (a changelog's "deprecated in 7.0" is about
    the 7.0.dev1 that holds it). None when it reads as no version."""
    if not version:
        return None
    try:
        numbers = list(Version(version).release)
    except InvalidVersion:
        found = re.match(r"v?(\d+(?:\.\d+)*)", version.strip())
        if found is None:
            return None
        numbers = [int(p) for p in found.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def label(running: RunningVersion) -> str:
    """`installed tornado 6.1`, `installed tornado 6.2 (indexed 6.1)`, or `indexed
    tornado-64 6.4.1`."""
    if running.installed:
        indexed = f" (indexed {running.indexed})" if running.indexed else ""
        return f"installed {running.package} {running.version}{indexed}"
    return f"indexed {running.source} {running.version}"
