"""An alias's chunk holds the attribute docstring under it (`Alias = Target` followed by
a string literal, the documentation Sphinx reads for the name): in a module, in a class
body, and for a deprecated wrapper; an alias with no string after it keeps its one line."""

from __future__ import annotations

from ctxhub.ingest.python.chunks import extract_python_file

SOURCE = '''import datetime
import typing_extensions


class Handler:
    def get_signed_cookie(self, name):
        """A signed cookie's value."""
        return name

    get_secure_cookie = get_signed_cookie
    """Deprecated alias of get_signed_cookie."""

    read_cookie = get_signed_cookie
    limit = 1


listener = Handler
"""The old name of Handler,
kept for older code."""

from_config = Handler
utcnow = typing_extensions.deprecated("use now")(datetime.datetime.utcnow)
"""The current time in UTC."""
'''


def test_an_alias_chunk_holds_the_docstring_under_it() -> None:
    extract = extract_python_file("pk", "pk/web.py", SOURCE, version="1", internal_packages=["pk"])
    spans = {
        (c.symbol or "").rsplit(".", 1)[-1]: (c.line_start, c.line_end, c.content)
        for c in extract.chunks
        if c.metadata.chunk_type == "alias"
    }
    start, end, text = spans["get_secure_cookie"]
    assert (start, end) == (10, 11) and "Deprecated alias of get_signed_cookie." in text
    start, end, text = spans["listener"]
    assert (start, end) == (17, 19) and text.endswith('kept for older code."""')
    start, end, text = spans["utcnow"]
    assert (start, end) == (22, 23) and "The current time in UTC." in text
    # nothing under it: the alias line alone
    assert spans["read_cookie"][:2] == (13, 13)
    assert spans["from_config"][:2] == (21, 21)
