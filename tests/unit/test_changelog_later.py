"""A changelog bullet that deprecates a name in a later sentence, after telling what was
renamed (cattrs 22.2.0), and the sentences that only look like it."""

from __future__ import annotations

import pytest

from ctxhub.ingest.python.changelog import extract_changelog_deprecations


def _records(bullet: str) -> list[tuple[str, str | None, str | None]]:
    text = f"# History\n\n## 22.2.0 (2022-10-03)\n\n- {bullet}\n- Python 3.11 support.\n"
    return [
        (r.symbol, r.replacement, r.since)
        for r in extract_changelog_deprecations("s", "HISTORY.md", text)
    ]


def test_the_later_sentence_names_what_is_deprecated_and_the_rename_its_replacement() -> None:
    bullet = (
        "_Potentially breaking_: `cattrs.Converter` has been renamed to `cattrs.BaseConverter`,"
        " and `cattrs.GenConverter` to `cattrs.Converter`.\n  The `GenConverter` name is still"
        " available for backwards compatibility, but is deprecated.\n  If you were depending on"
        " the old `Converter`, change your import to `from cattrs import BaseConverter`."
    )
    assert _records(bullet) == [("cattrs.GenConverter", "cattrs.Converter", "22.2.0")]


def test_a_plain_later_sentence_deprecation() -> None:
    bullet = "Add `new_api()`. The old `legacy_api()` function is now deprecated."
    assert _records(bullet) == [("legacy_api", None, "22.2.0")]


@pytest.mark.parametrize(
    "bullet",
    [
        # the deprecation belongs to another clause ("which"), of a standard-library name
        "Support `collections.abc.Set`. These should be used instead of their `typing`"
        " alternatives, which are deprecated.",
        # a rename with no word of deprecation
        "`acme.Old` has been renamed to `acme.New`. The `Old` name is still available.",
        # the deprecation is not the names' ("... if `x` is deprecated")
        "Warn when loading. `Loader` warns if the format is deprecated.",
    ],
)
def test_sentences_that_deprecate_nothing_of_the_package(bullet: str) -> None:
    assert _records(bullet) == []
