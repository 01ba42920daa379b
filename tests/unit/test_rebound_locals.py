"""A local's class follows the assignments that reach each call (`local_flow.py`):
`locale = locales.get_locale(locale)` makes the later `locale.describe()` a call of
`Locale.describe` whatever the parameter's annotation said, and a call where the class
cannot be known is recorded on its local, unresolved (listed by trace_calls as not
indexed, marked `call_unresolved` by a qualified `calls` filter), never dropped."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import render, search_tools, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "constants.py": """
        DEFAULT_LOCALE = "en-us"
        """,
    "locales.py": """
        class Locale:
            def describe(self, timeframe, delta=0):
                print(timeframe, delta)
                return timeframe


        def get_locale(name: str) -> "Locale":
            print(name)
            return Locale()


        def find_locale(name):
            return Locale()
        """,
    "arrow.py": """
        from clock import locales
        from clock.constants import DEFAULT_LOCALE


        class Arrow:
            def humanize(self, other=None, locale: str = DEFAULT_LOCALE):
                locale_name = locale
                locale = locales.get_locale(locale)
                if other is None:
                    return locale.describe("now")
                return locale.describe("seconds", other)

            def dehumanize(self, locale: locales.Locale = None):
                locale = locales.find_locale(locale)
                return locale.describe("now")
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("rebound"), "clock", FILES) as h:
        yield h


def test_a_rebound_parameter_takes_the_class_its_new_value_returns(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "clock.arrow.Arrow.humanize")
    assert sorted((n.symbol, n.name, n.through) for n in trace.nodes) == [
        ("clock.locales.Locale.describe", "locale.describe", "locale"),
        ("clock.locales.get_locale", "locales.get_locale", None),
    ]
    callers = trace_tools.trace_calls(hub, "clock.locales.Locale.describe", "callers")
    assert [n.symbol for n in callers.nodes] == ["clock.arrow.Arrow.humanize"]


def test_a_call_on_a_local_of_unknown_class_is_listed_unresolved(hub: HubSession) -> None:
    # annotated `Locale`, rebound to what an unannotated function returns
    trace = trace_tools.trace_calls(hub, "clock.arrow.Arrow.dehumanize")
    assert [n.symbol for n in trace.nodes] == ["clock.locales.find_locale"]
    assert trace.unresolved == ["locale.describe"]
    # `describe` is indexed (Locale's): the call is unresolved, not "not indexed"
    assert "known here): locale.describe" in render.call_trace(trace)
    assert trace.not_indexed == []
    found = search_tools.search_api(hub, calls="clock.locales.Locale.describe")
    marked = {h.symbol: h.metadata.get("call_unresolved") for h in found.hits}
    assert marked == {"clock.arrow.Arrow.humanize": None, "clock.arrow.Arrow.dehumanize": True}


def _calls(source: str) -> dict[str, dict[str, str | None]]:
    """Each function's calls (as recorded -> receiver) of a file chunked as `pkg.mod`."""
    ex = extract_python_file(
        "s", "pkg/mod.py", textwrap.dedent(source), version=None, internal_packages={"pkg"}
    )
    out: dict[str, dict[str, str | None]] = {}
    for c in ex.chunks:
        if c.metadata.chunk_type in ("method", "function"):
            extra: dict[str, Any] = c.metadata.extra
            via = extra.get("calls_via", {})
            name = (c.symbol or "").removeprefix("pkg.mod.")
            out[name] = {q: via.get(q) for q in extra["calls_qualified"] if q in via}
    return out


FLOW = """
    class A:
        def go(self):
            return self

        def stop(self):
            return self

    class B:
        def go(self):
            return self

    def unknown():
        return A()

    def before_and_after(a: B):
        a.go()
        a = A()
        a.stop()

    def branches(flag):
        one = A()
        if flag:
            one = B()
        one.go()
        two = None
        if flag:
            two = A()
        else:
            two = A()
        two.stop()

    def returning_branch(flag):
        x = A()
        if flag:
            x = B()
            return x.go()
        x.stop()

    def loop(items):
        last = None
        for item in items:
            if last is not None:
                last.go()
            last = A()
        late = A()
        for item in items:
            late.stop()
            late = unknown()

    def endless():
        y = B()
        while True:
            y = A()
            if y.stop():
                break
        y.go()

    def caught():
        z = A()
        try:
            z = unknown()
            z.go()
        except ValueError:
            z.stop()

    def scoped(items):
        w = A()
        found = [w.go() for w in items]
        w.stop()
        return found

    def declared():
        d: A = unknown()
        d = unknown()
        d.go()
"""


def test_the_class_follows_each_path_to_the_call() -> None:
    calls = _calls(FLOW)
    # an annotation says what is passed: until the body rebinds the name
    assert calls["before_and_after"] == {"pkg.mod.B.go": "a", "pkg.mod.A.stop": "a"}
    # branches meet: two classes are unknown, one class (None saying nothing) is known
    assert calls["branches"] == {"one.go": "one", "pkg.mod.A.stop": "two"}
    # a path that returns does not reach what follows
    assert calls["returning_branch"] == {"pkg.mod.B.go": "x", "pkg.mod.A.stop": "x"}


def test_loops_carry_a_round_s_bindings_to_the_next() -> None:
    calls = _calls(FLOW)
    assert calls["loop"] == {"pkg.mod.A.go": "last", "late.stop": "late"}
    # only the `break` leaves `while True`, after `y = A()`: never with the B
    assert calls["endless"] == {"pkg.mod.A.stop": "y", "pkg.mod.A.go": "y"}


def test_handlers_comprehensions_and_annotations() -> None:
    calls = _calls(FLOW)
    # the handler may start before or after the body's rebinding
    assert calls["caught"] == {"z.go": "z", "z.stop": "z"}
    # the comprehension's `w` is its own; the function's is still an A
    assert calls["scoped"] == {"pkg.mod.A.stop": "w"}
    # a local's own annotation holds for every assignment to it
    assert calls["declared"] == {"pkg.mod.A.go": "d"}
