"""Source commands: init, add, remove, sources, refresh."""

from __future__ import annotations

import os
import shutil
import sys
from importlib import resources
from pathlib import Path

import click
from rich.markup import escape

from ctxhub.app.sources import defined_in, known_sources
from ctxhub.cli.context import Context, pass_ctx
from ctxhub.cli.output import err, out, print_json
from ctxhub.cli.refreshing import run_refresh
from ctxhub.cli.tables import fitted_table
from ctxhub.core.errors import ManifestError
from ctxhub.ingest.refresh.running import INTERRUPTED, PARTIAL, label
from ctxhub.sources import download_dir, spec_from_argument
from ctxhub.sources.base import ADD_COMMAND, CONTENT_KINDS, KIND_ALIASES, SOURCE_FORMS
from ctxhub.sources.manifest import (
    project_manifest_path,
    read_manifest,
    user_manifest_path,
    writable_manifest,
)
from ctxhub.store.factory import open_store
from ctxhub.tools.hub_status import environment_note
from ctxhub.tools.render_status import version_label

PRESETS = ("pipecat",)


@click.command()
@click.option("--preset", type=click.Choice(PRESETS), help="Start from a framework's sources.")
@click.option(
    "--user",
    "user_level",
    is_flag=True,
    help="Write the user manifest instead: $CTXHUB_HOME/ctxhub.toml (~/.ctxhub by default).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing manifest.")
@pass_ctx
def init(ctx: Context, preset: str | None, user_level: bool, force: bool) -> None:
    """Write a ctxhub.toml manifest (project-local by default)."""
    path = user_manifest_path(ctx.settings.home) if user_level else project_manifest_path()
    if path.exists() and not force:
        raise ManifestError(f"{path} exists; use --force to overwrite it")
    if preset:
        text = resources.files("ctxhub.presets").joinpath(f"{preset}.toml").read_text("utf-8")
    else:
        text = "# ctxhub sources: add them with `ctxhub add SOURCE`\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    names = ", ".join(s.name for s in read_manifest(path).sources)
    step = "ctxhub refresh" if names else "ctxhub add SOURCE"
    out.print(f"wrote {path} (sources: {names or 'none yet'}); next: {step}")


@click.command()
@click.argument("source")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice([*CONTENT_KINDS, *KIND_ALIASES]),
    help="Content kind(s): docs, python, examples (or doc, api, example, the kinds of "
    "chunk they make); default: detect them from the files.",
)
@click.option("--name", help="Source name (default: derived from SOURCE).")
@click.option(
    "--python",
    "python",
    type=click.Path(exists=True, dir_okay=False),
    help="pypi:NAME: read it from this interpreter's environment (default: $VIRTUAL_ENV, "
    "else ./.venv, else ctxhub's own).",
)
@click.option(
    "--sdist",
    is_flag=True,
    help="pypi:NAME==X: read the release's sdist (its docs and examples) from the package "
    "index even when X is installed (no ==X: the installed version); default name NAME-sdist.",
)
@click.option("--base-url", help="Docs site root, to give doc chunks a URL.")
@click.option("--ref", help="git sources: the branch or tag to check out.")
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="Index only files matching GLOB (repeatable), e.g. 'docs/**/*.md'.",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Also leave out files matching GLOB (repeatable; tests and build output already are).",
)
@click.option("--no-refresh", is_flag=True, help="Only write the manifest; index later.")
@click.option("--json", "as_json", is_flag=True, help="Print the refresh summary as JSON.")
@pass_ctx
def add(
    ctx: Context,
    source: str,
    kinds: tuple[str, ...],
    name: str | None,
    python: str | None,
    sdist: bool,
    base_url: str | None,
    ref: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    no_refresh: bool,
    as_json: bool,
) -> None:
    """Add SOURCE (a path, git URL, http(s) URL or pypi:NAME) and index it.

    \b
    ctxhub add pypi:pipecat-ai            # the installed distribution, its exact version
    ctxhub add pypi:structlog==26.1.0 --sdist  # that release's sdist: docs, examples
    ctxhub add https://github.com/o/repo  # shallow clone under ~/.ctxhub/sources
    ctxhub add https://docs.x.ai/llms-full.txt
    ctxhub add ./docs --kind docs
    """
    env = os.path.abspath(python) if python else None  # not resolved: a venv's python is a link
    spec = spec_from_argument(source, name=name, kind=list(kinds) or None, python=env, sdist=sdist)  # type: ignore[arg-type]
    if ref and not spec.git:
        raise click.UsageError(f"--ref is for git sources; {source} is not one")
    extra = {"base_url": base_url, "ref": ref, "include": list(include), "exclude": list(exclude)}
    spec = spec.model_copy(update={k: v for k, v in extra.items() if v})
    manifest = writable_manifest(ctx.settings.home)
    spec = spec.model_copy(update={"manifest": str(manifest.path.absolute())})
    manifest.add(spec)  # raises before anything is written when the name is taken
    folder = download_dir(spec, ctx.settings.sources_dir)
    fresh = folder is not None and not os.path.lexists(folder)  # this add would create it
    if not no_refresh:
        with open_store(ctx.settings.store_location) as store:
            indexed_before = any(s.name == spec.name for s in store.sources())
        summary = run_refresh(ctx, [spec], force=False, embed=True, as_json=as_json)
        if any(s.status == "failed" for s in summary.sources):
            # A failed add writes nothing: no manifest entry that every later refresh
            # would fail on, no source row in the store (one indexed before stays).
            if not indexed_before:
                with open_store(ctx.settings.store_location) as store:
                    store.delete_source(spec.name)
            if fresh and folder is not None:  # nor a half-made download folder
                shutil.rmtree(folder, ignore_errors=True)
            err.print(f"error: {spec.name} not added: fix the source and run `ctxhub add` again")
            sys.exit(1)
    manifest.save()
    err.print(f"added {spec.name} ({spec.origin}) to {manifest.path}")


def _did_you_mean(ctx: Context, name: str) -> str:
    """`; did you mean X?` from the sources the manifests and the store know."""
    import difflib

    with open_store(ctx.settings.store_location) as store:
        known = {k.name for k in known_sources(store, ctx.settings.home)}
    close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
    if close:
        return f"; did you mean {', '.join(close)}?"
    return f"; known: {', '.join(sorted(known))}" if known else "; no sources yet (ctxhub add)"


@click.command()
@click.argument("name")
@pass_ctx
def remove(ctx: Context, name: str) -> None:
    """Remove source NAME from the manifest that lists it (this folder's, or the one the
    store recorded when it was indexed elsewhere) and delete its chunks."""
    with open_store(ctx.settings.store_location) as store:
        known = {k.name: k for k in known_sources(store, ctx.settings.home)}
    source = known.get(name)
    where = source.spec.manifest if source is not None and source.spec is not None else None
    manifest = read_manifest(Path(where)) if where else writable_manifest(ctx.settings.home)
    in_manifest = manifest.remove(name)
    if in_manifest:
        manifest.save()
    with open_store(ctx.settings.store_location) as store:
        deleted = store.delete_source(name)
    if not in_manifest and not deleted:
        raise click.ClickException(f"no source named {name!r}{_did_you_mean(ctx, name)}")
    listed = f" and from {manifest.path}" if in_manifest else ""
    # ctxhub's own copy (a clone, a download, a crawl, an sdist) goes too; a local
    # path or an installed distribution is the user's and is never touched
    spec = source.spec if source is not None else None
    folder = download_dir(spec, ctx.settings.sources_dir) if spec is not None else None
    if folder is not None and folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder, ignore_errors=True)
        listed += f"; deleted its download {folder}"
    out.print(f"removed {name}: {deleted} chunks deleted{listed}")


@click.command("sources")
@click.option("--json", "as_json", is_flag=True, help="Print the sources as JSON.")
@pass_ctx
def sources_cmd(ctx: Context, as_json: bool) -> None:
    """List every source: this folder's manifests (project, then user) and the ones the
    store indexed from elsewhere, with their state and where each is defined."""
    with open_store(ctx.settings.store_location) as store:
        known = known_sources(store, ctx.settings.home)
        counts = store.counts()
    rows: list[dict[str, object]] = []
    for k in known:
        chunks = sum(counts.get(k.name, {}).values())
        state = k.state
        if state is not None:
            status, error = label(state.status, state.error, state.stats)
        elif chunks:  # chunks without a source row: an older ctxhub was killed mid-refresh
            status, error = PARTIAL, INTERRUPTED
        else:
            status, error = "not indexed", None
        spec = k.spec
        note = environment_note(state.origin, state.version) if state is not None else None
        rows.append(
            {
                "name": k.name,
                "origin": spec.origin if spec is not None else (state.origin if state else "-"),
                "kind": [str(x) for x in spec.kind] if spec and spec.kind else ["auto"],
                "status": status,
                "error": error,
                "version": state.version if state is not None else None,
                "chunks": chunks,
                "defined_in": defined_in(spec),
                "this_folder": k.where == "here",
                "version_note": note,
                "warning": state.stats.get("warning") if state is not None else None,
            }
        )
    if as_json:
        print_json(rows)
        return
    cells = []
    for r in rows:
        status = str(r["status"])
        if r["error"]:
            error = escape(str(r["error"]))  # whole: the table wraps a long cell
            status += f" ({error})" if status == PARTIAL else f": {error}"
        elif r["warning"]:  # whole, as an error is
            status += f": {escape(str(r['warning']))}"
        if r["version_note"]:
            status += f" [yellow]({escape(str(r['version_note']))})[/yellow]"
        kinds = ",".join(r["kind"])  # type: ignore[arg-type]
        cells.append(
            [
                str(r["name"]),
                str(r["origin"]),
                kinds,
                status,
                version_label(str(r["version"] or "") or None, None, bool(r["chunks"])),
                str(r["chunks"]),
            ]
        )
    if not cells:
        out.print(f"no sources yet: {ADD_COMMAND} ({SOURCE_FORMS})")
        return
    headers = ("name", "origin", "kind", "status", "version", "chunks")
    out.print(fitted_table(out, headers, cells))
    elsewhere = [r for r in rows if not r["this_folder"]]
    for r in elsewhere:
        out.print(f"[dim]{r['name']}: not listed here; {r['defined_in']}[/dim]")


@click.command("refresh")
@click.argument("names", nargs=-1)
@click.option("--force", is_flag=True, help="Re-extract every file, changed or not.")
@click.option("--reembed", is_flag=True, help="Switch the store to the current model.")
@click.option("--no-embed", is_flag=True, help="Lexical index only; embed later.")
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Also the sources indexed from other folders (the store recorded their entries).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the refresh summary as JSON.")
@pass_ctx
def refresh_cmd(
    ctx: Context,
    names: tuple[str, ...],
    force: bool,
    reembed: bool,
    no_embed: bool,
    every: bool,
    as_json: bool,
) -> None:
    """Re-index sources: this folder's manifests (project and user), NAMES (any source
    the store knows, from any folder) or --all. Only changed files are re-extracted."""
    with open_store(ctx.settings.store_location) as store:
        known = known_sources(store, ctx.settings.home)
    if names:
        by_name = {k.name: k for k in known}
        unknown = sorted(set(names) - set(by_name))
        if unknown:
            hint = _did_you_mean(ctx, unknown[0]) if len(unknown) == 1 else ""
            raise click.ClickException(f"unknown source(s): {', '.join(unknown)}{hint}")
        chosen = [by_name[n] for n in dict.fromkeys(names)]
    else:
        chosen = [k for k in known if every or k.where == "here"]
        if not chosen and known and not reembed:
            chosen = known  # no manifest here: what the store holds is what there is
            err.print(f"no ctxhub.toml here: refreshing the {len(known)} sources the store holds")
    blind = [k.name for k in chosen if k.spec is None]
    if blind:
        raise click.ClickException(
            f"{', '.join(blind)}: indexed by an older ctxhub that did not record the entry; "
            "run `ctxhub refresh` once from the folder whose ctxhub.toml lists it"
        )
    specs = [k.spec for k in chosen if k.spec is not None]
    if not specs and not reembed:
        raise click.ClickException("no sources; add one with `ctxhub add` or `ctxhub init`")
    summary = run_refresh(
        ctx, specs, force=force, embed=not no_embed, as_json=as_json, reembed=reembed
    )
    if any(s.status == "failed" for s in summary.sources):
        sys.exit(1)  # a `warning` source (nothing indexed) refreshed: it says why


COMMANDS = [init, add, remove, sources_cmd, refresh_cmd]
