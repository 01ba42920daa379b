"""Calls, yields and imports of a function's own body."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from ctxhub.core.knowledge import ChunkMeta
from ctxhub.ingest.python.callgraph import (
    BodyFacts,
    ScopeContext,
    analyze_body,
    build_import_table,
    module_level_names,
    own_nodes,
)
from ctxhub.ingest.python.chunks import extract_python_file

TREE = Path(__file__).parent.parent / "fixtures" / "python_api" / "tree"
CORE = "src/fakepkg/sub/core.py"


@pytest.fixture(scope="module")
def core() -> dict[str, ChunkMeta]:
    data = (TREE / f"{CORE}.txt").read_bytes()
    modules = {"fakepkg", "fakepkg.frames", "fakepkg.helpers"}
    ex = extract_python_file(
        "fx", CORE, data, version=None, internal_packages={"fakepkg"}, known_modules=modules
    )
    return {c.symbol or "": c.metadata for c in ex.chunks}


def facts(source: str, function: str = "f") -> BodyFacts:
    """Facts of one function of a snippet in module `pkg.mod`, as extract_python_file
    analyses it."""
    tree = ast.parse(textwrap.dedent(source))
    table = build_import_table(tree, "pkg.mod", False)
    ctx = ScopeContext(table, module_level_names(tree), frozenset({"pkg"}))
    node = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
    )
    return analyze_body(node.body, ctx, own_name=function)


def test_call_kinds_in_source_order(core: dict[str, ChunkMeta]) -> None:
    push = core["fakepkg.sub.core.BaseProcessor.push"]
    # self._send(), helpers.log_frame() (a submodule), frames_mod.validate() (import-as),
    # json.dumps(); builtins print()/len() are not the framework's call graph.
    assert push.calls == ["_send", "log_frame", "validate", "dumps"]
    assert push.extra["calls_qualified"] == [
        "self._send",
        "helpers.log_frame",
        "frames_mod.validate",
        "json.dumps",
    ]


def test_nested_defs_and_lambdas_are_scopes_of_their_own(core: dict[str, ChunkMeta]) -> None:
    process = core["fakepkg.sub.core.EchoProcessor.process"]
    # finish() is called by the nested on_done, drop() by a lambda: not by process.
    # The comprehension's self.label() runs in process, so it counts.
    assert process.calls == ["process", "push", "TextFrame", "label", "_retry"]
    on_done = core["fakepkg.sub.core.EchoProcessor.process.on_done"]
    assert on_done.calls == ["finish", "ErrorFrame"]
    assert "fakepkg.frames.ErrorFrame" in on_done.imports
    assert "fakepkg.frames.ErrorFrame" not in process.imports


def test_super_calls_count_and_say_so(core: dict[str, ChunkMeta]) -> None:
    process = core["fakepkg.sub.core.EchoProcessor.process"]
    # super().process() from process: an override extending the base's, and a call of it
    assert "process" in process.calls and process.extra["extends_super"] is True
    assert process.extra["calls_via"] == {
        "super().process": "super()",
        "super().push": "super()",
        "self.push": "self",  # the same name on self: a receiver of its own
        "self.label": "self",
    }
    assert "TextFrame" not in process.extra["calls_via"]  # no receiver, no entry


def test_decorators_and_defaults_are_not_the_body(core: dict[str, ChunkMeta]) -> None:
    decorated = core["fakepkg.sub.core.decorated"]
    assert decorated.calls == []  # register(...) and compute_default() run at def time


def test_yields_record_constructed_names_not_yield_from(core: dict[str, ChunkMeta]) -> None:
    stream = core["fakepkg.sub.core.EchoProcessor.stream"]
    assert stream.yields == ["TextFrame", "EndFrame", "ErrorFrame"]  # mod.EndFrame -> EndFrame
    replay = core["fakepkg.sub.core.EchoProcessor.replay"]
    # `yield from self.stream_sync()` and `yield self.make_frame()` construct nothing.
    assert replay.yields == ["TextFrame"]
    assert replay.calls == ["stream_sync", "make_frame", "TextFrame"]


def test_imports_are_internal_resolved_and_actually_used(core: dict[str, ChunkMeta]) -> None:
    process = core["fakepkg.sub.core.EchoProcessor.process"]
    assert process.imports == ["fakepkg.frames.TextFrame", "fakepkg.helpers.retry"]
    push = core["fakepkg.sub.core.BaseProcessor.push"]
    # `Frame` appears only in annotations; asyncio/json are not the framework's.
    assert push.imports == ["fakepkg.helpers", "fakepkg.frames"]


def test_function_local_imports() -> None:
    got = facts(
        """
        def f():
            from pkg.util import helper
            from . import sibling
            import json
            helper()
            sibling.run()
            return json.dumps(1)
        """
    )
    assert got.imports == ["pkg.util.helper", "pkg.sibling"]
    assert got.calls == ["helper", "run", "dumps"]


def test_receivers_whose_type_is_unknown_are_not_guessed() -> None:
    got = facts(
        """
        from loguru import logger
        from pkg.frames import Frame

        class Local:
            pass

        def f(self, client):
            self.client.send()
            client.close()
            logger.info("x")
            Frame.create()
            Local.build()
            super(Local, self).start()
        """
    )
    assert got.calls == ["create", "build", "start"]
    assert got.calls_via == {"super(Local, self).start": "super()"}


def test_builtins_only_count_when_shadowed() -> None:
    shadowed = facts(
        """
        from pkg.io import open

        def f(path):
            print(path)
            return open(path)
        """
    )
    assert shadowed.calls == ["open"]


def test_attribute_chains_resolve_to_the_longest_imported_module() -> None:
    got = facts(
        """
        import pkg.frames.frames
        import pkg.util as u

        def f():
            pkg.frames.frames.TextFrame()
            return u.helper()
        """
    )
    assert got.imports == ["pkg.frames.frames", "pkg.util"]
    assert got.calls == ["TextFrame", "helper"]


def test_annotations_in_the_body_are_skipped() -> None:
    got = facts(
        """
        from pkg.types import Alias, make

        def f():
            x: Alias = make()
            return x
        """
    )
    assert got.imports == ["pkg.types.make"]


def test_own_nodes_stop_at_nested_scopes() -> None:
    tree = ast.parse(
        textwrap.dedent(
            """
            def outer():
                a()
                class Inner:
                    b()
                g = lambda: c()
                [d() for _ in range(2)]
            """
        )
    )
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    called = {
        n.func.id
        for n in own_nodes(fn.body)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert called == {"a", "d", "range"}


def test_async_generator_and_await_forms() -> None:
    got = facts(
        """
        from pkg.frames import ErrorFrame

        async def f(self):
            async for x in self.source():
                yield ErrorFrame(str(x))
            value = yield ErrorFrame("again")
            await self.flush(value)
        """
    )
    assert got.yields == ["ErrorFrame"]
    assert got.calls == ["source", "ErrorFrame", "flush"]


def methods(source: str) -> dict[str, ChunkMeta]:
    """Chunk metadata of a snippet indexed as `pkg/mod.py`, by qualified name."""
    data = textwrap.dedent(source).encode()
    ex = extract_python_file("fx", "pkg/mod.py", data, version=None, internal_packages={"pkg"})
    return {c.symbol or "": c.metadata for c in ex.chunks}


ATTRIBUTES = """
    from typing import Optional

    import pkg.net as net
    from pkg.client import Client
    from pkg.store import Store


    class Local:
        def ping(self):
            return 1


    class User:
        cache: "Store"
        queue: Optional[net.Queue] = None

        def __init__(self, client: Client, other, store: Store | None = None):
            self.client = client
            self.made = Local()
            self.other = other
            self.typed: net.Socket = net.connect()
            self._conn = None

        def open(self):
            self._conn = net.Connection()

        def run(self):
            self.client.send(1)
            self.made.ping()
            self.other.send(2)
            self.typed.write()
            self.cache.get("k")
            self.queue.put(3)
            self._conn.close()
            self.unknown.call()
"""


def test_typed_attribute_calls_resolve_through_the_imports() -> None:
    run = methods(ATTRIBUTES)["pkg.mod.User.run"]
    assert run.calls == ["send", "ping", "write", "get", "put", "close"]
    assert run.extra["calls_qualified"] == [
        "pkg.client.Client.send",  # self.client = client, the parameter `client: Client`
        "pkg.mod.Local.ping",  # self.made = Local(), a class of the module
        "pkg.net.Socket.write",  # self.typed: net.Socket = ..., an import-as
        "pkg.store.Store.get",  # class-level `cache: "Store"`
        "pkg.net.Queue.put",  # class-level Optional[...]
        "pkg.net.Connection.close",  # assigned in another method; the None says nothing
    ]
    assert run.extra["calls_via"]["pkg.client.Client.send"] == "self.client"
    assert run.extra["calls_via"]["pkg.net.Connection.close"] == "self._conn"
    # self.other (no annotation) and self.unknown (never assigned) stay out
    assert not any("other" in q or "unknown" in q for q in run.extra["calls_qualified"])


def test_an_attribute_of_two_classes_or_an_unknown_value_is_not_guessed() -> None:
    got = methods(
        """
        from pkg.a import Alpha, Beta, make

        class Mixed:
            def __init__(self, flag):
                self.one = Alpha() if flag else flag  # `flag`: a value of unknown type
                self.two = Alpha()
                self.three = make()
                self.four, self.five = Alpha(), Beta()

            def reset(self):
                self.two = Beta()

            def run(self):
                self.one.go()
                self.two.go()
                self.three.go()
                self.four.go()
                return 1
        """
    )
    run = got["pkg.mod.Mixed.run"]
    assert run.calls == [] and "calls_via" not in run.extra
