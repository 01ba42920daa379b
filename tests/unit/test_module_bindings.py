"""A dotted name resolves only where its module binds it: a definition, an import, a
star import (the imported module's `__all__`, else its public names), a lazy-import
table, a constant; followed through private modules. Anything else is not found, with
the real definitions first (tools/resolve.py, search/reexports.py, tools/not_found.py)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import NotFoundError
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.memory.records.feedback import rate
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, deprecation_tools, nearest, resolve, trace_tools

DOC = '    """Do the work."""\n    value = 1\n    return value\n'
IN_CLASS = textwrap.indent(DOC, "    ")
FILES = {
    # an implementation package, and a public one that star-imports it
    "core/__init__.py": "",
    "core/validators.py": (
        f"__all__ = ['instance_of']\n\ndef instance_of(kind):\n{DOC}\ndef not_listed():\n{DOC}"
    ),
    "core/converters.py": (
        "from core.validators import instance_of\n\n"
        f"def optional(conv):\n{DOC}\n"
        f"def _private():\n{DOC}"
    ),
    "pub/__init__.py": "__version__ = '1.0'\n",
    "pub/validators.py": "from core.validators import *\n",
    "pub/converters.py": "from core.converters import *\n",
    "pub/requests.py": 'class Request:\n    """A request."""\n',
    "pub/status.py": (
        "from typing import Callable, TypeVar\n\n"
        "__all__ = ['HTTP_404_NOT_FOUND', 'default_port']\n\n"
        "HTTP_404_NOT_FOUND = 404\n"
        "default_port = 80\n"
        "helper_value = 3\n"
        "Hook = Callable[[int], int]\n"  # a type alias signatures use
        "T = TypeVar('T')\n"
        "picked = REGISTRY['x']\n"  # a subscript, but no type
    ),
    # module-level aliases of an instance's methods, a type alias re-exported
    "cat/__init__.py": (
        "from typing import Final\n\n"
        "from cat.converters import Converter, GenConverter\n\n"
        "__all__ = ['Converter', 'GenConverter', 'global_converter', 'structure',"
        " 'unstructure']\n\n"
        "global_converter = Converter()\n"
        "unstructure: Final = global_converter.unstructure\n"
        "structure = global_converter.structure\n"
    ),
    "catlegacy/__init__.py": (
        "from cat import global_converter\n\nstructure = global_converter.structure\n"
    ),
    "cat/converters.py": (
        "from typing import TypeAlias\n\n"
        f"class BaseConverter:\n    def structure(self, obj):\n{IN_CLASS}\n"
        f"    def unstructure(self, obj):\n{IN_CLASS}\n"
        f"class Converter(BaseConverter):\n    def other(self):\n{IN_CLASS}\n"
        "GenConverter: TypeAlias = Converter\n"
    ),
    # a public name re-exported through two private modules
    "plug/__init__.py": "from plug._hooks import HookimplMarker, Manager\n",
    "plug/_hooks.py": (
        "from plug._decorators import HookimplMarker\nfrom plug._manager import Manager\n"
    ),
    "plug/_decorators.py": f"class HookimplMarker:\n    def __call__(self):\n{IN_CLASS}",
    "plug/_manager.py": f"class Manager:\n    def register(self):\n{IN_CLASS}",
    # a PEP 562 lazy-import table
    "lazy/__init__.py": (
        "from lazy.importer import lazy_import\n\n"
        "lazy_import(\n"
        "    globals(),\n"
        "    aliases={'connect': '.client'},\n"
        "    deprecated_aliases={'OldError': '.legacy.errors'},\n"
        ")\n"
    ),
    "lazy/importer.py": (
        "def lazy_import(namespace, aliases=None, deprecated_aliases=None):\n"
        "    namespace['__getattr__'] = lambda name: (aliases or {})[name]\n"
    ),
    "lazy/client.py": f"def connect(uri):\n{DOC}",
    "lazy/legacy/__init__.py": "",
    "lazy/legacy/errors.py": 'class OldError(Exception):\n    """Old."""\n',
    # one bare name, defined by an undocumented shim and by the documented API
    "pub/shim.py": "class SSLShim:\n    def recv(self, n):\n        return self.sock.recv(n)\n",
    "pub/connection.py": (
        "class Connection:\n"
        "    def recv(self):\n"
        '        """Receive the next message."""\n'
        "        return self.queue.get()\n\n"
        f"def frobnicate_widgets():\n{DOC}\n"
        "def outer():\n"
        f"    def nothing_here():\n{IN_CLASS}"
        "    return nothing_here\n"
    ),
    "pub/tests/test_things.py": f"def nothing_there():\n{DOC}",
}


@contextmanager
def tree_hub(root: Path, sources: Mapping[str, Mapping[str, str]]) -> Iterator[HubSession]:
    """One source per entry: its files (paths under `src/`) in a folder of its own."""
    home = root / "home"
    specs = []
    for name, files in sources.items():
        for path, text in files.items():
            file = root / name / "src" / path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text)
        specs.append(SourceSpec(name=name, kind=["python"], path=str(root / name)))
    embedder = HashingEmbedder(dim=64)
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home / "sources", embedder)
    set_embedder(embedder)
    try:
        with HubSession(Settings(home=home)) as hub:
            yield hub
    finally:
        set_embedder(None)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("bindings"), {"fw": FILES}) as h:
        yield h


@pytest.mark.parametrize(
    ("asked", "defined"),
    [
        ("pub.validators.instance_of", "core.validators.instance_of"),
        ("pub.converters.optional", "core.converters.optional"),  # no `__all__`: public
        ("pub.converters.instance_of", "core.validators.instance_of"),  # its own import
        ("plug.HookimplMarker", "plug._decorators.HookimplMarker"),  # two private hops
        ("lazy.connect", "lazy.client.connect"),
        ("lazy.OldError", "lazy.legacy.errors.OldError"),
    ],
)
def test_a_name_its_module_binds_resolves(hub: HubSession, asked: str, defined: str) -> None:
    found, how = resolve.find_symbol(hub.store, asked)
    assert (found[0].symbol, how) == (defined, "re-export")
    assert code_tools.get_code_snippet(hub, symbol=asked).symbol == defined
    report = deprecation_tools.check_deprecation(hub, asked)
    assert report.found


def test_calls_start_from_a_star_imported_name(hub: HubSession) -> None:
    assert trace_tools.trace_calls(hub, "pub.validators.instance_of").symbol == (
        "core.validators.instance_of"
    )


@pytest.mark.parametrize(
    "asked",
    [
        "pub.validators.not_listed",  # not in the star-imported module's `__all__`
        "pub.converters._private",  # private, and no `__all__` names it
        "pub.Request",  # `pub/__init__.py` binds only `__version__`
        "pub.status.helper_value",  # neither in `__all__` nor a constant's spelling
        "pub.status.picked",  # a value picked from a table is no type alias
    ],
)
def test_a_name_its_module_does_not_bind_is_not_found(hub: HubSession, asked: str) -> None:
    assert resolve.find_symbol(hub.store, asked) == ([], "")
    with pytest.raises(NotFoundError):
        code_tools.get_code_snippet(hub, symbol=asked)


def test_not_importable_names_where_it_is_defined(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as error:
        code_tools.get_code_snippet(hub, symbol="pub.Request")
    assert str(error.value).startswith(
        "'pub.Request' is not importable (pub does not bind Request); "
        "defined as pub.requests.Request"
    )
    assert nearest.nearest_names(hub, "pub.Request")[0] == "pub.requests.Request"


@pytest.mark.parametrize("name", ["HTTP_404_NOT_FOUND", "default_port", "Hook", "T"])
def test_a_public_constant_is_shown_at_its_line(hub: HubSession, name: str) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol=f"pub.status.{name}")
    assert snippet.resolution == "constant" and snippet.symbol == f"pub.status.{name}"
    assert snippet.code.startswith(f"{name} = ")
    assert snippet.line_start == snippet.line_end


def test_a_constant_has_an_id_of_its_own_that_reopens_exactly_it(hub: HubSession) -> None:
    """The id a constant's snippet prints is the constant's (a lookup-only chunk), not
    its module's: opening or rating it is about that assignment."""
    names = ["HTTP_404_NOT_FOUND", "default_port", "Hook", "T"]
    shown = [code_tools.get_code_snippet(hub, symbol=f"pub.status.{n}") for n in names]
    [module] = resolve.api_chunks(hub.store, symbol="pub.status")
    assert len({s.id for s in shown} | {module.id}) == len(names) + 1
    for snippet in shown:
        again = code_tools.get_code_snippet(hub, chunk_id=snippet.id)
        assert (again.code, again.line_start, again.line_end) == (
            snippet.code,
            snippet.line_start,
            snippet.line_end,
        )
        [chunk] = hub.store.get_chunks([snippet.id])
        assert chunk.metadata.chunk_type == "constant" and chunk.lookup_only
    assert rate(hub, shown[0].id, worked=True).target == "knowledge"


def test_a_re_exported_type_alias_opens_at_its_line_by_its_own_id(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="cat.GenConverter")
    assert (snippet.symbol, snippet.resolution) == ("cat.converters.GenConverter", "re-export")
    assert snippet.code == "GenConverter: TypeAlias = Converter"
    assert code_tools.get_code_snippet(hub, chunk_id=snippet.id).code == snippet.code


@pytest.mark.parametrize(
    ("name", "assignment"),
    [
        ("cat.structure", "src/cat/__init__.py:9: structure = global_converter.structure"),
        (
            "cat.unstructure",
            "src/cat/__init__.py:8: unstructure: Final = global_converter.unstructure",
        ),
        # an instance another module binds: read through that instance's class
        (
            "catlegacy.structure",
            "src/catlegacy/__init__.py:3: structure = global_converter.structure",
        ),
    ],
)
def test_an_alias_of_an_instance_method_shows_the_method_of_its_class(
    hub: HubSession, name: str, assignment: str
) -> None:
    """`structure = global_converter.structure` after `global_converter = Converter()`
    stands for the method `Converter` has along its bases: shown by that method's id."""
    snippet = code_tools.get_code_snippet(hub, symbol=name)
    method = name.rsplit(".", 1)[-1]
    assert (snippet.symbol, snippet.resolution, snippet.alias) == (
        f"cat.converters.BaseConverter.{method}",
        "alias",
        assignment,
    )
    again = code_tools.get_code_snippet(hub, chunk_id=snippet.id)
    assert (again.symbol, again.code) == (snippet.symbol, snippet.code)


def test_a_member_of_a_re_exported_class_is_its_own_not_inherited(hub: HubSession) -> None:
    found, how = resolve.find_symbol(hub.store, "plug.Manager.register")
    assert (found[0].symbol, how) == ("plug._manager.Manager.register", "re-export")


def test_a_bare_name_answers_the_documented_public_definition(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="recv")
    assert snippet.symbol == "pub.connection.Connection.recv"
    assert snippet.resolution == "method"
    assert "pub.shim.SSLShim.recv" in snippet.alternatives
    function = code_tools.get_code_snippet(hub, symbol="frobnicate_widgets")
    assert function.resolution == "function"


def test_did_you_mean_offers_only_importable_names(hub: HubSession) -> None:
    near = nearest.nearest_names(hub, "nothing_hre")
    assert "pub.connection.outer.nothing_here" not in near  # a local of a function
    assert "pub.tests.test_things.nothing_there" not in near  # a test's
    assert nearest.nearest_names(hub, "zzqqxxyyww") == []


def test_nothing_close_gives_a_well_formed_message(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as error:
        code_tools.get_code_snippet(hub, symbol="zzqqxxyyww")
    assert str(error.value) == (
        "no definition named 'zzqqxxyyww' in the index "
        "(pass intent to search by what the code does)"
    )


def test_source_is_obeyed_and_the_other_source_named(tmp_path: Path) -> None:
    """`Settings.cached` exists only in the newer release indexed beside the installed
    one: with `source=` the older, it is not found there, and the answer says where."""
    settings = f"class Settings:\n    def load(self):\n{IN_CLASS}"
    old = {"cfg/__init__.py": "", "cfg/main.py": settings}
    new = {
        "cfg/__init__.py": "",
        "cfg/main.py": (
            f"class Settings:\n    def load(self):\n{IN_CLASS}\n    def cached(self):\n{IN_CLASS}"
        ),
    }
    with tree_hub(tmp_path, {"cfg": old, "cfg-new": new}) as hub:
        assert resolve.find_symbol(hub.store, "Settings.cached", "cfg") == ([], "")
        with pytest.raises(NotFoundError) as error:
            code_tools.get_code_snippet(hub, symbol="Settings.cached", source="cfg")
        assert "of source cfg; defined in cfg-new as cfg.main.Settings.cached" in str(error.value)
        with pytest.raises(NotFoundError, match="defined in cfg-new"):
            trace_tools.trace_calls(hub, "Settings.cached", source="cfg")
        found = code_tools.get_code_snippet(hub, symbol="Settings.cached")
        assert (found.source, found.resolution) == ("cfg-new", "class.method")


def test_a_name_in_a_file_the_refresh_could_not_read_says_so(tmp_path: Path) -> None:
    files = {"loc/__init__.py": "", "loc/broken.py": "def frobnicate_quux(x:\n    return x\n"}
    with tree_hub(tmp_path, {"loc": files}) as hub, pytest.raises(NotFoundError) as error:
        code_tools.get_code_snippet(hub, symbol="frobnicate_quux")
    assert "; src/loc/broken.py (source loc) defines it but the last refresh could not" in str(
        error.value
    )
