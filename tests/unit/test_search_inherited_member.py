"""A `Class.member` query for a member the class inherits from a mixin finds the
definition first, as get_code_snippet does (search/named.py with the tools' member
lookup, tools/resolve.member_names)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import code_tools, search_tools
from tests.unit.package_hub import trees_hub

FW = {
    "fw/__init__.py": "",
    "fw/config/__init__.py": "from fw.config.routes import RoutesMixin\n\n\n"
    "class Configurator(RoutesMixin):\n"
    '    """Configure an application."""\n\n'
    "    def commit(self):\n"
    '        """Run the pending actions."""\n'
    "        done = list(self.actions)\n        return done\n",
    "fw/config/routes.py": "class RoutesMixin:\n"
    "    def add_route(self, name, pattern):\n"
    '        """Map a URL pattern to a name."""\n'
    "        self.routes[name] = pattern\n"
    "        return self.routes\n",
    # namesakes: other classes' `add_route`, documented in the words of the query
    "fw/urldispatch.py": "class RoutesMapper:\n"
    "    def add_route(self, name, pattern):\n"
    '        """Configurator add_route: connect a route to the mapper."""\n'
    "        self.connect(name, pattern)\n"
    "        return name\n",
    "fw/testing.py": "class DummyConfigurator:\n"
    "    def add_route(self, name, pattern):\n"
    '        """A Configurator add_route stand-in for tests of a Configurator."""\n'
    "        self.added.append((name, pattern))\n"
    "        return self.added\n",
}
# an app that calls the method: its words name `add_route` too
APP = {
    "site/__init__.py": "from fw.config import Configurator\n\n\n"
    "def includeme(config):\n"
    "    config.add_route('home', '/')\n"
    "    config.add_route('hello', '/howdy')\n"
    "    config.add_route('Configurator add_route', '/x')\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with trees_hub(tmp_path_factory.mktemp("inh"), {"fw-dist": FW, "site-dist": APP}) as h:
        yield h


@pytest.mark.parametrize("query", ["Configurator.add_route", "fw.config.Configurator.add_route"])
def test_an_inherited_member_ranks_its_definition_first(hub: HubSession, query: str) -> None:
    assert (
        code_tools.get_code_snippet(hub, query).symbol == "fw.config.routes.RoutesMixin.add_route"
    )
    hits = search_tools.search(hub, query, limit=5).hits
    assert hits[0].symbol == "fw.config.routes.RoutesMixin.add_route"


def test_a_member_no_base_defines_finds_no_namesake(hub: HubSession) -> None:
    hits = search_tools.search(hub, "Configurator.add_view", limit=5).hits
    assert all(h.symbol != "fw.config.routes.RoutesMixin.add_route" for h in hits[:1])
