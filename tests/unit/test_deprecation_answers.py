"""check_deprecation answers that a walkthrough found wrong: a note under a Sphinx
`:param x:` field, a docs sentence about a member, warnings whose message sits in a
variable or uses the default category, "This class is deprecated" in a docstring,
removals told apart from deprecations, changelogs named `versionhistory` and reno notes,
and names defined nowhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.docs.chunks import chunk_doc_file
from ctxhub.ingest.python.changelog import extract_changelog_deprecations
from ctxhub.ingest.python.changelog_files import is_changelog
from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.refresh.file_roles import is_text_changelog
from ctxhub.session import HubSession, set_embedder
from ctxhub.tools.deprecation_names import is_removal
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report

STREAMS = b'''\
import warnings

from acme._http import Session


def make_stream(max_size=0, item_type=None):
    """Create a stream.

    :param max_size: items held until send() blocks
    :param item_type: old way of marking the item type
        (does nothing now)

        .. deprecated:: 4.0
          Use ``make_stream[T](...)`` instead.
    :return: a pair of streams
    """
    return max_size


def make_queue(size=0, kind=None):
    """Create a queue.

    Parameters
    ----------
    size : int
        How many items.
    kind : type
        The item type.

        .. deprecated:: 2.1
           Annotate the variable instead.
    """
    return size


class Limiter:
    """Limits."""

    def set_total(self, value):
        return value


def request(url, cookies=None):
    if cookies is not None:
        message = "Setting per-request cookies=<...> is being deprecated."
        warnings.warn(message, DeprecationWarning, stacklevel=2)
    return url


def ssl_context(verify=True, cert=None):
    if isinstance(verify, str):
        message = "`verify=<str>` is deprecated."
        warnings.warn(message, DeprecationWarning)
    if cert:
        message = "`cert=...` is deprecated. Use `verify=<context>` instead."
        warnings.warn(message, DeprecationWarning)
    return verify


class URL:
    @property
    def raw(self):
        warnings.warn("URL.raw is deprecated.")
        return ()

    @property
    def text(self):
        warnings.warn("URL.text is slow.")
        return ""


class VerticalCenter:
    """Vertically aligns a renderable.

    Warn:
        This class is deprecated and may be removed in a future version. Use Align class
        with `vertical="middle"`.
    """


class Align:
    """Aligns."""


class Client:
    """A client."""

    def __init__(self, timeout=None):
        self.timeout = timeout
'''

HTTP = b'''\
import warnings


class Session:
    """A session."""

    def send(self, request, stream=None):
        if stream is not None:
            message = "Passing stream= is deprecated."
            warnings.warn(message, DeprecationWarning)
        return request
'''

GUIDE = """\
# Limits

The `Limiter.total` property is now writable and `Limiter.set_total()` has been
deprecated.
"""

CHANGELOG = """\
# Changelog

## 0.13.0

### Removed

* Dropped support for `Client(uds=...)` (Pull #804)

---

## 0.13.0.dev0

### Removed

* Dropped support for `Client(uds=...)` (Pull #804)

---

## 0.12.0

### Deprecated

* `get_all` is deprecated; use `fetch` instead.
"""

VERSION_HISTORY = """\
Version history
===============

**4.0.0**

*Bug fixes*

- Removed unnecessary extra waiting cycle in ``Limiter.set_total()``

**2.0.0**

- **BACKWARDS INCOMPATIBLE** Removed the ``Event.clear()`` method. Replace the event.
- Deprecated ``acme.old_helper()``; use ``acme.make_stream()`` instead.
"""

RENO_REMOVAL = """\
---
upgrade:
  - "Removed `Retrying.call`: was long time deprecated"
  - |
    Python 3.9 is no longer supported.
fixes:
  - "Removed a race in `Retrying.iter`"
"""

RENO_DEPRECATION = """\
---
deprecations:
  - |
    The ``initial`` parameter of ``acme.make_queue`` is deprecated in favor of
    ``multiplier``.
features:
  - |
    Add ``multiplier`` to ``acme.make_queue``.
"""

NOTES = "releasenotes/notes"


def _changelog_records() -> list[Deprecation]:
    return [
        *extract_changelog_deprecations("acme", "CHANGELOG.md", CHANGELOG),
        *extract_changelog_deprecations("acme", "docs/versionhistory.rst", VERSION_HISTORY),
        *extract_changelog_deprecations("acme", f"{NOTES}/drop-call-1a2b.yaml", RENO_REMOVAL),
        *extract_changelog_deprecations("acme", f"{NOTES}/deprecate-2b3c.yaml", RENO_DEPRECATION),
    ]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    set_embedder(HashingEmbedder(dim=64))
    try:
        with HubSession(Settings(home=tmp_path)) as session:
            extract = extract_python_file(
                "acme", "acme/__init__.py", STREAMS, version=None, internal_packages={"acme"}
            )
            session.store.replace_file(
                "acme", "acme/__init__.py", extract.chunks, deprecations=extract.deprecations
            )
            http = extract_python_file(
                "acme", "acme/_http.py", HTTP, version=None, internal_packages={"acme"}
            )
            session.store.replace_file(
                "acme", "acme/_http.py", http.chunks, deprecations=http.deprecations
            )
            session.store.replace_file(
                "acme", "docs/guide.md", chunk_doc_file("acme", "guide.md", GUIDE)
            )
            session.store.replace_file(
                "acme", "CHANGELOG.md", [], deprecations=_changelog_records()
            )
            yield session
    finally:
        set_embedder(None)


def test_a_note_under_a_sphinx_param_field_deprecates_the_parameter(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.make_stream")
    assert not report.deprecated and report.found
    assert [p.parameter for p in report.parameters] == ["item_type"]
    assert deprecation_report(report).startswith(
        "acme.make_stream: not deprecated; its `item_type` parameter is deprecated (since 4.0)"
    )


def test_a_note_under_a_numpy_parameter_deprecates_the_parameter(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.make_queue")
    assert not report.deprecated
    assert {p.parameter for p in report.parameters} >= {"kind"}


def test_a_docs_sentence_about_a_member_is_not_about_its_class(hub: HubSession) -> None:
    limiter = check_deprecation(hub, "acme.Limiter")
    assert not limiter.deprecated and limiter.checked
    member = check_deprecation(hub, "acme.Limiter.set_total")
    assert member.deprecated and member.evidence == "docs"


def test_warnings_with_a_message_variable_are_parameter_records(hub: HubSession) -> None:
    request = check_deprecation(hub, "acme.request")
    assert not request.deprecated
    assert [p.parameter for p in request.parameters] == ["cookies"]
    assert "per-request cookies" in request.parameters[0].text
    context = check_deprecation(hub, "acme.ssl_context")
    said = {p.parameter: p.text for p in context.parameters}
    # each warning reads the message assigned last before it
    assert said["verify"].startswith("`verify=<str>`") and said["cert"].startswith("`cert=...`")


def test_a_default_category_warning_counts_when_it_says_deprecated(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.URL.raw")
    assert report.deprecated and report.note == "URL.raw is deprecated."
    assert not check_deprecation(hub, "acme.URL.text").deprecated  # a UserWarning about speed


def test_a_docstring_saying_this_class_is_deprecated(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.VerticalCenter")
    assert report.deprecated and report.replacement == "acme.Align"


def test_removals_read_removed_and_a_repeated_entry_once(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.Client")
    assert not report.deprecated
    (uds,) = report.parameters  # the 0.13.0.dev0 copy is the same entry
    assert (uds.parameter, uds.since) == ("uds", "0.13.0") and "---" not in (uds.note or "")
    text = deprecation_report(report)
    assert text.startswith(
        "acme.Client: not deprecated; its `uds` parameter was REMOVED (in 0.13.0)"
    )
    assert "is deprecated" not in text.splitlines()[0]


@pytest.mark.parametrize(
    ("note", "removed"),
    [
        ("Removed the deprecated `x`.", True),
        ("Dropped support for `x`.", True),
        ("Removed: `x` had previously been deprecated.", True),
        ("Deprecated `x`; it will be removed in 3.0.", False),
    ],
)
def test_a_removal_is_told_by_its_opening_words(note: str, removed: bool) -> None:
    record = Deprecation(source="acme", symbol="x", note=note, origin="changelog")
    assert is_removal(record) is removed
    assert not is_removal(record.model_copy(update={"origin": "warn"}))


def test_version_history_entries_outside_sections(hub: HubSession) -> None:
    records = extract_changelog_deprecations("acme", "docs/versionhistory.rst", VERSION_HISTORY)
    by_name = {r.symbol: r for r in records}
    assert set(by_name) == {"Event.clear", "acme.old_helper"}  # not Limiter.set_total
    assert by_name["Event.clear"].since == "2.0.0"
    assert by_name["acme.old_helper"].replacement == "acme.make_stream"
    removed = check_deprecation(hub, "acme.Event.clear")
    assert removed.deprecated and removed.removed and removed.removed_in == "2.0.0"
    assert deprecation_report(removed).startswith("acme.Event.clear: REMOVED in 2.0.0")


def test_reno_notes_are_changelog_entries(hub: HubSession) -> None:
    removal = extract_changelog_deprecations("acme", f"{NOTES}/drop-1a2b.yaml", RENO_REMOVAL)
    assert [r.symbol for r in removal] == ["Retrying.call"]  # not the fix, nor Python 3.9
    assert check_deprecation(hub, "acme.Retrying.call").removed
    deprecation = extract_changelog_deprecations("acme", f"{NOTES}/dep-2b3c.yaml", RENO_DEPRECATION)
    assert [(r.symbol, r.parameter) for r in deprecation] == [("acme.make_queue", "initial")]
    assert extract_changelog_deprecations("acme", f"{NOTES}/bad.yaml", "a: [b") == []


@pytest.mark.parametrize(
    ("relpath", "expected"),
    [
        ("docs/versionhistory.rst", True),
        ("releasenotes/notes/drop-deprecated-7ea90b212509b082.yaml", True),
        ("config/settings.yaml", False),
        ("releasenotes/config.yaml", False),
    ],
)
def test_changelog_names(relpath: str, expected: bool) -> None:
    assert is_changelog(relpath) is expected
    assert is_text_changelog(relpath) is expected  # the refresh reads what the chunker parses


def test_a_member_of_a_reexported_class_answers_from_its_definition(hub: HubSession) -> None:
    report = check_deprecation(hub, "acme.Session.send")  # defined as acme._http.Session.send
    assert report.found and not report.deprecated
    assert [p.parameter for p in report.parameters] == ["stream"]


def test_a_name_defined_nowhere_is_unknown_unless_a_record_names_it(hub: HubSession) -> None:
    # a bare `get_all` in the changelog is about some `get_all`, not about `acme.Session.get_all`
    report = check_deprecation(hub, "acme.Session.get_all")
    assert not report.found and not report.deprecated
    assert deprecation_report(report).startswith("acme.Session.get_all: unknown symbol")
    named = check_deprecation(hub, "acme.Retrying.call")  # not defined, but named removed
    assert named.deprecated and named.removed
