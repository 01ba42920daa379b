"""A module `__getattr__` that warns dates the names it serves as a warning in a def
would be: by its message, a comment on or above the warning, or the proxy's own
`.. deprecated::` note (the proxy's record, which read the comment, is left out as the
names' duplicate: its since goes to them)."""

from __future__ import annotations

import pytest

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import extract_python_file

TABLE = """\
import warnings

_META = {"__title__": "summary", "__uri__": "", "__version__": ""}


def __getattr__(name):
    if name not in _META:
        raise AttributeError(name)
    if name != "__version__":
        # deprecated in 3.1
        warnings.warn(
            f"Accessing kit.{name} is deprecated. Use importlib.metadata instead.",
            DeprecationWarning,
        )
    return _META[name]
"""

BRANCH = '''\
import warnings


def __getattr__(name):
    """Old names.

    .. deprecated:: 2.4
    """
    if name == "OldThing":
        warnings.warn("OldThing is deprecated, use NewThing", DeprecationWarning)
        from kit.new import NewThing
        return NewThing
    raise AttributeError(name)
'''

INLINE = """\
import warnings


def __getattr__(name):
    if name == "Legacy":
        warnings.warn(  # since 1.7
            "Legacy is deprecated, use kit.Modern", DeprecationWarning
        )
        return 1
    raise AttributeError(name)
"""


def _records(text: str) -> dict[str, Deprecation]:
    extract = extract_python_file(
        "kit", "kit/__init__.py", text, version=None, internal_packages={"kit"}, module="kit"
    )
    return {r.symbol: r for r in extract.deprecations}


@pytest.mark.parametrize(
    ("text", "names", "since"),
    [
        (TABLE, ("kit.__title__", "kit.__uri__"), "3.1"),  # the comment above the warning
        (BRANCH, ("kit.OldThing",), "2.4"),  # the proxy's docstring note
        (INLINE, ("kit.Legacy",), "1.7"),  # a comment on the warning's line
    ],
)
def test_names_a_proxy_serves_are_dated_by_its_warning(
    text: str, names: tuple[str, ...], since: str
) -> None:
    found = _records(text)
    for name in names:
        assert found[name].since == since
        assert found[name].origin == "alias"
    assert "kit.__version__" not in found  # spared by the guard
