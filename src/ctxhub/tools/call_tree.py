"""A call trace's nodes in tree order for its text: the trace lists them breadth first
(level 1, then level 2, ...), so indenting that list by depth would put every level-2
node under the last level-1 node. Each node goes under the node it was reached from
(its `via`)."""

from __future__ import annotations

from collections import defaultdict

from ctxhub.core.outputs import CallNode


def tree_order(nodes: list[CallNode]) -> list[tuple[CallNode, bool]]:
    """`nodes` depth first, each one after its parent (the node one level up whose
    symbol is its `via`), siblings in the trace's order; with each, whether its parent
    is missing from the list (a trace cut short): such a node comes last, to be shown
    with its `via`, never under an unrelated node."""
    children: dict[tuple[str, int], list[CallNode]] = defaultdict(list)
    parents = {(n.symbol, n.depth) for n in nodes}
    roots: list[CallNode] = []
    orphans: list[CallNode] = []
    for node in nodes:
        if node.depth <= 1:
            roots.append(node)
        elif (node.via, node.depth - 1) in parents:
            children[(node.via, node.depth - 1)].append(node)
        else:
            orphans.append(node)
    ordered: list[tuple[CallNode, bool]] = []
    placed: set[int] = set()

    def visit(node: CallNode) -> None:
        if id(node) in placed:
            return
        placed.add(id(node))
        ordered.append((node, False))
        # two parents of one symbol at one level (two versions): the first holds them
        for child in children.pop((node.symbol, node.depth), []):
            visit(child)

    for root in roots:
        visit(root)
    ordered.extend((n, True) for n in orphans)
    return ordered
