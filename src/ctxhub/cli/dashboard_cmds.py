"""dashboard: the web page on a loopback port (the same page `serve --http` has at /)."""

from __future__ import annotations

import sys

import click

from ctxhub.cli.context import Context, pass_ctx

DEFAULT_PORT = 8766


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="Port (0: any free one).",
)
@pass_ctx
def dashboard(ctx: Context, host: str, port: int) -> None:
    """Serve the dashboard: sources, search playground, latent-space map, memory and
    feedback, at the printed URL (loopback: no token needed).

    \b
    Binding anything but loopback needs CTXHUB_TOKEN; the page then asks for it and
    sends it as `Authorization: Bearer <token>` on every /api/ call.
    """
    import socket

    import uvicorn

    from ctxhub.dashboard.app import LOOPBACK_HOSTS, PageOutsideAuth, dashboard_app
    from ctxhub.server.http import BearerAuth, is_loopback, live_tokens
    from ctxhub.server.runtime import HubPool

    token = ctx.settings.token
    loopback = is_loopback(host)
    pool = HubPool(ctx.settings)  # token checks, one store session per request
    if not token and not loopback and not live_tokens(pool):
        click.echo(
            f"error: refusing to serve on {host!r} without a token: make one with `ctxhub "
            "token add NAME` (or set CTXHUB_TOKEN), or bind 127.0.0.1",
            err=True,
        )
        sys.exit(1)
    hosts = [host.strip("[]"), *LOOPBACK_HOSTS] if loopback else None
    app = dashboard_app(ctx.settings, hosts)
    # Bind first, then say where: with --port 0 the URL names the port the OS chose.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        click.echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    guard = " (bearer tokens required)" if token or not loopback else ""
    click.echo(f"ctxhub dashboard at http://{shown}:{bound}/{guard}", err=True)
    guarded = PageOutsideAuth(BearerAuth(app, pool, token, loopback))
    config = uvicorn.Config(guarded, log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


COMMANDS = [dashboard]
