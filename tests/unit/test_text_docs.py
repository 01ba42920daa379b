"""A `.txt` file of a docs source is read by what it holds: an llms dump whatever its
name, Markdown docs saved as .txt; a plain .txt stays out with its reason. A second H1
is a new top-level section, not the first one's child."""

from __future__ import annotations

from pathlib import Path

from ctxhub.core.knowledge import ChunkQuery
from ctxhub.ingest.docs.chunks import parse_doc_file
from ctxhub.ingest.docs.text_kind import text_kind
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.base import SourceSpec
from ctxhub.sources.local import snapshot_dir
from ctxhub.store.sqlite.store import SQLiteStore

PAGES = (
    "# Alpha Page\n\nSource: https://x.dev/alpha\n\nalpha-dump-token content about wombats.\n\n"
    "\n# Beta Page\n\nbeta-dump-token content about echidnas and their spines.\n"
)


def test_a_markdown_dump_named_txt_is_indexed_with_kind_docs(tmp_path: Path) -> None:
    (tmp_path / "dump.txt").write_text(PAGES)
    with SQLiteStore(tmp_path / "ctxhub.db") as store:
        summary = refresh(
            store, [SourceSpec(name="d", path=str(tmp_path / "dump.txt"), kind=["docs"])],
            tmp_path, None,
        )  # fmt: skip
        (source,) = summary.sources
        assert source.status == "ok" and source.warning is None
        chunks = store.find_chunks(ChunkQuery(source="d"))
        assert {c.section for c in chunks} == {"Alpha Page", "Beta Page"}


def test_a_txt_dump_under_any_name_and_plain_text_stays_out(tmp_path: Path) -> None:
    two = PAGES.replace("# Beta Page\n", "# Beta Page\n\nSource: https://x.dev/beta\n")
    (tmp_path / "docs.txt").write_text(two)
    (tmp_path / "llms-ctx.txt").write_text(two)
    (tmp_path / "notes.txt").write_text("remember to water the plants\n")
    (tmp_path / "requirements.txt").write_text("# pinned\n\nrequests==2.32.0\n")
    plan = plan_units(snapshot_dir(tmp_path), ["docs"])
    assert {(u.key, u.kind) for u in plan.units} == {("docs.txt", "dump"), ("llms-ctx.txt", "dump")}
    assert "no llms dump" in dict(plan.left_out)["notes.txt"]
    assert text_kind("requirements.txt", b"# pinned\n\nSome words of a prose line.\n") is None
    assert text_kind("robots.txt", b"# robots for us\n\nUser-agent: *\n") is None


def test_a_second_h1_is_a_new_top_level_section() -> None:
    text = "# Alpha Page\n\nAbout wombats here.\n\n## Detail\n\nMore.\n\n# Beta Page\n\nEchidnas.\n"
    result = parse_doc_file("s", "page.md", text)
    crumbs = [c.section for c in result.chunks]
    assert "Beta Page" in crumbs and "Alpha Page > Beta Page" not in crumbs
