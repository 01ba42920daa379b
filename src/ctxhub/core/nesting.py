"""Whether a definition is local to a function: a def or class inside a function body
(a closure, a local helper, a class a factory makes, and its methods) is no name anyone
imports, so it has no public path and is never offered as one (search/reexports.py,
tools/nearest.py)."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk


def is_nested(chunk: Chunk) -> bool:
    """A definition made inside a function, at any depth: a def in a function
    (`merge.nothing`), a class made in one (`factory.Inner`) and that class's methods.
    The Python chunker says so with `nested_in`, the function it is local to."""
    return bool(chunk.metadata.extra.get("nested_in"))
