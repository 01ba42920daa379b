"""A method alias in a class body (`pop_data = peek_data`, a renamed method kept under
its old name) is a definition of that class: a lookup of it answers with the method it
names, never with a base class's method of the same name, and the deprecation and call
graph tools answer for it."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, deprecation_tools, trace_tools
from tests.unit.package_hub import package_hub

STORAGE = """
    import enum


    class Color(enum.Enum):
        red = 1


    class Storage:
        def pop_data(self, key):
            value = self.data.pop(key)
            self.deleted.append(key)
            return value

        def peek_data(self, key):
            return self.data.get(key)


    class ExpireStorage(Storage):
        def peek_data(self, key):
            value = self.expiring.get(key)
            self.touched.append(key)
            return value

        pop_data = peek_data

        def __str__(self):
            return "expire"

        __repr__ = __str__
        limit = 1
        default = Color.red
        other = Storage.peek_data
    """

WEB = """
    class Handler:
        def get_signed_cookie(self, name):
            \"\"\"A signed cookie's value.

            .. versionchanged:: 6.3
               Renamed from ``get_secure_cookie``.
            \"\"\"
            value = self.cookies.get(name)
            self.read.append(name)
            return value

        get_secure_cookie = get_signed_cookie


    class UserHandler(Handler):
        def current_user(self):
            return self.get_secure_cookie("user")
    """

FILES = {"storage.py": STORAGE, "web.py": WEB}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("class-alias-home"), "mal", FILES) as h:
        yield h


def test_own_class_alias_shadows_the_inherited_method(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="mal.storage.ExpireStorage.pop_data")
    assert snippet.symbol == "mal.storage.ExpireStorage.peek_data"
    assert snippet.resolution == "alias"
    assert snippet.alias is not None and "pop_data = peek_data" in snippet.alias
    assert "expiring" in snippet.code and "deleted" not in snippet.code


def test_renamed_method_alias_resolves_in_snippet(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="mal.web.Handler.get_secure_cookie")
    assert snippet.symbol == "mal.web.Handler.get_signed_cookie"
    assert snippet.resolution == "alias"
    # and through a subclass, which inherits the alias
    inherited = code_tools.get_code_snippet(hub, symbol="mal.web.UserHandler.get_secure_cookie")
    assert inherited.symbol == "mal.web.Handler.get_signed_cookie"


def test_renamed_method_alias_is_known_to_deprecated(hub: HubSession) -> None:
    report = deprecation_tools.check_deprecation(hub, "mal.web.Handler.get_secure_cookie")
    assert report.found
    assert not report.did_you_mean


def test_calls_through_the_alias_name_are_traced(hub: HubSession) -> None:
    callers = trace_tools.trace_calls(hub, "mal.web.Handler.get_secure_cookie", "callers")
    assert "mal.web.UserHandler.current_user" in {n.symbol for n in callers.nodes}
    callees = trace_tools.trace_calls(hub, "mal.web.UserHandler.current_user")
    assert "mal.web.Handler.get_secure_cookie" in {n.symbol for n in callees.nodes}


def test_only_method_names_become_aliases() -> None:
    extract = extract_python_file(
        "mal", "mal/storage.py", textwrap.dedent(STORAGE), version="1", internal_packages=["mal"]
    )
    aliases = {
        c.symbol: c.metadata.extra.get("alias_of")
        for c in extract.chunks
        if c.metadata.chunk_type == "alias"
    }
    assert aliases == {
        "mal.storage.ExpireStorage.pop_data": "mal.storage.ExpireStorage.peek_data",
        "mal.storage.ExpireStorage.__repr__": "mal.storage.ExpireStorage.__str__",
        "mal.storage.ExpireStorage.other": "mal.storage.Storage.peek_data",
    }
    # `limit = 1` and `default = Color.red` stay class attributes: no chunk of their own
    symbols = {c.symbol for c in extract.chunks}
    assert "mal.storage.ExpireStorage.limit" not in symbols
    assert "mal.storage.ExpireStorage.default" not in symbols


def test_an_imported_classs_attribute_is_no_alias_and_keeps_its_docstring() -> None:
    """`extra = Extra.forbid` (an enum member of another module's class) is a value, not
    a renamed method: the documented attribute keeps its own chunk. Only a base's method
    (`other = Storage.peek_data` above) is this class's to rename."""
    source = textwrap.dedent(
        """
        from mal.config import Extra, Mode


        class Model:
            extra = Extra.forbid
            \"\"\"What to do with fields the model does not declare.\"\"\"

            mode = Mode.strict
        """
    )
    extract = extract_python_file(
        "mal", "mal/models.py", source, version="1", internal_packages=["mal"]
    )
    types = {c.symbol: c.metadata.chunk_type for c in extract.chunks}
    assert types.get("mal.models.Model.extra") == "attribute"
    assert "mal.models.Model.mode" not in types
