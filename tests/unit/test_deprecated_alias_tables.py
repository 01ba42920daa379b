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


IMPORTS = """\
import warnings


def lazy_import(namespace, aliases=None, deprecated_aliases=None):
    package = namespace["__name__"]

    def __getattr__(name):
        if name in deprecated_aliases:
            warnings.warn(f"{package}.{name} is deprecated", DeprecationWarning)
        return name

    namespace["__getattr__"] = __getattr__
"""

ERRORS = """\
from acme.imports import lazy_import

lazy_import(
    globals(),
    aliases={"Current": ".frames"},
    deprecated_aliases={
        # deprecated in 9.0 - 2021-09-01
        "parse_uri": ".uri",
        "Absolute": "acme.legacy.errors:Absolute",
        # deprecated in 14.0 - 2024-11-09
        "AbortHandshake": ".legacy.errors",
        "framing": ".legacy",  # a submodule
    },
)
"""


def test_a_keyword_table_named_deprecated_lists_deprecated_aliases_of_the_module() -> None:
    files = {"acme/imports.py": IMPORTS, "acme/errors.py": ERRORS}
    modules = {rel: rel.removesuffix(".py").replace("/", ".") for rel in files}
    helpers = scan_package(modules, lambda rel: files[rel], {"acme"})
    extract = extract_python_file(
        "acme", "acme/errors.py", ERRORS, version=None, internal_packages={"acme"}, helpers=helpers
    )
    aliases = {r.symbol: r for r in extract.deprecations if r.origin == "alias"}
    assert {s: (r.replacement, r.since) for s, r in aliases.items()} == {
        # the value is the module the name is imported from, relative to this one
        "acme.errors.parse_uri": ("acme.uri.parse_uri", "9.0"),
        "acme.errors.Absolute": ("acme.legacy.errors.Absolute", "9.0"),
        "acme.errors.AbortHandshake": ("acme.legacy.errors.AbortHandshake", "14.0"),
        "acme.errors.framing": ("acme.legacy.framing", "14.0"),
    }  # `aliases=` is not deprecated: Current stays current
    assert aliases["acme.errors.AbortHandshake"].note == (
        "`acme.errors.AbortHandshake` is a deprecated alias of `acme.legacy.errors.AbortHandshake`."
    )
    assert "acme.errors.parse_uri" in extract.deprecated_symbols


def test_a_package_init_resolves_its_keyword_table_from_itself() -> None:
    source = 'lazy_import(globals(), deprecated_aliases={"Old": ".legacy.client"})\n'
    extract = extract_python_file(
        "acme", "acme/__init__.py", source, version=None, internal_packages={"acme"}
    )
    (record,) = extract.deprecations
    assert (record.symbol, record.replacement) == ("acme.Old", "acme.legacy.client.Old")


def test_an_alias_into_a_deprecated_package_names_no_replacement() -> None:
    legacy = 'import warnings\n\nwarnings.warn("acme.legacy is deprecated", DeprecationWarning)\n'
    files = {
        "acme/imports.py": IMPORTS,
        "acme/errors.py": ERRORS,
        "acme/legacy/__init__.py": legacy,
    }
    modules = {rel: rel.removesuffix(".py").replace("/", ".") for rel in files}
    modules["acme/legacy/__init__.py"] = "acme.legacy"
    helpers = scan_package(modules, lambda rel: files[rel], {"acme"})
    extract = extract_python_file(
        "acme", "acme/errors.py", ERRORS, version=None, internal_packages={"acme"}, helpers=helpers
    )
    records = {r.symbol: r for r in extract.deprecations}
    abort = records["acme.errors.AbortHandshake"]
    assert abort.replacement is None  # the target is deprecated with its package: no way out
    assert (abort.note or "").endswith("its module `acme.legacy` is)")
    assert records["acme.errors.parse_uri"].replacement == "acme.uri.parse_uri"
