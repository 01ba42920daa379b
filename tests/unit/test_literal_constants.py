"""Public module-level names bound to literals or sentinels are constants whatever their
case (`Everyone = 'system.Everyone'`), so a lookup by name finds them; a private name, a
variable a function rebinds, a mutable container, or a name left out of `__all__` are
not. They stay lookup-only, as every constant chunk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.knowledge import LOOKUP_ONLY
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools
from tests.unit.package_hub import tree_hub

SECURITY = '''\
"""Principals and verdicts."""

Everyone = "system.Everyone"
Allow = "Allow"
Offset = -1
Pair = ("a", 2)
Missing = object()
_hidden = "x"
counter = 0
handlers = []
nothing = None


def bump():
    global counter
    counter += 1
'''


def constants(text: str) -> dict[str, bool]:
    made = extract_python_file(
        "acme", "acme/security.py", text, version=None, internal_packages={"acme"}
    )
    return {
        c.title: bool(c.metadata.extra.get(LOOKUP_ONLY))
        for c in made.chunks
        if c.metadata.chunk_type == "constant"
    }


def test_public_literals_of_any_case_are_lookup_only_constants() -> None:
    assert constants(SECURITY) == {
        "Everyone": True,
        "Allow": True,
        "Offset": True,
        "Pair": True,
        "Missing": True,
    }


def test_a_modules_all_says_which_are_public() -> None:
    text = '__all__ = ["Shown"]\nShown = "a"\nHidden = "b"\n'
    assert constants(text) == {"Shown": True}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    with tree_hub(tmp_path, "acme", {"acme/__init__.py": "", "acme/security.py": SECURITY}) as h:
        yield h


def test_a_camel_case_constant_resolves_in_the_tools(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="acme.security.Everyone")
    assert snippet.resolution == "constant" and 'Everyone = "system.Everyone"' in snippet.code
    report = deprecation_tools.check_deprecation(hub, "acme.security.Allow")
    assert report.found and not report.deprecated
