"""One name, several definitions: which one a tool answers for, and why.

`Connection.recv` is the `recv` of every class named `Connection` (an asyncio, a sync
and a trio flavour). A tool that answers for one says so, names the others, and picks
by what a user most likely means: a public path before a private one, a definition not
marked deprecated before a deprecated one, the one a package re-exports at the shortest
public name (`pkg.Connection` before `pkg.sync.connection.Connection`), one from the
subpackage whose definitions the top-level package re-exports most (the flavour it
offers by default: `pkg.asyncio` when `pkg/__init__.py` exports `pkg.asyncio.client.
connect`), a documented one before an undocumented one; then the lookup's own order.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from ctxhub.core.identifiers import is_private_path
from ctxhub.core.knowledge import Chunk
from ctxhub.search.reexports import public_paths
from ctxhub.search.stubs import is_stub
from ctxhub.store.protocol import Store
from ctxhub.tools.lookup import api_chunks

#: Alternatives named at most.
MAX_ALTERNATIVES = 10


@dataclass(frozen=True)
class Choice:
    """The definitions in the order answered (the chosen first), the other definitions'
    qualified names, and why the first was chosen ("" when the name is not ambiguous)."""

    found: list[Chunk]
    alternatives: list[str]
    reason: str


def documented(chunk: Chunk) -> bool:
    """Whether the definition's code opens with a docstring."""
    try:
        tree = ast.parse(textwrap.dedent(chunk.content))
    except SyntaxError:
        return False
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return False
    return ast.get_docstring(node) is not None


def choose(store: Store, found: list[Chunk]) -> Choice:
    """`found` (a lookup's definitions, copies in other sources and stubs included) led
    by the definition a user most likely means, when they are of several names."""
    firsts: dict[str, Chunk] = {}
    for chunk in found:
        if chunk.symbol and not is_stub(chunk):
            firsts.setdefault(chunk.symbol, chunk)
    if len(firsts) < 2:
        return Choice(found, [], "")
    public = public_paths(store, list(firsts))
    docs = {s: documented(c) for s, c in firsts.items()}
    offered = {s: _offered_by_top(store, c) for s, c in firsts.items()}
    order = list(firsts)

    def rank(symbol: str) -> tuple[bool, bool, int, int, bool, int]:
        shown = public.get(symbol, symbol)
        return (
            is_private_path(shown),
            firsts[symbol].metadata.deprecated,
            shown.count("."),
            -offered[symbol],
            not docs[symbol],
            order.index(symbol),
        )

    best = min(order, key=rank)
    why = ["public" if not is_private_path(public.get(best, best)) else "private"]
    if best in public:
        why[0] += f" as {public[best]}"
    if offered[best] and offered[best] > min(offered.values()):
        why.append(f"from the subpackage {_subpackage(firsts[best])} its package re-exports")
    why.append("documented" if docs[best] else "undocumented")
    if firsts[best].metadata.deprecated:
        why.append("deprecated")
    chosen = [c for c in found if c.symbol == best]
    rest = [c for c in found if c.symbol != best]
    others = sorted((s for s in order if s != best), key=rank)[:MAX_ALTERNATIVES]
    return Choice(chosen + rest, others, ", ".join(why))


def _subpackage(chunk: Chunk) -> str:
    """`pkg.asyncio` for a definition in `pkg.asyncio.connection`; the module itself for
    one in a top-level module."""
    return ".".join((chunk.metadata.module or "").split(".")[:2])


def _offered_by_top(store: Store, chunk: Chunk) -> int:
    """How many of the top-level package's declared exports come from the definition's
    subpackage (0 when it records none, or the definition is in a top-level module)."""
    module = chunk.metadata.module or ""
    if module.count(".") < 2:
        return 0
    top = module.split(".", 1)[0]
    sub = _subpackage(chunk) + "."
    found = api_chunks(store, chunk.source, symbol=top, chunk_types=("module",))
    exports = found[0].metadata.extra.get("exports", ()) if found else ()
    return sum(1 for e in exports if str(e).startswith(sub))
