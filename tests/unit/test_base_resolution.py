"""Bases resolved as their module binds them (ingest/python/bases.py, tools/hierarchy.py):
sibling implementations that share class names (a sync and an asyncio `Connection`)
keep their own super() callers, a base that cannot be placed leaves the edge out, and a
call through a module no source indexes never reaches an indexed namesake."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools import hierarchy, trace_tools
from ctxhub.tools.lookup import api_chunks
from tests.unit.package_hub import package_hub

CONNECTION = """
    class Connection:
        def process_event(self, event):
            event = event or None
            print(event)
            return event

        def data_received(self, data):
            self.process_event(data)
            return data
    """

FILES = {
    "sync/__init__.py": "",
    "sync/connection.py": CONNECTION,
    "sync/client.py": """
        from twin.sync.connection import Connection


        class ClientConnection(Connection):
            def process_event(self, event):
                return super().process_event(event)
        """,
    "asyncio/__init__.py": "",
    "asyncio/connection.py": CONNECTION,
    "asyncio/client.py": """
        from .connection import Connection


        class ClientConnection(Connection):
            def process_event(self, event):
                return super().process_event(event)
        """,
    "asyncio/server.py": """
        from . import connection


        class ServerConnection(connection.Connection):
            def process_event(self, event):
                return super().process_event(event)


        class LoggingServer(ServerConnection):
            def data_received(self, data):
                return super().data_received(data)
        """,
    "loose/__init__.py": "",
    "loose/client.py": """
        from twin.loose.helpers import *


        class StarClient(Connection):
            def process_event(self, event):
                return super().process_event(event)
        """,
    "responses.py": """
        class Response:
            def __init__(self, content=None):
                self.content = content
                self.headers = {}
                self.status = 200


        class Session:
            def send(self, request):
                request = request or None
                print(request)
                return request
        """,
    "testclient.py": """
        import httpx
        from requests import Session


        def handle_request(request):
            response = httpx.Response(200, request=request)
            session = Session()
            httpx.Client.send(session, request)
            return response
        """,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with package_hub(tmp_path_factory.mktemp("bases-home"), "twin", FILES) as h:
        yield h


def _callers(hub: HubSession, symbol: str) -> set[str]:
    return {n.symbol for n in trace_tools.trace_calls(hub, symbol, "callers").nodes}


def test_super_reaches_the_base_the_module_imports_not_a_namesake(hub: HubSession) -> None:
    down = trace_tools.trace_calls(hub, "twin.asyncio.client.ClientConnection.process_event")
    assert [n.symbol for n in down.nodes] == ["twin.asyncio.connection.Connection.process_event"]
    assert _callers(hub, "twin.asyncio.connection.Connection.process_event") == {
        "twin.asyncio.client.ClientConnection.process_event",
        "twin.asyncio.server.ServerConnection.process_event",
        "twin.asyncio.connection.Connection.data_received",
    }
    assert _callers(hub, "twin.sync.connection.Connection.process_event") == {
        "twin.sync.client.ClientConnection.process_event",
        "twin.sync.connection.Connection.data_received",
    }


def test_super_follows_the_method_resolution_order_through_resolved_bases(
    hub: HubSession,
) -> None:
    down = trace_tools.trace_calls(hub, "twin.asyncio.server.LoggingServer.data_received")
    assert [n.symbol for n in down.nodes] == ["twin.asyncio.connection.Connection.data_received"]


def test_a_base_that_cannot_be_placed_leaves_the_call_unresolved(hub: HubSession) -> None:
    down = trace_tools.trace_calls(hub, "twin.loose.client.StarClient.process_event")
    assert down.nodes == []
    assert down.unresolved == ["super().process_event"]
    [star] = api_chunks(hub.store, symbol="twin.loose.client.StarClient")
    [base] = hierarchy.bases_of(hub.store, star)
    assert (base.cls, base.unknown) == (None, True)


def test_bases_are_recorded_qualified_as_bound(hub: HubSession) -> None:
    [server] = api_chunks(hub.store, symbol="twin.asyncio.server.ServerConnection")
    assert server.metadata.extra["bases_qualified"] == ["twin.asyncio.connection.Connection"]
    [logging] = api_chunks(hub.store, symbol="twin.asyncio.server.LoggingServer")
    assert logging.metadata.extra["bases_qualified"] == ["twin.asyncio.server.ServerConnection"]


def test_a_call_through_an_unindexed_module_never_reaches_a_namesake(hub: HubSession) -> None:
    assert "twin.testclient.handle_request" not in _callers(hub, "twin.responses.Response.__init__")
    assert _callers(hub, "twin.responses.Session.send") == set()
    down = trace_tools.trace_calls(hub, "twin.testclient.handle_request")
    assert down.nodes == []
    # names only the unindexed module defines: not indexed, never "unresolved"
    assert set(down.not_indexed) == {"httpx.Response", "Session", "httpx.Client.send"}
    assert down.unresolved == []
