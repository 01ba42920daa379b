"""Tool arguments as the client sent them: free text stays text.

The SDK json-decodes every string argument whose annotation is not exactly `str` (to
undo clients that send a list as `'["a", "b"]'`). For an optional text argument
(`str | None`) that turns a pasted FastAPI 422 body (`{"detail": [...]}`) into a dict and
rejects it, and `null`/`true` into None/True. Here a string is decoded only when the
decoded list or object is what the argument takes (a `source` list sent as a string);
otherwise an argument that takes a string keeps it verbatim, and one that takes no string
(a bool, a list) is decoded as the SDK does.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from pydantic import TypeAdapter, ValidationError


@cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def _accepts(annotation: Any, value: Any) -> bool:
    try:
        _adapter(annotation).validate_python(value, strict=True)
    except ValidationError:
        return False
    return True


def decode_argument(annotation: Any, value: Any) -> Any:
    """The value a tool function should be validated with (see the module docstring)."""
    if not isinstance(value, str) or annotation is str:
        return value
    try:
        decoded = json.loads(value)
    except (ValueError, RecursionError):
        return value
    if isinstance(decoded, list | dict) and _accepts(annotation, decoded):
        return decoded
    if _accepts(annotation, value):
        return value
    return decoded


class TextPreservingMetadata(FuncMetadata):
    """FuncMetadata whose pre-parsing never turns free text into JSON values."""

    def pre_parse_json(self, data: dict[str, Any]) -> dict[str, Any]:
        fields = {
            key: info.annotation
            for name, info in self.arg_model.model_fields.items()
            for key in (name, info.alias)
            if key
        }
        return {
            key: decode_argument(fields[key], value) if key in fields else value
            for key, value in data.items()
        }
