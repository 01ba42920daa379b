"""A deprecation's note is the text Python would emit: a module `__getattr__` proxy's
template is filled for each name it serves (the replacement read from the filled text),
a field that cannot be filled is quoted as the source writes it (`{x!r}`), and since
when comes from a comment beside the warning when the text does not say."""

from __future__ import annotations

from ctxhub.ingest.python.chunks import extract_python_file
from ctxhub.ingest.python.message_fields import fill_fields

STATUS = """\
import warnings

HTTP_200_OK = 200
HTTP_422_UNPROCESSABLE_CONTENT = 422

__deprecated__ = {"HTTP_422_UNPROCESSABLE_ENTITY": 422, "HTTP_413_TOO_LARGE": 413}


def __getattr__(name):
    changes = {
        "HTTP_422_UNPROCESSABLE_ENTITY": "HTTP_422_UNPROCESSABLE_CONTENT",
        "HTTP_413_TOO_LARGE": "HTTP_413_CONTENT_TOO_LARGE",
    }
    deprecated = __deprecated__.get(name)
    if deprecated:
        warnings.warn(f"'{name}' is deprecated. Use '{changes[name]}' instead.", DeprecationWarning)
        return deprecated
    raise AttributeError(name)
"""

PLUGINS = """\
import warnings


def setup(entrypoint, loaded):
    if not isinstance(loaded, dict):
        warnings.warn(
            f"Plugin entrypoint {entrypoint.name!r} refers to a collection of modules",
            DeprecationWarning,
        )
    return loaded


class Closed:
    @property
    def code(self):
        warnings.warn(  # deprecated in 13.1 - 2024-09-21
            "Closed.code is deprecated; use Closed.rcvd.code",
            DeprecationWarning,
        )
        return 1

    @property
    def reason(self):
        # deprecated in 13.2
        warnings.warn("Closed.reason is deprecated since 12.0", DeprecationWarning)
        return ""
"""


def _records(rel: str, text: str) -> dict[str, list[str | None]]:
    extract = extract_python_file("web", rel, text, version=None, internal_packages={"web"})
    return {r.symbol: [r.note, r.replacement, r.since] for r in extract.deprecations}


def test_a_getattr_proxy_template_is_filled_for_each_name() -> None:
    records = _records("web/status.py", STATUS)
    assert records["web.status.HTTP_422_UNPROCESSABLE_ENTITY"] == [
        "'HTTP_422_UNPROCESSABLE_ENTITY' is deprecated. "
        "Use 'HTTP_422_UNPROCESSABLE_CONTENT' instead.",
        "web.status.HTTP_422_UNPROCESSABLE_CONTENT",  # a name of this module
        None,
    ]
    assert records["web.status.HTTP_413_TOO_LARGE"][0] == (
        "'HTTP_413_TOO_LARGE' is deprecated. Use 'HTTP_413_CONTENT_TOO_LARGE' instead."
    )
    assert "web.status.__getattr__" not in records  # told by the names it serves


def test_a_field_that_cannot_be_filled_keeps_its_conversion() -> None:
    (note, _, _) = _records("web/plugins.py", PLUGINS)["web.plugins.setup"]
    assert (note or "").endswith(
        ": Plugin entrypoint {entrypoint.name!r} refers to a collection of modules"
    )


def test_since_comes_from_a_comment_beside_the_warning_when_the_text_says_none() -> None:
    records = _records("web/plugins.py", PLUGINS)
    assert records["web.plugins.Closed.code"][2] == "13.1"
    assert records["web.plugins.Closed.reason"][2] == "12.0"  # the message's own word first


def test_fill_fields_formats_as_python_would() -> None:
    names, tables = {"name": "OLD"}, {"changes": {"OLD": "NEW"}}
    assert fill_fields("{name!r} -> {changes[name]}", names, tables) == "'OLD' -> NEW"
    assert fill_fields("{name:>5}|{other.attr!r}", names, tables) == "  OLD|{other.attr!r}"


ROLES = """\
def new_helper():
    '''Do things.'''


def old_helper():
    '''Do things.

    .. deprecated:: 1.5
       Use :func:`.new_helper` instead (see :ref:`the guide <helpers>`).
    '''
"""


def test_a_docstring_note_reads_its_sphinx_roles_as_the_docs_show_them() -> None:
    ex = extract_python_file(
        "acme", "acme/tools.py", ROLES, version=None, internal_packages={"acme"}
    )
    (record,) = ex.deprecations
    assert record.note == "Use `new_helper` instead (see the guide)."
    assert record.replacement == "acme.tools.new_helper"
