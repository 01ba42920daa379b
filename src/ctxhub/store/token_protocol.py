"""The bearer-token part of the Store seam: named tokens for `serve --http`, kept as
digests in the hub's own database so every server process on it sees an added or revoked
token at once. `tests/conformance/test_tokens.py` checks each backend."""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel


class TokenInfo(BaseModel):
    name: str
    read_only: bool
    created_at: float
    revoked_at: float | None = None

    @property
    def live(self) -> bool:
        return self.revoked_at is None


class TokenStore(Protocol):
    def add_token(self, name: str, digest: str, read_only: bool) -> bool:
        """Store a token by the digest of its secret; False (nothing written) when a live
        token already has this name. A revoked token's name may be used again."""
        ...

    def revoke_token(self, name: str) -> bool:
        """Mark the live token `name` revoked; False when there is none."""
        ...

    def tokens(self) -> list[TokenInfo]:
        """Every token, live and revoked, by name."""
        ...

    def token_for(self, digest: str) -> TokenInfo | None:
        """The live token whose secret has this digest, or None."""
        ...

    def tokens_configured(self) -> bool:
        """True once any token was added (a revoked one too: revoking the last token
        must not open the hub to everyone)."""
        ...
