"""A definition's public path never goes through a deprecated module (a re-export shim
kept under an old name, or a module that warns on import) while another public path
exists, its own spelling included (search/reexports.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession
from ctxhub.tools import code_tools
from tests.unit.package_hub import tree_hub

CLASS = (
    "class {name}:\n"
    '    """A logger that filters by level."""\n\n'
    "    def log(self, level, event):\n"
    '        """Log the event at the level."""\n'
    "        kept = [event]\n        for part in kept:\n            print(level, part)\n"
    "        return kept\n"
)
FILES = {
    "sl/__init__.py": "from sl import types, typing\n",
    "sl/typing.py": CLASS.format(name="FilteringLogger"),
    # a docstring-deprecated shim with a shorter name than the module it re-exports
    "sl/types.py": '"""\nDeprecated name for :mod:`sl.typing`.\n\n.. deprecated:: 2.2.0\n"""\n\n'
    'from sl.typing import FilteringLogger\n\n__all__ = ["FilteringLogger"]\n',
    "sl/_engine.py": CLASS.format(name="Engine") + "\n\n" + CLASS.format(name="Legacy"),
    # a module that warns on import, shorter than the public module exporting the same
    "sl/old.py": "import warnings\n\nfrom sl._engine import Engine, Legacy\n\n"
    'warnings.warn("sl.old is deprecated, use sl.engines", DeprecationWarning)\n\n'
    '__all__ = ["Engine", "Legacy"]\n',
    "sl/engines.py": 'from sl._engine import Engine\n\n__all__ = ["Engine"]\n',
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("deprecated-paths"), "sl", FILES) as h:
        yield h


def test_a_public_definition_is_not_renamed_into_a_deprecated_shim(hub: HubSession) -> None:
    found = public_paths(hub.store, ["sl.typing.FilteringLogger", "sl.typing.FilteringLogger.log"])
    assert found == {}
    snippet = code_tools.get_code_snippet(hub, symbol="sl.typing.FilteringLogger")
    assert snippet.public_path is None


def test_a_module_that_warns_on_import_gives_way_to_a_public_one(hub: HubSession) -> None:
    assert public_paths(hub.store, ["sl._engine.Engine"]) == {
        "sl._engine.Engine": "sl.engines.Engine"
    }


def test_a_deprecated_module_is_still_the_path_when_it_is_the_only_one(hub: HubSession) -> None:
    # nothing else exports Legacy, and its own module is private
    assert public_paths(hub.store, ["sl._engine.Legacy"]) == {"sl._engine.Legacy": "sl.old.Legacy"}
