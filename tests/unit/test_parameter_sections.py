"""A definition's hit text cut to fit keeps its docstring's parameter section (numpy,
Google and reST field styles) before the prose ahead of it, or at least the parameters'
names; other hits are cut from the top as before."""

from __future__ import annotations

import pytest

from ctxhub.core.budget import CUT_MARK
from ctxhub.search.budget import to_hits
from ctxhub.search.parameter_sections import parameter_section, trim_keeping_parameters
from ctxhub.search.rank import Candidate
from ctxhub.tools.fit import shorten
from tests.conftest import make_chunk

PROSE = "\n".join(
    f"  Paragraph {i} explains the middleware at some length, line after line.\n" for i in range(12)
)

GOOGLE = f"""class Retries(Middleware)
  in pkg.retries, lines 10-90

  Middleware that retries failed tasks.

{PROSE}
  Parameters:
    max_retries(int): The maximum number of times tasks can be retried.
    retry_when(Callable[[int, BaseException], bool]): An optional
      predicate that decides whether a task should be retried.
    throws(type): Exceptions that are never retried.

  Constructor:
    def __init__(self, *, max_retries: int = 20, retry_when=None, throws=()) -> None

  Methods:
    def after_process_message(self, broker, message)"""

NUMPY = f'''def fetch(url, timeout=None, retries=3):
    """Fetch a URL.

{PROSE}
    Parameters
    ----------
    url : str
        Where to fetch from.
    timeout : float, optional
        Seconds to wait.
    retries : int
        How often to try again.

    Returns
    -------
    bytes
        The body.
    """
    return _get(url, timeout, retries)'''

SPHINX = f'''def connect(host, port):
    """Open a connection.

{PROSE}
    :param host: The host to connect to.
    :param port: The port, an integer
        between 1 and 65535.
    :returns: The connection.
    """
    return Connection(host, port)'''


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (GOOGLE, ["max_retries", "retry_when", "throws"]),
        (NUMPY, ["url : str", "timeout : float", "retries : int"]),
        (SPHINX, [":param host:", ":param port:"]),
    ],
)
def test_a_cut_definition_keeps_its_parameter_section(text: str, names: list[str]) -> None:
    kept, cut = trim_keeping_parameters(text, 700)
    assert cut and len(kept) <= 700
    assert kept.startswith(text.splitlines()[0] + "\n")  # the definition's line first
    assert all(name in kept for name in names)
    assert "Paragraph 11" not in kept  # the prose gave way
    assert kept.endswith(CUT_MARK) and f"{CUT_MARK}\n" in kept  # both cuts are marked


def test_the_sections_end_where_the_docstring_goes_on() -> None:
    lines = NUMPY.split("\n")
    first, end, _ = parameter_section(lines) or (0, 0, 0)
    assert (
        lines[first].strip() == "Parameters" and lines[end - 1].strip() == "How often to try again."
    )
    lines = GOOGLE.split("\n")
    first, end, _ = parameter_section(lines) or (0, 0, 0)
    assert lines[first].strip() == "Parameters:"
    assert lines[end - 1].strip() == "throws(type): Exceptions that are never retried."
    assert parameter_section(["def f():", '    """No parameters here."""']) is None


def test_a_tight_cut_keeps_at_least_the_parameter_names() -> None:
    kept, cut = trim_keeping_parameters(GOOGLE, 200)
    assert cut and len(kept) <= 200
    assert all(n in kept for n in ("max_retries(int)", "retry_when(", "throws(type)"))
    assert "predicate that decides" not in kept


def test_text_that_fits_or_has_no_section_is_cut_as_before() -> None:
    assert trim_keeping_parameters(GOOGLE, 10_000) == (GOOGLE, False)
    plain = "\n".join(f"line {i} of prose" for i in range(200))
    assert trim_keeping_parameters(plain, 300)[0].startswith("line 0 of prose\nline 1")


def _hit_data(kind: str, text: str) -> dict[str, object]:
    return {"hits": [{"id": "x", "kind": kind, "path": "p.py", "snippet": text}]}


def test_search_hits_and_fitted_responses_keep_a_definitions_parameters() -> None:
    api = Candidate(
        chunk=make_chunk(symbol="pkg.retries.Retries", content=GOOGLE), fused=1.0, signals={}
    )
    doc = Candidate(
        chunk=make_chunk(path="docs/retries.md", content=GOOGLE, kind="doc"), fused=0.5, signals={}
    )
    hits, truncated, _ = to_hits([api, doc], 1.0, max_tokens=8000, snippet_chars=700)
    assert truncated and "retry_when(" in hits[0].snippet
    assert "retry_when(" not in hits[1].snippet  # a doc page is cut from the top
    data = _hit_data("api", GOOGLE)
    assert shorten(data, len(GOOGLE) - 600, frozenset({"snippet"}))
    snippet = data["hits"][0]["snippet"]  # type: ignore[index]
    assert "retry_when(" in snippet and len(snippet) <= 620
