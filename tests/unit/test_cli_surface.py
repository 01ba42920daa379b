"""What a user sees from the CLI (issue 17): code printed whole, errors worded once,
messages that say what is true. Each test runs the real commands through click with a
hashing embedder, output piped (not a terminal), as an agent's shell tool runs them."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxhub.cli.main import cli
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.session import set_embedder
from tests.unit.cli_runner import run

WIDE = (
    '    message = "this line is deliberately much wider than any terminal an agent shell '
    'tool reports, so a renderer that crops at the console width cuts it before END_OF_LINE"'
)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    pkg = tmp_path / "src" / "widepkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "wide.py").write_text(
        'def wide_function(a, b):\n    """One very wide line."""\n'
        f"{WIDE}\n    first = a + b\n    second = first * 2\n    return message, second\n"
    )
    set_embedder(HashingEmbedder(dim=64))
    yield tmp_path
    set_embedder(None)


def test_code_is_printed_whole_when_piped(home: Path) -> None:
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    snippet = run(home, "snippet", "widepkg.wide.wide_function").output
    assert WIDE in snippet.splitlines()
    chunk_id = next(w for w in snippet.split() if len(w) == 16 and w.isalnum())
    shown = run(home, "show", chunk_id).output
    assert WIDE in shown.splitlines()


def test_a_failed_add_writes_nothing(home: Path) -> None:
    failed = run(home, "add", "pypi:ctxhub-no-such-distribution", "--name", "ghost", code=1)
    assert "nothing indexed" in failed.output and "previous chunks kept" not in failed.output
    assert "ghost not added" in failed.output
    assert not (home / "store" / "ctxhub.toml").exists()
    listed = run(home, "sources", "--json").output
    assert "ghost" not in listed
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    assert "ghost" not in (home / "store" / "ctxhub.toml").read_text()
    refreshed = run(home, "refresh")  # exits 0: no failing entry was left behind
    assert "ghost" not in refreshed.output


def test_malformed_pypi_add_is_one_error_line_with_exit_2(home: Path) -> None:
    for argument in ("pypi:", "pypi:==1.0", "pypi: foo"):
        refused = run(home, "add", argument, "--no-refresh", code=2)
        lines = refused.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), refused.output
    assert "empty package name in 'pypi:'" in run(home, "add", "pypi:", code=2).output
    assert not (home / "store" / "ctxhub.toml").exists()


def test_add_takes_include_exclude_and_ref(home: Path) -> None:
    (home / "src" / "widepkg" / "extra.py").write_text(
        "def extra_function(a):\n    b = a\n    c = b\n    d = c\n    return d\n"
    )
    run(
        home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg",
        "--exclude", "**/extra.py",
    )  # fmt: skip
    manifest = (home / "store" / "ctxhub.toml").read_text()
    assert 'exclude = [\n    "**/extra.py",\n]' in manifest or '"**/extra.py"' in manifest
    assert "not found" in run(home, "snippet", "widepkg.extra.extra_function", code=1).output
    assert "wide_function" in run(home, "snippet", "widepkg.wide.wide_function").output
    refused = run(home, "add", str(home / "src"), "--name", "other", "--ref", "v1", code=2)
    assert "--ref is for git sources" in refused.output


def test_show_opens_records_and_every_command_takes_a_unique_prefix(home: Path) -> None:
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    logged = run(
        home, "log", "--problem", "ImportError: cannot import name 'thing' from 'widepkg'",
        "--solution", "upgrade widepkg to 2.0", "--json",
    ).output  # fmt: skip
    record_id = json.loads(logged)["id"]
    shown = run(home, "show", record_id[:8]).output
    assert f"record {record_id}" in shown and "upgrade widepkg to 2.0" in shown
    assert "not rated yet" in shown
    run(home, "rate", record_id[:8], "worked")  # digests print 8 characters
    assert "rated 1/1 worked" in run(home, "show", record_id).output
    snippet = run(home, "snippet", "widepkg.wide.wide_function").output
    chunk_id = next(w for w in snippet.split() if len(w) == 16 and w.isalnum())
    assert "wide_function" in run(home, "show", chunk_id[:6]).output
    # a prefix too short to be a choice says so (not "nothing has the id")
    assert "too short to name one id" in run(home, "show", chunk_id[:2], code=2).output
    unknown = run(home, "show", "0123abcd", code=1).output
    assert "no chunk or record with id '0123abcd'" in unknown
    assert (
        "error: not found: no record 'zzzz'" in run(home, "forget", "zzzz", "--yes", code=1).output
    )
    run(home, "forget", record_id[:8], "--yes")
    assert "no chunk or record" in run(home, "show", record_id[:8], code=1).output


def test_every_error_is_worded_one_way_and_names_offer_a_correction(home: Path) -> None:
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    lines = [
        run(home, "remove", "widepkgg", code=1).output,  # click's own exception
        run(home, "refresh", "wdepkg", code=1).output,
        run(home, "snippet", "NoSuchSymbolAnywhere", code=1).output,  # a tool's error
        run(home, "search-api", "x", "--limit", "500", code=2).output,  # a usage error
        run(home, "no-such-command", code=2).output,
    ]
    for output in lines:
        last = output.strip().splitlines()[-1]
        assert last.startswith("error: "), output
        assert "Error:" not in output
    assert "did you mean widepkg?" in lines[0] and "did you mean widepkg?" in lines[1]


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_tables_read_at_any_width(width: int) -> None:
    """Names are never cut, no line is wider than the console, every cell is shown."""
    from rich.console import Console

    from ctxhub.cli.tables import fitted_table

    console = Console(width=width, record=True, file=io.StringIO())
    headers = ("source", "status", "version", "files", "added", "updated", "removed", "skipped")
    rows = [
        ["litestar-docs-and-examples", "ok", "2.25.0", "386", "12", "0", "0", "1"],
        ["mm", "[red]failed[/red]", "-", "0", "0", "0", "0", "0"],
    ]
    console.print(fitted_table(console, headers, rows))
    text = console.export_text()
    assert "litestar-docs-and-examples" in text and "…" not in text
    assert all(len(line) <= width for line in text.splitlines())
    assert "failed" in text and "2.25.0" in text
    if width >= 100:
        assert "┃" in text or "│" in text  # a real table when it fits


def test_an_empty_hub_says_so_and_how_to_fill_it(home: Path) -> None:
    for command in ("sources", "status"):
        assert "no sources yet: ctxhub add SOURCE" in run(home, command).output
    assert "memory: empty" in run(home, "status").output
    searched = run(home, "search", "how do I retry a request").output
    assert "nothing is indexed yet: add a source with `ctxhub add SOURCE`" in searched
    summary = run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg").output
    assert "new texts embedded" in summary and "from cache" not in summary
    again = run(home, "refresh").output
    assert "nothing to embed" in again


def test_every_option_of_every_command_says_what_it_does() -> None:
    import click

    group = cli
    assert isinstance(group, click.Group)
    ctx = click.Context(group)
    missing = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        commands = [command]
        if isinstance(command, click.Group):
            commands += [command.get_command(ctx, n) for n in command.list_commands(ctx)]  # type: ignore[misc]
        for cmd in commands:
            assert cmd is not None
            for param in cmd.params:
                if isinstance(param, click.Option) and not param.hidden and not param.help:
                    missing.append(f"{cmd.name} {param.opts[0]}")
    assert not missing, missing


def test_sources_refresh_and_remove_work_from_any_folder(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One store, manifests per project: a source added in project A is listed, refreshed
    by name and removed (from A's ctxhub.toml too) while working in project B."""
    project_a, project_b = home / "a", home / "b"
    for p in (project_a, project_b):
        p.mkdir()
        (p / "ctxhub.toml").write_text("# this project's sources\n")
    monkeypatch.chdir(project_a)
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    assert "widepkg" in (project_a / "ctxhub.toml").read_text()
    monkeypatch.chdir(project_b)
    listed = json.loads(run(home, "sources", "--json").output)
    (row,) = listed
    assert row["name"] == "widepkg" and row["chunks"] > 0 and not row["this_folder"]
    assert row["defined_in"] == f"defined in {project_a / 'ctxhub.toml'}"
    assert "not listed here" in run(home, "sources").output
    refreshed = run(home, "refresh", "widepkg").output
    assert "widepkg" in refreshed and "ok" in refreshed
    assert "no ctxhub.toml here" not in run(home, "refresh", "--all").output
    removed = run(home, "remove", "widepkg").output
    assert f"from {project_a / 'ctxhub.toml'}" in removed
    assert "widepkg" not in (project_a / "ctxhub.toml").read_text()
    assert (project_a / "ctxhub.toml").read_text().startswith("# this project's sources")
    assert json.loads(run(home, "sources", "--json").output) == []


def test_progress_bars_on_a_terminal_do_not_break_the_refresh(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal the refresh draws Rich bars, which enter the console as a context
    manager: the lazy console stand-in must hand over the real one."""
    from ctxhub.cli import progress

    monkeypatch.setattr(progress, "interactive", lambda: True)
    done = run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    assert "widepkg" in done.output and "Traceback" not in done.output


def test_a_structural_filter_that_admits_nothing_is_not_a_confident_answer(home: Path) -> None:
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    listed = json.loads(run(home, "search-api", "--module", "tests", "--json").output)
    assert listed["hits"] == [] and listed["total"] == 0 and listed["confidence"] == 0.0
    assert listed["notice"] == "no API chunk matches module='tests'; indexed packages: widepkg"
    text = run(home, "search-api", "--module", "tests").output
    assert "confidence 0.00" in text and "indexed packages: widepkg" in text


def test_counts_read_as_english_and_help_names_the_real_paths() -> None:
    from ctxhub.core.outputs import HubStatus, MemoryStatus
    from ctxhub.tools.render_status import memory_line

    def line(**memory: int) -> str:
        status = HubStatus(
            store_path="x.db", store_bytes=0, schema_version=5, model=None, dim=None,
            generation=0, chunks=0, embedded=0, sources=[], memory=MemoryStatus(**memory),
        )  # fmt: skip
        return memory_line(status)

    assert line(records=1, variants=1).startswith("memory: 1 record (none); 1 variant;")
    assert line(records=2).startswith("memory: 2 records (none); 0 variants;")
    assert line().startswith("memory: empty")
    init_help = CliRunner().invoke(cli, ["init", "--help"]).output
    assert "$CTXHUB_HOME/ctxhub.toml" in init_help and "~/.ctxhub/ctxhub.toml" not in init_help


@pytest.mark.parametrize("source", ["", "  "])
def test_an_empty_source_is_refused_not_the_current_folder(home: Path, source: str) -> None:
    refused = run(home, "add", source, code=2)  # Path("") would be "."
    assert refused.output.strip() == "error: invalid arguments for add: empty SOURCE"
    assert not (home / "store" / "ctxhub.toml").exists()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    import functools
    import http.server
    import threading

    www = tmp_path / "www"
    www.mkdir()
    (www / "llms-full.txt").write_text("# Widgets\n\nA widget renders a frame.\n")
    (www / "pkg-1.0.tar.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 64)
    (www / "notes.txt").write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 64)  # gzip named .txt

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(www))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_url_that_is_no_docs_file_is_refused_and_leaves_nothing(home: Path, served: str) -> None:
    downloads = home / "store" / "sources"
    archive = run(home, "add", f"{served}/pkg-1.0.tar.gz", "--name", "tgz", code=1)
    assert "archive or binary file (.gz), not docs" in archive.output
    binary = run(home, "add", f"{served}/notes.txt", "--name", "bin", code=1)
    assert "not a docs file" in binary.output and "bin not added" in binary.output
    missing = run(home, "add", f"{served}/gone.txt", "--name", "gone", code=1)
    assert "HTTP 404" in missing.output
    assert not (home / "store" / "ctxhub.toml").exists()
    assert not any(downloads.glob("*"))  # no folder from any failed add


def test_remove_deletes_its_download_never_a_local_source(home: Path, served: str) -> None:
    downloads = home / "store" / "sources"
    run(home, "add", f"{served}/llms-full.txt", "--name", "site")
    run(home, "add", str(home / "src"), "--kind", "python", "--name", "widepkg")
    assert (downloads / "site" / "llms-full.txt").is_file()
    removed = run(home, "remove", "site").output
    assert "deleted its download" in removed and not (downloads / "site").exists()
    run(home, "remove", "widepkg")
    assert (home / "src" / "widepkg" / "wide.py").is_file()  # the user's folder stays


CHANGELOG = """# Changelog

## 2.0.0

### Deprecations

- `widepkg.old_function()` is deprecated, use `widepkg.new_function()` instead.
"""


def test_a_changelog_added_alone_is_read_as_one_or_refused(home: Path) -> None:
    """A CHANGELOG.md on its own is what it is in a package: deprecation records. Asked
    to index it as docs, it is a page that is opened but never ranked, and its records
    all the same. A file nothing reads is refused and nothing is written: never `ok`
    with nothing indexed."""
    changelog = home / "CHANGELOG.md"
    changelog.write_text(CHANGELOG)
    as_docs = run(home, "add", str(changelog), "--kind", "docs", "--name", "cl-docs").output
    assert "1 deprecation records" in as_docs
    assert "widepkg.old_function" in run(home, "doc", "CHANGELOG.md").output
    run(home, "remove", "cl-docs")
    added = run(home, "add", str(changelog), "--name", "cl").output
    assert "1 deprecation records" in added and added.split("\n")[1].split()[:2] == ["cl", "ok"]
    assert "cl" in (home / "store" / "ctxhub.toml").read_text()
    checked = run(home, "deprecated", "widepkg.old_function").output
    assert "DEPRECATED since 2.0.0" in checked and "new_function" in checked
    empty = home / "other" / "CHANGES.md"
    empty.parent.mkdir()
    empty.write_text("# Changes\n\n## 1.0.0\n\n- First release.\n")
    refused = run(home, "add", str(empty), "--name", "empty", code=1)
    assert "nothing to index in CHANGES.md: no deprecation or removal entry" in refused.output
    assert "empty" not in (home / "store" / "ctxhub.toml").read_text()
    script = home / "other" / "loose.py"
    script.write_text("print(1)\n")
    refused = run(home, "add", str(script), "--name", "loose", code=1)
    assert "nothing to index in loose.py: not in an importable package" in refused.output
