"""A towncrier reST changelog: only the deprecation/removal sub-headings' entries count,
each with the release it is under, and only the names those entries are about."""

from __future__ import annotations

from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.ingest.python.deprecation_text import find_replacement

HISTORY = """\
Release history
===============

acme 2.1.0 (2025-10-31)
-----------------------

Features
~~~~~~~~

- Allow `acme.Limiter` to have zero tokens. (`#3321 <https://example.org/3321>`__)


Removals without deprecations
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

- Drop support for Python 3.9. (`#3345 <https://example.org/3345>`__)
- Removed special ``Group`` traceback handling for IPython.


Miscellaneous internal changes
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

- Decrease indentation for errors raised in `acme.safe_channel`. (`#3332`__)
- Improve type annotations by removing `Any` usage.


acme 2.0.0 (2025-09-09)
-----------------------

Deprecations and removals
~~~~~~~~~~~~~~~~~~~~~~~~~

- ``Group`` has been fully removed.
- Trying to use absolute deadlines on a `acme.Scope` made relative now raises.
- Remove ``clear`` method on `acme.Event`: it was deprecated in 1.5.0.
- To better reflect what it does, the keyword argument that was
  previously called ``cancellable`` is now named ``abandon_on_cancel``.
  The old ``cancellable`` name is now deprecated.


Bugfixes
~~~~~~~~

- Any attempt to inherit from `acme.Scope` now raises `TypeError`.
- Change the default timeout in :func:`acme.open_stream` to 0.25 seconds.


acme 1.5.0 (2025-01-01)
-----------------------

Headline features
~~~~~~~~~~~~~~~~~

- ``Group`` has been deprecated in favor of the standard :exc:`BaseExceptionGroup`.

Features
~~~~~~~~

- Add support for :mod:`contextvars`.
"""


def _records() -> dict[tuple[str, str | None], int]:
    found = extract_changelog_deprecations("acme", "docs/history.rst", HISTORY)
    return {(r.symbol, r.since): r.line or 0 for r in found}


def test_only_entries_under_deprecation_subheadings_count() -> None:
    names = {name for name, _ in _records()}
    # entries under Features / Misc / Bugfixes after a removals sub-heading are not removals
    assert "acme.safe_channel" not in names
    assert "acme.open_stream" not in names
    assert "acme.Limiter" not in names
    assert not any(name.startswith("acme.Scope") for name in names)  # passed by, not subject


def test_each_entry_has_the_release_it_is_under() -> None:
    records = _records()
    assert ("Group", "2.0.0") in records  # "fully removed"
    assert ("Group", "1.5.0") in records  # deprecated, said under "Headline features"
    assert ("acme.Event.clear", "2.0.0") in records  # "`clear` method on `acme.Event`"
    assert ("Group", "2.1.0") not in records  # only its traceback handling went


def test_language_names_are_no_records() -> None:
    names = {name for name, _ in _records()}
    assert not names & {"Any", "TypeError", "contextvars", "BaseExceptionGroup"}


def test_a_later_sentence_names_what_is_deprecated() -> None:
    found = extract_changelog_deprecations("acme", "docs/history.rst", HISTORY)
    cancellable = [r for r in found if r.symbol == "cancellable"]
    assert [(r.since, r.replacement) for r in cancellable] == [("2.0.0", "abandon_on_cancel")]


def test_in_favor_of_in_either_spelling() -> None:
    assert find_replacement("deprecated in favor of `acme.new`") == "acme.new"
    assert find_replacement("deprecated in favour of `acme.new`") == "acme.new"


#: towncrier's default entries open with the issue link (pluggy's CHANGELOG.rst)
LINKED = """Changelog
=========

pluggy 1.0.0 (2021-08-25)
=========================

Deprecations and Removals
-------------------------

- `#116 <https://x.invalid/116>`_: Remove deprecated ``implprefix`` support.
  Decorate hook implementations using an instance of HookimplMarker instead.

- `#265 <https://x.invalid/265>`_: Remove the ``_Result.result`` property.
  Use ``_Result.get_result()`` instead.

Features
--------

- `#282 <https://x.invalid/282>`_: When registering a hookimpl declared as
  ``hookwrapper=True`` whose function is not a generator, a ``PluggyValidationError``
  is now raised.
"""


def test_an_entry_opening_with_its_issue_link_is_read_past_the_link() -> None:
    records = extract_changelog_deprecations("p", "CHANGELOG.rst", LINKED)
    found = {r.symbol: r for r in records}
    assert set(found) == {"implprefix", "_Result.result"}  # "`x` support": x is removed
    assert all(r.since == "1.0.0" for r in records)
    assert found["_Result.result"].note.startswith("Remove the ``_Result.result`` property")
