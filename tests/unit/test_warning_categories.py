"""Warning categories read from the package's own class hierarchy: a class derived from a
deprecation category, a warning class whose name says deprecation (a `UserWarning`
subclass, so that users see it by default), and other warning classes of the package,
which count when the message says "deprecated" (as the default UserWarning does)."""

from __future__ import annotations

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package

ERRORS = """\
class ShopDeprecationWarning(UserWarning):
    \"\"\"Visible by default, unlike DeprecationWarning.\"\"\"


class LaterShopDeprecationWarning(ShopDeprecationWarning):
    pass


class ShopWarning(UserWarning):
    pass


class NotAWarning(Exception):
    pass
"""

UTILS = """\
import inspect
import warnings

from shop.errors import LaterShopDeprecationWarning, ShopDeprecationWarning, ShopWarning


def first_done(*funcs):
    warnings.warn(
        "first_done is deprecated and will be removed in a future version.",
        ShopDeprecationWarning,
    )
    return funcs[0]


def race(*funcs):
    warnings.warn("race is deprecated.", LaterShopDeprecationWarning)
    return funcs


def old_sum(values):
    warnings.warn("old_sum is deprecated; use sum.", ShopWarning)
    return sum(values)


def noisy(values):
    warnings.warn("values were empty.", ShopWarning)
    return values


class Router:
    def __init__(self, lifespan=None):
        if inspect.isgeneratorfunction(lifespan):
            warnings.warn(
                "generator function lifespans are deprecated, use a context manager",
                ShopDeprecationWarning,
            )
        self.lifespan = lifespan
"""

PACKAGE = {"shop/__init__.py": "", "shop/errors.py": ERRORS, "shop/utils.py": UTILS}


def _scan(files: dict[str, str]) -> DeprecationHelpers:
    modules = {rel: rel.removesuffix(".py").replace("/", ".") for rel in files}
    modules = {rel: m.removesuffix(".__init__") for rel, m in modules.items()}
    return scan_package(modules, lambda rel: files[rel], {"shop"})


def _extract(rel: str, helpers: DeprecationHelpers) -> PythonFileExtract:
    return extract_python_file(
        "shop", rel, PACKAGE[rel], version=None, internal_packages={"shop"}, helpers=helpers
    )


def _records(extract: PythonFileExtract) -> dict[str, list[Deprecation]]:
    out: dict[str, list[Deprecation]] = {}
    for r in extract.deprecations:
        out.setdefault(r.symbol, []).append(r)
    return out


def test_a_warning_class_named_for_deprecation_is_a_category() -> None:
    helpers = _scan(PACKAGE)
    assert {
        "shop.errors.ShopDeprecationWarning",
        "shop.errors.LaterShopDeprecationWarning",
    } <= helpers.categories
    assert "shop.errors.ShopWarning" in helpers.warning_classes
    assert "shop.errors.NotAWarning" not in helpers.categories | helpers.warning_classes


def test_warnings_of_such_a_category_deprecate_what_they_name() -> None:
    extract = _extract("shop/utils.py", _scan(PACKAGE))
    records = _records(extract)
    assert "shop.utils.first_done" in extract.deprecated_symbols
    assert "shop.utils.race" in extract.deprecated_symbols  # a subclass, any depth
    note = records["shop.utils.first_done"][0].note or ""
    assert note.startswith("first_done is deprecated")


def test_another_warning_class_counts_when_its_message_says_deprecated() -> None:
    extract = _extract("shop/utils.py", _scan(PACKAGE))
    assert "shop.utils.old_sum" in extract.deprecated_symbols
    assert "shop.utils.noisy" not in _records(extract)  # "values were empty": no deprecation


def test_a_guarded_warning_of_such_a_category_is_a_parameter_record() -> None:
    records = _records(_extract("shop/utils.py", _scan(PACKAGE)))
    (init,) = records["shop.utils.Router.__init__"]
    assert init.parameter == "lifespan" and init.partial
    assert "shop.utils.Router" not in records  # the class itself stays current
