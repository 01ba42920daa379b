"""Examples chunking: Python spans at top-level boundaries, markdown blocks, and the
chunks' content, ids, metadata, overviews and reported issues."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

from ctxhub.core.knowledge import Chunk, chunk_id
from ctxhub.ingest.examples.chunks import (
    TARGET_CHARS,
    chunk_example,
    discover_examples,
    python_spans,
    text_spans,
)
from ctxhub.ingest.examples.files import MAX_FILE_CHARS, fs_reader
from ctxhub.ingest.examples.taxonomy import taxonomies_for
from tests.unit.example_trees import FIXTURES, discover_tree

FW = {"acme"}


def _chunks(root: Path, version: str = "2.1.0") -> dict[str, list[Chunk]]:
    read = fs_reader(root)
    examples = discover_tree(root)
    tax = taxonomies_for(examples, read, framework_packages=FW, framework_version=version)
    return {e.path: chunk_example("src", e, read, tax[e.path], version=None) for e in examples}


# -- python chunking ---------------------------------------------------------------------


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_python_spans_follow_top_level_boundaries_and_cover_every_line() -> None:
    text = (FIXTURES / "examples_dir/examples/weather_bot.py").read_text()
    spans = python_spans(text, target=len(text) - 1)  # too big for one chunk
    kinds = [(s.kind, s.names) for s in spans]
    assert kinds == [
        ("module", ()),  # docstring, imports, constant
        ("def", ("ForecastTool", "main")),  # two small defs packed together
        ("module", ()),  # the __main__ guard
    ]
    lines = _lines(text)
    covered = {i for s in spans for i in range(s.start, s.end + 1)}
    assert all(not lines[i - 1].strip() for i in range(1, len(lines) + 1) if i not in covered)


def test_a_large_def_is_split_at_its_nested_defs() -> None:
    text = (FIXTURES / "examples_dir/examples/voice_agent/bot.py").read_text()
    lines = _lines(text)
    parts = [s for s in python_spans(text) if s.enclosing == "run_bot"]
    assert len(parts) >= 2
    assert [p.part for p in parts] == list(range(1, len(parts) + 1))
    for p in parts:
        assert sum(len(x) + 1 for x in lines[p.start - 1 : p.end]) <= TARGET_CHARS
    # every later part starts at a nested handler (its decorator line)
    for p in parts[1:]:
        assert lines[p.start - 1].strip().startswith("@transport.event_handler")
    handlers = [n for p in parts for n in p.names]
    assert handlers == [f"on_event_{i}" for i in range(6)]


def test_oversized_statement_falls_back_to_line_cuts_with_exact_ranges() -> None:
    body = "\n".join(f"    'item {i}': '{'x' * 60}'," for i in range(60))
    text = f"def big():\n    return {{\n{body}\n    }}\n"
    spans = python_spans(text)
    assert len(spans) > 2
    lines = _lines(text)
    assert spans[0].start == 1 and spans[-1].end == len(lines) - 1
    for a, b in itertools.pairwise(spans):
        assert b.start == a.end + 1  # contiguous: nothing lost, nothing repeated
    assert all(sum(len(x) + 1 for x in lines[s.start - 1 : s.end]) <= TARGET_CHARS for s in spans)


def test_decorators_and_comments_belong_to_their_def() -> None:
    text = "import x\n\n\n# Handles pings.\n@x.route('/ping')\ndef ping():\n    return 1\n"
    spans = python_spans(text, target=len(text) - 1)
    assert [(s.kind, s.start, s.end) for s in spans] == [("module", 1, 1), ("def", 4, 7)]


def test_a_file_that_fits_one_chunk_is_one_chunk() -> None:
    text = (
        "\n\nimport x\n\n\ndef ping():\n    return 1\n\n\n"
        "if __name__ == '__main__':\n    ping()\n\n"
    )
    (whole,) = python_spans(text)
    assert (whole.kind, whole.start, whole.end, whole.names) == ("module", 3, 11, ("ping",))


def test_markdown_blocks_keep_code_fences_whole() -> None:
    fence = "```python\n" + "\n\n".join(f"step_{i}()" for i in range(40)) + "\n```"
    para = "\n".join("word " * 12 for _ in range(5))
    text = "# Title\n\nIntro paragraph.\n\n" + fence + "\n\n## Next\n\n" + "\n\n".join([para] * 6)
    spans = text_spans(text, markdown=True)
    lines = _lines(text)
    fence_start = lines.index("```python") + 1
    fence_end = len(lines) - 1 - lines[::-1].index("```")
    # no span boundary falls strictly inside the fence
    assert not any(fence_start < s.start <= fence_end for s in spans)
    assert any(lines[s.start - 1].startswith("## Next") for s in spans)


# -- chunks --------------------------------------------------------------------------------


def test_file_chunks_have_exact_content_ids_and_metadata() -> None:
    root = FIXTURES / "examples_dir"
    chunks = _chunks(root)
    weather = chunks["examples/weather_bot.py"]
    files = [c for c in weather if c.metadata.chunk_type == "example_file"]
    for c in files:
        assert c.kind == "example" and c.path == "examples/weather_bot.py"
        assert c.title == "weather_bot" and c.section == "weather_bot.py"
        assert c.symbol is None and c.metadata.example == "weather_bot"
        assert c.line_start is not None and c.line_end is not None
        text = (root / c.path).read_text().split("\n")
        assert c.content == "\n".join(text[c.line_start - 1 : c.line_end])
        # the header carries the example's summary (its module docstring) and the file
        assert c.embed_text.startswith("Example: weather_bot — Weather bot: answers forecast")
        assert "examples/weather_bot.py lines" in c.embed_text
    # small enough to be read whole: one chunk, from the docstring to the __main__ guard
    (whole,) = files
    assert whole.id == chunk_id("src", "examples/weather_bot.py", "module", 0)
    assert (whole.line_start, whole.line_end) == (1, 32)
    assert whole.metadata.extra["defines"] == ["ForecastTool", "main"]
    every = [c.id for cs in chunks.values() for c in cs]
    assert len(every) == len(set(every))


def test_overview_chunk_describes_the_example() -> None:
    chunks = _chunks(FIXTURES / "examples_dir")
    (ov,) = [c for c in chunks["examples/weather_bot.py"] if c.metadata.chunk_type == "example"]
    # every hit cites something to open: the overview, its example's main file, whole
    assert ov.path == "examples/weather_bot.py" and ov.section == "weather_bot.py"
    assert (ov.line_start, ov.line_end) == (1, 32)
    assert ov.id == chunk_id("src", "examples/weather_bot.py", "example:weather_bot", 0)
    assert "transcribes with the Whisper speech-to-text" in ov.content  # the docstring
    assert "Defines: ForecastTool, main" in ov.content
    assert "WhisperSTTService" in ov.content and "PipelineRunner" in ov.content
    assert ov.metadata.extra["files"] == ["weather_bot.py"]
    assert ov.metadata.extra["symbol"] == "example:weather_bot"
    assert "whisper" in ov.metadata.tags
    (voice,) = [c for c in chunks["examples/voice_agent"] if c.metadata.chunk_type == "example"]
    # a folder example's overview names its entry point, the folder stays in example_path
    assert voice.path == "examples/voice_agent/bot.py" and voice.section == "bot.py"
    bot = (FIXTURES / "examples_dir" / voice.path).read_text().splitlines()
    assert (voice.line_start, voice.line_end) == (1, len(bot))
    assert voice.metadata.extra["example_path"] == "examples/voice_agent"
    assert voice.metadata.execution_mode == "cloud"
    assert "phone-ready voice agent" in voice.embed_text
    readme = [c for c in chunks["examples/voice_agent"] if c.section == "README.md"]
    assert readme and all(c.metadata.chunk_type == "example_readme" for c in readme)


def test_support_entries_are_indexed_without_an_overview() -> None:
    chunks = _chunks(FIXTURES / "examples_dir")
    support = chunks["examples"]
    assert support and all(c.metadata.chunk_type != "example" for c in support)
    assert {c.metadata.extra["role"] for c in support} == {"support"}
    assert {c.path for c in support} == {
        "examples/README.md",
        "examples/env.example",
        "examples/helpers.py",
    }


def test_non_utf8_text_falls_back_and_is_reported() -> None:
    chunks = _chunks(FIXTURES / "examples_dir")
    legacy = chunks["examples/legacy"]
    (notes,) = [c for c in legacy if c.path == "examples/legacy/notes.txt"]
    assert "not valid UTF-8" in notes.metadata.extra["issue"]
    (ov,) = [c for c in legacy if c.metadata.chunk_type == "example"]
    assert "examples/legacy/notes.txt" in ov.metadata.extra["issues"]


def test_broken_python_falls_back_to_blocks_and_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "examples_dir", root)
    (root / "examples/broken_bot.py").write_text(
        '"""Broken bot."""\n\ndef oops(:\n    pass\n\n\nprint("still indexed")\n'
    )
    (root / "examples/latin1_bot.py").write_bytes(b'"""Caf\xe9 bot."""\nprint(1)\n')
    chunks = _chunks(root)
    broken = chunks["examples/broken_bot.py"]
    files = [c for c in broken if c.metadata.chunk_type == "example_file"]
    # blank-line blocks, packed: the whole small file is one chunk, nothing dropped
    assert [c.metadata.extra["chunking"] for c in files] == ["blocks"]
    assert 'print("still indexed")' in files[0].content and files[0].line_start == 1
    assert "SyntaxError at line 3" in files[0].metadata.extra["issue"]
    (ov,) = [c for c in broken if c.metadata.chunk_type == "example"]
    assert "examples/broken_bot.py" in ov.metadata.extra["issues"]
    latin = [c for c in chunks["examples/latin1_bot.py"] if c.line_start]
    assert latin and "not valid UTF-8" in latin[0].metadata.extra["issue"]


def test_unreadable_and_huge_files_are_skipped_and_reported() -> None:
    files = {
        "examples/bot/README.md": "# Bot\n\nA bot.\n",
        "examples/bot/bot.py": "print(1)\n",
        "examples/bot/data.json": "[" + "1," * MAX_FILE_CHARS + "1]",
    }

    def read(path: str) -> str:
        if path == "examples/bot/bot.py":
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return files[path]

    (bot,) = discover_examples(list(files), read)
    tax = taxonomies_for([bot], read, framework_packages=FW, framework_version=None)
    chunks = chunk_example("src", bot, read, tax[bot.path], version=None)
    assert {c.path for c in chunks} == {"examples/bot/README.md"}
    # the overview cites a file that was read, with its lines, not the unreadable one
    overview = chunks[-1]
    assert overview.metadata.chunk_type == "example"
    assert (overview.section, overview.line_start, overview.line_end) == ("README.md", 1, 3)
    issues = overview.metadata.extra["issues"]
    assert issues["examples/bot/bot.py"].startswith("unreadable")
    assert "over" in issues["examples/bot/data.json"]


def test_chunks_stay_near_the_target_size() -> None:
    for root in ("examples_dir", "repo_of_projects", "single_project"):
        for cs in _chunks(FIXTURES / root).values():
            files = [c for c in cs if c.metadata.chunk_type != "example"]
            assert all(len(c.content) <= TARGET_CHARS for c in files)
