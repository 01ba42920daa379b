"""Sources: resolve a manifest entry to a Snapshot of files on disk."""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from ctxhub.core.errors import InputError, SourceError
from ctxhub.core.identifiers import canonical_name
from ctxhub.sources import crawl, git, pypi, url
from ctxhub.sources.base import CONTENT_KINDS, ContentKind, Snapshot, SourceSpec
from ctxhub.sources.local import selected, snapshot_dir
from ctxhub.sources.project_version import project_version
from ctxhub.sources.pypi_release import fetch_release

__all__ = [
    "CONTENT_KINDS",
    "ContentKind",
    "Snapshot",
    "SourceError",
    "SourceSpec",
    "download_dir",
    "materialize",
    "spec_from_argument",
]

#: PEP 508 distribution names; the version pin after `==` is any non-blank text.
_DIST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")

_GIT = re.compile(
    r"^(git@|git://|ssh://)|\.git$|^https://(github\.com|gitlab\.com|bitbucket\.org)/[^/]+/[^/]+/?$"
)


def materialize(
    spec: SourceSpec, sources_dir: Path, say: Callable[[str], None] = lambda _: None
) -> Snapshot:
    """Fetch what must be fetched and list the files to index; `say` hears about a
    download that may take a while (a release's sdist)."""
    if spec.path:
        snap = snapshot_dir(spec.path, spec.include, spec.exclude)
        # a docs or examples folder of a project: the project's version
        snap.version = project_version(snap.root)
    elif (
        spec.package
        and spec.release
        and (spec.sdist or pypi.installed_version(spec.package, spec.python) != spec.release)
    ):
        fetched = fetch_release(spec.package, spec.release, sources_dir / spec.name, say=say)
        snap = snapshot_dir(fetched.root, spec.include, spec.exclude)
        snap.version = spec.release
        what = "sdist" if fetched.is_sdist else "wheel"
        # the index it came from, not today's $PIP_INDEX_URL: a cached release keeps it
        snap.origin = f"pypi:{spec.package}=={spec.release} ({what} from {fetched.stamp.index})"
        snap.notes.append(fetched.note)
        if not fetched.is_sdist:
            snap.notes.append(
                f"{spec.package} {spec.release} has no sdist: its wheel is indexed "
                "(its code only, no docs or examples)"
            )
    elif spec.package:
        snap = pypi.snapshot_distribution(spec.package, spec.python)
        snap.advice.extend(_installed_advice(spec, snap))
        snap.notes.extend(snap.advice)
        if spec.include or spec.exclude:
            # filter the distribution's own file list (walking site-packages would read
            # every other installed package's tree)
            files = [f for f in snap.files if selected(f, spec.include, spec.exclude)]
            skipped = [s for s in snap.skipped if selected(s[0], spec.include, spec.exclude)]
            snap = dataclasses.replace(snap, files=files, skipped=skipped)
    elif spec.git:
        dest = sources_dir / spec.name
        commit = git.sync(spec.git, dest, spec.ref)
        snap = snapshot_dir(dest, spec.include, spec.exclude)
        snap.origin, snap.commit = spec.git, commit
    elif spec.url:
        dest_dir = sources_dir / spec.name
        if crawl.is_site(spec.url):
            crawled = crawl.crawl(spec.url, dest_dir)
            snap = snapshot_dir(dest_dir, exclude=[crawl.STATE])
            snap.skipped.extend(crawled.skipped)
            snap.notes.append(
                f"crawled {spec.url}: {crawled.pages} pages read, {crawled.unchanged} unchanged"
            )
        else:
            url.fetch(spec.url, dest_dir)
            snap = snapshot_dir(dest_dir)
        snap.origin = spec.url
    else:  # the model validator makes this unreachable
        raise SourceError(f"source {spec.name!r} has no origin")
    return snap


def sdist_command(package: str, version: str | None) -> str:
    """The `add` that reads a release's sdist (docs, examples) beside an installed copy."""
    return f"ctxhub add pypi:{package}=={version or 'X'} --sdist"


def _installed_advice(spec: SourceSpec, snap: Snapshot) -> list[str]:
    """What reading the installed distribution did not give, and how to get it: a pin
    met by the installed copy reads that copy, not the sdist (said, with where it is
    installed); a wheel with no docs, or with docs but no examples, says which `add`
    reads the sdist (where a release ships its docs and examples: wheels rarely carry
    examples). An editable install is the project's own folder: nothing to add."""
    if "(editable " in snap.origin:
        return []
    get = f"`{sdist_command(spec.package or '', snap.version)}` reads the release's sdist"
    get += " (docs, examples)"
    no_docs = "docs" not in snap.kinds
    if spec.release:
        where = (
            f"in {spec.python}"
            if spec.python
            else f"beside ctxhub ({sys.executable}; pass --python PATH for the project's "
            "environment)"
        )
        what = "its files, with no docs," if no_docs else "its files"
        return [
            f"{spec.package}=={spec.release} is the distribution installed {where}: "
            f"{what} were read, not the release's sdist; {get}"
        ]
    missing = "docs" if no_docs else "examples" if "examples" not in snap.kinds else None
    if missing:
        return [f"no {missing} in the installed wheel ({spec.package} {snap.version}); {get}"]
    return []


def download_dir(spec: SourceSpec, sources_dir: Path) -> Path | None:
    """The folder ctxhub itself fetches `spec` into (a clone, a download, a crawl, a
    release's sdist), or None for what is read where it lies (a local path, an installed
    distribution): only such a folder may be deleted when the source goes."""
    if spec.path or (spec.package and not spec.release):
        return None
    folder = sources_dir / spec.name
    return folder if folder.parent == sources_dir and spec.name not in (".", "..") else None


def spec_from_argument(
    argument: str,
    *,
    name: str | None = None,
    kind: list[ContentKind] | None = None,
    python: str | None = None,
    sdist: bool = False,
) -> SourceSpec:
    """`ctxhub add ARG`: pypi:NAME, a git URL, an http(s) URL, or a local path.

    pypi:NAME is read from `python`'s environment, else from the project's (an activated
    virtualenv, `./.venv`), else from ctxhub's own: installed with pipx or `uv tool`,
    ctxhub still indexes the versions the project runs. Its kinds are left empty unless
    given: an installed distribution is python (and docs when it ships Markdown/reST),
    a release's sdist detects its kinds from its files like a folder.

    `sdist` (pypi: only) reads the release's sdist from the package index even when it
    is installed: `pypi:NAME==X`, or with no pin the version installed now; its default
    name is `NAME-sdist`, so it sits beside the installed distribution's source."""
    if not argument.strip():  # Path("") is ".": it would index the current folder
        raise InputError("empty SOURCE")
    if sdist and not argument.startswith("pypi:"):
        raise InputError(f"--sdist is for pypi:NAME sources; {argument!r} is not one")
    try:
        spec = _spec(argument, name, list(kind or []), python)
        if not sdist:
            return spec
        release = spec.release or pypi.installed_version(spec.package or "", spec.python)
        if release is None:
            where = spec.python or sys.executable
            raise InputError(
                f"{spec.package} is not installed in {where}: name the release, "
                f"{sdist_command(spec.package or '', None)}"
            )
        # the environment only told which version: the sdist is read from the index
        fields = {**spec.model_dump(), "sdist": True, "release": release, "python": None}
        return SourceSpec(**{**fields, "name": name or f"{spec.package}-sdist"})
    except ValidationError as exc:  # a --name the manifest refuses: one line, exit 2
        msgs = (str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        raise InputError("; ".join(msgs)) from exc


def _pypi_parts(argument: str) -> tuple[str, str | None]:
    """(canonical package, release or None) of `pypi:NAME` / `pypi:NAME==X`; an empty
    or malformed name or pin is an InputError, never a half-made entry."""
    requested, pinned, release = argument[len("pypi:") :].partition("==")
    if not requested:
        raise InputError(f"empty package name in {argument!r}: use pypi:NAME or pypi:NAME==X")
    if not _DIST_NAME.match(requested):
        raise InputError(
            f"{requested!r} in {argument!r} is not a package name (letters, digits, '.', "
            "'_' or '-'; a release is pinned with ==X only)"
        )
    if pinned and release.split() != [release]:  # empty, or with blanks
        raise InputError(f"bad version {release!r} in {argument!r}: use pypi:NAME==X")
    return canonical_name(requested), release or None


def _spec(
    argument: str, name: str | None, kinds: list[ContentKind], python: str | None
) -> SourceSpec:
    if argument.startswith("pypi:"):
        package, release = _pypi_parts(argument)
        return SourceSpec(
            name=name or package,
            kind=kinds,  # empty: the distribution's own kinds (its code, its Markdown)
            package=package,
            python=python or pypi.project_python(),
            release=release,
        )
    if _GIT.search(argument):
        stem = argument.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
        return SourceSpec(name=name or stem, kind=kinds, git=argument)
    if argument.startswith(("http://", "https://")):
        refused = url.binary_reason(argument)
        if refused is not None:
            raise SourceError(refused)
        host = re.sub(r"[^A-Za-z0-9.-]", "-", argument.split("/")[2])
        base = crawl.site_root(argument) if crawl.is_site(argument) else None
        return SourceSpec(name=name or host, kind=kinds or ["docs"], url=argument, base_url=base)
    path = Path(argument).expanduser()
    if not path.exists():
        raise SourceError(f"{argument!r} is not pypi:NAME, a URL, or an existing path")
    stem = path.resolve().name or "source"
    return SourceSpec(name=name or stem, kind=kinds, path=str(path.resolve()))
