"""One tool call, the same way for the MCP server, the CLI and the eval harness:
validate the arguments, run the function, fit the budget, render the text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from ctxhub.core.errors import CtxhubError, InputError, describe, describe_validation
from ctxhub.core.knowledge import SearchResponse
from ctxhub.tools.spec import ToolSpec

if TYPE_CHECKING:
    from ctxhub.session import HubSession


@dataclass
class Answer:
    """A tool's result: the model, its JSON (the MCP structured content) and its text."""

    output: BaseModel
    data: dict[str, Any]
    text: str


def parse_args(spec: ToolSpec, values: Mapping[str, Any]) -> BaseModel:
    """The validated arguments; InputError naming every bad field otherwise."""
    try:
        return spec.args.model_validate(dict(values))
    except ValidationError as exc:
        raise InputError(describe_validation(exc)) from None


def answer(spec: ToolSpec, hub: HubSession, args: BaseModel) -> Answer:
    """Run the tool and fit its response to the budget. The budget covers what a client
    receives, the structured content and the text together: the tool runs within its
    share for the structured content (a search first asks for fewer hits), the text is
    rendered from it, and while the two are over, their shared texts are cut on line
    boundaries; citations are never cut (`tools/fit.py`)."""
    from ctxhub.tools.fit import fit_response, fit_search, structured_budget

    max_tokens = spec.max_tokens(args)
    inner = structured_budget(max_tokens, spec.fits_hits)
    if spec.budget_field:
        args = args.model_copy(update={"max_tokens": inner})
    output: BaseModel
    if spec.fits_hits:

        def search(limit: int) -> SearchResponse:
            found = spec.call(hub, args.model_copy(update={"limit": limit}))
            assert isinstance(found, SearchResponse)
            return found

        output = fit_search(search, int(args.model_dump()["limit"]), inner)
    else:
        output = spec.call(hub, args)
    data = output.model_dump(mode="json")
    output, data, text = fit_response(spec.text, type(output), data, max_tokens)
    return Answer(output, data, text)


def call(hub: HubSession, tool: str, **arguments: Any) -> Answer:
    """The tool named `tool`, exactly as an MCP client calls it (for the eval harness and
    the demo); InputError for arguments the tool refuses."""
    from ctxhub.tools.specs import BY_NAME

    spec = BY_NAME[tool]
    return answer(spec, hub, parse_args(spec, arguments))


def failure(spec: ToolSpec, exc: BaseException) -> str | None:
    """The one line a caller reads when the call failed as ctxhub meant it to (bad
    arguments, not found, a store or model that cannot answer); None for a bug."""
    if isinstance(exc, ValidationError):
        return f"invalid arguments for {spec.name}: {describe_validation(exc)}"
    if isinstance(exc, CtxhubError):
        return describe(exc, spec.name)
    return None
