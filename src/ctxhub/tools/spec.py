"""A tool, declared once: `ToolSpec` is everything the MCP server, the CLI and the eval
harness need to offer it.

- `args`: a pydantic model, one field per parameter (type, bounds, default,
  description). The MCP input schema and the click options are generated from it, so
  both accept the same values under the same names with the same coercion.
- `function`: `"module:name"`, called as `name(hub, **args)`; the module is imported on
  the first call, so listing the tools (or `ctxhub rate --help`) loads none of them.
- `output`: the pydantic model it returns (the MCP output schema; `--json` prints it).
- `render`: `"module:name"`, the text an agent (or a person at a terminal) reads.

`CliSpec` says only what differs on a command line: the command's name, which fields
are positional, extra option spellings, fields that read `-`/`@FILE`, words that stand
for a value (`worked`/`failed`), values the command line fills in itself, and which
answers mean "nothing found" to a shell (exit 1, though the tool's answer is no error).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from ctxhub.session import HubSession


@dataclass(frozen=True)
class CliSpec:
    name: str
    #: Fields taken as arguments, in order (the rest are options).
    positional: tuple[str, ...] = ()
    #: Extra spellings of an option: {"class_name": ("--class",)}.
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Text fields whose value may be `-` (read stdin) or `@FILE` (read that file).
    files: tuple[str, ...] = ()
    #: Words that stand for a field's value: {"worked": {"worked": True, "failed": False}}.
    words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Flags that set a field to one value: {"direction": {"--callers": "callers"}}.
    flags: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Values the command line fills in (and does not offer): {"agent": "cli"}.
    fixed: Mapping[str, Any] = field(default_factory=dict)
    #: An answer the command prints and then exits 1 for, as a missing name does in
    #: every other command (`deprecated` of an unknown symbol); None: always 0.
    not_found: Callable[[BaseModel], bool] | None = None


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args: type[BaseModel]
    output: type[BaseModel]
    function: str
    render: str
    #: It writes to the store (log, rate); every other tool only reads.
    writes: bool = False
    #: A search: while the response is over budget, ask for fewer hits.
    fits_hits: bool = False
    #: It reads memory: what hooks captured is stored first (by the server in the
    #: background, by the CLI before the call).
    reads_memory: bool = False
    cli: CliSpec | None = None
    #: What a person sees in a client's tool list; default: the name in words.
    title: str = ""

    def __post_init__(self) -> None:
        # Descriptions are written hard-wrapped in the source; clients show them as
        # paragraphs, and a newline mid-sentence reads as a break there.
        object.__setattr__(self, "description", paragraphs(self.description))
        if not self.title:
            object.__setattr__(self, "title", self.name.replace("_", " ").capitalize())

    @property
    def budget_field(self) -> bool:
        return "max_tokens" in self.args.model_fields

    def max_tokens(self, args: BaseModel) -> int:
        from ctxhub.core.limits import DEFAULT_TOKENS

        return int(getattr(args, "max_tokens", DEFAULT_TOKENS))

    def call(self, hub: HubSession, args: BaseModel) -> BaseModel:
        """Run the tool's function with these (validated) arguments."""
        from ctxhub.core.errors import StoreDisconnectedError

        fields = {name: getattr(args, name) for name in type(args).model_fields}
        function = _resolve(self.function)
        try:
            result = function(hub, **fields)
        except StoreDisconnectedError:
            if not self.writes:
                raise  # a read was retried by the store itself
            # Its transaction rolled back with the connection, so running the whole tool
            # again (log-or-merge decided afresh) writes it once, on a fresh connection.
            result = function(hub, **fields)
        if not isinstance(result, self.output):
            raise TypeError(f"{self.function} returned {type(result).__name__}")
        return result

    def text(self, output: BaseModel) -> str:
        rendered = _resolve(self.render)(output)
        return str(rendered)


def paragraphs(text: str) -> str:
    """Text with its single line breaks joined: paragraphs (blank-line separated) stay."""
    blocks = (" ".join(line.strip() for line in block.splitlines()) for block in text.split("\n\n"))
    return "\n\n".join(" ".join(block.split()) for block in blocks if block.strip())


def _resolve(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found
