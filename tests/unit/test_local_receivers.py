"""Calls through locals and parameters whose class the function states, and through
locals bound to a method: what ingest records (`local_types.py`), and what trace_calls,
search_api's `calls_via` and call-graph cohesion make of it."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.search.analyzer import analyze
from ctxhub.search.cohesion import CallCohesion
from ctxhub.search.rank import Candidate, rerank
from ctxhub.session import HubSession
from ctxhub.tools import render, search_tools, trace_tools
from ctxhub.tools.resolve import find_symbol
from tests.unit.package_hub import package_hub

FILES = {
    "screen.py": """
        class Screen:
            def _push_result_callback(self, callback):
                callback = callback or None
                print(callback)
                return callback


        class Dialog:
            def _push_result_callback(self, callback):
                callback = callback or None
                print("dialog", callback)
                return callback
        """,
    "workers.py": """
        class Worker:
            def _start(self, app):
                app = app or None
                print(app)
                return app


        class WorkerManager:
            def _new_worker(self, work):
                work = work or None
                print(work)
                return Worker()
        """,
    "app.py": """
        from functools import partial

        from trl.screen import Screen
        from trl.workers import Worker, WorkerManager


        class Node:
            @property
            def workers(self) -> WorkerManager:
                return WorkerManager()

            def run_worker(self, work, thread=False):
                if thread:
                    creator = partial(self.call_from_thread, self.workers._new_worker)
                else:
                    creator = self.workers._new_worker
                return creator(work)

            def start(self, work):
                worker = Worker()
                worker._start(work)
                return worker


        class App:
            def _get_screen(self, name) -> tuple[Screen, int]:
                screen = Screen()
                print(name)
                return screen, 0

            def push_screen(self, screen, callback=None):
                next_screen, _ = self._get_screen(screen)
                next_screen._push_result_callback(callback)
                return next_screen

            def install(self, screen: Screen) -> None:
                screen._push_result_callback(None)
                print(screen)

            def untyped(self, thing, items):
                thing._push_result_callback(None)
                for each in items:
                    each._push_result_callback(None)
                return thing
        """,
}


def _methods(source: str) -> dict[str, dict[str, Any]]:
    """`extra` of each function chunk of a snippet indexed as module `pkg.mod`."""
    ex = extract_python_file(
        "s", "pkg/mod.py", textwrap.dedent(source), version=None, internal_packages={"pkg"}
    )
    return {
        (c.symbol or "").removeprefix("pkg.mod."): c.metadata.extra
        for c in ex.chunks
        if c.metadata.chunk_type in ("method", "function")
    }


def _calls(extra: dict[str, Any]) -> dict[str, str | None]:
    via = extra.get("calls_via", {})
    return {q: via.get(q) for q in extra["calls_qualified"]}


SNIPPET = """
    from pkg.other import Remote

    class Screen:
        def show(self):
            return self

    class Pane:
        def show(self):
            return self

    async def fetch() -> Screen:
        return Screen()

    def build() -> "Screen | None":
        return Screen()

    class App:
        def local(self) -> None:
            s = Screen()
            s.show()

        def annotated(self, s: Screen | None = None, r: "Remote" = None) -> None:
            s.show()
            r.ping()

        def local_annotation(self) -> None:
            s: Screen = make()
            s.show()

        def returned(self) -> None:
            a = build()
            a.show()

        async def awaited(self) -> None:
            b = await fetch()
            b.show()

        def not_awaited(self) -> None:
            c = fetch()
            c.show()

        def two_classes(self, flag) -> None:
            s = Screen() if flag else Pane()
            t = Screen()
            if flag:
                t = Pane()
            s.show()
            t.show()

        def rebound(self, items) -> None:
            s = Screen()
            for s in items:
                pass
            s.show()
            u = Screen()
            u += 1
            u.show()

        def unknown_values(self, x) -> None:
            s = Screen()
            s = x
            s.show()
            x.show()

        def none_says_nothing(self) -> None:
            s = None
            s = Screen()
            s.show()

        def alias(self) -> None:
            step = self.show_all
            step()
            shown = Screen().show
            shown()
"""


def test_locals_typed_by_constructor_annotation_or_return_resolve_to_the_class() -> None:
    m = _methods(SNIPPET)
    assert _calls(m["App.local"]) == {"Screen": None, "pkg.mod.Screen.show": "s"}
    assert _calls(m["App.annotated"]) == {
        "pkg.mod.Screen.show": "s",
        "pkg.other.Remote.ping": "r",
    }
    assert _calls(m["App.local_annotation"]) == {"make": None, "pkg.mod.Screen.show": "s"}
    # `build()` is annotated `-> "Screen | None"`
    assert _calls(m["App.returned"]) == {"build": None, "pkg.mod.Screen.show": "a"}


def test_an_async_return_types_its_local_only_when_awaited() -> None:
    m = _methods(SNIPPET)
    assert _calls(m["App.awaited"]) == {"fetch": None, "pkg.mod.Screen.show": "b"}
    assert _calls(m["App.not_awaited"]) == {"fetch": None}  # `c` is a coroutine


def test_unknown_or_conflicting_locals_are_not_guessed() -> None:
    m = _methods(SNIPPET)
    for name in ("App.two_classes", "App.rebound", "App.unknown_values"):
        assert not any(q.startswith("pkg.") for q in m[name]["calls_qualified"]), name
    # a local given a class, then another or an unknown one on the way to the call: the
    # call as written, on its local, resolving to no class (listed as unresolved)
    assert _calls(m["App.two_classes"]) == {"Screen": None, "Pane": None, "t.show": "t"}
    assert _calls(m["App.rebound"]) == {"Screen": None, "s.show": "s", "u.show": "u"}
    assert _calls(m["App.unknown_values"]) == {"Screen": None, "s.show": "s"}
    # what no binding gives a class (two classes in one value, an unannotated
    # parameter: `s` and `x` above) is not in the call graph at all
    assert _calls(m["App.none_says_nothing"]) == {"Screen": None, "pkg.mod.Screen.show": "s"}


def test_a_local_bound_to_a_method_is_a_call_of_that_method() -> None:
    m = _methods(SNIPPET)
    # `step = self.show_all; step()` calls self.show_all; `Screen().show` has no
    # stated receiver (a call's result): `shown()` stays a plain name
    assert _calls(m["App.alias"]) == {"self.show_all": "self", "Screen": None, "shown": None}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("locals-home"), "trl", FILES) as h:
        yield h


def _callers(hub: HubSession, symbol: str) -> list[tuple[str, str, str | None]]:
    trace = trace_tools.trace_calls(hub, symbol, "callers")
    return [(n.symbol, n.name, n.through) for n in trace.nodes]


def test_trace_calls_lists_callers_through_typed_locals_and_parameters(hub: HubSession) -> None:
    assert sorted(_callers(hub, "trl.screen.Screen._push_result_callback")) == [
        ("trl.app.App.install", "screen._push_result_callback", "screen"),
        ("trl.app.App.push_screen", "next_screen._push_result_callback", "next_screen"),
    ]
    # untyped parameters and loop variables name no class: no caller of any screen class
    assert _callers(hub, "trl.screen.Dialog._push_result_callback") == []
    assert _callers(hub, "trl.workers.Worker._start") == [
        ("trl.app.Node.start", "worker._start", "worker")
    ]
    text = render.call_trace(trace_tools.trace_calls(hub, "Worker._start", "callers"))
    assert "(as worker._start, via worker, call at line 22)" in text


def test_a_local_bound_to_an_attributes_method_reaches_it(hub: HubSession) -> None:
    # `creator = self.workers._new_worker` (a property annotated `-> WorkerManager`)
    assert _callers(hub, "trl.workers.WorkerManager._new_worker") == [
        ("trl.app.Node.run_worker", "self.workers._new_worker", "self.workers")
    ]
    down = trace_tools.trace_calls(hub, "Node.run_worker")
    assert ("trl.workers.WorkerManager._new_worker", "self.workers") in [
        (n.symbol, n.through) for n in down.nodes
    ]


def test_calls_via_local_narrows_to_calls_on_typed_locals(hub: HubSession) -> None:
    found = search_tools.search_api(hub, calls="_push_result_callback", calls_via="local")
    assert sorted((h.symbol, h.metadata["match_via"]) for h in found.hits) == [
        ("trl.app.App.install", ["screen"]),
        ("trl.app.App.push_screen", ["next_screen"]),
    ]
    on_attributes = search_tools.search_api(
        hub, calls="_push_result_callback", calls_via="attribute"
    )
    assert on_attributes.hits == []


def test_cohesion_links_an_entry_point_to_the_method_it_calls_on_a_local(
    hub: HubSession,
) -> None:
    def cand(symbol: str, score: float) -> Candidate:
        found, _ = find_symbol(hub.store, symbol)
        return Candidate(chunk=found[0], fused=score, signals={})

    entry = cand("trl.app.App.push_screen", 1.0)
    lookalike = cand("trl.screen.Dialog._push_result_callback", 0.5)
    helper = cand("trl.screen.Screen._push_result_callback", 0.45)
    ranked = rerank(analyze("how does the app push a screen"), [entry, lookalike, helper],
                    [CallCohesion()])  # fmt: skip
    assert [c.chunk.symbol for c in ranked][1] == "trl.screen.Screen._push_result_callback"
    assert "cohesion" not in lookalike.boosts
