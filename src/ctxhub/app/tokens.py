"""Named bearer tokens for `ctxhub serve --http`: made, listed, revoked, and checked.

A token's secret is 32 random bytes (`secrets.token_urlsafe`), shown once when it is
made; the store keeps only its SHA-256. A fast unsalted hash is enough here: slow,
salted hashes (bcrypt, argon2) protect guessable passwords, and a 256-bit random secret
cannot be guessed from its digest however fast the hash. An unsalted digest is also
a key: a request's token is found with one indexed lookup, not by trying every row.
The store is the hub's own database, so every server process on it sees a token added
or revoked at once."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from ctxhub.core.caller import Caller
from ctxhub.core.errors import InputError, NotFoundError, shown
from ctxhub.store.protocol import HubStore

#: What a token's secret starts with, so one is recognisable in a config file or a leak scan.
PREFIX = "ctxhub_"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")


class Refused(Exception):
    """A request without a valid token where one is needed (HTTP 401)."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def add_token(store: HubStore, name: str, *, read_only: bool = False) -> str:
    """Make the token `name`; returns its secret (the only time it is known)."""
    if not NAME.fullmatch(name):
        raise InputError(
            f"token name {shown(name)} is not allowed: letters, digits and . _ @ + -, "
            "starting with a letter or digit, at most 100 characters"
        )
    secret = PREFIX + secrets.token_urlsafe(32)
    if not store.add_token(name, digest(secret), read_only):
        raise InputError(
            f"a token named {name!r} exists: `ctxhub token revoke {name}` first, or pick "
            "another name"
        )
    return secret


def revoke_token(store: HubStore, name: str) -> None:
    if not store.revoke_token(name):
        live = [t.name for t in store.tokens() if t.live]
        known = f"live tokens: {', '.join(live)}" if live else "there are no live tokens"
        raise NotFoundError(f"no live token named {shown(name)} ({known})")


def authorize(
    store: HubStore, secret: str | None, *, shared: str | None, open_when_unset: bool
) -> Caller | None:
    """Who a request's bearer secret belongs to. `shared`: CTXHUB_TOKEN, accepted as a
    nameless caller. None: no token is configured anywhere and `open_when_unset` (a
    loopback bind), so the request goes through anonymously. Raises Refused otherwise."""
    if secret is not None:
        if shared and hmac.compare_digest(secret.encode("utf-8"), shared.encode("utf-8")):
            return Caller(name=None, read_only=False)
        found = store.token_for(digest(secret))
        if found is None:
            raise Refused("unknown or revoked bearer token")
        return Caller(name=found.name, read_only=found.read_only)
    if shared or not open_when_unset or store.tokens_configured():
        raise Refused("missing bearer token")
    return None
