"""What an override's parameters inherit from the method it overrides (`package_types.py`,
`local_types.py`) where the bases or the body say otherwise: a cycle in the bases, a
diamond ladder of mixins, a parameter the body assigns another class before a call."""

from __future__ import annotations

import ast
import textwrap
import time
from typing import Any

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.package_types import module_types


def _types(source: str) -> Any:
    return module_types(ast.parse(textwrap.dedent(source)), "m", False)


def test_mutually_referring_bases_finish_fast_and_leave_the_parameter_unknown() -> None:
    types = _types(
        """
        class Broker:
            pass


        class A(A, B):
            pass


        class B(A, B):
            pass


        class C(B):
            def f(self, x):
                return x


        class Loop(Loop):
            pass
        """
    )
    started = time.monotonic()
    assert types.inherited_parameter("m.C", "f", "x") == ""
    assert types.inherited_parameter("m.Loop", "f", "x") == ""
    assert time.monotonic() - started < 1.0


def test_a_long_diamond_ladder_is_walked_once_per_class() -> None:
    rungs = ["class L0:\n    def f(self, x: Broker):\n        return x\n"]
    for i in range(1, 40):
        # each rung inherits the one below twice over: 2**40 paths, 40 classes
        rungs.append(f"class M{i}(L{i - 1}):\n    pass\n")
        rungs.append(f"class L{i}(M{i}, L{i - 1}):\n    pass\n")
    types = _types("class Broker:\n    pass\n\n" + "\n".join(rungs))
    started = time.monotonic()
    # the 32-deep bound leaves the bottom of an 80-deep ladder unknown
    assert types.inherited_parameter("m.L39", "f", "x") == ""
    assert types.inherited_parameter("m.L10", "f", "x") == "m.Broker"
    assert time.monotonic() - started < 1.0


def _calls_via(source: str, symbol: str) -> dict[str, str]:
    ex = extract_python_file(
        "s", "pkg/mod.py", textwrap.dedent(source), version=None, internal_packages={"pkg"}
    )
    extra = next(c.metadata.extra for c in ex.chunks if c.symbol == f"pkg.mod.{symbol}")
    return dict(extra.get("calls_via", {}))


HOOKS = """
    class Broker:
        def send(self, message):
            return message


    class Other:
        def send(self, message):
            return message


    class Middleware:
        def hook(self, broker: Broker, message):
            return message


    class Replaces(Middleware):
        def hook(self, broker, message):
            broker = Other()
            broker.send(message)


    class Keeps(Middleware):
        def hook(self, broker, message):
            broker.send(message)


    class Agrees(Middleware):
        def hook(self, broker, message):
            if broker is None:
                broker = Broker()
            broker.send(message)


    class Annotated(Middleware):
        def hook(self, broker: Broker, message):
            broker = Other()
            broker.send(message)
    """


def test_an_inherited_parameter_type_yields_to_an_assignment_before_the_call() -> None:
    # what the caller passes is the parameter's class until the body rebinds it: the
    # body's own `Other()` reaches the call
    assert _calls_via(HOOKS, "Replaces.hook") == {"pkg.mod.Other.send": "broker"}
    assert _calls_via(HOOKS, "Keeps.hook") == {"pkg.mod.Broker.send": "broker"}
    assert _calls_via(HOOKS, "Agrees.hook") == {"pkg.mod.Broker.send": "broker"}
    # so does a parameter's own annotation: it says what is passed, not what the
    # name holds after the body assigns it
    assert _calls_via(HOOKS, "Annotated.hook") == {"pkg.mod.Other.send": "broker"}
