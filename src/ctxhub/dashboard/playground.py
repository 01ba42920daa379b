"""The search playground: any search tool with its filters, the hits with how each path
ranked them, each re-rank multiplier and the confidence; opening a hit; rating it. Every
call goes through `tools/run.call`, exactly as an agent's."""

from __future__ import annotations

from typing import Any

from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.session import HubSession
from ctxhub.tools.run import call
from ctxhub.tools.specs import BY_NAME

#: The tools the playground runs: the searches, and the reads that open a hit.
SEARCH_TOOLS = (
    "search",
    "search_docs",
    "search_api",
    "search_examples",
    "search_solutions",
    "search_by_approach",
)
OPEN_TOOLS = ("get_doc", "get_code_snippet", "get_example")


def tool_forms() -> list[dict[str, Any]]:
    """Each search tool with its title, description and arguments' JSON schema (the page
    builds its filter form from the schema, so a new filter shows up by itself)."""
    return [
        {
            "name": name,
            "title": BY_NAME[name].title,
            "description": BY_NAME[name].description,
            "schema": BY_NAME[name].args.model_json_schema(),
        }
        for name in SEARCH_TOOLS
    ]


def _clean(args: dict[str, Any]) -> dict[str, Any]:
    """Drop the fields a form left empty (the tools' defaults apply)."""
    return {k: v for k, v in args.items() if v not in (None, "", [])}


def run_tool(hub: HubSession, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """One playground call: the tool's structured content and its text rendering."""
    if tool not in SEARCH_TOOLS + OPEN_TOOLS:
        allowed = ", ".join(SEARCH_TOOLS + OPEN_TOOLS)
        raise InputError(f"the playground runs {allowed}; not {shown(tool)}")
    answer = call(hub, tool, **_clean(args))
    return {"tool": tool, "data": answer.data, "text": answer.text}


def chunk_detail(hub: HubSession, chunk_id: str) -> dict[str, Any]:
    """A chunk in full, with its ratings; NotFoundError names the id."""
    found = hub.store.get_chunks([chunk_id])
    if not found:
        raise NotFoundError(f"no chunk with id {shown(chunk_id)}")
    useful, not_useful = hub.store.knowledge_feedback([chunk_id]).get(chunk_id, (0, 0))
    data = found[0].model_dump(mode="json")
    data.pop("embed_text", None)
    data["useful"], data["not_useful"] = useful, not_useful
    return data


def rate_hit(
    hub: HubSession,
    hit_id: str,
    worked: bool,
    query: str | None,
    note: str | None,
    agent: str | None,
) -> dict[str, Any]:
    """The agents' `rate`, with who rated (the token's name) as its agent."""
    args: dict[str, Any] = {"id": hit_id, "worked": worked, "query": query, "note": note}
    args["agent"] = agent or "dashboard"
    return call(hub, "rate", **_clean(args)).data
