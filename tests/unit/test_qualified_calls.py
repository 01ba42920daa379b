"""search_api's `calls` filter given a qualified or `Class.method` name: the callers
whose call resolves to that definition, those whose receiver's type is unknown marked,
and never a call the graph resolves to another definition of that last name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import render, search_tools
from tests.unit.package_hub import package_hub

FILES = {
    "db.py": """
        class Database:
            def atomic(self, name=None):
                name = name or "tx"
                print(name)
                return name


        class Other:
            def atomic(self, name=None):
                name = name or "other"
                print(name)
                return name
        """,
    "use.py": """
        import driver

        from qc.db import Database, Other


        class Service:
            def __init__(self, db: Database, other: Other):
                self.db = db
                self.other = other

            def typed(self):
                with self.db.atomic():
                    return 1

            def elsewhere(self):
                with self.other.atomic():
                    return 2


        class TxMixin:
            def untyped(self, rows):
                total = 0
                with self.atomic():  # a mixin: which class's atomic is not stated
                    for row in rows:
                        total += row
                return total


        def imported():
            return driver.atomic()
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("qualified-calls"), "qc", FILES) as h:
        yield h


def _listed(hub: HubSession, calls: str) -> dict[str, bool]:
    answer = search_tools.search_api(hub, calls=calls)
    return {str(h.symbol): bool(h.metadata.get("call_unresolved")) for h in answer.hits}


def test_a_bare_name_lists_every_call_of_it(hub: HubSession) -> None:
    assert set(_listed(hub, "atomic")) == {
        "qc.use.Service.typed",
        "qc.use.Service.elsewhere",
        "qc.use.TxMixin.untyped",
        "qc.use.imported",
    }


@pytest.mark.parametrize("calls", ["qc.db.Database.atomic", "Database.atomic", "Database.atomic()"])
def test_a_qualified_name_lists_the_calls_that_reach_that_definition(
    hub: HubSession, calls: str
) -> None:
    # typed reaches Database.atomic; untyped may (its receiver's type is unknown);
    # elsewhere reaches Other.atomic and imported an unindexed module's: neither
    assert _listed(hub, calls) == {"qc.use.Service.typed": False, "qc.use.TxMixin.untyped": True}


def test_unknown_receivers_are_counted_and_marked_in_the_text(hub: HubSession) -> None:
    answer = search_tools.search_api(hub, calls="Database.atomic")
    assert answer.notice is not None and "1 of the listed functions" in answer.notice
    text = render.search_response(answer)
    assert "call_unresolved" in text


def test_a_name_nothing_defines_lists_by_last_name_and_says_so(hub: HubSession) -> None:
    answer = search_tools.search_api(hub, calls="qc.db.Missing.atomic")
    assert {h.symbol for h in answer.hits} >= {"qc.use.Service.typed", "qc.use.imported"}
    assert answer.notice is not None and "no indexed definition is named" in answer.notice


def test_calls_via_narrows_a_qualified_name_too(hub: HubSession) -> None:
    answer = search_tools.search_api(hub, calls="Database.atomic", calls_via="attribute")
    assert [h.symbol for h in answer.hits] == ["qc.use.Service.typed"]
