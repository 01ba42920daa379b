"""A dotted name is looked up where its qualifier says: a class's member along its
bases, a package's renamed import as an alias, and nothing else that merely shares the
last name (another class's or another package's method is never the answer)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.errors import NotFoundError
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools import code_tools, deprecation_tools, trace_tools

INIT = """
from .streams import ReceiveStream, MemoryReceiveStream
from .waiting import wait_exponential as wait_full_jitter
"""

STREAMS = '''
class UnreliableReceiveStream:
    """A stream that may lose items."""

    def receive(self):
        """The next item."""
        item = self.buffer.pop()
        self.count += 1
        return item


class ReceiveStream(UnreliableReceiveStream):
    """A stream that never loses items."""

    def close(self):
        """Close it."""
        self.closed = True
        self.count = 0
        return None


class Buffered:
    """A stream with a buffer."""

    def __init__(self, size):
        """Hold `size` items."""
        self.size = size
        self.buffer = []
        self.count = 0


    def reset(self):
        """Empty it."""
        self.buffer = []
        self.count = 0
        return self


class LineBuffered(Buffered):
    """Buffered by lines."""

    def __init__(self):
        """One line."""
        super().__init__(1)
        self.lines = []


class MemoryReceiveStream(ReceiveStream):
    """A stream in memory."""

    def peek(self):
        """The next item, kept."""
        item = self.buffer[-1]
        self.count += 0
        return item
'''

WAITING = '''
def wait_exponential(multiplier=1, maximum=60):
    """Wait longer after each attempt."""
    delay = multiplier * 2
    delay = min(delay, maximum)
    return delay
'''

OTHER = '''
class Event:
    """Another library's event."""

    def wait(self):
        """Wait until it is set."""
        self.waiters += 1
        result = self.flag
        return result
'''


#: a module whose typed local's class comes through a private re-export
USER = '''
from streamy._facade import Buffered


def fill(size):
    """A fresh buffer."""
    buf: Buffered | None = None
    buf = Buffered(size)
    return buf.reset()
'''

#: a user's project calling the framework by its public names
PROJECT = '''
import streamy


def fetch():
    """Read one item."""
    stream = streamy.MemoryReceiveStream()
    return stream


def make_buffer():
    """A buffer of three."""
    from streamy.streams import Buffered

    return Buffered(3)
'''


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    root = tmp_path_factory.mktemp("qualified")
    for package, files in (
        (
            "streamy",
            {
                "__init__.py": INIT,
                "streams.py": STREAMS,
                "waiting.py": WAITING,
                "_facade.py": "from .streams import Buffered\n",
                "user.py": USER,
            },
        ),
        ("otherlib", {"__init__.py": "", "events.py": OTHER}),
        ("project", {"__init__.py": "", "main.py": PROJECT}),
    ):
        folder = root / package / package
        folder.mkdir(parents=True)
        for name, text in files.items():
            (folder / name).write_text(text)
    home = root / "home"
    embedder = HashingEmbedder(dim=64)
    specs = [
        SourceSpec(name=p, kind=["python"], path=str(root / p))
        for p in ("streamy", "otherlib", "project")
    ]
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home, embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_an_inherited_member_is_read_along_the_bases(hub: HubSession) -> None:
    for asked in (
        "streamy.MemoryReceiveStream.receive",  # two bases up, through the re-export
        "streamy.streams.ReceiveStream.receive",
        "MemoryReceiveStream.close",
    ):
        snippet = code_tools.get_code_snippet(hub, symbol=asked)
        want = "receive" if asked.endswith("receive") else "close"
        owner = "UnreliableReceiveStream" if want == "receive" else "ReceiveStream"
        assert snippet.symbol == f"streamy.streams.{owner}.{want}", asked
        assert snippet.resolution == "inherited", asked


def test_a_member_the_named_class_lacks_is_not_found(hub: HubSession) -> None:
    # `wait` exists only on another package's class: never the answer
    for asked in ("streamy.ReceiveStream.wait", "streamy.wait", "requests.Session.wait"):
        with pytest.raises(NotFoundError, match="no definition named"):
            code_tools.get_code_snippet(hub, symbol=asked)
    with pytest.raises(NotFoundError) as raised:
        trace_tools.trace_calls(hub, "streamy.ReceiveStream.wait")
    assert "otherlib.events.Event.wait" not in str(raised.value).split("did you mean")[0]
    with pytest.raises(NotFoundError, match=r"did you mean streamy\.MemoryReceiveStream\.peek"):
        trace_tools.trace_calls(hub, "streamy.MemoryRecieveStream.peek")
    answer = deprecation_tools.check_deprecation(hub, "streamy.ReceiveStream.wait")
    assert not answer.found
    # the bare name still finds the one method of that name
    assert code_tools.get_code_snippet(hub, symbol="wait").symbol == "otherlib.events.Event.wait"


def test_did_you_mean_prefers_names_under_a_like_qualifier(hub: HubSession) -> None:
    with pytest.raises(NotFoundError) as raised:
        code_tools.get_code_snippet(hub, symbol="streamy.MemoryRecieveStream.peek")
    offered = str(raised.value).split("did you mean ", 1)[1]
    assert offered.startswith("streamy.MemoryReceiveStream.peek")  # as imported


def test_a_renamed_import_of_a_public_module_is_an_alias(hub: HubSession) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="streamy.wait_full_jitter")
    assert snippet.symbol == "streamy.waiting.wait_exponential"
    assert snippet.alias is not None
    assert "import wait_exponential as wait_full_jitter" in snippet.alias


def test_a_renamed_export_is_public_under_its_new_name_only(hub: HubSession) -> None:
    from ctxhub.search.reexports import public_paths

    paths = public_paths(hub.store, ["streamy.waiting.wait_exponential"])
    assert paths == {"streamy.waiting.wait_exponential": "streamy.wait_full_jitter"}
    # `streamy.wait_exponential` does not exist: `streamy` binds it as wait_full_jitter
    with pytest.raises(NotFoundError, match=r"defined as streamy\.wait_full_jitter"):
        code_tools.get_code_snippet(hub, symbol="streamy.wait_exponential")


def test_a_private_modules_renamed_import_is_no_alias(tmp_path: Path) -> None:
    from ctxhub.ingest.python.chunks import extract_python_file

    code = b"from .waiting import wait_exponential as backoff\n"
    public = extract_python_file("p", "p/api.py", code, version="1", internal_packages={"p"})
    private = extract_python_file("p", "p/_impl.py", code, version="1", internal_packages={"p"})
    kinds = [c.metadata.chunk_type for c in public.chunks]
    assert kinds.count("alias") == 1
    assert [c for c in private.chunks if c.metadata.chunk_type == "alias"] == []


def test_a_base_class_filter_takes_a_dotted_name(hub: HubSession) -> None:
    from ctxhub.tools import search_tools

    for base in ("ReceiveStream", "streamy.ReceiveStream", "streamy.streams.ReceiveStream"):
        listed = search_tools.search_api(hub, base_class=base)
        assert [h.symbol for h in listed.hits] == ["streamy.streams.MemoryReceiveStream"], base


def test_a_project_call_of_a_public_name_reaches_the_other_packages_definition(
    hub: HubSession,
) -> None:
    trace = trace_tools.trace_calls(hub, "project.main.fetch")
    assert [n.symbol for n in trace.nodes] == ["streamy.streams.MemoryReceiveStream"]
    assert trace.unresolved == []


def test_a_constructors_callers_include_the_constructions_of_its_class(hub: HubSession) -> None:
    trace = trace_tools.trace_calls(hub, "streamy.streams.Buffered.__init__", direction="callers")
    assert {n.symbol for n in trace.nodes} == {
        "streamy.streams.LineBuffered.__init__",  # super().__init__(1)
        "project.main.make_buffer",  # Buffered(3)
        "streamy.user.fill",  # Buffered(size), imported through streamy._facade
    }


def test_a_search_for_a_name_nothing_defines_says_so(hub: HubSession) -> None:
    from ctxhub.tools import render, search_tools

    missing = search_tools.search(hub, "streamy.MemoryReceiveStream.fetch_json")
    assert missing.notice is not None
    assert missing.notice.startswith(
        "no definition named 'streamy.MemoryReceiveStream.fetch_json' is indexed"
    )
    text = render.search_response(missing)
    assert text.split("\n\n")[1] == missing.notice  # read before the hits
    for present in ("streamy.MemoryReceiveStream", "streamy.streams.MemoryReceiveStream.peek"):
        assert search_tools.search(hub, present).notice is None, present
    # a question is no name
    assert search_tools.search(hub, "how do I peek at the next item").notice is None


def test_a_typed_locals_call_reaches_a_class_imported_through_a_re_export(
    hub: HubSession,
) -> None:
    trace = trace_tools.trace_calls(hub, "streamy.user.fill")
    assert "streamy.streams.Buffered.reset" in {n.symbol for n in trace.nodes}


def test_a_structural_question_in_words_names_the_tool_that_answers_it(hub: HubSession) -> None:
    from ctxhub.tools import search_tools

    asked = {
        "which classes subclass ReceiveStream": "search_api(base_class='ReceiveStream')",
        "who calls streamy.streams.Buffered.reset": "direction='callers'",
        "what does LineBuffered subclass": "get_code_snippet(symbol='LineBuffered')",
    }
    for query, tool in asked.items():
        notice = search_tools.search(hub, query).notice
        assert notice is not None and tool in notice, query
    # a name nothing defines gets no hint; a how-to question none
    assert search_tools.search(hub, "which classes subclass NoSuchBase").notice is None
    assert search_tools.search(hub, "how do I peek at the next item").notice is None
