"""The package's own warning classes, found in the first pass over it
(`deprecation_helpers.scan_package`): which are deprecation categories and which are
other warnings, through its own class hierarchy and re-exports."""

from __future__ import annotations

import builtins
import re
from collections.abc import MutableMapping
from typing import Any

from ctxhub.ingest.python.deprecation_text import STD_CATEGORIES
from ctxhub.ingest.python.helper_scan import ScannedModule

#: A warning class named for deprecation: `FooDeprecationWarning`, `DeprecatedWarning`
_DEPRECATION_NAME = re.compile(r"deprecat", re.IGNORECASE)


def warning_classes(modules: list[ScannedModule]) -> tuple[set[str], set[str]]:
    """(deprecation categories, other warning classes) the package defines.

    A category derives from a deprecation category, or is a warning class whose name
    says deprecation (`class StarletteDeprecationWarning(UserWarning)`: made visible by
    default on purpose); both through the package's own classes, any depth."""
    categories: set[str] = set()
    warnings_: set[str] = set()
    changed = True
    while changed:
        changed = False
        for m in modules:
            for cls, bases in m.classes.items():
                if cls in categories:
                    continue
                warning = any(is_warning(b, categories | warnings_) for b in bases)
                named = _DEPRECATION_NAME.search(cls.rsplit(".", 1)[-1]) is not None
                if any(is_category(b, categories) for b in bases) or (warning and named):
                    categories.add(cls)
                    warnings_.discard(cls)
                    changed = True
                elif warning and cls not in warnings_:
                    warnings_.add(cls)
                    changed = True
        add_reexports(modules, categories)
        add_reexports(modules, warnings_)
    return categories, warnings_ - categories


def is_category(dotted: str, own: set[str]) -> bool:
    return dotted in own or dotted.removeprefix("warnings.") in STD_CATEGORIES


def is_warning(dotted: str, own: set[str]) -> bool:
    """A warning class: the package's own, a builtin one (`UserWarning`), or one defined
    elsewhere whose name says so (`otherlib.BaseWarning`)."""
    if dotted in own or dotted.rsplit(".", 1)[-1].endswith("Warning"):
        return True
    builtin = getattr(builtins, dotted.removeprefix("warnings."), None)
    return isinstance(builtin, type) and issubclass(builtin, Warning)


def add_reexports(modules: list[ScannedModule], names: set[str] | MutableMapping[str, Any]) -> None:
    """`from .deprecation import warn_deprecation` in pkg/utils/__init__.py makes
    `pkg.utils.warn_deprecation` the same helper (or class, for a set of names)."""
    for m in modules:
        for bound, target in m.imports.bindings.items():
            if isinstance(names, set):
                if target in names:
                    names.add(f"{m.module}.{bound}")
            elif target in names and f"{m.module}.{bound}" not in names:
                names[f"{m.module}.{bound}"] = names[target]
