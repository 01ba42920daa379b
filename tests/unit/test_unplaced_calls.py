"""A trace tells apart the calls it could not follow: `unresolved` (an indexed
definition has the name, the graph could not place the call: `self._make_spec` on a
mixin's self), `not indexed` (nothing indexed defines it), and calls on objects of
unknown type, which the graph never records, counted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import render, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "mixins.py": """
        from otherpkg import external_thing


        class Handler:
            def emit(self, record):
                return record


        class SpecMixin:
            def _make_spec(self, path):
                return path


        class ViewsMixin:
            def add_static_view(self, name, path):
                spec = self._make_spec(path)
                handler = make_handler()
                handler.emit(spec)
                handler.emit(name)
                self.registry.notify(spec)
                return external_thing(spec)


        class Configurator(ViewsMixin, SpecMixin):
            pass
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("unplaced"), "web", FILES) as session:
        yield session


def test_a_call_an_indexed_name_could_answer_is_unresolved_not_unindexed(
    hub: HubSession,
) -> None:
    trace = trace_tools.trace_calls(hub, "web.mixins.ViewsMixin.add_static_view")
    assert trace.nodes == []
    assert trace.unresolved == ["self._make_spec"]
    assert sorted(trace.not_indexed) == ["external_thing", "make_handler"]
    text = render.call_trace(trace)
    assert "unresolved" in text and "self._make_spec" in text
    assert "not indexed: make_handler" in text or "not indexed: external_thing" in text
    assert "not indexed: self._make_spec" not in text


def test_calls_on_objects_of_unknown_type_are_counted(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "web.mixins.ViewsMixin.add_static_view")
    # one per call written, as recorded: both `handler.emit` calls are one name
    assert trace.untyped_calls == ["handler.emit", "self.registry.notify"]
    text = render.call_trace(trace)
    assert "2 calls on objects of unknown type are not traced" in text
    assert "handler.emit" in text
