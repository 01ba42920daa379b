"""A definition's public path is spelt in its own distribution: another package that
merely imports it (a tutorial app, a user's project indexed beside it) gives it no
name, a definition already in a public module keeps its own name unless a strictly
shorter path of its package re-exports it, and a package `__init__` without `__all__`
re-exports no name its own code uses from a public module (search/reexports.py,
ingest/python/exports.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession
from tests.unit.package_hub import trees_hub

LIB = {
    "kit/__init__.py": "from kit.session import CookieFactory\n",
    "kit/session.py": "class CookieFactory:\n    '''Make signed cookie sessions.'''\n\n\n"
    "def make_token():\n    return 1\n",
    "kit/router.py": "class Router:\n    '''Route requests.'''\n\n"
    "    def invoke(self, request):\n        return request\n",
    "kit/helpers.py": "def slugify(text):\n    return text.lower()\n",
    "kit/_impl.py": "class Engine:\n    '''Run templates.'''\n",
    "kit/config/__init__.py": "from kit.router import Router\n"
    "from kit.helpers import slugify\n"
    "from kit._impl import Engine\n"
    "from kit.session import make_token\n\n"
    "make_token = make_token  # api: a re-export spelt out, no use\n\n\n"
    "class Configurator:\n    '''Configure an app.'''\n\n"
    "    def make_app(self):\n        engine = Engine()\n"
    "        return Router(), engine\n",
}
APP = {
    # an app (or a docs tutorial) importing the library's names into its own package
    "app/__init__.py": "from kit.config import Configurator\nfrom kit.router import Router\n"
    "from kit.session import CookieFactory\n\n\ndef main():\n"
    "    return Configurator()\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with trees_hub(tmp_path_factory.mktemp("own"), {"kit-dist": LIB, "app-dist": APP}) as h:
        yield h


def test_another_package_importing_a_definition_is_no_public_path(hub: HubSession) -> None:
    found = public_paths(hub.store, ["kit.config.Configurator", "kit.router.Router.invoke"])
    assert "kit.config.Configurator" not in found
    assert "kit.router.Router.invoke" not in found


def test_a_shorter_path_of_its_own_package_still_wins(hub: HubSession) -> None:
    assert public_paths(hub.store, ["kit.session.CookieFactory"]) == {
        "kit.session.CookieFactory": "kit.CookieFactory"
    }


def test_a_package_init_using_a_public_import_does_not_re_export_it(hub: HubSession) -> None:
    # `kit.config` imports Router to build one: `kit.router.Router` keeps its own name
    assert public_paths(hub.store, ["kit.router.Router"]) == {}
    # an unused import is a re-export, but as long as its own name and in no `__all__`
    assert public_paths(hub.store, ["kit.helpers.slugify"]) == {}
    # a used import from a private module: the package is its only public home
    assert public_paths(hub.store, ["kit._impl.Engine"]) == {
        "kit._impl.Engine": "kit.config.Engine"
    }


def test_the_module_chunk_records_only_the_unused_public_imports(hub: HubSession) -> None:
    from ctxhub.search.reexports import module_chunks

    (config,) = module_chunks(hub.store, "kit.config")
    exports = set(config.metadata.extra.get("exports", ()))
    assert "kit.router.Router" not in exports
    assert {"kit.helpers.slugify", "kit._impl.Engine", "kit.session.make_token"} <= exports
