"""A docstring's version history (`versionadded`, `versionchanged`) says when the code
changed, not what it does: the embedded text leaves it out, the chunk's content keeps
it, and a `deprecated` note stays in both (ingest/python/overview.py)."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk
from ctxhub.ingest.python.chunks import extract_python_file

SOURCE = '''
def add_log_level(logger, method_name, event_dict):
    """
    Add the log level to the event dict under the ``level`` key.

    Works with non-stdlib logging as well.

    .. versionadded:: 15.0.0
    .. versionchanged:: 20.2.0
       Importable from `structlog.processors` (additionally to
       `structlog.stdlib`).

    .. deprecated:: 25.1.0
       Use `add_level` instead.
    """
    event_dict["level"] = method_name
    return event_dict


class Renderer:
    """Render the event dict.

    .. versionchanged:: 21.1.0
       Takes a serializer.

    Keys are sorted.
    """
'''


def _chunk(symbol: str) -> Chunk:
    ex = extract_python_file(
        "pkg", "pkg/levels.py", SOURCE, version=None, internal_packages={"pkg"}
    )
    return next(c for c in ex.chunks if c.symbol == symbol)


def test_version_notes_are_left_out_of_the_embedded_text_only() -> None:
    func = _chunk("pkg.levels.add_log_level")
    assert "versionchanged" not in func.embed_text and "versionadded" not in func.embed_text
    assert "Importable from" not in func.embed_text  # the note's indented text goes too
    assert "Works with non-stdlib logging" in func.embed_text
    assert "deprecated:: 25.1.0" in func.embed_text and "add_level" in func.embed_text
    assert "versionchanged:: 20.2.0" in func.content  # what a reader sees is unchanged
    cls = _chunk("pkg.levels.Renderer")
    assert "Takes a serializer" not in cls.embed_text
    assert "Keys are sorted." in cls.embed_text
