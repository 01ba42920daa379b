"""A public name resolves to the definition its package records it imports, not to a
namesake elsewhere in the package (tools/resolve.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, resolve, trace_tools
from tests.unit.package_hub import package_hub

BODY = '    """Do the work."""\n    value = 1\n    return value\n'
FILES = {
    # the package imports its logger factory from a private module...
    "__init__.py": (
        "from fw._config import get_logger\n"
        "from fw._generic import Logger\n"
        "__all__ = ['get_logger', 'Logger']\n"
    ),
    "_config.py": f"def get_logger():\n{BODY}    return make()\n\ndef make():\n{BODY}",
    "_generic.py": 'class Logger:\n    """The logger."""\n\n    level = 1\n',
    "_levels.py": f"def add_level(event):\n{BODY}",
    # ...while a public submodule defines namesakes of its own
    "stdlib.py": (
        "class Logger:\n    pass\n\n"
        "def get_logger():\n    return Logger()\n\n"
        "def use():\n    return get_logger()\n"
    ),
    # a module re-exporting one of its own imports
    "processors.py": ("from fw._levels import add_level\n__all__ = ['add_level']\n"),
    # a module importing one without declaring it
    "helpers.py": "from fw._levels import add_level\n\ndef other():\n    pass\n",
    # two namesakes and no record of which one the package means
    "a.py": f"def twin():\n{BODY}",
    "b.py": f"def twin():\n{BODY}",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("exports"), "fw", FILES) as h:
        yield h


@pytest.mark.parametrize(
    ("asked", "defined"),
    [
        ("fw.get_logger", "fw._config.get_logger"),
        ("fw.Logger", "fw._generic.Logger"),
        ("fw.processors.add_level", "fw._levels.add_level"),
        ("fw.helpers.add_level", "fw._levels.add_level"),
    ],
)
def test_a_public_name_resolves_to_what_its_module_imports(
    hub: HubSession, asked: str, defined: str
) -> None:
    found, how = resolve.find_symbol(hub.store, asked)
    assert (found[0].symbol, how) == (defined, "re-export")
    assert len(found) == 1
    snippet = code_tools.get_code_snippet(hub, symbol=asked)
    assert (snippet.symbol, snippet.resolution) == (defined, "re-export")


def test_calls_follow_the_recorded_re_export(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "fw.get_logger")
    assert trace.symbol == "fw._config.get_logger"
    assert [n.symbol for n in trace.nodes] == ["fw._config.make"]


def test_a_name_its_package_does_not_bind_is_not_found(hub: HubSession) -> None:
    """`fw` imports no `twin`: `from fw import twin` fails, so `fw.twin` is no answer;
    the definitions below `fw` come first in what the error offers."""
    assert resolve.find_symbol(hub.store, "fw.twin") == ([], "")
    with pytest.raises(NotFoundError) as error:
        code_tools.get_code_snippet(hub, symbol="fw.twin")
    message = str(error.value)
    assert "'fw.twin' is not importable (fw does not bind twin)" in message
    assert "defined as fw.a.twin, fw.b.twin" in message
