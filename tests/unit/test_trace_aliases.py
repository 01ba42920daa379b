"""trace_calls on an alias (`listener = ListenerHandler`) traces the definition it
names, and on a class traces what constructing it runs (its `__init__`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import render, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "handlers.py": """
        def check_name(name):
            if not name:
                raise ValueError("a handler needs a name")
            return name


        class ListenerHandler:
            \"\"\"Handles one websocket route.\"\"\"

            def __init__(self, name):
                self.name = check_name(name)


        listener = ListenerHandler
        """,
    "app.py": """
        from als.handlers import ListenerHandler, listener


        def build():
            return ListenerHandler("a")


        def build_by_alias():
            return listener("b")
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("alias-trace-home"), "als", FILES) as h:
        yield h


def test_callees_of_an_alias_are_its_class_constructor_callees(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "als.handlers.listener")
    assert trace.symbol == "als.handlers.ListenerHandler.__init__"
    assert trace.alias == "als.handlers.listener"
    assert "als.handlers.check_name" in {n.symbol for n in trace.nodes}
    assert "als.handlers.listener is an alias" in render.call_trace(trace)


def test_callers_of_an_alias_include_calls_written_by_either_name(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "als.handlers.listener", "callers")
    callers = {n.symbol for n in trace.nodes}
    assert "als.app.build" in callers
    assert "als.app.build_by_alias" in callers


def test_a_class_traces_its_constructor_and_a_function_is_no_alias(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "als.handlers.ListenerHandler")
    assert trace.symbol == "als.handlers.ListenerHandler.__init__"
    assert trace.alias is None
    plain = trace_tools.trace_calls(hub, "als.app.build")
    assert plain.alias is None
    assert "als.handlers.ListenerHandler" in {n.symbol for n in plain.nodes}


def test_deeper_callees_go_on_through_an_alias_or_a_class_reached(hub: HubSession) -> None:
    # below the root, an alias is traced as the class it names, and a class as its
    # `__init__`, as the root is: what constructing it runs is listed one level down
    for root, reached in (
        ("als.app.build_by_alias", "als.handlers.listener"),
        ("als.app.build", "als.handlers.ListenerHandler"),
    ):
        shallow = trace_tools.trace_calls(hub, root, depth=1)
        assert {n.symbol for n in shallow.nodes} == {reached}, root
        deep = trace_tools.trace_calls(hub, root, depth=2)
        below = [(n.symbol, n.depth, n.via) for n in deep.nodes if n.depth == 2]
        assert below == [("als.handlers.check_name", 2, reached)], root
