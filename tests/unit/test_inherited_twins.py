"""`get_code_snippet(Sub.member)` for a member `Sub` inherits reads it along `Sub`'s
resolved bases (tools/hierarchy.py): twin classes of one name in sibling subpackages
(a sync and an asyncio `Connection`) each answer with their own flavour's member."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import code_tools
from tests.unit.package_hub import tree_hub


def _connection(flavour: str) -> str:
    return (
        "class Connection:\n"
        f'    """A {flavour} connection."""\n\n'
        "    def recv(self):\n"
        f'        """Receive the next message ({flavour})."""\n'
        "        message = self.queue.pop()\n        self.count += 1\n        return message\n"
    )


def _client(flavour: str) -> str:
    return (
        f"from tw.{flavour}.connection import Connection\n\n\n"
        "class ClientConnection(Connection):\n"
        f'    """The client side of a {flavour} connection."""\n\n'
        "    def handshake(self):\n"
        '        """Open the connection."""\n'
        "        self.opened = True\n        self.count = 0\n        return self\n"
    )


FILES = {
    "tw/__init__.py": "",
    "tw/sync/__init__.py": "",
    "tw/asyncio/__init__.py": "",
    "tw/sync/connection.py": _connection("sync"),
    "tw/asyncio/connection.py": _connection("asyncio"),
    "tw/sync/client.py": _client("sync"),
    "tw/asyncio/client.py": _client("asyncio"),
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("twins"), "tw", FILES) as h:
        yield h


@pytest.mark.parametrize("flavour", ["sync", "asyncio"])
def test_an_inherited_member_comes_from_the_base_its_module_binds(
    hub: HubSession, flavour: str
) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol=f"tw.{flavour}.client.ClientConnection.recv")
    assert snippet.resolution == "inherited"
    assert snippet.symbol == f"tw.{flavour}.connection.Connection.recv"
    assert f"({flavour})" in snippet.code


def test_an_inherited_member_is_read_in_the_source_asked_only(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(
        hub, symbol="tw.asyncio.client.ClientConnection.recv", source="tw"
    )
    assert snippet.symbol == "tw.asyncio.connection.Connection.recv"
