"""Compact text renderings of the tool outputs: what an agent reads next to the structured
content. Every citation (id, source:path:lines, url) is kept; prose is kept short."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ctxhub.core.budget import CUT_MARK
from ctxhub.core.knowledge import Hit, SearchResponse
from ctxhub.core.limits import MAX_LINES, MAX_TOKENS
from ctxhub.core.outputs import (
    CallTrace,
    CodeSnippet,
    DocPage,
    ExampleBundle,
)
from ctxhub.tools.call_tree import tree_order

#: How many names of a metadata list the text shows (the structured content has them all).
LIST_SHOWN = 8


def _names(values: Iterable[Any], shown: int = LIST_SHOWN) -> str:
    items = [str(v) for v in values]
    more = f" (+{len(items) - shown})" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def _lines(start: int | None, end: int | None) -> str:
    if start is None:
        return ""
    return f":{start}" + (f"-{end}" if end is not None and end != start else "")


def _fence(code: str, language: str = "") -> str:
    # A fence longer than any backtick run inside keeps the block intact.
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{language}\n{code}\n{ticks}"


def _through(receiver: str | None, sep: str = " ") -> str:
    """How a call names its receiver, when that is worth saying: `via super()`."""
    return f"{sep}via {receiver}" if receiver else ""


def _hit_facts(hit: Hit) -> list[str]:
    meta = hit.metadata
    facts: list[str] = []
    if hit.kind == "api":
        if meta.get("signature"):
            facts.append(f"signature: {meta['signature']}")
        parts = []
        for key in ("bases", "yields", "calls"):
            if meta.get(key):
                parts.append(f"{key}: {_names(meta[key])}")
        if meta.get("match_via"):
            parts.append("calls match via " + ", ".join(meta["match_via"]))
        if meta.get("call_unresolved"):
            parts.append("call_unresolved (receiver of unknown type)")
        if meta.get("deprecated"):
            parts.append("DEPRECATED")
        if parts:
            facts.append(" · ".join(parts))
    elif hit.kind == "doc" and meta.get("describes"):
        # a window of a Sphinx API page: which definitions it documents
        facts.append(f"describes: {_names(meta['describes'])}")
    elif hit.kind == "example":
        parts = [f"example: {meta['example']}"] if meta.get("example") else []
        if meta.get("tags"):
            parts.append(f"tags: {_names(meta['tags'])}")
        for key in ("execution_mode", "language"):
            if meta.get(key):
                parts.append(f"{key}: {meta[key]}")
        if parts:
            facts.append(" · ".join(parts))
    return facts


def _also_in(versions: Any) -> str:
    """`also in v14.3.3 (rich-sdist)`: the other versions folded into a hit."""
    if not isinstance(versions, list) or not versions:
        return ""
    named = [
        f"v{v['version']} ({v['source']})" if v.get("version") else str(v.get("source"))
        for v in versions
        if isinstance(v, dict)
    ]
    return "also in " + ", ".join(named) if named else ""


def _local(metadata: Mapping[str, Any]) -> str:
    """` (local function in Router.add_route)` for a def nested in a function, ` (local
    class in factory)` for a class made in one (` (method of a local class in factory)`
    for its methods): no public path, only its own dotted name reaches it."""
    enclosing = metadata.get("nested_in")
    if not enclosing:
        return ""
    what = _LOCAL_KINDS.get(metadata.get("chunk_type") or "", "local function")
    return f" ({what} in {enclosing})"


def _also_on_page(hit: Hit) -> str:
    """`also on this page: Cookies (id 1f0e…, lines 8-59); ...`: the page's other
    sections that rank among the hits (search/collapse.py), each with the id get_doc
    opens; the page title every breadcrumb starts with is left out."""
    listed = hit.metadata.get("also_on_page")
    if not isinstance(listed, list) or not listed:
        return ""
    prefix = f"{hit.title} > " if hit.title else ""
    parts = []
    for entry in listed:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("section") or hit.title)
        name = name[len(prefix) :] if prefix and name.startswith(prefix) else name
        lines = _lines(entry.get("line_start"), entry.get("line_end")).lstrip(":")
        parts.append(f"{name} (id {entry.get('id')}" + (f", lines {lines})" if lines else ")"))
    return "also on this page: " + "; ".join(parts) if parts else ""


#: How a local definition is named by its chunk type (a def is a local function).
_LOCAL_KINDS = {"class": "local class", "method": "method of a local class"}


def render_hit(rank: int, hit: Hit) -> str:
    name = hit.symbol or hit.section or hit.title or hit.path
    if hit.metadata.get("public_path"):
        name += f" (public: {hit.metadata['public_path']})"
    name += _local(hit.metadata)
    where = f"{hit.source}:{hit.path}{_lines(hit.line_start, hit.line_end)}"
    cite = [f"id {hit.id}", where]
    if hit.metadata.get("included_from"):
        # all of the text is another file's, which the page includes: that file's lines
        # are where it can be read; the page's line is the include directive's
        where = f"{hit.source}:{hit.metadata['included_from']}"
        cite[1:] = [where, f"included by {hit.path}{_lines(hit.line_start, hit.line_end)}"]
    elif hit.metadata.get("included_parts"):
        cite.append("includes " + ", ".join(map(str, hit.metadata["included_parts"])))
    if hit.url:
        cite.append(hit.url)
    if hit.version:
        cite.append(f"v{hit.version}")
    if also := _also_in(hit.metadata.get("also_in")):
        cite.append(also)
    # a listed row has no relevance to show (a filter admitted it, no query ranked it)
    scored = f"  (score {hit.score:.2f})" if hit.score is not None else ""
    kind = f"{hit.kind}, supplement" if hit.metadata.get("supplement") else hit.kind
    head = [f"## {rank}. [{kind}] {name}{scored}", " · ".join(cite)]
    if page := _also_on_page(hit):
        head.append(page)
    if hit.metadata.get("not_installed"):  # tools/installed_gaps.py
        head.append(f"NOTE: {hit.metadata['not_installed']}")
    body = hit.snippet.strip("\n")
    if body and body != CUT_MARK and hit.kind in ("api", "example"):
        language = "python" if hit.metadata.get("language", "python") == "python" else ""
        body = _fence(body, language)
    return "\n".join([*head, *_hit_facts(hit), body]).rstrip()


def search_response(response: SearchResponse) -> str:
    count = len(response.hits)
    head = f"{count} hit{'s' if count != 1 else ''}"
    if response.query.strip():
        head += f" for {response.query!r}"
    head += f" (confidence {response.confidence:.2f}"
    head += ", LOW)" if response.low_confidence else ")"
    if response.total is not None:
        head += f"; {response.total} match the filters"
    if response.next_cursor:
        # in the first line too: a text cut to fit the budget keeps it
        head += f"; next page: call again with cursor={response.next_cursor!r}"
    if response.left_out:
        # in the first line, which a tight budget never cuts
        head += (
            f"; {response.left_out} more left out to fit max_tokens: raise max_tokens to see"
            " them, or lower limit to give each hit more room"
        )
    lines = [head]
    if response.notice and response.hits:  # about the hits (a name nothing defines): first
        lines.append(response.notice)
    lines.extend(render_hit(i, hit) for i, hit in enumerate(response.hits, start=1))
    if response.low_confidence and response.next_queries:
        lines.append("try instead: " + " | ".join(response.next_queries))
    if response.truncated:
        lines.append("(snippets trimmed to fit max_tokens; open a hit by its id for the rest)")
    lines.extend(response.source_notes)
    if response.notice and not response.hits:
        lines.append(response.notice)
    elif not response.hits:
        lines.append("nothing found; try other words, fewer filters, or get_hub_status")
    return "\n\n".join(lines)


def _read_on(snippet: CodeSnippet) -> str:
    """How to see what a truncated snippet leaves out: the next lines by path and range,
    or more lines and tokens; as tool arguments and as the CLI spells them."""
    more = (
        f"or raise max_lines (at most {MAX_LINES}) and max_tokens (at most {MAX_TOKENS})"
        f" (`--max-lines N --max-tokens N`)"
    )
    if snippet.line_end >= snippet.full_line_end:
        return f"not all lines shown: {more}"
    nxt, end, path, source = (
        snippet.line_end + 1,
        snippet.full_line_end,
        snippet.path,
        snippet.source,
    )
    return (
        f"lines {nxt}-{end} not shown: read on with get_code_snippet(path={path!r},"
        f" line_start={nxt}, line_end={end}, source={source!r})"
        f" (`ctxhub snippet --path {path} --line {nxt} --end {end} --source {source}`), " + more
    )


def code_snippet(snippet: CodeSnippet) -> str:
    name = snippet.symbol or snippet.path
    kind = snippet.metadata.get("chunk_type") or snippet.kind
    span = f"lines {snippet.line_start}-{snippet.line_end}"
    if snippet.truncated:
        span += f" of {snippet.full_line_start}-{snippet.full_line_end} (truncated)"
    shown = snippet.code != CUT_MARK
    if not shown:  # not even its first line fits
        span = f"lines {snippet.full_line_start}-{snippet.full_line_end}, none shown"
        span += " (raise max_tokens)"
    cite = [f"id {snippet.id}", f"{snippet.source}:{snippet.path}", span]
    if snippet.version:
        cite.append(f"v{snippet.version}")
    public = f" (public: {snippet.public_path})" if snippet.public_path else ""
    public += _local(snippet.metadata)
    lines = [f"{name}{public} ({kind}, found by {snippet.resolution})", " · ".join(cite)]
    if shown and snippet.truncated:
        lines.append(_read_on(snippet))
    if snippet.alias:
        lines.append(f"asked by an alias of it: {snippet.alias}")
    if snippet.metadata.get("deprecated"):
        lines.append("DEPRECATED: see check_deprecation")
    language = "python" if snippet.path.endswith((".py", ".pyi")) else ""
    if shown:
        lines.append(_fence(snippet.code, language))
    if snippet.companions:
        lines.append("calls (open with get_code_snippet(chunk_id=...)):")
        lines.extend(
            f"- {c.name}{_through(c.through)} -> {c.symbol} · id {c.id} · "
            f"{c.path}{_lines(c.line_start, None)}"
            for c in snippet.companions
        )
    if snippet.stubs:
        lines.append("typed stubs of it (open with get_code_snippet(chunk_id=...)):")
        lines.extend(
            f"- {t.symbol} · id {t.id} · {t.path}{_lines(t.line_start, None)}"
            for t in snippet.stubs
        )
    if snippet.typing_stub:
        lines.append("a typing stub (under `if TYPE_CHECKING:`): this code never runs")
    if snippet.implementations:
        lines.append("registered implementation (open with get_code_snippet(chunk_id=...)):")
        lines.extend(
            f"- {t.symbol} · id {t.id} · {t.path}{_lines(t.line_start, None)}"
            for t in snippet.implementations
        )
    if copies := _also_in([c.model_dump() for c in snippet.also_in]):
        lines.append(copies + " (the same code)")
    if snippet.alternatives:
        lines.append("other matches: " + _names(snippet.alternatives, 10))
    if snippet.other_sources:
        lines.append(f"also in: {_names(snippet.other_sources)} (pass source=NAME)")
    lines.extend(snippet.source_notes)
    return "\n".join(lines)


def _section_list(page: DocPage, label: str) -> str:
    if not page.sections:
        return f"{label}: {page.sections_left_out} (raise max_tokens to list them)"
    more = f" (+{page.sections_left_out} more; raise max_tokens to list them)"
    return f"{label}: " + " | ".join(page.sections) + (more if page.sections_left_out else "")


def doc_page(page: DocPage) -> str:
    cite = [f"id {page.id}", f"{page.source}:{page.path}"]
    if page.url:
        cite.append(page.url)
    if page.version:
        cite.append(f"v{page.version}")
    lines = [f"# {page.title or page.path}", " · ".join(cite)]
    if page.section:
        lines.append(f"section matching {page.section!r}")
    if page.included:
        lines.append(f"{page.included} is included in this page")
    if page.other_sources:
        lines.append(f"also in: {_names(page.other_sources)} (pass source=NAME)")
    many = len(page.sections) + page.sections_left_out > 1
    if many and not page.section:
        lines.append(_section_list(page, "sections"))
    lines.append("")
    lines.append(page.content)
    if page.truncated:
        more = "" if page.section else ", or read one section with section=..."
        lines.append(f"\n(cut to fit max_tokens: raise max_tokens to read on{more})")
    if many and page.section:
        # after the section's text: a tight budget cuts the list, not the text
        lines.append("\n" + _section_list(page, "the page's sections"))
    return "\n".join(lines)


def call_trace(trace: CallTrace) -> str:
    verb = "calls" if trace.direction == "callees" else "is called by"
    where = f"{trace.path}{_lines(trace.line_start, None)}" if trace.path else ""
    head = f"{trace.symbol} {verb} (depth {trace.depth}) · id {trace.id}"
    lines = [head + (f" · {where}" if where else "")]
    if trace.alias:
        lines.append(f"{trace.alias} is an alias: traced the definition it names")
    if trace.alternatives:
        # said before the nodes: they belong to one of several definitions of the name
        lines.append(
            f"ambiguous: {len(trace.alternatives) + 1} definitions have this name; traced"
            f" {trace.symbol} ({trace.chosen_because or 'the first found'}); the others:"
            f" {_names(trace.alternatives, 10)} (pass one as symbol to trace it)"
        )
    if not trace.nodes:
        what = "callees" if trace.direction == "callees" else "callers"
        # with callers left untraced, none found is not none there
        lines.append(f"(no {'resolved' if trace.untyped_callers else 'indexed'} {what})")
    for node, orphan in tree_order(trace.nodes):
        indent = "  " * (node.depth - 1)
        nested = f", in nested {node.nested}" if node.nested else ""
        nested += f", reached from {node.via}" if orphan else ""
        at = f", call at line {node.call_line}" if node.call_line else ""
        copies = _also_in([c.model_dump() for c in node.also_in])
        lines.append(
            f"{indent}- {node.symbol} · id {node.id} · {node.path}{_lines(node.line_start, None)}"
            f" (as {node.name}{_through(node.through, ', ')}{nested}{at})"
            + (f" · {copies}" if copies else "")
        )
    if trace.unresolved:
        lines.append(
            "unresolved (an indexed definition has the name; its receiver's class is not"
            " known here): " + _names(trace.unresolved, 20)
        )
    if trace.not_indexed:
        lines.append("not indexed: " + _names(trace.not_indexed, 20))
    if trace.untyped_calls_count:
        n = trace.untyped_calls_count
        lines.append(
            f"{n} call{'s' if n > 1 else ''} on objects of unknown type"
            f" {'are' if n > 1 else 'is'} not traced: " + _names(trace.untyped_calls, 10)
        )
    if copies := _also_in([c.model_dump() for c in trace.also_in]):
        lines.append(copies + " (the same code: the same graph)")
    if trace.other_sources:
        lines.append(f"also defined in: {_names(trace.other_sources)} (pass source=NAME)")
    if trace.untyped_callers:
        name = trace.symbol.rsplit(".", 1)[-1]
        lines.append(
            f"(calls on objects of unknown type, `obj.{name}()`, are not traced: "
            "more callers may exist)"
        )
    if trace.truncated:
        lines.append("(more nodes left out; lower depth or raise max_tokens)")
    lines.extend(trace.source_notes)  # last, as a search's: the graph is the indexed version's
    return "\n".join(lines)


def example_bundle(bundle: ExampleBundle) -> str:
    lines = [f"# example {bundle.name}", f"id {bundle.id} · {bundle.source}:{bundle.path}"]
    if bundle.summary:
        lines.append(bundle.summary)
    facts = []
    if bundle.tags:
        facts.append(f"tags: {_names(bundle.tags, 15)}")
    for label, value in (("execution", bundle.execution_mode), ("language", bundle.language)):
        if value:
            facts.append(f"{label}: {value}")
    if facts:
        lines.append(" · ".join(facts))
    for key, value in bundle.taxonomy.items():
        if key in ("example_path",) or value in (None, "", [], {}):
            continue
        if isinstance(value, list):
            shown = _names(value, 10)
        elif isinstance(value, dict):  # `issues`: path -> what is wrong with it
            shown = _names([f"{k} ({v})" for k, v in value.items()], 10)
        else:
            shown = str(value)
        lines.append(f"{key}: {shown[:300]}")
    for file in bundle.files:
        note = " (truncated)" if file.truncated else ""
        language = "python" if file.path.endswith(".py") else ""
        lines.append(f"\n=== {file.path}{note}\n{_fence(file.content, language)}")
    if bundle.omitted:
        lines.append("\nleft out to fit max_tokens: " + ", ".join(bundle.omitted))
    return "\n".join(lines)
