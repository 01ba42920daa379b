"""The API a module declares (`__all__`, a package's re-exports), recorded at ingestion,
found by the store and preferred by `search_api` for questions about using the API."""

from __future__ import annotations

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.search.analyzer import analyze
from ctxhub.search.rank import Candidate, PublicApi
from tests.conftest import make_chunk


def _exports(relpath: str, text: str) -> list[str]:
    ex = extract_python_file("fw", relpath, text, version=None, internal_packages={"fw"})
    (module,) = [c for c in ex.chunks if c.metadata.chunk_type == "module"]
    return list(module.metadata.extra.get("exports", []))


def test_a_package_declares_what_it_re_exports_from_its_own_framework() -> None:
    init = (
        "from .response.streaming import Stream\n"
        "from fw.di import Provide as Provide\n"
        "from . import testing\n"  # a submodule: not a name a user imports as API
        "from ._internal import _helper\n"  # private
        "from typing import Any\n"  # another package's
    )
    assert _exports("fw/__init__.py", init) == ["fw.response.streaming.Stream", "fw.di.Provide"]


def test_all_decides_and_a_definition_here_beats_an_optional_import() -> None:
    text = (
        "try:\n    from other.service import Pagination\nexcept ImportError:\n"
        "    class Pagination: ...\n"
        "from fw.response.base import Response\n"
        "class Cursor: ...\n"
        "def helper(): ...\n"
        '__all__ = ("Cursor", "Pagination")\n'
        '__all__ += ["Response"]\n'
    )
    assert _exports("fw/pagination.py", text) == [
        "fw.pagination.Cursor",
        "fw.pagination.Pagination",
        "fw.response.base.Response",
    ]
    assert _exports("fw/plain.py", "def helper(): ...\n") == []  # declares nothing


def _cand(symbol: str, score: float) -> Candidate:
    return Candidate(
        chunk=make_chunk("fw", "fw/x.py", symbol, chunk_type="class"), fused=score, signals={}
    )


def test_declared_api_steps_ahead_for_usage_questions_only() -> None:
    declared = {"fw.background.BackgroundTask"}
    scorer = PublicApi(lambda symbols: declared & set(symbols))
    internal = _cand("fw.testing.transport.SendHook", 1.0)
    task = _cand("fw.background.BackgroundTask", 0.8)
    method = _cand("fw.background.BackgroundTask.__call__", 0.8)  # a declared class's member
    usage = analyze("send the welcome email after the response has gone out")
    assert scorer(usage, [internal, task, method]) == [1.0, 1.4, 1.4]
    inside = analyze("how does fw run background tasks after the response?")
    assert scorer(inside, [internal, task, method]) == [1.0, 1.0, 1.0]
    assert PublicApi()(usage, [internal, task]) == [1.0, 1.0]  # no store: names only


def test_a_private_module_declares_nothing_a_user_imports() -> None:
    """`__all__` in `fw/_multipart.py` only scopes its star imports: what it defines is
    API once a public module re-exports it, not before."""
    text = "def parse_form(): ...\n__all__ = ['parse_form']\n"
    assert _exports("fw/_multipart.py", text) == []
    assert _exports("fw/_internal/cors.py", text) == []
    assert _exports("fw/__main__.py", text) == ["fw.__main__.parse_form"]  # dunder: public
    init = "from fw._config import configure\n"
    assert _exports("fw/__init__.py", init) == ["fw._config.configure"]


def test_a_re_exported_definition_in_a_private_module_counts_as_public() -> None:
    """`fw._config.configure` re-exported as `fw.configure` is what a user imports: it
    ranks with the declared API (x1.4), not below the public modules' names (it was
    x0.8 for the private module, then x1.4: 1.12); a private method of a declared class
    still steps back."""
    declared = {"fw._config.configure", "fw._generic.Logger"}
    scorer = PublicApi(lambda symbols: declared & set(symbols))
    usage = analyze("configure the global processors")
    cands = [
        _cand("fw._config.configure", 1.0),
        _cand("fw._generic.Logger.bind", 1.0),  # a public member of a declared class
        _cand("fw._generic.Logger._proxy", 1.0),  # a private one
        _cand("fw._config.reset", 1.0),  # private module, not declared
    ]
    assert scorer(usage, cands) == [1.4, pytest.approx(1.12), pytest.approx(1.12), 0.8]


def test_a_declared_module_declares_its_classes_methods_not_its_overview() -> None:
    """A package whose `__all__` names its modules (`fw/__init__.py`: `__all__ =
    ["web"]`) declares what they define: `web.Handler.set_cookie` steps ahead with the
    module's classes, and the module's overview, which only says where to look, does
    not (before, `fw.web` and `fw.auth` outranked the method for "set a cookie")."""
    declared = {"fw.web", "fw.auth"}
    scorer = PublicApi(lambda symbols: declared & set(symbols))
    usage = analyze("set a secure cookie on the response")

    def cand(symbol: str, chunk_type: str) -> Candidate:
        chunk = make_chunk("fw", "fw/web.py", symbol, chunk_type=chunk_type)
        return Candidate(chunk=chunk, fused=1.0, signals={})

    cands = [
        cand("fw.web", "module"),
        cand("fw.web.Handler", "class"),  # a class of a declared module
        cand("fw.web.Handler.set_cookie", "method"),  # its public method
        cand("fw.web.Handler._cookie_key", "method"),  # a private one: not declared
        cand("fw.web._Secret.value", "method"),  # a private class's method
        cand("fw.other.Thing.run", "method"),  # a module nobody declared
    ]
    assert scorer(usage, cands) == [1.0, 1.4, 1.4, 0.8, 0.8, 1.0]


def _module_extra(relpath: str, text: str) -> dict[str, object]:
    ex = extract_python_file("fw", relpath, text, version=None, internal_packages={"fw"})
    (module,) = [c for c in ex.chunks if c.metadata.chunk_type == "module"]
    return module.metadata.extra


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        ('"""Legacy."""\nfrom fw.orjson import dumps\n__all__ = ["dumps"]\n', True),
        ("from .a import A\nfrom .b import B\n", True),  # a package gathering its modules
        ("if TYPE_CHECKING:\n    from fw.t import T\nfrom fw.a import A\n", True),
        ("try:\n    from fw.fast import run\nexcept ImportError:\n    pass\n", True),
        ("from fw.a import A\nconverter = A()\n", False),  # it builds something
        ("from fw.a import A\ndef helper(): ...\n", False),
        ("try:\n    from fw.fast import run\nexcept ImportError:\n    run = None\n", False),
        ('"""Only a docstring."""\n', False),
    ],
)
def test_a_module_of_imports_and_all_alone_is_marked_a_pointer(text: str, pointer: bool) -> None:
    assert (_module_extra("fw/shim.py", text).get("reexports_only") is True) is pointer


def test_a_pointer_module_steps_back_unless_the_query_names_it() -> None:
    from ctxhub.search.pointers import ReexportModule
    from ctxhub.search.rank import rerank

    def order(query: str) -> list[str]:
        shim = make_chunk(symbol="old.orjson", chunk_type="module", extra={"reexports_only": True})
        real = make_chunk(symbol="fw.preconf.orjson.make_converter", chunk_type="function")
        ranked = [Candidate(chunk=shim, fused=1.0, signals={}),
                  Candidate(chunk=real, fused=0.8, signals={})]  # fmt: skip
        return [c.chunk.symbol or "" for c in rerank(analyze(query), ranked, [ReexportModule()])]

    assert order("how do I use orjson") == ["fw.preconf.orjson.make_converter", "old.orjson"]
    assert order("old.orjson") == ["old.orjson", "fw.preconf.orjson.make_converter"]
