"""Where bytes come from: a source spec (manifest entry) and the snapshot it resolves to."""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from ctxhub.core.errors import SourceError, UnreadableFile

ContentKind = Literal["docs", "python", "examples"]
CONTENT_KINDS: tuple[ContentKind, ...] = ("docs", "python", "examples")
#: A source's content kind makes chunks of one kind (docs -> doc, python -> api,
#: examples -> example); the chunk kind's name is accepted for it too (`add --kind api`).
KIND_ALIASES: dict[str, ContentKind] = {"doc": "docs", "api": "python", "example": "examples"}

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def link_problem(full: Path, root: Path) -> str | None:
    """Why the file at `full` (a path under `root`) must not be read, or None.

    "symlink loop", "dangling symlink" and "symlink outside the source" are the reasons a
    link is refused; a plain file that cannot be stat()ed is "unreadable: <why>". Never
    raises (Path.resolve raises RuntimeError on a loop before Python 3.13)."""
    try:
        os.stat(full)  # follows every link on the way
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop"
        if exc.errno == errno.ENOENT and os.path.islink(full):
            return "dangling symlink"
        return f"unreadable: {exc.strerror or exc}"
    if not Path(os.path.realpath(full)).is_relative_to(root):
        return "symlink outside the source"
    return None


#: How a person adds a source, and what SOURCE may be: one wording for every hint that
#: the hub is empty (CLI and MCP alike).
ADD_COMMAND = "ctxhub add SOURCE"
SOURCE_FORMS = "a path, git URL, docs URL or pypi:NAME"


class SourceSpec(BaseModel):
    """One `[[sources]]` entry of ctxhub.toml. Exactly one origin must be set."""

    name: str
    kind: list[ContentKind] = Field(default_factory=list)  # empty: detect from the files
    path: str | None = None
    git: str | None = None
    ref: str | None = None  # git branch or tag
    package: str | None = None  # an installed distribution (pypi:NAME)
    #: pypi:NAME==X: that release (the installed one if it is X, else its sdist from PyPI)
    release: str | None = None
    #: pypi:NAME==X --sdist: the release's sdist from the package index even when X is
    #: installed (an installed wheel seldom ships docs or examples)
    sdist: bool = False
    #: the interpreter whose environment has `package` installed (None: ctxhub's own)
    python: str | None = None
    url: str | None = None
    include: list[str] = Field(default_factory=list)  # globs; empty: everything
    exclude: list[str] = Field(default_factory=list)  # globs added to the defaults
    base_url: str | None = None  # docs site root, to give doc chunks a URL
    #: the ctxhub.toml this entry was read from (not written back: where it lives)
    manifest: str | None = Field(default=None, exclude=True)

    @field_validator("kind", mode="before")
    @classmethod
    def _kind_aliases(cls, v: object) -> object:
        if isinstance(v, str):
            v = [v]
        if isinstance(v, list):
            return [KIND_ALIASES.get(k, k) if isinstance(k, str) else k for k in v]
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError(
                f"source name {v!r}: use letters, digits, '.', '_' or '-' (max 64 chars)"
            )
        return v

    @field_validator("kind", mode="before")
    @classmethod
    def _kind_list(cls, v: object) -> object:
        return [v] if isinstance(v, str) else v

    @model_validator(mode="after")
    def _one_origin(self) -> SourceSpec:
        origins = [o for o in (self.path, self.git, self.package, self.url) if o]
        if len(origins) != 1:
            raise ValueError(f"source {self.name!r} needs exactly one of path, git, package or url")
        if self.sdist and not (self.package and self.release):
            raise ValueError(
                f"source {self.name!r}: sdist needs package and release (pypi:NAME==X)"
            )
        return self

    @property
    def origin(self) -> str:
        if self.package:
            pin = f"=={self.release}" if self.release else ""
            return f"pypi:{self.package}{pin}" + (f" @ {self.python}" if self.python else "")
        return str(self.path or self.git or self.url)


@dataclass
class Snapshot:
    """A source resolved to files on disk: a root and the relative files to index."""

    root: Path
    files: list[str]  # relative POSIX paths, sorted
    origin: str
    version: str | None = None
    commit: str | None = None
    notes: list[str] = field(default_factory=list)
    #: (relative path, reason) of what the walk left out: symlink loops, dangling links,
    #: links leaving the root, directory links (never followed), files over the size cap
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: what the origin did not give and how to get it (an installed wheel without docs:
    #: the release's sdist has them); the refresh prints these, not every note
    advice: list[str] = field(default_factory=list)
    #: the kinds this origin implies when the spec names none (an installed
    #: distribution's files are its code: python); empty: detect them from the files
    kinds: list[ContentKind] = field(default_factory=list)
    #: top-level module files (`peewee.py`) the origin says are importable: what an
    #: installed distribution put at the top of site-packages. API whatever the layout
    top_modules: list[str] = field(default_factory=list)
    #: files left out only because their extension usually means binary (`.pt` is a
    #: model's weights, or a Chameleon template): never indexed, but a docs page may
    #: include one, so `read` serves them and the reader decides whether they are text
    by_extension: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.root = self.root.resolve()
        self._allowed = set(self.files) | set(self.by_extension)

    def includable(self, relpath: str) -> bool:
        """A file a docs page may include: listed, or left out for its extension only."""
        return relpath in self._allowed

    def read(self, relpath: str) -> bytes:
        """Bytes of one listed file (or one left out for its extension: `by_extension`).
        Nothing else can be read.

        Raises SourceError for a path that is not listed or resolves outside the root,
        UnreadableFile (an OSError) when a listed file became a loop or a dangling link."""
        if relpath not in self._allowed:
            raise SourceError(f"{relpath!r} is not a file of this source")
        full = self.root / relpath
        problem = link_problem(full, self.root)
        if problem == "symlink outside the source":
            raise SourceError(f"{relpath!r} resolves outside the source root")
        if problem is not None:
            raise UnreadableFile(relpath, problem)
        try:
            return full.read_bytes()
        except OSError as exc:
            raise UnreadableFile(relpath, link_problem(full, self.root) or str(exc)) from exc
