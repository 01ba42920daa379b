"""Who is calling: the name of the bearer token a request came with, and whether that
token may only read. The HTTP server's auth middleware makes one per request; tools read
it from their HubSession (`hub.caller`). Nothing here knows how tokens are stored."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Caller:
    #: The token's name (`ctxhub token add NAME`); None for the shared CTXHUB_TOKEN.
    name: str | None
    #: A read-only token: search and get tools answer, write tools refuse.
    read_only: bool = False
