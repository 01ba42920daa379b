"""trace_calls through imports (relative ones too), nested defs, and receivers it cannot
type: an imported name reaches the definition imported, a nested def's calls are its
enclosing function's, and callers through untyped receivers are said to be untraced."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import render, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "exceptions.py": """
        class BadThing(Exception):
            \"\"\"Raised for a bad thing.\"\"\"
        """,
    "helpers.py": """
        def prepare(cls):
            \"\"\"Prepare a class.\"\"\"
            cls = cls or None
            print(cls)
            return cls
        """,
    # namesakes: a unique name would resolve without reading the imports
    "other.py": """
        class BadThing(Exception):
            \"\"\"Another bad thing.\"\"\"


        def prepare(cls):
            \"\"\"Prepare otherwise.\"\"\"
            cls = cls or None
            print("other", cls)
            return cls
        """,
    "make.py": """
        from . import helpers
        from .exceptions import BadThing


        def build(cls):
            \"\"\"Build a class.\"\"\"
            if cls is None:
                raise BadThing("no class")
            helpers.prepare(cls)
            return cls


        def define(maybe_cls=None):
            \"\"\"Define, as a decorator or directly.\"\"\"

            def do_it(cls):
                return build(cls)

            def wrap(cls):
                cls = cls or None
                return do_it(cls)

            def tiny():
                pass

            tiny()
            if maybe_cls is None:
                return wrap
            return wrap(maybe_cls)


        class Thing:
            def evolve(self, **changes):
                \"\"\"A copy with changes.\"\"\"
                changes = dict(changes)
                return changes


        def use(thing):
            \"\"\"Evolve a thing whose type is not stated.\"\"\"
            return thing.evolve(x=1)
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("nested-home"), "pkg", FILES) as h:
        yield h


def test_imported_names_reach_the_definition_imported(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "pkg.make.build")
    assert [n.symbol for n in trace.nodes] == ["pkg.exceptions.BadThing", "pkg.helpers.prepare"]
    assert trace.unresolved == []


def test_a_nested_defs_calls_are_the_enclosing_functions(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "pkg.make.define")
    assert [(n.symbol, n.name, n.nested) for n in trace.nodes] == [
        ("pkg.make.build", "build", "do_it")
    ]
    assert trace.unresolved == []  # not wrap, do_it or tiny: they are parts of define
    assert "(as build, in nested do_it)" in render.call_trace(trace)
    callers = trace_tools.trace_calls(hub, "pkg.make.build", "callers")
    assert [(n.symbol, n.nested) for n in callers.nodes] == [("pkg.make.define", "do_it")]


def test_callers_of_a_method_say_untyped_receivers_are_not_traced(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "pkg.make.Thing.evolve", "callers")
    assert trace.nodes == [] and trace.untyped_callers
    text = render.call_trace(trace)
    assert "(no resolved callers)" in text and "more callers may exist" in text
    assert "no indexed callers" not in text
    plain = trace_tools.trace_calls(hub, "pkg.make.define", "callers")
    assert not plain.untyped_callers and "(no indexed callers)" in render.call_trace(plain)
