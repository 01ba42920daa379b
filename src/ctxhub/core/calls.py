"""How a recorded call reaches its target: the words the call graph (ingest), the store's
call terms and the tools that show calls share.

A function chunk lists its calls twice: `calls` (the last dotted names, what the `calls`
filter matches) and `extra["calls_qualified"]` (each call as written, or as resolved for
a typed attribute). `extra["calls_via"]` maps a `calls_qualified` entry to its receiver:

- `"self"`: the function's own receiver, `self.x()` / `cls.x()`;
- `"super()"`: `super().x()`, the base class's method;
- `"self.<attr>"`: an attribute whose class the class body states, `self.client.send()`
  recorded as `pkg.mod.Client.send`;
- `"<local>"` (a bare name): a local or parameter whose class the function states,
  `screen._push_result_callback()` recorded as `pkg.screen.Screen._push_result_callback`,
  or a module-level instance (`_factory.get()` as `pkg.factory.ArrowFactory.get`). A
  local the function gives a class but not one known where the call is made (rebound to
  an unknown value on the way) keeps the call as written, `locale.describe`: its
  receiver's class is unknown, and the call resolves to nothing (listed unresolved).

A local bound to a method (`creator = self.workers._new_worker`) makes `creator()` a
call of that method, recorded with the receiver it was bound from (`"self.workers"`).

`extra["calls_nested"]` lists the calls of the function's own nested defs (`wrap(cls)`
inside `define`): those defs are parts of the function, and what they call counts as the
function's calls (`tools/resolve.py`).

Calls without a receiver (a plain `x()`, `mod.x()`, `Cls.x()`) have no entry. Chunks
indexed before `calls_via` existed have none at all: their receivers are read from the
written text instead (`call_sites`), so an old index needs no re-index.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

VIA_SELF = "self"
VIA_SUPER = "super()"

#: Which calls a `calls` filter counts: all of them, or only those on one receiver.
CallsVia = Literal["any", "self", "super", "attribute", "local"]
#: The store term each `CallsVia` reads (list-valued metadata, matched exactly).
CALL_TERMS: dict[str, str] = {
    "any": "calls",
    "self": "calls_self",
    "super": "calls_super",
    "attribute": "calls_attribute",
    "local": "calls_local",
}


def via_kind(via: str | None) -> Literal["self", "super", "attribute", "local"] | None:
    """The `CallsVia` a receiver belongs to; None for a call without one."""
    if via is None:
        return None
    if via == VIA_SELF:
        return "self"
    if via == VIA_SUPER:
        return "super"
    return "attribute" if "." in via else "local"


def _written_via(qualified: str) -> str | None:
    """The receiver of a call as written (chunks without `calls_via`)."""
    if qualified.startswith("super(") and ")." in qualified:
        return VIA_SUPER
    parts = qualified.split(".")
    if len(parts) == 2 and parts[0] in ("self", "cls"):
        return VIA_SELF
    return None


def call_sites(extra: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
    """(called name, qualified call, receiver or None) for each call a chunk's metadata
    `extra` records, in source order."""
    raw = extra.get("calls_via")
    recorded: dict[str, str] | None = raw if isinstance(raw, dict) else None
    out: list[tuple[str, str, str | None]] = []
    for qualified in extra.get("calls_qualified", ()):
        text = str(qualified)
        via = recorded.get(text) if recorded is not None else _written_via(text)
        out.append((text.rsplit(".", 1)[-1], text, via))
    return out


def as_written(qualified: str, via: str | None) -> str:
    """The call as the code writes it: `self.client.send` for `pkg.mod.Client.send`."""
    if via_kind(via) in ("attribute", "local"):
        return f"{via}.{qualified.rsplit('.', 1)[-1]}"
    return qualified


def marker(via: str | None) -> str | None:
    """What a listing says about a call's receiver: `super()` / `self.client` / a
    local's name, or None for the ordinary cases (own receiver, no receiver)."""
    return via if via_kind(via) in ("super", "attribute", "local") else None
