"""A module that warns on import is deprecated with everything in it: a package
`__init__` that warns deprecates its submodules' definitions too, each with a record
that names the module and repeats its note (since when from the comment beside the
warning), and their chunks carry the flag a search hit shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report

OLD_INIT = """\
import warnings

warnings.warn(  # deprecated in 4.2 - 2024-01-01
    "net.old is deprecated; see the upgrade guide",
    DeprecationWarning,
)
"""

OLD_CLIENT = """\
class Client:
    def send(self, data):
        return data


def dial(uri):
    return Client()


class Dial:  # another name than `dial`, in case only
    plan = None


open_client = dial
_private = 1
"""

SHIM = """\
import warnings

from net.old.client import dial

warnings.warn("net.shim is deprecated, use net.client", DeprecationWarning)


def helper():
    return dial
"""

OPTIONAL = """\
import warnings

try:
    import fastjson as json
except ImportError:
    import json

    warnings.warn("running without fastjson is deprecated", DeprecationWarning)


def dumps(value):
    return json.dumps(value)
"""

PACKAGE = {
    "net/__init__.py": "",
    "net/old/__init__.py": OLD_INIT,
    "net/old/client.py": OLD_CLIENT,
    "net/shim.py": SHIM,
    "net/optional.py": OPTIONAL,
}


def _modules() -> dict[str, str]:
    return {
        rel: rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for rel in PACKAGE
    }


def _helpers() -> DeprecationHelpers:
    return scan_package(_modules(), lambda rel: PACKAGE[rel], {"net"})


def _extract(rel: str, helpers: DeprecationHelpers | None) -> PythonFileExtract:
    return extract_python_file(
        "net", rel, PACKAGE[rel], version=None, internal_packages={"net"}, helpers=helpers
    )


def test_the_first_pass_finds_modules_that_warn_on_import() -> None:
    found = _helpers().deprecated_modules
    assert set(found) == {"net.old", "net.shim"}  # a conditional warning is one usage
    assert found["net.old"].package and not found["net.shim"].package
    assert found["net.old"].since == "4.2"  # the comment beside the warning
    assert found["net.old"].path == "net/old/__init__.py"


def test_members_of_a_submodule_inherit_the_package_deprecation() -> None:
    extract = _extract("net/old/client.py", _helpers())
    records = {r.symbol: r for r in extract.deprecations}
    for name in ("net.old.client", "net.old.client.Client", "net.old.client.dial"):
        assert name in extract.deprecated_symbols
    assert "net.old.client.open_client" in records  # a public module-level name too
    assert "net.old.client._private" not in records
    assert "net.old.client.Client.send" not in records  # flagged with its chunk only
    dial = records["net.old.client.dial"]
    assert (
        dial.note
        == "its module `net.old` is deprecated: net.old is deprecated; see the upgrade guide"
    )
    assert (dial.since, dial.path, dial.line, dial.origin) == (
        "4.2",
        "net/old/__init__.py",
        3,
        "module",
    )
    flagged = {c.symbol for c in extract.chunks if c.metadata.deprecated}
    assert {"net.old.client.Client", "net.old.client.Client.send", "net.old.client.dial"} <= flagged


def test_a_module_that_warns_deprecates_its_own_members() -> None:
    extract = _extract("net/shim.py", None)  # no first pass needed for the module itself
    records = {r.symbol: r for r in extract.deprecations}
    assert records["net.shim"].origin == "warn"
    assert (records["net.shim.helper"].note or "").startswith("its module `net.shim` is deprecated")


def test_a_conditional_warning_on_import_deprecates_nothing_whole() -> None:
    extract = _extract("net/optional.py", _helpers())
    assert not extract.deprecated_symbols
    (record,) = extract.deprecations
    assert record.symbol == "net.optional" and record.partial  # one usage


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    helpers = _helpers()
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            for rel in PACKAGE:
                extract = _extract(rel, helpers)
                session.store.replace_file(
                    "net", rel, extract.chunks, deprecations=extract.deprecations
                )
            yield session
    finally:
        set_embedder(None)


def test_check_deprecation_names_the_deprecated_module(hub: HubSession) -> None:
    report = check_deprecation(hub, "net.old.client.dial")
    assert report.deprecated and report.since == "4.2"
    text = deprecation_report(report)
    assert "net.old.client.dial: DEPRECATED since 4.2" in text
    assert "note: its module `net.old` is deprecated: net.old is deprecated" in text
    # the class `Dial` beside `dial` is another name: its record is not this one's
    assert "net.old.client.Dial" not in text
    plan = check_deprecation(hub, "net.old.client.Dial")
    assert "net.old.client.Dial" in deprecation_report(plan)
    assert check_deprecation(hub, "net.optional.dumps").deprecated is False


def test_a_member_inherits_the_modules_replacement_when_it_names_none() -> None:
    shim = {r.symbol: r for r in _extract("net/shim.py", _helpers()).deprecations}
    assert shim["net.shim.helper"].replacement == "net.client"


KIT = {
    "kit/__init__.py": "",
    "kit/legacy/__init__.py": 'import warnings\n\nwarnings.warn("kit.legacy is deprecated,'
    ' use kit.modern instead", DeprecationWarning)\n',
    "kit/legacy/pool.py": "def acquire():\n    return 1\n\n\n"
    'def release():\n    """Give it back.\n\n    .. deprecated:: 1.1\n'
    '       Use :func:`kit.modern.give_back` instead.\n    """\n',
    "kit/types.py": '"""Old name of `kit.typing`.\n\n.. deprecated:: 2.3\n"""\n\n'
    'from kit.typing import Context\n\n__all__ = ["Context"]\n',
    "kit/typing.py": "Context = dict\n",
    "kit/local.py": '"""Thread-local state.\n\n.. deprecated:: 2.0\n'
    '   Use :mod:`kit.context` instead.\n"""\n\n\n'
    'def wrap(x):\n    """Wrap x.\n\n    .. deprecated:: 2.2\n    """\n    return x\n\n\n'
    "def bind(**values):\n    return values\n",
}


def _kit(rel: str) -> dict[str, Deprecation]:
    modules = {r: r.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for r in KIT}
    helpers = scan_package(modules, lambda r: KIT[r], {"kit"})
    extract = extract_python_file(
        "kit", rel, KIT[rel], version=None, internal_packages={"kit"}, module=modules[rel],
        helpers=helpers,
    )  # fmt: skip
    return {r.symbol: r for r in extract.deprecations}


def test_members_of_a_deprecated_package_inherit_its_replacement() -> None:
    pool = _kit("kit/legacy/pool.py")
    assert pool["kit.legacy.pool.acquire"].replacement == "kit.modern"
    # a member's own replacement stays its own
    assert pool["kit.legacy.pool.release"].replacement == "kit.modern.give_back"
    assert pool["kit.legacy.pool.release"].since == "1.1"


def test_a_members_own_note_keeps_its_since_and_gains_the_modules_replacement() -> None:
    local = _kit("kit/local.py")
    wrap, bind = local["kit.local.wrap"], local["kit.local.bind"]
    assert (wrap.since, wrap.replacement, wrap.origin) == ("2.2", "kit.context", "docstring")
    assert (bind.since, bind.replacement, bind.origin) == ("2.0", "kit.context", "module")


def test_a_name_a_deprecated_module_re_exports_is_dated_by_the_module() -> None:
    context = _kit("kit/types.py")["kit.types.Context"]
    assert (context.origin, context.replacement, context.since) == (
        "alias",
        "kit.typing.Context",
        "2.3",
    )
