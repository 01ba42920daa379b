"""Readable terminal renderings of responses (the --json output is the models as-is)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ctxhub.core.knowledge import Hit, SearchResponse


def location(hit: Hit) -> str:
    lines = ""
    if hit.line_start is not None:
        lines = f":{hit.line_start}" + (f"-{hit.line_end}" if hit.line_end else "")
    return f"{hit.source}:{hit.path}{lines}"


def signals(hit: Hit) -> str:
    return " ".join(f"{path}#{s.rank}" for path, s in sorted(hit.signals.items()))


def render_hit(console: Console, rank: int, hit: Hit, snippet_lines: int = 6) -> None:
    name = hit.symbol or hit.section or hit.title
    console.print(
        f"[bold]{rank}.[/bold] [cyan]{hit.kind}[/cyan] {escape(name or '')}  "
        f"[dim]{hit.score:.3f}  {signals(hit)}[/dim]"
    )
    console.print(f"   [green]{escape(location(hit))}[/green]  [dim]id {hit.id}[/dim]")
    signature = hit.metadata.get("signature")
    if signature:
        console.print(f"   [yellow]{escape(str(signature))}[/yellow]")
    for line in hit.snippet.splitlines()[:snippet_lines]:
        console.print(f"   [dim]│[/dim] {escape(line[:160])}")


def render_response(console: Console, response: SearchResponse) -> None:
    if not response.hits:
        console.print("[yellow]no results[/yellow]")
    for i, hit in enumerate(response.hits, start=1):
        render_hit(console, i, hit)
    flag = " [red](low confidence)[/red]" if response.low_confidence else ""
    console.print(f"[dim]confidence {response.confidence:.2f}[/dim]{flag}")
    if response.next_queries:
        console.print("[dim]try:[/dim] " + " | ".join(escape(q) for q in response.next_queries))
