"""Names that do not exist are not found (a package's name is never folded onto a class
spelt like it), consistently for the snippet, deprecation and call-graph tools; and a
depth-2 call tree's text puts each node under the node it was reached from."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.errors import NotFoundError
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, render, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "__init__.py": """
        from .app import Hd
        from .flow import entry
        """,
    "app.py": """
        class Hd:
            \"\"\"The application.\"\"\"

            def command(self, name):
                \"\"\"Register a command.\"\"\"
                return name
        """,
    # breadth first, the trace lists first, second, then first's own callees
    "flow.py": """
        def leaf_one():
            \"\"\"A leaf.\"\"\"
            return 1


        def leaf_two():
            \"\"\"Another leaf.\"\"\"
            return 2


        def first():
            \"\"\"Calls both leaves.\"\"\"
            return leaf_one() + leaf_two()


        def second():
            \"\"\"Calls nothing indexed.\"\"\"
            return 3


        def entry():
            \"\"\"Calls first, then second.\"\"\"
            return first() + second()
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("honest"), "hd", FILES) as session:
        yield session


def test_a_package_name_is_not_folded_onto_its_class(hub: HubSession) -> None:
    # `hd.command` is no name a user can import: the class is `Hd`
    with pytest.raises(NotFoundError) as raised:
        code_tools.get_code_snippet(hub, symbol="hd.command")
    assert "no definition named 'hd.command'" in str(raised.value)
    assert "did you mean hd.Hd.command" in str(raised.value)
    with pytest.raises(NotFoundError):
        trace_tools.trace_calls(hub, "hd.command")
    report = deprecation_tools.check_deprecation(hub, "hd.command")
    assert report.unknown and "hd.Hd.command" in report.did_you_mean


def test_a_class_qualifier_spelt_as_defined_still_resolves(hub: HubSession) -> None:
    for name in ("Hd.command", "hd.Hd.command", "hd.app.Hd.command", "Hd.Command"):
        snippet = code_tools.get_code_snippet(hub, symbol=name)
        assert snippet.symbol == "hd.app.Hd.command", name


def test_depth_two_text_nests_each_node_under_its_caller(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "hd.flow.entry", depth=2)
    assert [(n.symbol, n.via) for n in trace.nodes] == [
        ("hd.flow.first", "hd.flow.entry"),
        ("hd.flow.second", "hd.flow.entry"),
        ("hd.flow.leaf_one", "hd.flow.first"),
        ("hd.flow.leaf_two", "hd.flow.first"),
    ]
    lines = [line.split(" · ")[0] for line in render.call_trace(trace).splitlines()[1:]]
    assert lines[:4] == [
        "- hd.flow.first",
        "  - hd.flow.leaf_one",
        "  - hd.flow.leaf_two",
        "- hd.flow.second",
    ]


def test_a_member_qualifier_is_not_folded_onto_a_class_either(hub: HubSession) -> None:
    # `app` is the module; `hd.app.command` or `hD.command` name no class `Hd`
    for name in ("hD.command", "hd.app.hd.command"):
        with pytest.raises(NotFoundError) as raised:
            code_tools.get_code_snippet(hub, symbol=name)
        assert f"no definition named '{name}'" in str(raised.value), name
    assert code_tools.get_code_snippet(hub, symbol="hd.Hd.command").symbol == "hd.app.Hd.command"
