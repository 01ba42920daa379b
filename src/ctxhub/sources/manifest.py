"""The sources manifest, `ctxhub.toml`: a project-local file over the user's one.

Both files hold `[[sources]]` tables. Sources are merged by name, the project file
winning; `add`/`remove` write to the project file when there is one, else the user's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w
from pydantic import ValidationError

from ctxhub.core.errors import ManifestError
from ctxhub.sources.base import SourceSpec

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

MANIFEST_NAME = "ctxhub.toml"


@dataclass
class Manifest:
    path: Path
    sources: list[SourceSpec] = field(default_factory=list)

    def get(self, name: str) -> SourceSpec | None:
        return next((s for s in self.sources if s.name == name), None)

    def add(self, spec: SourceSpec, *, replace: bool = False) -> None:
        if self.get(spec.name) is not None:
            if not replace:
                raise ManifestError(
                    f"a source named {spec.name!r} already exists in {self.path}; "
                    "pick another --name or `ctxhub remove` it first"
                )
            self.remove(spec.name)
        self.sources.append(spec)

    def remove(self, name: str) -> bool:
        before = len(self.sources)
        self.sources = [s for s in self.sources if s.name != name]
        return len(self.sources) != before

    def save(self) -> None:
        """Write the sources back, keeping what a person wrote: the file's opening
        comments, and each unchanged source's table with the comments above it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        old = self.path.read_text(encoding="utf-8") if self.path.is_file() else ""
        header, tables = _split_tables(old)
        parts = [header] if header.strip() else []
        for spec in self.sources:
            kept = tables.get(spec.name)
            same = kept is not None and kept[0].model_dump() == spec.model_dump()
            parts.append(kept[1] if kept and same else _table(spec))
        tmp = self.path.with_suffix(".toml.tmp")
        tmp.write_text("\n".join(p.strip("\n") + "\n" for p in parts), encoding="utf-8")
        tmp.replace(self.path)


def _table(spec: SourceSpec) -> str:
    # A spec's fields are flat (strings and lists of strings): one table, keys in order.
    return "[[sources]]\n" + tomli_w.dumps(spec.model_dump(exclude_defaults=True))


def _split_tables(text: str) -> tuple[str, dict[str, tuple[SourceSpec, str]]]:
    """The text before the first `[[sources]]` table, and each table's text (with the
    comment lines right above it) by source name, with the spec it reads as."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "[[sources]]"]
    # a table owns the comment lines directly above its header
    owned = []
    for i in starts:
        j = i
        while j > 0 and lines[j - 1].lstrip().startswith("#"):
            j -= 1
        owned.append(j)
    if not starts:
        return text, {}
    tables: dict[str, tuple[SourceSpec, str]] = {}
    for n, begin in enumerate(owned):
        end = owned[n + 1] if n + 1 < len(owned) else len(lines)
        block = "\n".join(lines[begin:end])
        try:
            entry = tomllib.loads(block).get("sources", [{}])[0]
            spec = SourceSpec.model_validate(entry)
        except (tomllib.TOMLDecodeError, ValidationError, IndexError):
            continue  # rewritten from the parsed manifest instead
        tables[spec.name] = (spec, block)
    return "\n".join(lines[: owned[0]]), tables


def read_manifest(path: Path) -> Manifest:
    if not path.is_file():
        return Manifest(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from exc
    specs: list[SourceSpec] = []
    for i, entry in enumerate(data.get("sources", [])):
        try:
            spec = SourceSpec.model_validate(entry)
            specs.append(spec.model_copy(update={"manifest": str(path.absolute())}))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "entry"
            raise ManifestError(f"{path}: sources[{i}] {where}: {first['msg']}") from exc
    names = [s.name for s in specs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ManifestError(f"{path}: duplicate source names: {', '.join(dupes)}")
    return Manifest(path, specs)


def project_manifest_path(cwd: Path | None = None) -> Path:
    return (cwd or Path.cwd()) / MANIFEST_NAME


def user_manifest_path(home: Path) -> Path:
    return home / MANIFEST_NAME


def writable_manifest(home: Path, cwd: Path | None = None) -> Manifest:
    """The manifest `add`/`remove` edit: the project's if present, else the user's."""
    project = project_manifest_path(cwd)
    return read_manifest(project if project.is_file() else user_manifest_path(home))


def effective_sources(home: Path, cwd: Path | None = None) -> list[SourceSpec]:
    """User sources overridden by project sources of the same name."""
    merged: dict[str, SourceSpec] = {}
    for path in (user_manifest_path(home), project_manifest_path(cwd)):
        for spec in read_manifest(path).sources:
            if spec.path and not Path(spec.path).expanduser().is_absolute():
                # a relative path is relative to the manifest that names it
                spec = spec.model_copy(update={"path": str((path.parent / spec.path).resolve())})
            merged[spec.name] = spec
    return list(merged.values())
