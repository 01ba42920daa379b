"""A runtime table of deprecated aliases: a module-level call that hands a dict of
`{"Old": "pkg.New"}` to a package function installing a warning proxy (a nested
`__getattr__` that warns, itself or through a helper) makes each key a deprecated alias."""

from __future__ import annotations

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package

LAZY = """\
import sys
import warnings


def emit_deprecation_warning(module_name, name, target):
    warnings.warn(
        f"The {module_name}.{name} alias is deprecated, use {target} instead.",
        DeprecationWarning,
    )


def set_deprecated_aliases(aliases):
    module_name = sys._getframe(1).f_globals["__name__"]

    def __getattr__(name):
        target = aliases[name]
        emit_deprecation_warning(module_name, name, target)
        return target

    sys.modules[module_name].__dict__["__getattr__"] = __getattr__


def register_names(names):
    def lookup(name):
        return names[name]

    return lookup
"""

ABC = """\
from typing import TYPE_CHECKING

from acme._lazy import register_names, set_deprecated_aliases

if not TYPE_CHECKING:
    set_deprecated_aliases({"Event": "acme.Event", "Lock": "acme.sync.Lock"})
    register_names({"Queue": "acme.Queue"})
"""

PACKAGE = {"acme/_lazy.py": LAZY, "acme/abc.py": ABC}


def _helpers() -> DeprecationHelpers:
    modules = {rel: rel.removesuffix(".py").replace("/", ".") for rel in PACKAGE}
    return scan_package(modules, lambda rel: PACKAGE[rel], {"acme"})


def test_a_function_installing_a_warning_proxy_is_an_alias_installer() -> None:
    helpers = _helpers()
    assert helpers.alias_installers == {"acme._lazy.set_deprecated_aliases"}
    assert "acme._lazy.emit_deprecation_warning" in helpers.functions  # a helper, not one


def test_each_key_of_the_table_is_a_deprecated_alias() -> None:
    extract = extract_python_file(
        "acme", "acme/abc.py", ABC, version=None, internal_packages={"acme"}, helpers=_helpers()
    )
    aliases = {r.symbol: r for r in extract.deprecations if r.origin == "alias"}
    assert {s: r.replacement for s, r in aliases.items()} == {
        "acme.abc.Event": "acme.Event",
        "acme.abc.Lock": "acme.sync.Lock",
    }  # register_names installs nothing that warns: Queue is current
    assert "deprecated alias of `acme.Event`" in (aliases["acme.abc.Event"].note or "")
    assert {"acme.abc.Event", "acme.abc.Lock"} <= extract.deprecated_symbols
