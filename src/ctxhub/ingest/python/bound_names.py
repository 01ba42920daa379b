"""A dotted name qualified as its module binds the first name: through the module's
imports (`get_broker` -> `pkg.broker.get_broker`) or as a name the module itself binds
(`Broker.create` -> `pkg.mod.Broker.create`). One rule for every reader that follows a
name to its definition (alias_chunks.py; class_names.py's `ClassNames.qualified` spells
the same rule and is to call this too)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ctxhub.ingest.python.callgraph import ImportTable


def bound_qualname(
    chain: Sequence[str], imports: ImportTable, module_names: Collection[str], module: str
) -> str | None:
    """`chain` qualified through the binding of its first name, or None when the module
    binds no such name (a builtin, a typo, a name of another scope)."""
    root = chain[0]
    if root in imports.bindings:
        return imports.qualify(".".join(chain))
    if root in module_names:
        return ".".join([module, *chain])
    return None
