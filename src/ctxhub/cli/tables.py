"""Tables that read at any terminal width: the first column (a source's name) is never
cut, and when the columns do not fit side by side each row is printed as a block."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

#: Below this console width a table drops its box lines, which cost ~3 columns each.
BOXLESS_BELOW = 100


def _width(cell: str) -> int:
    return Text.from_markup(cell).cell_len


def fitted_table(
    console: Console, headers: Sequence[str], rows: Sequence[Sequence[str]]
) -> RenderableType:
    """`rows` under `headers` as a table when it fits `console`, else one block per row:
    the first cell on its own line, then `header value` pairs."""
    width = console.width
    boxless = width < BOXLESS_BELOW
    natural = sum(
        max([_width(h), *(_width(r[i]) for r in rows)]) + (2 if boxless else 3)
        for i, h in enumerate(headers)
    )
    if natural <= width:
        table = Table(box=None if boxless else Table().box, pad_edge=not boxless)
        first = max([_width(headers[0]), *(_width(r[0]) for r in rows)])
        table.add_column(headers[0], no_wrap=True, min_width=first)
        for h in headers[1:]:
            table.add_column(h, overflow="fold")
        for r in rows:
            table.add_row(*r)
        return table
    blocks: list[RenderableType] = []
    for r in rows:
        lines = [f"[bold]{r[0]}[/bold]"]
        line = ""
        for h, c in zip(headers[1:], r[1:], strict=True):
            pair = f"{h} {c}"
            if line and 2 + _width(line) + 3 + _width(pair) > width:  # break between pairs
                lines.append(f"  {line}")
                line = ""
            line = f"{line} · {pair}" if line else pair
        lines.append(f"  {line}")
        blocks.append(Text.from_markup("\n".join(lines)))
    return Group(*blocks)
