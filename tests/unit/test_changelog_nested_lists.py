"""A changelog entry that lists its deprecated names in a nested bullet list (under a
"Deprecations" heading, or after a line saying they are deprecated) gives one record per
listed name; an entry about a warning emitted when an argument is not passed is advice
on one usage, not a deprecation of the class it names."""

from __future__ import annotations

from ctxhub.core.knowledge import Deprecation
from ctxhub.ingest.python.changelog import extract_changelog_deprecations

HISTORY = """\
2.0 (2021-02-28)
================

Features
--------

- Added ``acme.rules`` to hold the access constants.

- The following helpers are deprecated and will be removed in 3.0:

  - ``acme.util.old_helper``
  - ``acme.util.older_helper``

Deprecations
------------

- Deprecated the policy interfaces and principal-based support. See the upgrade
  notes for equivalent APIs. The following APIs are deprecated as a result of
  this change:

  - ``acme.config.Configurator.set_policy``
  - ``acme.auth.TicketPolicy``
  - ``acme.auth.SessionPolicy``
  - The ``principals`` view and route predicates.

  See https://example.org/pull/3465

- Deprecated ``acme.security.allowed_for``. Use ``acme.rules.allowed`` instead.

1.4a4 (2012-01-05)
==================

Deprecations
------------

- ``acme.auth.TicketPolicy`` will emit a warning if an application is using
  the policy without explicitly passing a ``hashalg`` argument. This is because
  the default is "md5". If you really want "md5" then you must specify it
  explicitly to get rid of the warning.
"""


def _records() -> list[Deprecation]:
    return extract_changelog_deprecations("acme", "HISTORY.rst", HISTORY)


def test_each_name_of_a_nested_list_is_deprecated() -> None:
    whole = {r.symbol: r for r in _records() if not r.partial}
    for name in (
        "acme.config.Configurator.set_policy",
        "acme.auth.TicketPolicy",
        "acme.auth.SessionPolicy",
        "acme.util.old_helper",
        "acme.util.older_helper",
    ):
        assert name in whole, name
        assert whole[name].since == "2.0", name
    policy = whole["acme.auth.TicketPolicy"]
    assert policy.note is not None and policy.note.startswith("Deprecated the policy interfaces")
    assert "acme.auth.TicketPolicy" in policy.note
    # an item that opens with no code-marked name names nothing by itself
    assert "principals" not in {r.symbol for r in _records()}
    # the entries around the list are read as before
    assert whole["acme.security.allowed_for"].replacement == "acme.rules.allowed"
    assert "acme.rules" not in whole


def test_a_warning_when_an_argument_is_not_passed_is_a_usage_record() -> None:
    old = [r for r in _records() if r.symbol == "acme.auth.TicketPolicy" and r.since == "1.4a4"]
    assert old and all(r.partial for r in old)
    assert old[0].note is not None and "hashalg" in old[0].note
