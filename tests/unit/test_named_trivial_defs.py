"""A query that is one name answers with that definition even when it is trivial (a
one-line setter, a two-line registry function: lookup-only, so no text path finds it),
never with another class's method of the same last name; a misspelled bare name gets
the same "no definition named" notice as a misspelled dotted one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import search_tools
from tests.unit.package_hub import package_hub

FILES = {
    "registry.py": (
        "CONVERTERS = {}\n\n\n"
        "def register_converter(key, converter):\n"
        "    CONVERTERS[key] = converter\n"
    ),
    "app.py": (
        "class App:\n"
        '    """The application."""\n\n'
        "    def add_handler(self, key, handler):\n"
        "        self.handlers[key] = handler\n"
    ),
    "middleware.py": (
        "class Middleware:\n"
        '    """Handles errors around the application."""\n\n'
        "    def add_handler(self, key, handler):\n"
        '        """Handle errors of type `key` with `handler`."""\n'
        "        if isinstance(key, int):\n"
        "            self.status_handlers[key] = handler\n"
        "        else:\n"
        "            self.error_handlers[key] = handler\n"
    ),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("trivial"), "tw", FILES) as h:
        yield h


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("tw.app.App.add_handler", "tw.app.App.add_handler"),
        ("App.add_handler", "tw.app.App.add_handler"),
        ("register_converter", "tw.registry.register_converter"),
        ("`tw.registry.register_converter`", "tw.registry.register_converter"),
    ],
)
def test_a_name_finds_its_trivial_definition_first(hub: HubSession, query: str, first: str) -> None:
    hits = search_tools.search(hub, query, limit=3).hits
    assert hits and hits[0].symbol == first


def test_a_question_does_not_surface_trivial_definitions(hub: HubSession) -> None:
    hits = search_tools.search(hub, "how do I add a handler for errors", limit=5).hits
    assert "tw.app.App.add_handler" not in [h.symbol for h in hits]
    assert hits[0].symbol == "tw.middleware.Middleware.add_handler"


def test_a_misspelled_bare_name_gets_a_notice(hub: HubSession) -> None:
    notice = search_tools.search(hub, "register_convertor").notice
    assert notice is not None
    assert notice.startswith("no definition named 'register_convertor' is indexed")
    assert "tw.registry.register_converter" in notice
    # an English word is a search, and a name that exists needs no notice
    assert search_tools.search(hub, "handlers").notice is None
    assert search_tools.search(hub, "register_converter").notice is None
