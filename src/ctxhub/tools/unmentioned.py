"""A `search_docs` for one code name that no doc hit mentions (tornado's
`run_on_executor`: its docs are autodoc's, built from the docstring, and the release notes
that name it are not ranked): the hits only share words with it, so the response says
so and where the name is documented, instead of offering them as its docs."""

from __future__ import annotations

import re

from ctxhub.core.errors import shown
from ctxhub.core.identifiers import is_identifier_like
from ctxhub.core.knowledge import Hit
from ctxhub.core.sentences import join_sentences
from ctxhub.search.analyzer import is_one_name
from ctxhub.store.protocol import Store
from ctxhub.tools import resolve


def unmentioned_name(store: Store, query: str, hits: list[Hit]) -> str | None:
    """The notice for a query that is one code name an indexed definition has but no
    hit's text names (its last part as a whole word); None otherwise (a name nothing
    defines has its own notice: search_notices.named_nothing)."""
    if not hits or not is_one_name(query):
        return None
    name = query.strip().strip("`").removesuffix("()")
    if not is_identifier_like(name):
        return None
    word = re.compile(rf"(?<!\w){re.escape(name.rsplit('.', 1)[-1])}(?!\w)")
    if any(word.search(c.content) for c in store.get_chunks([h.id for h in hits])):
        return None
    found, _ = resolve.find_symbol(store, name)
    symbol = found[0].symbol if found else None
    if not symbol:
        return None
    return join_sentences(
        f"no doc hit mentions {shown(name)}: they only share words with it",
        f"It is defined as {symbol}: get_code_snippet(symbol={symbol!r}) shows its code"
        f" and docstring (`ctxhub snippet {symbol}`)",
    )
