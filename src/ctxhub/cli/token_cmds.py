"""`ctxhub token add|list|revoke`: named bearer tokens for `ctxhub serve --http`, kept
(as SHA-256 digests) in the hub's store: every server on that store honours them."""

from __future__ import annotations

import time

import click

from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, print_json


@click.group(name="token")
def token() -> None:
    """Bearer tokens for `ctxhub serve --http` (one per person, machine or CI bot). A
    server on this store accepts any live token at once, and refuses a revoked one at
    once; ratings and records made with a token carry its name."""


@token.command(name="add")
@click.argument("name")
@click.option("--read-only", is_flag=True, help="Searches and get_* tools only; no writes.")
@pass_ctx
def add(ctx: Context, name: str, read_only: bool) -> None:
    """Make a token NAME and print its secret (shown this once: keep it)."""
    from ctxhub.app.tokens import add_token
    from ctxhub.store.factory import open_store

    with open_store(ctx.settings.store_location) as store:
        secret = add_token(store, name, read_only=read_only)
    click.echo(secret)
    kind = "read-only token" if read_only else "token"
    err.print(
        f"{kind} {name!r} made; this is the only time its secret is shown. Clients send "
        "'Authorization: Bearer <secret>'"
    )


@token.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print the tokens as JSON.")
@pass_ctx
def list_cmd(ctx: Context, as_json: bool) -> None:
    """Every token: name, access, when made, whether revoked (never a secret)."""
    from ctxhub.store.factory import open_store

    with open_store(ctx.settings.store_location) as store:
        tokens = store.tokens()
    if as_json:
        print_json([t.model_dump() for t in tokens])
        return
    if not tokens:
        click.echo("no tokens yet: `ctxhub token add NAME`")
        return
    for t in tokens:
        access = "read-only" if t.read_only else "read-write"
        state = f"revoked {_when(t.revoked_at)}" if t.revoked_at is not None else "live"
        click.echo(f"{t.name}\t{access}\tmade {_when(t.created_at)}\t{state}")


@token.command(name="revoke")
@click.argument("name")
@pass_ctx
def revoke(ctx: Context, name: str) -> None:
    """Revoke the token NAME: every server on this store refuses it from now on."""
    from ctxhub.app.tokens import revoke_token
    from ctxhub.store.factory import open_store

    with open_store(ctx.settings.store_location) as store:
        revoke_token(store, name)
    click.echo(f"revoked {name!r}")


def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp or 0))


COMMANDS = [token]
