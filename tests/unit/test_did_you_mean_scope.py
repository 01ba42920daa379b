""" "Did you mean" after a dotted name that is not there: the constants of the module
asked for first, and beside an answer that already names where the name is defined,
only that name's namesakes and near-typos (tools/nearest.py, tools/not_found.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.session import HubSession
from ctxhub.tools import code_tools
from tests.unit.package_hub import tree_hub

FILES = {
    "wf/__init__.py": '__version__ = "1.0"\n',
    "wf/status.py": '"""HTTP status codes."""\n\nHTTP_200_OK = 200\nHTTP_404_NOT_FOUND = 404\n'
    "HTTP_500_INTERNAL_SERVER_ERROR = 500\n",
    "wf/requests.py": "class Request:\n"
    '    """An incoming HTTP request."""\n\n'
    "    def body(self):\n"
    '        """Read the body."""\n'
    "        data = self.stream.read()\n        self.seen = True\n        return data\n",
    "wf/authentication.py": "def requires(scopes):\n"
    '    """Require the scopes for a request."""\n'
    "    needed = list(scopes)\n    needed.sort()\n    return needed\n",
    "wf/benchmarks.py": "def http_scope(path):\n"
    '    """An HTTP scope for a benchmark request."""\n'
    '    scope = {"path": path}\n    scope["type"] = "http"\n    return scope\n\n\n'
    "class RequestCase:\n"
    '    """A request benchmark case."""\n\n'
    "    def run(self):\n"
    '        """Run it."""\n'
    "        total = 0\n        total += 1\n        return total\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("dym"), "wf", FILES) as h:
        yield h


def _did_you_mean(hub: HubSession, symbol: str) -> list[str]:
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol=symbol)
    message = str(missing.value)
    if "did you mean " not in message:
        return []
    return message.split("did you mean ", 1)[1].split("?", 1)[0].split(", ")


def test_a_missing_constant_offers_the_modules_constants_first(hub: HubSession) -> None:
    offered = _did_you_mean(hub, "wf.status.HTTP_999_NOPE")
    assert offered[:2] == ["wf.status.HTTP_200_OK", "wf.status.HTTP_404_NOT_FOUND"]
    assert _did_you_mean(hub, "wf.status.HTTP_44_NOT_FOUND")[0] == "wf.status.HTTP_404_NOT_FOUND"


def test_beside_where_a_name_is_defined_only_its_namesakes_are_offered(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="wf.Request")
    assert "defined as wf.requests.Request" in str(missing.value)
    offered = _did_you_mean(hub, "wf.Request")
    assert "wf.authentication.requires" not in offered
    assert all("benchmarks" not in n for n in offered)
    # a name defined nowhere keeps its wider list
    assert "wf.requests.Request" in _did_you_mean(hub, "wf.Reqest")


QUALIFIED = {
    "loop/__init__.py": "",
    "loop/gen.py": 'def coroutine(func):\n    """Make a coroutine."""\n    return func\n',
    "queue/__init__.py": "",
    "queue/api.py": 'class Task:\n    """A queued task."""\n\n    def run(self):\n'
    '        """Run it."""\n        return 1\n',
}


def test_a_qualifier_that_ends_an_indexed_module_keeps_suggestions_under_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with tree_hub(tmp_path_factory.mktemp("dymq"), "two", QUALIFIED) as two:
        # `gen` is no package but the last part of `loop.gen`: no `queue.api.Task`
        assert _did_you_mean(two, "gen.Task") == []
        assert _did_you_mean(two, "gen.corutine") == ["loop.gen.coroutine"]
        assert "queue.api.Task" in _did_you_mean(two, "Tsk")


REEXPORTED = {
    "srv/__init__.py": "",
    "srv/web_response.py": 'class Response:\n    """An HTTP response."""\n',
    "srv/web.py": "from .web_response import Response\n\n"
    '__all__ = ["Response", "run_app"]\n\n\n'
    'def run_app(app):\n    """Run an app."""\n    return app\n',
    "other/__init__.py": "",
    "other/replies.py": 'class Responses:\n    """Not what srv.web holds."""\n',
}


def test_a_qualifier_keeps_the_names_its_module_re_exports(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with tree_hub(tmp_path_factory.mktemp("dymr"), "srv", REEXPORTED) as srv:
        # `web` is the tail of `srv.web`, which defines no Response but re-exports one
        assert _did_you_mean(srv, "web.Respnse") == ["srv.web.Response"]
        assert _did_you_mean(srv, "srv.web.Respnse") == ["srv.web.Response"]
        assert _did_you_mean(srv, "web.run_ap") == ["srv.web.run_app"]
