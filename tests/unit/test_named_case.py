"""A name written with capitals is the definition spelled that way: `pkg.Engine` (the
class the package re-exports) is not the module `pkg.engine`, and `pkg Engine` (a space
for the dot) asks for the same class. A public import path is spelled in the symbol's
own top-level package before a compat package that re-exports it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import search_tools
from tests.unit.package_hub import package_hub

FILES = {
    "__init__.py": "from pk.engine import Engine\n\n__all__ = ['Engine']\n",
    "engine.py": (
        '"""The engine module: engines, their options and helpers for engines."""\n\n'
        "class Engine:\n"
        '    """Runs templates."""\n\n'
        "    def render(self, text):\n"
        '        """Render the text."""\n'
        "        out = text.strip()\n"
        "        return out.upper()\n"
    ),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("case"), "pk", FILES) as h:
        yield h


@pytest.mark.parametrize("query", ["pk.Engine", "pk Engine", "`pk` `Engine`"])
def test_a_capitalised_name_is_the_class_not_the_module(hub: HubSession, query: str) -> None:
    hits = search_tools.search(hub, query, limit=3).hits
    assert hits[0].symbol == "pk.engine.Engine"
    assert hits[0].metadata.get("public_path") == "pk.Engine"


def test_a_lower_case_name_still_finds_the_module(hub: HubSession) -> None:
    assert search_tools.search(hub, "pk.engine", limit=3).hits[0].symbol == "pk.engine"


def test_the_public_path_stays_in_the_symbols_own_package(tmp_path: Path) -> None:
    files = {
        "__init__.py": "from pk._impl.engine import Engine\n\n__all__ = ['Engine']\n",
        "_impl/__init__.py": "",
        "_impl/engine.py": 'class Engine:\n    """Runs templates for the engine user."""\n',
        # a compat package under an older, shorter name re-exports it too
        "../p/__init__.py": "from pk._impl.engine import Engine\n\n__all__ = ['Engine']\n",
    }
    with package_hub(tmp_path, "pk", files) as hub:
        hits = search_tools.search(hub, "runs templates for the engine user", limit=3).hits
        engine = next(h for h in hits if h.symbol == "pk._impl.engine.Engine")
        assert engine.metadata.get("public_path") == "pk.Engine"
