"""YAML frontmatter of a docs page: the small subset pages use (scalars, quoted strings,
block scalars), parsed without a YAML dependency. Nested values are kept as raw text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_KEY = re.compile(r"(?:\"([^\"]+)\"|'([^']+)'|([A-Za-z_][\w:.-]*?))\s*:(?:\s+(.*))?$")
_BLOCK = re.compile(r"[|>][+-]?\d*")


@dataclass(frozen=True)
class Frontmatter:
    values: dict[str, str] = field(default_factory=dict)
    #: lines (0-based, exclusive end) the block occupies; 0 when there is none
    end_line: int = 0
    warning: str | None = None


def _unquote(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == '"':
        return v[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    return v


def _parse(lines: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    key: str | None = None
    style = ""  # "|", ">" for block scalars, "" for plain continuation
    parts: list[str] = []

    def flush() -> None:
        if key is None:
            return
        if style.startswith("|"):
            values[key] = "\n".join(parts).strip()
        else:
            values[key] = _unquote(" ".join(p.strip() for p in parts if p.strip()))

    for line in lines:
        indented = line[:1] in (" ", "\t")
        m = _KEY.match(line) if not indented and line[:1] != "-" else None
        if m:
            flush()
            key, raw = m.group(1) or m.group(2) or m.group(3), (m.group(4) or "").strip()
            if raw.startswith("#"):
                raw = ""
            style = raw[0] if _BLOCK.fullmatch(raw) else ""
            parts = [] if style else [raw]
        elif key is not None and (indented or not line.strip()):
            parts.append(line)  # YAML continues a value only on indented lines
    flush()
    return values


def parse_frontmatter(lines: list[str]) -> Frontmatter:
    """Frontmatter at the very top (`---` ... `---`/`...`); unterminated blocks are text."""
    if not lines or lines[0].strip() != "---":
        return Frontmatter()
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return Frontmatter(_parse(lines[1:i]), i + 1)
    return Frontmatter(warning="unterminated frontmatter: kept as text")
