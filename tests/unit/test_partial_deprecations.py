"""A deprecation that covers one parameter or one usage of a function leaves the function
current: a top-level docstring note whose subject is a parameter or keyword, a note a
later `versionchanged` supersedes, a warning guarded by a test on one argument, and an
`Annotated[..., Doc("... deprecated ...")]` parameter all become partial records."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_subjects import note_parameter
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools import deprecation_tools
from ctxhub.tools.deprecation_names import is_removal
from ctxhub.tools.deprecation_records import superseded_in
from ctxhub.tools.render_deprecation import deprecation_report

MAKE = b'''\
import warnings


def evolve(*args, **changes):
    """
    Create a new instance with *changes* applied.

    .. versionadded:: 17.1.0
    .. deprecated:: 23.1.0
       It is now deprecated to pass the instance using the keyword argument
       *inst*. Always pass the instance as a positional argument.
    .. versionchanged:: 24.1.0
       *inst* can't be passed as a keyword argument anymore.
    """
    (inst,) = args
    return inst


def define(maybe_cls=None, repr_ns=None, hash=None, unsafe_hash=None, cmp=None):
    """
    Decorate a class.

    .. deprecated:: 18.2.0
       ``__lt__`` and ``__gt__`` now raise a `DeprecationWarning` if the classes
       compared are subclasses of each other.
    .. versionchanged:: 19.2.0
       ``__lt__`` and ``__gt__`` now do not consider subclasses comparable anymore.
    .. deprecated:: 19.2.0 *cmp* Removal on or after 2021-06-01.
    .. versionchanged:: 21.1.0 *cmp* undeprecated
    .. deprecated:: 24.1.0 *repr_ns*
    .. deprecated:: 24.1.0 *hash* is deprecated in favor of *unsafe_hash*.
    """
    if repr_ns is not None:
        warnings.warn(DeprecationWarning("The `repr_ns` argument is deprecated."))
    return maybe_cls


def setup_completion(self, *, completion=None):
    if self._custom_shell_complete is not None:
        warnings.warn(
            "Only 'completion' is supported. "
            "The support for 'shell_complete' is deprecated and will be removed.",
            DeprecationWarning,
        )


def load(path, mode="r"):
    if mode == "legacy":
        warnings.warn("Loading this way is deprecated.", DeprecationWarning)
    return path


def old_helper():
    """Do things.

    .. deprecated:: 1.5
       Use `new_helper` instead; you pass it the keyword argument `retries`.
    """


def gone():
    warnings.warn("Going away.", DeprecationWarning)
'''

PARAMS = b'''\
from typing import Annotated

from annotated_doc import Doc


def Option(
    default: Annotated[
        str,
        Doc(
            """
            The default value.

            ```python
            def main(name: str = Option("x")):
                print("this usage is deprecated")
            ```

            Note that this usage is deprecated, and we recommend to use `Annotated` instead.
            """
        ),
    ] = ...,
    help: Annotated[str, Doc("The help text. It is not deprecated.")] = "",
):
    """Declare a command-line option with its default value and help text."""
    if default is ...:
        raise ValueError("an option needs a default value")
    return OptionInfo(default=default, help=help)
'''


def extract(relpath: str, data: bytes) -> PythonFileExtract:
    return extract_python_file("acme", relpath, data, version=None, internal_packages={"acme"})


def by_symbol(ex: PythonFileExtract) -> dict[str, list[Deprecation]]:
    out: dict[str, list[Deprecation]] = {}
    for r in ex.deprecations:
        out.setdefault(r.symbol, []).append(r)
    return out


@pytest.fixture(scope="module")
def make() -> PythonFileExtract:
    return extract("acme/_make.py", MAKE)


def test_a_note_about_a_keyword_argument_deprecates_that_argument(make: PythonFileExtract) -> None:
    (record,) = by_symbol(make)["acme._make.evolve"]
    assert (record.parameter, record.since) == ("inst", "23.1.0")
    # the later versionchanged says what became of it
    assert "changed in 24.1.0: *inst* can't be passed" in (record.note or "")
    assert "acme._make.evolve" not in make.deprecated_symbols
    chunk = next(c for c in make.chunks if c.symbol == "acme._make.evolve")
    assert chunk.metadata.deprecated is False


def test_parameter_notes_and_superseded_notes_leave_the_function_current(
    make: PythonFileExtract,
) -> None:
    found = by_symbol(make)["acme._make.define"]
    params = {(r.parameter, r.origin) for r in found if r.parameter}
    # `.. deprecated:: 24.1.0 *repr_ns*` says nothing the warning does not: left out, its
    # version kept on the warning's record
    assert params == {("repr_ns", "warn"), ("hash", "docstring")}
    assert next(r for r in found if r.parameter == "repr_ns").since == "24.1.0"
    assert not any(r.parameter == "cmp" for r in found)  # undeprecated later
    (usage,) = [r for r in found if not r.parameter]
    # superseded by the 19.2.0 change: one usage, told with what became of it
    assert usage.partial and usage.since == "18.2.0"
    assert "changed in 19.2.0" in (usage.note or "")
    assert "acme._make.define" not in make.deprecated_symbols


def test_a_warning_guarded_by_a_test_on_one_argument_is_about_that_argument(
    make: PythonFileExtract,
) -> None:
    (record,) = by_symbol(make)["acme._make.setup_completion"]
    assert record.parameter == "shell_complete"
    (load,) = by_symbol(make)["acme._make.load"]
    assert load.parameter == "mode"  # the guard reads `mode` and nothing else
    assert not make.deprecated_symbols & {"acme._make.setup_completion", "acme._make.load"}


def test_whole_function_deprecations_still_deprecate_it(make: PythonFileExtract) -> None:
    (helper,) = by_symbol(make)["acme._make.old_helper"]
    assert helper.parameter is None and not helper.partial
    assert {"acme._make.old_helper"} <= make.deprecated_symbols
    (gone,) = by_symbol(make)["acme._make.gone"]
    assert not gone.partial  # an unconditional warning is about every call


def test_an_annotated_doc_that_says_deprecated_is_a_parameter_record() -> None:
    ex = extract("acme/params.py", PARAMS)
    (record,) = ex.deprecations
    assert (record.symbol, record.parameter) == ("acme.params.Option", "default")
    assert record.text == (
        "Note that this usage is deprecated, and we recommend to use `Annotated` instead."
    )
    assert not ex.deprecated_symbols


PENDING = b'''\
from typing import Annotated

from typing_extensions import deprecated
from annotated_doc import Doc


def route(
    path: str,
    prefix: Annotated[
        str,
        Doc(
            """
            A URL prefix for the route.

            Will likely be removed in future versions, use `root` instead.
            """
        ),
    ] = "",
    cleanup: Annotated[
        bool,
        Doc("When True, the temporary folder will be removed after the request."),
    ] = False,
    hidden: Annotated[
        bool,
        Doc("Hide the route from the schema; pass `deprecated=True` to mark it instead."),
    ] = False,
    legacy: Annotated[
        bool,
        Doc("This parameter was removed in 3.0 and is ignored."),
    ] = False,
    pattern: Annotated[
        str | None,
        Doc("A regular expression the path must match."),
        deprecated("Deprecated in 2.1: use `regex_pattern` instead."),
    ] = None,
):
    """Declare a route."""
    return path
'''


def test_an_annotated_doc_that_says_it_will_be_removed_is_a_pending_deprecation() -> None:
    ex = extract("acme/routes.py", PENDING)
    found = {r.parameter: r for r in ex.deprecations}
    # what the parameter's own Doc says will go (not a folder the call removes, not
    # `deprecated=True` written as code, not a removal already made: no pending record)
    assert set(found) == {"prefix", "pattern"}
    prefix = found["prefix"]
    assert prefix.symbol == "acme.routes.route" and prefix.origin == "docstring"
    assert prefix.text == "Will likely be removed in future versions, use `root` instead."
    assert prefix.replacement == "root"  # a parameter of the same function
    # a `deprecated(...)` marker in the annotation deprecates the parameter
    pattern = found["pattern"]
    assert (pattern.since, pattern.text) == (
        "2.1",
        "Deprecated in 2.1: use `regex_pattern` instead.",
    )
    assert not is_removal(prefix) and not ex.deprecated_symbols


@pytest.mark.parametrize(
    ("text", "params", "expected"),
    [
        ("*repr_ns*", set(), "repr_ns"),
        ("*cmp* Removal on or after 2021-06-01.", set(), "cmp"),
        ("Passing x is deprecated", {"x"}, "x"),
        ("Passing a dict is deprecated", {"x"}, None),
        ("The `flag` argument is deprecated.", {"flag"}, "flag"),
        ("Use `g` instead, which takes the argument `x`.", {"x"}, None),
        ("``__lt__`` now raises a `DeprecationWarning`.", set(), None),
        ("*attrs* classes are deprecated.", set(), None),
    ],
)
def test_note_parameter(text: str, params: set[str], expected: str | None) -> None:
    assert note_parameter(text, params) == expected


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            files = (
                ("acme/__init__.py", b"from acme.params import Option\n"),
                ("acme/_make.py", MAKE),
                ("acme/params.py", PARAMS),
            )
            for relpath, data in files:
                ex = extract(relpath, data)
                session.store.replace_file("acme", relpath, ex.chunks, deprecations=ex.deprecations)
            yield session
    finally:
        set_embedder(None)


def test_check_deprecation_says_which_parameter_or_usage(hub: HubSession) -> None:
    evolve = deprecation_tools.check_deprecation(hub, "evolve")
    assert not evolve.deprecated and [p.parameter for p in evolve.parameters] == ["inst"]
    # the 24.1.0 change ended the deprecation: no longer current, and no removal of `inst`
    assert deprecation_report(evolve).startswith(
        "evolve: not deprecated; its `inst` parameter was deprecated in 23.1.0 and the"
        " deprecation superseded in 24.1.0: the behaviour changed (see the note)"
    )
    define = deprecation_tools.check_deprecation(hub, "acme._make.define")
    assert not define.deprecated
    assert {p.parameter for p in define.parameters} == {"repr_ns", "hash", None}
    said = deprecation_report(define)
    assert "one way of using it is deprecated" not in said
    assert (
        "a way of using it was deprecated in 18.2.0 and the deprecation superseded in 19.2.0"
        in said
    )
    # "*hash* is deprecated in favor of *unsafe_hash*": another parameter to pass instead
    assert "`hash` (since 24.1.0; use `unsafe_hash` instead), `repr_ns` (since 24.1.0)" in said
    completion = deprecation_tools.check_deprecation(hub, "setup_completion")
    assert not completion.deprecated
    assert deprecation_tools.check_deprecation(hub, "old_helper").deprecated


def test_check_deprecation_reads_a_re_exports_definition(hub: HubSession) -> None:
    # `acme.Option` is defined as `acme.params.Option`: that definition's records count
    option = deprecation_tools.check_deprecation(hub, "acme.Option")
    assert not option.deprecated and option.parameters[0].parameter == "default"
    assert "its `default` parameter is deprecated" in deprecation_report(option)


BARE = b'''\
def s(maybe_cls=None, repr_ns=None, slots=False):
    """
    Decorate a class.

    Args:
        repr_ns (str):
            When using nested classes, there was no way in Python 2 to
            detect that.  This argument is pointless in Python 3 and is
            therefore deprecated.

        slots (bool): Create a slotted class.

    .. deprecated:: 24.1.0 *repr_ns*
    .. deprecated:: 25.1.0 *slots*
    """
    return maybe_cls
'''


def test_a_note_that_only_names_the_parameter_takes_its_entrys_sentence() -> None:
    records = {r.parameter: r for r in extract("acme/bare.py", BARE).deprecations}
    assert records["repr_ns"].note == (
        "parameter `repr_ns`: This argument is pointless in Python 3 and is therefore deprecated."
    )
    assert records["repr_ns"].since == "24.1.0"
    # nothing else tells of *slots*: the record stays, saying what it can
    assert records["slots"].note == "parameter `slots`: deprecated since 25.1.0."


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("usage: `a` warns. (changed in 2.0: `a` now does not compare anymore.)", "2.0"),
        ("usage: `a` warns. (changed in 2.0: `a` now emits a FutureWarning.)", None),
        ("usage: `a` warns. (changed in 2.0: `a` was removed.)", None),  # a removal
        ("usage: `a` warns (changed in 2.0: it is said in the prose).", None),
    ],
)
def test_a_later_change_supersedes_a_docstring_deprecation(note: str, expected: str | None) -> None:
    record = Deprecation(source="acme", symbol="acme.f", note=note, origin="docstring")
    assert superseded_in(record) == expected
    assert superseded_in(record.model_copy(update={"origin": "changelog"})) is None
