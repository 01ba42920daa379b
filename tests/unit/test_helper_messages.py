"""Deprecation helpers whose message is built from their arguments, and a deprecated
function whose own warning shows an argument: each call site or function is a record."""

from __future__ import annotations

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.deprecation_helpers import scan_package

DEP = b'''
from warnings import warn


def deprecation(message: str, version: float):
    """Emit a deprecation notice."""
    warn(f"[DEPRECATION v{version}] " + message, DeprecationWarning)
'''

CORE = b"""
import warnings

from mypkg._dep import deprecation


def new_api(x):
    return x


def old_joined(x):
    deprecation("old_joined is deprecated, use new_api instead.", 3.0)
    return new_api(x)


def _local_deprecation(message):
    warnings.warn(message, DeprecationWarning, stacklevel=3)


def old_passed(x):
    _local_deprecation("old_passed is deprecated, use new_api instead.")
    return new_api(x)


def old_shown(x):
    warnings.warn(f"old_shown({x!r}) is deprecated, use new_api instead.", DeprecationWarning)
    return new_api(x)
"""


def test_helper_messages_and_a_self_naming_warning_are_records() -> None:
    files = {"mypkg/__init__.py": b"", "mypkg/_dep.py": DEP, "mypkg/core.py": CORE}
    modules = {"mypkg/__init__.py": "mypkg", "mypkg/_dep.py": "mypkg._dep"}
    modules["mypkg/core.py"] = "mypkg.core"
    helpers = scan_package(modules, files.__getitem__, ["mypkg"])
    # a function that names itself in its warning is deprecated, no helper
    assert "mypkg.core.old_shown" not in helpers.functions
    assert helpers.functions["mypkg._dep.deprecation"].template == (
        "[DEPRECATION v{version}] {message}"
    )
    extracted = extract_python_file(
        "p", "mypkg/core.py", CORE, version="1", internal_packages={"mypkg"}, helpers=helpers
    )
    notes = {d.symbol.rsplit(".", 1)[-1]: d.note for d in extracted.deprecations}
    assert notes == {
        "old_joined": "[DEPRECATION v3.0] old_joined is deprecated, use new_api instead.",
        "old_passed": "old_passed is deprecated, use new_api instead.",
        "old_shown": "old_shown({x!r}) is deprecated, use new_api instead.",
    }
