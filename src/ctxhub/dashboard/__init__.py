"""The web dashboard: JSON endpoints under /api/ and a static page of plain ES modules.

`app.dashboard_app(settings)` is the ASGI app; `ctxhub dashboard` serves it alone on a
loopback port and `ctxhub serve --http` mounts it at `/` beside the MCP endpoint. Every
read goes through the store protocols and the existing use cases; every write through
the same code path as the CLI and the agents (`tools/run.call`, `app/refresh`)."""
