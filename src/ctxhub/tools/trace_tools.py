"""trace_calls: what a function calls, or what calls it, resolved to indexed definitions
(tools/call_edges.py); a name several definitions share answers for one of them and
names the others (tools/ambiguity.py)."""

from __future__ import annotations

from collections import deque

from ctxhub.core.budget import estimate_tokens
from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.core.knowledge import Chunk
from ctxhub.core.limits import DEFAULT_TOKENS, check_tokens
from ctxhub.core.outputs import CallCopy, CallNode, CallTrace
from ctxhub.session import HubSession
from ctxhub.tools import ambiguity, call_edges, resolve
from ctxhub.tools.code_tools import installed_first_of
from ctxhub.tools.copies import copy_key, split_copies
from ctxhub.tools.hub_status import source_notes
from ctxhub.tools.not_found import missing_symbol
from ctxhub.tools.source_check import check_sources
from ctxhub.tools.unplaced_calls import Unplaced, unplaced_calls

MAX_TRACE_NODES = 200
#: Other sources' copies a node lists at most.
MAX_COPIES = 5
#: Tokens held back for the response envelope and the text rendering's headers.
_SLACK_TOKENS = 60


def _fit_nodes(trace: CallTrace, max_tokens: int) -> CallTrace:
    """Keep the nodes (breadth first, nearest first) that fit the token budget."""
    nodes, trace.nodes = trace.nodes, []
    room = max_tokens - estimate_tokens(trace.model_dump_json()) - _SLACK_TOKENS
    for i, node in enumerate(nodes):
        cost = estimate_tokens(node.model_dump_json()) + 12  # + its line in the text
        if cost > room:
            trace.nodes = nodes[:i]
            trace.truncated = True
            return trace
        room -= cost
    trace.nodes = nodes
    return trace


def _copy_key(chunk: Chunk, level: int) -> tuple[str, str, str, int] | None:
    """One definition's copies in two sources are one node at one level (copies.py)."""
    key = copy_key(chunk)
    return None if key is None else (*key, level)


def _constructor(hub: HubSession, chunk: Chunk) -> Chunk:
    """A class body calls little; what constructing it runs is its `__init__` (when
    indexed); any other chunk is itself."""
    if chunk.metadata.chunk_type != "class":
        return chunk
    init = resolve.find_symbol(hub.store, f"{chunk.symbol}.__init__", chunk.source)[0]
    return next((c for c in init if c.metadata.chunk_type == "method"), chunk)


def _traced_as(hub: HubSession, chunk: Chunk, direction: str) -> Chunk:
    """The chunk whose edges a node reached below the root is traced by, as the root is:
    an alias (`listener = ListenerHandler`) by the definition it names in its own
    source, and for callees a class by its `__init__`."""
    if chunk.metadata.chunk_type == "alias":
        found, how = resolve.through_alias(hub.store, [chunk], "")
        if how == "alias":
            found, _stubs = resolve.runtime_first(hub.store, found)
            defined = [c for c in found if c.metadata.chunk_type != "alias"]
            own = [c for c in defined if c.source == chunk.source] or defined
            chunk = own[0] if own else chunk
    return _constructor(hub, chunk) if direction == "callees" else chunk


def trace_calls(
    hub: HubSession,
    symbol: str,
    direction: str = "callees",
    depth: int = 1,
    source: str | None = None,
    max_tokens: int = DEFAULT_TOKENS,
) -> CallTrace:
    """What a function calls (callees) or what calls it (callers), up to `depth` levels,
    resolved to indexed definitions."""
    if direction not in ("callees", "callers"):
        raise InputError(f"direction must be 'callees' or 'callers', got {shown(direction)}")
    if not 1 <= depth <= 3:
        raise InputError(f"depth must be 1, 2 or 3, got {depth}")
    check_tokens(max_tokens)
    if not symbol.strip():
        raise InputError("symbol must not be empty")
    check_sources(hub.store, source)
    found, how = resolve.find_symbol(hub.store, symbol, source)
    asked = found[0] if found and found[0].metadata.chunk_type == "alias" else None
    # an alias (`websocket_listener = WebsocketListenerRouteHandler`) is traced as the
    # definition it names: the alias line itself calls nothing
    found, how = resolve.through_alias(hub.store, found, how)
    # the same alias in each version of a package indexed (one per source)
    aliases = [
        c
        for c in found
        if how == "alias" and asked is not None and c.metadata.chunk_type == "alias"
        if c.symbol == asked.symbol
    ]
    found, _stubs = resolve.runtime_first(hub.store, found)
    found = [c for c in found if c.id not in {a.id for a in aliases}]
    found = [c for c in found if c.metadata.chunk_type in ("method", "function")] or found
    if not found:
        raise NotFoundError(missing_symbol(hub, symbol, source, "function or method"))
    # a name several definitions share (`Connection.recv`): trace the likeliest, name all
    choice = ambiguity.choose(hub.store, found)
    found, elsewhere = installed_first_of(hub, choice.found)
    root = found[0]
    # the root's identical copy in another source is the same graph: said, not offered
    root_copies, elsewhere_kept = split_copies(root, elsewhere)
    # the alias of the root's own version: its callers are in that version too
    alias = next((c for c in aliases if c.source == root.source), None)
    alias = alias or (aliases[0] if aliases else None)
    if direction == "callees":
        root = _constructor(hub, root)
    nodes: list[CallNode] = []
    unplaced = Unplaced()
    seen = {root.id}
    sources = {root.source}
    # (the chunk whose edges are read, its level, the node it stands for)
    queue: deque[tuple[Chunk, int, str]] = deque([(root, 1, root.symbol or root.path)])
    truncated = False
    # one definition in one version of its package, indexed by two sources (the wheel and
    # the sdist), is one node: the copy found later rides along in its `also_in`
    copies: dict[tuple[str, str, str, int], tuple[CallNode, str]] = {}
    while queue:
        current, level, via = queue.popleft()
        if direction == "callees":
            edges, missing = call_edges.callees(hub.store, current)
            if level == 1:
                unplaced = unplaced_calls(hub.store, current, missing[:50])
        else:
            edges = call_edges.callers(hub.store, current)
            if alias is not None and level == 1:
                edges += call_edges.callers(hub.store, alias)  # calls written by the alias
        for edge in edges:
            target = edge.target
            if target.id in seen:
                continue
            if len(nodes) >= MAX_TRACE_NODES:
                truncated = True
                break
            seen.add(target.id)
            key = _copy_key(target, level)
            kept = copies.get(key) if key is not None else None
            if kept is not None and kept[1] != target.source:  # one source's two are two
                sources.add(target.source)  # its notes hold for the node that stands for it
                if len(kept[0].also_in) < MAX_COPIES:
                    kept[0].also_in.append(
                        CallCopy(source=target.source, version=target.version, id=target.id)
                    )
                if level < depth:  # the copy's own edges fold into the kept ones' below
                    queue.append((_traced_as(hub, target, direction), level + 1, kept[0].symbol))
                continue
            sources.add(target.source)
            node = CallNode(
                symbol=target.symbol or target.path,
                id=target.id,
                path=target.path,
                line_start=target.line_start,
                depth=level,
                via=via,
                name=edge.name,
                through=edge.through,
                nested=edge.nested,
                call_line=edge.line,
            )
            if key is not None:
                copies.setdefault(key, (node, target.source))
            nodes.append(node)
            if level < depth:
                traced = _traced_as(hub, target, direction)
                queue.append((traced, level + 1, target.symbol or target.path))
    trace = CallTrace(
        symbol=root.symbol or symbol,
        id=root.id,
        path=root.path,
        line_start=root.line_start,
        direction=direction,
        depth=depth,
        nodes=nodes,
        unresolved=unplaced.unresolved,
        not_indexed=unplaced.not_indexed,
        untyped_calls=unplaced.untyped,
        untyped_calls_count=unplaced.untyped_count,
        truncated=truncated,
        other_sources=sorted({c.source for c in elsewhere_kept}),
        also_in=root_copies,
        # a method is also called on objects whose type the code does not state
        # (`a.evolve()`, `a` a parameter): such calls are not in the graph
        untyped_callers=direction == "callers" and root.metadata.chunk_type == "method",
        alternatives=choice.alternatives,
        chosen_because=choice.reason or None,
        alias=alias.symbol if alias is not None else None,
        # as a search's hits do: a graph read from a version no longer installed says so
        source_notes=source_notes(hub.store, sources),
    )
    return _fit_nodes(trace, max_tokens)
