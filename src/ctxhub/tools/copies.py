"""One definition indexed by two sources at one version (the installed wheel beside the
release's sdist): the same name, the same known version, the same text. It is one
answer: the copies ride along in `also_in`, never offered as another match."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk
from ctxhub.core.outputs import CallCopy


def copy_key(chunk: Chunk) -> tuple[str, str, str] | None:
    """What two sources' copies of one definition share: its name, its package's version
    and its text. None (never folded) for a chunk without a name or a version: two
    unversioned sources may be two codebases, and a checkout edited since its release
    says the release's version with other code."""
    if not chunk.symbol or not chunk.version:
        return None
    return (chunk.symbol, chunk.version, chunk.content_hash)


def split_copies(head: Chunk, others: list[Chunk]) -> tuple[list[CallCopy], list[Chunk]]:
    """`others` (the same symbol in other sources) parted into copies of `head` (as
    `also_in` entries) and the rest (another version, or other text)."""
    key = copy_key(head)
    copies: list[CallCopy] = []
    rest: list[Chunk] = []
    for chunk in others:
        if key is not None and copy_key(chunk) == key and chunk.source != head.source:
            copies.append(CallCopy(source=chunk.source, version=chunk.version, id=chunk.id))
        else:
            rest.append(chunk)
    return copies, rest
