"""A reStructuredText page parsed with docutils and rendered as cleaned text
(rst_render.py), Sphinx's roles and directives read generically (rst_sphinx.py).

The parse is sealed: no message is printed, no file is read (include and raw are off),
nothing halts on an error. A page docutils still fails on (it raises: runaway nesting,
a docutils bug) is read by the line-by-line cleaner instead, with a warning.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from ctxhub.ingest.docs.cleaned import CleanedText, rst_lines


@lru_cache(maxsize=1)
def _settings() -> Any:
    from docutils.frontend import get_default_settings  # type: ignore[import-untyped]
    from docutils.parsers.rst import Parser  # type: ignore[import-untyped]

    settings = get_default_settings(Parser)  # defaults only: no docutils.conf is read
    settings.report_level = 5  # nothing reported ...
    settings.halt_level = 5  # ... and nothing halts: errors stay in the tree
    settings.warning_stream = False  # docutils' "discard all messages"
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    settings.syntax_highlight = "none"  # code stays one text node, not pygments tokens
    settings.pep_references = settings.rfc_references = False
    settings.line_length_limit = 1_000_000  # a minified line is text, not an error
    return settings


def parse_rst(text: str) -> Any:
    """The doctree of one page (no transforms: titles stay sections, line numbers stay)."""
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document  # type: ignore[import-untyped]

    from ctxhub.ingest.docs.rst_sphinx import register_directives, sphinx_inliner

    register_directives(text)
    document = new_document("<page>", copy.copy(_settings()))
    Parser(inliner=sphinx_inliner()).parse(text, document)
    return document


def clean_rst(text: str) -> tuple[CleanedText, str]:
    """(cleaned page, syntax the splitter reads it with): "markdown" from the doctree,
    "rst" from the fallback cleaner."""
    from ctxhub.ingest.docs.rst_render import RstWriter

    try:
        return RstWriter(text, parse_rst(text)).cleaned(), "markdown"
    except Exception as e:  # a page docutils cannot read still indexes, line by line
        doc = rst_lines(text)
        reason = f"{type(e).__name__}: {str(e)[:200]}".rstrip(": ")
        doc.warnings.append(f"reST parser failed ({reason}); read line by line")
        return doc, "rst"
