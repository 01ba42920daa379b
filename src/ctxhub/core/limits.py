"""Every bound and default a tool argument has, defined once.

The tool specs (tools/specs/) build their argument schemas from these, the tool
functions check them, and the CLI shows them: a limit changed here changes everywhere.
"""

from __future__ import annotations

#: Token budget of one tool response: default, least and most a caller may ask for.
DEFAULT_TOKENS = 8000
MIN_TOKENS = 200
MAX_TOKENS = 25000

#: Hits per knowledge search (and per page of a structural listing).
DEFAULT_HITS = 10
MAX_HITS = 50
MAX_API_PAGE = 100
#: What the retriever itself accepts (the eval harness and ablations ask for more).
MAX_RETRIEVED = 200

#: Records per memory search, per browse page, per digest.
DEFAULT_RECORDS = 5
MAX_RECORDS = 50
DEFAULT_BROWSE = 20
MAX_BROWSE = 100
DEFAULT_DIGEST = 30
MAX_DIGEST = 200

#: Lines of code one snippet returns, and the largest line number anyone may name (small
#: enough for any file, and for SQLite's integers).
DEFAULT_LINES = 100
MAX_LINES = 2000
MAX_LINE = 10_000_000

#: Lengths of free text: a search query, a name or filter value, a path, an id.
MAX_QUERY = 2000
MAX_NAME = 500
MAX_PATH = 1000
MAX_ID = 200
MAX_SOURCES = 50
MAX_TAGS = 50
#: The longest problem, solution, trace or code a memory record keeps.
MAX_TEXT = 20_000


def check_tokens(max_tokens: int) -> None:
    """Raise InputError unless MIN_TOKENS <= max_tokens <= MAX_TOKENS."""
    if not MIN_TOKENS <= max_tokens <= MAX_TOKENS:
        from ctxhub.core.errors import InputError

        raise InputError(
            f"max_tokens must be between {MIN_TOKENS} and {MAX_TOKENS}, got {max_tokens}"
        )
