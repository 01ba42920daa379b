"""The example trees under tests/fixtures/examples/, shared by the test_examples_*
files."""

from __future__ import annotations

from pathlib import Path

from ctxhub.ingest.examples.chunks import discover_examples
from ctxhub.ingest.examples.files import fs_reader, list_files
from ctxhub.ingest.examples.layout import Example

FIXTURES = Path(__file__).parents[1] / "fixtures" / "examples"


def discover_tree(root: Path) -> list[Example]:
    return discover_examples(list_files(root), fs_reader(root))
