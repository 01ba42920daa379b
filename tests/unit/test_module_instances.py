"""Calls through a module-level instance: `_factory = ArrowFactory()` at module level
makes `_factory.get()` in any function of the module a call of `ArrowFactory.get`, and
so does the instance imported by another module (`package_types.py`, `bodies.py`).
A name the function binds itself, a module name bound to two classes or rebound by a
function's `global`, names no class."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.package_types import module_types
from ctxhub.session import HubSession
from ctxhub.tools import render, trace_tools
from tests.unit.package_hub import package_hub

FILES = {
    "factory.py": """
        class ArrowFactory:
            def get(self, *args, **kwargs):
                print(args, kwargs)
                return args

            def utcnow(self):
                print("now")
                return self
        """,
    "api.py": """
        from fac.factory import ArrowFactory

        _factory = ArrowFactory()


        def get(*args, **kwargs):
            return _factory.get(*args, **kwargs)


        def utcnow():
            return _factory.utcnow()


        get.__doc__ = _factory.get.__doc__
        """,
    "shortcuts.py": """
        from fac.api import _factory as shared


        def today():
            return shared.utcnow()
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("module-instances"), "fac", FILES) as h:
        yield h


def _nodes(hub: HubSession, symbol: str, direction: str) -> list[tuple[str, str, str | None]]:
    trace = trace_tools.trace_calls(hub, symbol, direction)
    return sorted((n.symbol, n.name, n.through) for n in trace.nodes)


def test_a_call_through_a_module_level_instance_reaches_its_class(hub: HubSession) -> None:
    assert _nodes(hub, "fac.api.get", "callees") == [
        ("fac.factory.ArrowFactory.get", "_factory.get", "_factory")
    ]
    text = render.call_trace(trace_tools.trace_calls(hub, "fac.api.get"))
    assert "no indexed callees" not in text


def test_the_instances_class_lists_its_callers(hub: HubSession) -> None:
    assert _nodes(hub, "fac.factory.ArrowFactory.get", "callers") == [
        ("fac.api.get", "_factory.get", "_factory")
    ]
    # the instance imported under another name by another module
    assert _nodes(hub, "fac.factory.ArrowFactory.utcnow", "callers") == [
        ("fac.api.utcnow", "_factory.utcnow", "_factory"),
        ("fac.shortcuts.today", "shared.utcnow", "shared"),
    ]


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
            out[name] = {q: via.get(q) for q in extra["calls_qualified"]}
    return out


SNIPPET = """
    from typing import Optional

    class Client:
        def send(self):
            return self

    class Other:
        def send(self):
            return self

    def make() -> Client:
        return Client()

    annotated: Client = make()
    returned = make()
    optional: Optional[Client] = None
    twice = Client()
    twice = Other()
    rebound = Client()
    maybe = None
    if make():
        maybe = Client()


    def reset():
        global rebound
        rebound = Other()


    def use_annotated():
        annotated.send()


    def use_returned():
        returned.send()


    def use_optional():
        optional.send()


    def use_maybe():
        maybe.send()


    def use_twice():
        twice.send()


    def use_rebound():
        rebound.send()


    def shadowed(annotated):
        annotated.send()
        returned = None
        returned.send()
"""


def test_annotated_returned_and_none_then_assigned_instances_are_typed() -> None:
    calls = _calls(SNIPPET)
    for name in ("annotated", "returned", "optional", "maybe"):
        assert calls[f"use_{name}"] == {"pkg.mod.Client.send": name}, name
    # two classes, or rebound by a function's `global`: not stated, not guessed
    assert calls["use_twice"] == {}
    assert calls["use_rebound"] == {}


def test_the_package_pass_records_each_module_level_instances_class() -> None:
    types = module_types(ast.parse(textwrap.dedent(SNIPPET)), "pkg.mod", False)
    for name in ("annotated", "returned", "optional", "maybe"):
        assert types.instance(f"pkg.mod.{name}") == "pkg.mod.Client", name
    # two classes; rebound by a function's `global`; a function, no instance
    for name in ("twice", "rebound", "make"):
        assert types.instance(f"pkg.mod.{name}") == "", name


def test_what_a_function_binds_itself_is_not_the_module_instance() -> None:
    calls = _calls(SNIPPET)
    # a parameter and a local of the module instances' names are other objects
    assert calls["shadowed"] == {}


def test_the_instance_fact_reaches_other_modules_files(tmp_path: Path) -> None:
    from ctxhub.ingest.refresh.plan import plan_units
    from ctxhub.sources.local import snapshot_dir

    for name, text in {"__init__.py": "", **FILES}.items():
        (tmp_path / "fac").mkdir(exist_ok=True)
        (tmp_path / "fac" / name).write_text(textwrap.dedent(text))

    def hashes() -> dict[str, str | None]:
        return {u.key: u.hash for u in plan_units(snapshot_dir(tmp_path), ["python"]).units}

    before = hashes()
    api = tmp_path / "fac" / "api.py"
    api.write_text(api.read_text().replace("_factory = ArrowFactory()", "_factory = make()"))
    # shortcuts.py is unchanged, but what `shared` holds is not stated any more
    assert hashes()["fac/shortcuts.py"] != before["fac/shortcuts.py"]


def test_a_module_re_exporting_its_own_name_ends_the_lookup(tmp_path: Path) -> None:
    from ctxhub.ingest.python.package_types import scan_types

    files = {
        "ver/__init__.py": "from .__version__ import __version__, __title__\n",
        "ver/__version__.py": '__title__ = "ver"\n__version__ = "1.0"\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    modules = {"ver/__init__.py": "ver", "ver/__version__.py": "ver.__version__"}
    types = scan_types(modules, lambda rel: (tmp_path / rel).read_bytes(), modules.values())
    # `ver.__version__` is a module and the name its package re-exports from it
    assert types.instance("ver.__version__.__title__") == ""
    assert types.returned("ver.__version__.__title__") is None
