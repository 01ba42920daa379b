"""Write one benchmark's results into its own section of docs/BENCHMARKS.md."""

from __future__ import annotations

import platform
import re
import time
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
HEADER = (
    "# Benchmarks\n\n"
    "Every figure below was produced by the command shown with it, on the machine it\n"
    "names; the machines are shared and noisy, so the scripts report medians and ratios.\n"
    "Re-run a command with `--write` to replace its section.\n"
)


def machine() -> str:
    import os

    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def write_section(title: str, command: str, body: str, doc: Path = DOC) -> None:
    """Replace (or append) the `## title` section: the command, the date, the figures."""
    text = doc.read_text(encoding="utf-8") if doc.is_file() else HEADER
    stamp = time.strftime("%Y-%m-%d")
    section = f"## {title}\n\n`{command}` — {stamp}, {machine()}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
