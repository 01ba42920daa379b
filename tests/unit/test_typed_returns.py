"""Calls on values typed by what another definition states: a function's annotated
return (`self.broker = broker or get_broker()`), a class method returning the class, and
an override's unannotated parameter that the overridden method annotates
(`values.py`, `package_types.py`); and what stays unknown (an unannotated factory, a
renamed parameter, a base that cannot be read)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "__init__.py": """
        from .broker import Broker, get_broker
        """,
    "broker.py": """
        from __future__ import annotations

        from typing import Optional


        class Broker:
            def enqueue(self, message):
                print("enqueue", message)
                return message

            @classmethod
            def from_url(cls, url) -> "Broker":
                print(url)
                return cls()


        _GLOBAL = None


        def get_broker() -> Broker:
            return _GLOBAL or Broker()


        def maybe_broker() -> Optional[Broker]:
            return _GLOBAL


        def make_broker():
            return Broker()
        """,
    "composition.py": """
        from brk import get_broker as exported_get_broker

        from .broker import Broker, get_broker, make_broker, maybe_broker


        class pipeline:
            def __init__(self, *, broker=None):
                self.broker = broker or get_broker()

            def run(self):
                self.broker.enqueue(1)
                return self


        class group:
            def __init__(self, broker: Broker | None = None):
                self.broker = broker if broker is not None else exported_get_broker()

            def run(self):
                self.broker.enqueue(2)
                return self


        class Untyped:
            def __init__(self, broker=None):
                self.broker = broker or make_broker()

            def run(self):
                self.broker.enqueue(3)
                return self


        def from_classmethod():
            b = Broker.from_url("memory://")
            b.enqueue(4)
            return b


        def from_optional():
            b = maybe_broker()
            b.enqueue(5)
            return b
        """,
    "middleware.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from .broker import Broker


        class Middleware:
            def after_process_message(self, broker: Broker, message, *, result=None):
                \"\"\"Called after a message is processed.\"\"\"


        class Quiet(Middleware):
            def after_process_message(self, broker, message, *, result=None):
                return None
        """,
    "retries.py": """
        from json import JSONDecoder

        from .middleware import Middleware, Quiet


        class Retries(Middleware):
            def after_process_message(self, broker, message, *, result=None):
                broker.enqueue(message)
                return result


        class Deeper(Quiet):
            def after_process_message(self, broker, message, *, result=None):
                broker.enqueue(message)
                return result


        class Renamed(Middleware):
            def after_process_message(self, b, message, *, result=None):
                b.enqueue(message)
                return result


        class NotAnOverride(Middleware):
            def other_hook(self, broker, message):
                broker.enqueue(message)
                return message


        class Foreign(JSONDecoder, Middleware):
            def after_process_message(self, broker, message, *, result=None):
                broker.enqueue(message)
                return result
        """,
}

ENQUEUE = "brk.broker.Broker.enqueue"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("typed-returns"), "brk", FILES) as h:
        yield h


def _callers(hub: HubSession, symbol: str) -> dict[str, str | None]:
    trace = trace_tools.trace_calls(hub, symbol, "callers")
    return {n.symbol: n.through for n in trace.nodes}


def test_an_attribute_assigned_an_annotated_functions_return_is_typed(hub: HubSession) -> None:
    callers = _callers(hub, ENQUEUE)
    # `broker or get_broker()` (`broker=None`), and `broker if ... else f()` with
    # `broker: Broker | None` and `f` re-exported by the package's __init__
    assert callers["brk.composition.pipeline.run"] == "self.broker"
    assert callers["brk.composition.group.run"] == "self.broker"


def test_a_local_assigned_a_class_method_or_optional_return_is_typed(hub: HubSession) -> None:
    callers = _callers(hub, ENQUEUE)
    assert callers["brk.composition.from_classmethod"] == "b"
    assert callers["brk.composition.from_optional"] == "b"


def test_an_overrides_parameter_takes_the_overridden_methods_annotation(
    hub: HubSession,
) -> None:
    callers = _callers(hub, ENQUEUE)
    assert callers["brk.retries.Retries.after_process_message"] == "broker"
    # through an intermediate override that leaves `broker` unannotated too
    assert callers["brk.retries.Deeper.after_process_message"] == "broker"


def test_what_no_annotation_states_stays_unknown(hub: HubSession) -> None:
    callers = _callers(hub, ENQUEUE)
    # an unannotated factory; a renamed parameter; a method that overrides nothing; a
    # base that cannot be read (it might define the hook) before the annotated one
    for name in (
        "brk.composition.Untyped.run",
        "brk.retries.Renamed.after_process_message",
        "brk.retries.NotAnOverride.other_hook",
        "brk.retries.Foreign.after_process_message",
    ):
        assert name not in callers, name
    assert set(callers) == {
        "brk.composition.pipeline.run",
        "brk.composition.group.run",
        "brk.composition.from_classmethod",
        "brk.composition.from_optional",
        "brk.retries.Retries.after_process_message",
        "brk.retries.Deeper.after_process_message",
    }


def _methods(source: str) -> dict[str, dict[str, Any]]:
    """`extra` of each function chunk of a file chunked alone, as module `pkg.mod`."""
    ex = extract_python_file(
        "s", "pkg/mod.py", textwrap.dedent(source), version=None, internal_packages={"pkg"}
    )
    return {
        (c.symbol or "").removeprefix("pkg.mod."): c.metadata.extra
        for c in ex.chunks
        if c.metadata.chunk_type in ("method", "function")
    }


def test_a_file_chunked_alone_reads_its_own_returns_and_bases() -> None:
    m = _methods(
        """
        class Client:
            def send(self, data):
                return data

            @staticmethod
            def create() -> "Client":
                return Client()


        def default_client() -> Client:
            return Client()


        def plain_factory():
            return Client()


        class Hook:
            def handle(self, client: Client, data):
                return data


        class Sender(Hook):
            def __init__(self, client=None, other=None):
                self.client = client or default_client()
                self.other = other or plain_factory()

            def handle(self, client, data):
                client.send(data)
                return data

            def attributes(self):
                self.client.send(1)
                self.other.send(2)

            def locals(self):
                fresh = Client.create()
                fresh.send(3)
                guess = plain_factory()
                guess.send(4)
        """
    )
    assert m["Sender.handle"]["calls_via"] == {"pkg.mod.Client.send": "client"}
    # `client or default_client()`: typed; `other or plain_factory()`: unknown
    assert m["Sender.attributes"]["calls_via"] == {"pkg.mod.Client.send": "self.client"}
    assert m["Sender.attributes"]["calls_qualified"] == ["pkg.mod.Client.send"]
    # a staticmethod annotated to return its class; an unannotated factory says nothing
    assert m["Sender.locals"]["calls_via"] == {"pkg.mod.Client.send": "fresh"}
    assert m["Sender.locals"]["calls_qualified"] == [
        "Client.create",
        "pkg.mod.Client.send",
        "plain_factory",
    ]


def test_the_package_pass_reads_other_modules(tmp_path: Path) -> None:
    from ctxhub.ingest.python.package_types import scan_types

    root = tmp_path / "brk"
    root.mkdir()
    modules: dict[str, str] = {}
    for name, text in FILES.items():
        (root / name).write_text(textwrap.dedent(text))
        stem = name.removesuffix(".py")
        modules[f"brk/{name}"] = "brk" if stem == "__init__" else f"brk.{stem}"
    types = scan_types(modules, lambda rel: (tmp_path / rel).read_bytes(), modules.values())
    assert types.returned("brk.get_broker") is not None  # through the re-export
    assert types.inherited_parameter("brk.retries.Deeper", "after_process_message", "broker") == (
        "brk.broker.Broker"
    )
    assert types.inherited_parameter("brk.retries.Foreign", "after_process_message", "broker") == ""
    text = textwrap.dedent(FILES["retries.py"])
    alone = extract_python_file(
        "s", "brk/retries.py", text, version=None, internal_packages={"brk"}
    )
    scanned = extract_python_file(
        "s", "brk/retries.py", text, version=None, internal_packages={"brk"}, types=types
    )

    def via(ex: Any) -> dict[str, str]:
        return next(
            c.metadata.extra.get("calls_via", {})
            for c in ex.chunks
            if c.symbol == "brk.retries.Retries.after_process_message"
        )

    assert via(alone) == {}  # the base is another file's: unknown without the pass
    assert via(scanned) == {ENQUEUE: "broker"}


def test_a_changed_annotation_in_one_file_re_reads_the_others(tmp_path: Path) -> None:
    from ctxhub.ingest.refresh.plan import plan_units
    from ctxhub.sources.local import snapshot_dir

    for name, text in FILES.items():
        (tmp_path / "brk").mkdir(exist_ok=True)
        (tmp_path / "brk" / name).write_text(textwrap.dedent(text))

    def hashes() -> dict[str, str | None]:
        return {u.key: u.hash for u in plan_units(snapshot_dir(tmp_path), ["python"]).units}

    before = hashes()
    broker = tmp_path / "brk" / "broker.py"
    broker.write_text(
        broker.read_text().replace("def make_broker():", "def make_broker() -> Broker:")
    )
    after = hashes()
    # composition.py is unchanged, but what its `make_broker()` returns now is stated
    assert after["brk/composition.py"] != before["brk/composition.py"]
