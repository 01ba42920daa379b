"""A parameter's deprecation takes its version from the docstring that states it (a
`.. deprecated:: 1.5` under the parameter's entry, "Deprecated since version 0.4.1" in
it), and the records one def gives about one parameter are listed once."""

from __future__ import annotations

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.chunks import extract_python_file

ROUTES = '''\
"""Routes."""

import warnings


class Mixin:
    def add_route(self, name, custom_predicates=(), principals=None, header=None):
        """Add a route.

        header

          A header to match.

        principals

          A principal or a sequence of them.

          .. deprecated:: 2.0
              Use ``is_authenticated`` or a custom predicate.

        custom_predicates

          .. deprecated:: 1.5
              A sequence of predicate callables.
        """
        if custom_predicates:
            warnings.warn(
                "The custom_predicates argument is deprecated. Use add_route_predicate.",
                DeprecationWarning,
            )
        if principals is not None:
            warnings.warn(
                "The new policy has deprecated principals, see the upgrade notes.",
                DeprecationWarning,
            )


class Logger:
    def opt(self, *, colors=False, ansi=False):
        """Options.

        Parameters
        ----------
        colors : bool, optional
            Whether to colorize.
        ansi : bool, optional
            Deprecated since version 0.4.1: the ``ansi`` parameter will be removed in 1.0.0,
            it is replaced by ``colors``.
        """
        if ansi:
            warnings.warn("The 'ansi' parameter is deprecated, please use 'colors' instead",
                          DeprecationWarning)
'''


def _records() -> list[Deprecation]:
    extract = extract_python_file(
        "acme", "acme/routes.py", ROUTES, version=None, internal_packages={"acme"}
    )
    return list(extract.deprecations)


def test_a_note_under_a_bare_parameter_entry_is_that_parameters() -> None:
    route = [r for r in _records() if r.symbol == "acme.routes.Mixin.add_route"]
    assert all(r.parameter is not None for r in route)  # no "usage" records
    by_param = {r.parameter: r for r in route}
    assert set(by_param) == {"custom_predicates", "principals"}
    # the docstring's version dates the warning about the same parameter
    assert {(r.parameter, r.since, r.origin) for r in route} == {
        ("custom_predicates", "1.5", "docstring"),
        ("custom_predicates", "1.5", "warn"),
        ("principals", "2.0", "docstring"),
        ("principals", "2.0", "warn"),
    }
    assert len(route) == 4


TWICE = '''\
"""Twice."""


def run(old=None, new=None):
    """Run.

    .. deprecated:: 2.0
       The *old* parameter is deprecated; use *new*.

    Args:
        old: An old thing.

            .. deprecated:: 2.0
               Use ``new``.
        new: The new thing.
    """
'''


def test_one_docstring_telling_of_a_parameter_twice_is_one_record() -> None:
    extract = extract_python_file(
        "acme", "acme/twice.py", TWICE, version=None, internal_packages={"acme"}
    )
    run = [r for r in extract.deprecations if r.symbol == "acme.twice.run"]
    assert [(r.parameter, r.since, r.replacement) for r in run] == [("old", "2.0", "new")]


def test_a_parameter_entry_stating_its_version_dates_the_warning() -> None:
    opt = [r for r in _records() if r.symbol == "acme.routes.Logger.opt"]
    assert [(r.parameter, r.since) for r in opt] == [("ansi", "0.4.1")]
    assert opt[0].replacement == "colors"
