"""Every path ctxhub prints can be passed back to it: the public path of a hit names the
object's own re-export before a path through a submodule a package binds as an
attribute, such a path still resolves, a def nested in a function has no public path,
and "did you mean" offers only related names (search/reexports.py, tools/resolve.py,
tools/nearest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.search.reexports import public_paths
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, search_tools, trace_tools
from ctxhub.tools.render import code_snippet, search_response
from tests.unit.package_hub import tree_hub

BODY = "    parts = [str(p) for p in params]\n    parts.sort()\n    return '&'.join(parts)\n"
FILES = {
    # `fp.misc` is an attribute of `fp`, not a module: `import fp.misc` fails
    "fp/__init__.py": "from fp.util import misc\nfrom fp._impl import helpers\n"
    "from fp.util import to_query\nfrom fp.routing import Router\n\n"
    '__all__ = ["misc", "helpers", "to_query", "Router"]\n',
    "fp/util/__init__.py": "from fp.util.misc import http_date, to_query\n",
    "fp/util/misc.py": '__all__ = ["to_query", "http_date", "misc_only"]\n\n\n'
    "def to_query(params):\n"
    '    """Serialize the params as a query string."""\n' + BODY + "\n\n"
    "def http_date(params):\n"
    '    """Format the params as an HTTP date."""\n' + BODY + "\n\n"
    "def misc_only(params):\n"
    '    """Exported by its own module only."""\n' + BODY,
    "fp/_impl/__init__.py": "",
    "fp/_impl/helpers.py": "def reachable(params):\n"
    '    """Reached only through the module the package binds."""\n' + BODY,
    "fp/routing/__init__.py": "from fp.routing.compiled import Router\n",
    "fp/routing/compiled.py": "class Router:\n"
    '    """Routes requests."""\n\n'
    "    def add_route(self, uri):\n"
    '        """Add a route for the uri template."""\n\n'
    "        def insert(nodes, index=0):\n"
    '            """Insert the template segments into the route tree."""\n'
    "            for node in nodes:\n                node.index = index\n"
    '            raise ValueError("The URI template conflicts with another route")\n\n'
    "        insert([uri])\n        return uri\n",
    "fp/response.py": "class Response:\n"
    '    """An HTTP response."""\n\n'
    "    def render_body(self):\n"
    '        """Render the body."""\n'
    "        data = self.data\n        data = data or b''\n        return data\n",
    "fp/bench/__init__.py": "",
    "fp/bench/controllers.py": "class TestController:\n"
    '    """A benchmark controller."""\n\n'
    "    def test(self):\n"
    '        """Run the benchmark."""\n'
    "        total = 0\n        total += 1\n        return total\n",
    "dq/__init__.py": "from dq.worker import Worker\n",
    "dq/worker.py": "class Worker:\n"
    '    """Processes messages."""\n\n'
    "    def start(self):\n"
    '        """Start the worker threads."""\n'
    "        self.running = True\n        self.threads = []\n        return self\n",
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("usable"), "fp", FILES) as h:
        yield h


def _did_you_mean(message: str) -> list[str]:
    if "did you mean " not in message:
        return []
    return message.split("did you mean ", 1)[1].split("?", 1)[0].split(", ")


def test_the_objects_own_re_export_wins_over_a_path_through_a_bound_module(
    hub: HubSession,
) -> None:
    public = public_paths(
        hub.store,
        [
            "fp.util.misc.to_query",
            "fp.util.misc.http_date",
            "fp.util.misc.misc_only",
            "fp._impl.helpers.reachable",
        ],
    )
    # `fp.util` re-exports it and `fp` re-exports that: followed through public modules
    assert public["fp.util.misc.to_query"] == "fp.to_query"
    # not `fp.misc.http_date`: the re-export of the function itself
    assert public["fp.util.misc.http_date"] == "fp.util.http_date"
    # its own module exports it: no `fp.misc.misc_only` in its place
    assert "fp.util.misc.misc_only" not in public
    # the only public way to it is through the module `fp` binds
    assert public["fp._impl.helpers.reachable"] == "fp.helpers.reachable"


def test_a_path_through_a_module_bound_as_an_attribute_resolves(hub: HubSession) -> None:
    for asked, symbol in [
        ("fp.misc.to_query", "fp.util.misc.to_query"),
        ("fp.misc.misc_only", "fp.util.misc.misc_only"),
        ("fp.helpers.reachable", "fp._impl.helpers.reachable"),
    ]:
        snippet = code_tools.get_code_snippet(hub, symbol=asked)
        assert snippet.symbol == symbol
    report = deprecation_tools.check_deprecation(hub, "fp.misc.http_date")
    assert report.found  # looked up, not "unknown symbol"
    callers = trace_tools.trace_calls(hub, "fp.misc.to_query", direction="callers")
    assert callers.symbol == "fp.util.misc.to_query"


def test_every_public_path_a_hit_prints_resolves_back(hub: HubSession) -> None:
    response = search_tools.search(hub, "query string params HTTP date", kinds=["api"])
    printed = [h.metadata["public_path"] for h in response.hits if h.metadata.get("public_path")]
    assert printed
    for path in printed:
        assert code_tools.get_code_snippet(hub, symbol=path).symbol


def test_a_nested_function_has_no_public_path_and_is_marked_local(hub: HubSession) -> None:
    insert = "fp.routing.compiled.Router.add_route.insert"
    response = search_tools.search(hub, "insert the template segments into the route tree")
    hit = next(h for h in response.hits if h.symbol == insert)
    assert "public_path" not in hit.metadata
    assert "(local function in Router.add_route)" in search_response(response)
    snippet = code_tools.get_code_snippet(hub, symbol=insert)
    assert snippet.public_path is None
    assert "(local function in Router.add_route)" in code_snippet(snippet)
    # the method holding it keeps its public path
    method = code_tools.get_code_snippet(hub, symbol="fp.routing.compiled.Router.add_route")
    assert method.public_path == "fp.Router.add_route"


def test_a_nested_function_is_reached_through_its_re_exported_class(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="fp.routing.Router.add_route.insert")
    assert snippet.symbol == "fp.routing.compiled.Router.add_route.insert"


def test_did_you_mean_offers_no_unrelated_names(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="fp.Response.text")
    offered = _did_you_mean(str(missing.value))
    assert not any(n.endswith(".test") for n in offered)  # TestController.test: unrelated
    report = deprecation_tools.check_deprecation(hub, "fp.util.strat")
    assert not any(n.startswith("dq.") for n in report.did_you_mean)  # another package
    assert "fp.util.strat" not in report.did_you_mean


def test_did_you_mean_keeps_near_typos(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="dq.Wroker")
    assert "dq.Worker" in _did_you_mean(str(missing.value))
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="Response.rendr_body")
    assert "fp.response.Response.render_body" in _did_you_mean(str(missing.value))
    with pytest.raises(NotFoundError) as missing:
        code_tools.get_code_snippet(hub, symbol="fp.Respons")
    assert "fp.response.Response" in _did_you_mean(str(missing.value))
