"""The sources manifest, `ctxhub.toml`: a project-local file over the user's one.

Both files hold `[[sources]]` tables. Sources are merged by name, the project file
winning; `add`/`remove` write to the project file when there is one, else the user's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, Any] = {
            "sources": [s.model_dump(exclude_defaults=True) for s in self.sources]
        }
        tmp = self.path.with_suffix(".toml.tmp")
        tmp.write_text(tomli_w.dumps(data), encoding="utf-8")
        tmp.replace(self.path)


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
            specs.append(SourceSpec.model_validate(entry))
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
