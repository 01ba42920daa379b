"""Every name of a chained module-level alias (`s = attributes = attrs`) is an alias."""

from __future__ import annotations

from pathlib import Path

from ctxhub.config import Settings
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools import code_tools, deprecation_tools, render

IMPL = b'''
import warnings


def attrs(maybe_cls=None):
    """Decorate a class."""
    warnings.warn("`attrs` is deprecated, use `define`.", DeprecationWarning)
    return maybe_cls


def attrib(default=None):
    """Define an attribute."""
    return attrs(default)
'''

INIT = b"""
from ._make import attrib, attrs

s = attributes = attrs
ib = attr = attrib
"""

#: the package's stub declares the function under the package's name
STUB = b"""
def attrs(maybe_cls: type | None = None) -> type: ...
"""


def test_each_name_of_a_chained_alias_is_an_alias_of_the_definition(tmp_path: Path) -> None:
    impl = extract_python_file("fw", "fw/_make.py", IMPL, version="1", internal_packages={"fw"})
    init = extract_python_file("fw", "fw/__init__.py", INIT, version="1", internal_packages={"fw"})
    aliases = {
        c.symbol: c.metadata.extra["alias_of"]
        for c in init.chunks
        if c.metadata.chunk_type == "alias"
    }
    assert aliases == {
        "fw.s": "fw._make.attrs",
        "fw.attributes": "fw._make.attrs",
        "fw.ib": "fw._make.attrib",
        "fw.attr": "fw._make.attrib",
    }
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            hub.store.replace_file("fw", "fw/_make.py", impl.chunks, deprecations=impl.deprecations)
            hub.store.replace_file("fw", "fw/__init__.py", init.chunks)
            stub = extract_python_file(
                "fw", "fw/__init__.pyi", STUB, version="1", internal_packages={"fw"}
            )
            hub.store.replace_file("fw", "fw/__init__.pyi", stub.chunks)
            for name in ("fw.s", "fw.attributes"):
                assert code_tools.get_code_snippet(hub, symbol=name).symbol == "fw._make.attrs"
            assert code_tools.get_code_snippet(hub, symbol="fw.ib").symbol == "fw._make.attrib"
            answers = [
                deprecation_tools.check_deprecation(hub, name)
                for name in ("attrs", "fw._make.attrs", "fw.s", "fw.attributes", "fw.attrs")
            ]
    finally:
        set_embedder(None)
    # one function, one answer, whichever name it is asked by
    assert all(a.deprecated and a.found for a in answers)
    assert {a.location for a in answers} == {answers[0].location}


def test_each_name_of_a_chained_deprecated_alias_is_deprecated() -> None:
    code = (
        "from p.new import New\n\n"
        "# Deprecated: use New.\n"
        "Old = Older = New\n"
    )  # fmt: skip
    ex = extract_python_file("fx", "src/p/m.py", code, version=None, internal_packages={"p"})
    records = {(d.symbol, d.origin, d.replacement) for d in ex.deprecations}
    assert records == {("p.m.Old", "alias", "p.new.New"), ("p.m.Older", "alias", "p.new.New")}


NEXT_GEN = b"""
import functools
import json
from functools import partial

from ._make import attrs

frozen = partial(attrs, frozen=True, on_setattr=None)
slotted = functools.partial(
    attrs,
    slots=True,
)
dumps = partial(json.dumps, indent=2)
"""


def test_a_partial_of_a_definition_is_an_alias_that_says_which_arguments_it_sets(
    tmp_path: Path,
) -> None:
    impl = extract_python_file("fw", "fw/_make.py", IMPL, version="1", internal_packages={"fw"})
    nxt = extract_python_file(
        "fw", "fw/_next_gen.py", NEXT_GEN, version="1", internal_packages={"fw"}
    )
    aliases = {
        c.symbol: (c.metadata.extra["alias_of"], c.metadata.extra.get("bound_arguments"))
        for c in nxt.chunks
        if c.metadata.chunk_type == "alias"
    }
    # another library's function pre-configured (json.dumps) is not this API
    assert aliases == {
        "fw._next_gen.frozen": ("fw._make.attrs", "frozen=True, on_setattr=None"),
        "fw._next_gen.slotted": ("fw._make.attrs", "slots=True"),
    }
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as hub:
            hub.store.replace_file("fw", "fw/_make.py", impl.chunks, deprecations=impl.deprecations)
            hub.store.replace_file("fw", "fw/_next_gen.py", nxt.chunks)
            frozen = code_tools.get_code_snippet(hub, symbol="fw._next_gen.frozen")
            slotted = code_tools.get_code_snippet(hub, symbol="slotted")
            plain = code_tools.get_code_snippet(hub, symbol="fw._make.attrs")
    finally:
        set_embedder(None)
    assert (frozen.symbol, frozen.resolution) == ("fw._make.attrs", "alias")
    assert frozen.alias == (
        "fw/_next_gen.py:8: frozen = partial(attrs, frozen=True, on_setattr=None)"
    )
    assert "asked by an alias of it: fw/_next_gen.py:8:" in render.code_snippet(frozen)
    assert slotted.symbol == "fw._make.attrs"
    assert slotted.alias == "fw/_next_gen.py:9: slotted = functools.partial( attrs, slots=True, )"
    assert plain.alias is None
