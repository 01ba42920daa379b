"""Whether a definition is local to a function: a def or class inside a function body
(a closure, a local helper) is no name anyone imports, so it has no public path and is
never offered as one (search/reexports.py, tools/nearest.py)."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk


def is_nested(chunk: Chunk) -> bool:
    """A def inside a function (`merge.nothing`): a local, no name anyone imports."""
    module, symbol = chunk.metadata.module, chunk.symbol or ""
    if not module or not symbol.startswith(f"{module}."):
        return False
    qualname = symbol[len(module) + 1 :]
    if "." not in qualname:
        return False
    # a class's `class_name` is its own qualified name, a method's that of its class:
    # anything else between the module and the name is a function
    holder = chunk.metadata.class_name
    if chunk.metadata.chunk_type == "class":
        return holder != qualname
    return holder is None or qualname.rsplit(".", 1)[0] != holder


def local_to(chunk: Chunk) -> str | None:
    """The function a nested def is local to, as its module names it
    (`CompiledRouter.add_route`), or None for a definition that is not nested."""
    if not is_nested(chunk):
        return None
    enclosing = chunk.metadata.extra.get("nested_in")
    if isinstance(enclosing, str) and enclosing:
        return enclosing
    module, symbol = chunk.metadata.module or "", chunk.symbol or ""
    qualname = symbol[len(module) + 1 :] if module and symbol.startswith(f"{module}.") else symbol
    return qualname.rsplit(".", 1)[0] if "." in qualname else None
