"""A deprecation helper that takes nothing and always warns the same words (`def
_deprecated(): warnings.warn("`kit.local` is deprecated, use `kit.ctx`", ...)`, called
by every function of a deprecated module) is a helper: each call site is a deprecation
carrying those words. A parameterless function that warns about itself, or that the
package calls from one place only, stays a deprecated function."""

from __future__ import annotations

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package

LOCAL = '''\
import warnings


def _deprecated():
    """Warn with the right stack level."""
    warnings.warn(
        "Calling the thread-local API is deprecated, please use `kit.ctx.bind` instead.",
        DeprecationWarning,
        stacklevel=3,
    )


def wrap(x):
    _deprecated()
    return x


def bind(**values):
    _deprecated()
    return values


def merge(values, strict=False):
    if strict:
        _deprecated()
    return values


class Holder:
    def get(self):
        _deprecated()
        return None
'''

SOLO = """\
import warnings


def _retired():
    warnings.warn("the retired switch is deprecated", DeprecationWarning)


def reset():
    warnings.warn("reset() is deprecated; use restart()", DeprecationWarning)


def toggle():
    _retired()


def restart():
    reset()
    reset()
"""

PACKAGE = {"kit/__init__.py": "", "kit/local.py": LOCAL, "kit/solo.py": SOLO}


def _helpers() -> DeprecationHelpers:
    modules = {"kit/__init__.py": "kit", "kit/local.py": "kit.local", "kit/solo.py": "kit.solo"}
    return scan_package(modules, lambda rel: PACKAGE[rel], {"kit"})


def _records(rel: str) -> dict[str, list[Deprecation]]:
    extract: PythonFileExtract = extract_python_file(
        "kit", rel, PACKAGE[rel], version=None, internal_packages={"kit"},
        module=rel.removesuffix(".py").replace("/", "."), helpers=_helpers(),
    )  # fmt: skip
    out: dict[str, list[Deprecation]] = {}
    for record in extract.deprecations:
        out.setdefault(record.symbol, []).append(record)
    return out


def test_a_parameterless_helper_with_a_fixed_message_is_found() -> None:
    functions = _helpers().functions
    assert "kit.local._deprecated" in functions
    # about itself (its own name), or called from one place: a deprecated function
    assert "kit.solo.reset" not in functions
    assert "kit.solo._retired" not in functions


def test_its_call_sites_carry_the_fixed_message() -> None:
    found = _records("kit/local.py")
    message = "Calling the thread-local API is deprecated, please use `kit.ctx.bind` instead."
    for name in ("kit.local.wrap", "kit.local.bind", "kit.local.Holder.get"):
        (record,) = found[name]
        assert (record.note, record.replacement, record.origin) == (message, "kit.ctx.bind", "warn")
        assert not record.partial  # it warns on every call: the function is deprecated
    (merge,) = found["kit.local.merge"]
    assert merge.partial and merge.text == message  # only when `strict`: one usage
    assert "kit.local._deprecated" not in found  # a helper's own warning is its callers'
    extract = extract_python_file(
        "kit", "kit/local.py", LOCAL, version=None, internal_packages={"kit"},
        module="kit.local", helpers=_helpers(),
    )  # fmt: skip
    flagged = {c.symbol for c in extract.chunks if c.metadata.deprecated}
    assert {"kit.local.wrap", "kit.local.bind", "kit.local.Holder.get"} <= flagged
    assert "kit.local.merge" not in flagged


def test_a_function_that_warns_about_itself_stays_deprecated_itself() -> None:
    found = _records("kit/solo.py")
    assert "kit.solo.reset" in found and "kit.solo._retired" in found
    assert "kit.solo.toggle" not in found and "kit.solo.restart" not in found
