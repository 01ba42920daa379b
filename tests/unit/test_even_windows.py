"""A section a little over one window is cut into two even windows, not a full window
and a tail of a few lines: such a tail is its page title and breadcrumb to the model and
short to BM25, and it outranked the window that holds the section's text (huey's guide:
"Canceling or pausing tasks" 348-410, 1,915 characters, and its tail 408-412, 230)."""

from __future__ import annotations

import pytest

from ctxhub.embed.tokenizer import count_tokens
from ctxhub.ingest.docs.chunks import chunk_doc_file

LIMIT = 512


def _paragraphs(n: int) -> str:
    return "\n\n".join(
        f"Paragraph {i} says how a task is revoked, restored and checked before it runs;"
        f" a revoked task {i} is skipped by the consumer and its result is never stored."
        for i in range(n)
    )


def _markdown(n: int) -> str:
    return f"# Guide\n\nIntro.\n\n## Canceling tasks\n\n{_paragraphs(n)}\n\n## Next\n\nMore.\n"


def _rst(n: int) -> str:
    return (
        f"Guide\n=====\n\nIntro.\n\nCanceling tasks\n---------------\n\n{_paragraphs(n)}"
        "\n\nNext\n----\n\nMore.\n"
    )


@pytest.mark.parametrize("name, render", [("guide.md", _markdown), ("guide.rst", _rst)])
def test_a_section_just_over_one_window_is_cut_in_even_halves(name: str, render: object) -> None:
    assert callable(render)
    # the smallest number of paragraphs that no longer fits one window
    n = next(k for k in range(5, 40) if count_tokens([_paragraphs(k)])[0] > LIMIT)
    chunks = chunk_doc_file("docs", name, render(n + 1))
    windows = [c for c in chunks if c.section == "Guide > Canceling tasks"]
    assert len(windows) == 2
    sizes = count_tokens([c.content for c in windows])
    assert max(sizes) <= LIMIT
    # before: 510 tokens and a tail of two paragraphs
    assert min(sizes) >= 0.6 * max(sizes), sizes
    # still contiguous, with the overlap of windows
    first, second = windows
    assert first.line_end is not None and second.line_start is not None
    assert second.line_start <= first.line_end + 1
