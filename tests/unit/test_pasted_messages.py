"""Pasted messages: which words of a query are the message, and what contains it."""

from __future__ import annotations

from ctxhub.core.knowledge import Chunk
from ctxhub.search.analyzer import analyze, pasted_messages
from ctxhub.search.rank import Candidate, LiteralMatch


def test_negations_and_quantifiers_are_message_words() -> None:
    # "No such option" and "is not one of" are what code writes; STOPWORDS would drop them
    assert "No such option" in analyze("Error: No such option: -n").fragments
    frags = analyze("Error: Invalid value: 'yml' is not one of 'json', 'yaml'.").fragments
    assert "not one of" in frags
    # filler alone still makes no fragment
    assert "is to the" not in analyze("Error: it is to the end").fragments


def test_a_quoted_message_leaves_the_askers_words_out() -> None:
    query = "wrapping timeit, my tool dies with `Error: No such option: -n` how do I pass it on"
    assert pasted_messages(query) == ["Error: No such option: -n"]
    a = analyze(query)
    assert a.fragments == ["No such option"]
    assert a.fragment_groups == [["No such option"]]


def test_quoted_code_with_the_error_outside_keeps_the_whole_query() -> None:
    query = "`mycli run the job` fails with ValueError: worker pool was already closed"
    assert pasted_messages(query) == [query]
    assert "worker pool was" in analyze(query).fragments


def test_two_quoted_messages_are_two_groups() -> None:
    a = analyze(
        "startup: `Invalid CSS property 'colour'. Did you mean 'color'?` then "
        "`CSS parsing failed: 1 error found in stylesheet`"
    )
    assert len(a.fragment_groups) == 2
    assert "Invalid CSS property" in a.fragment_groups[0]
    assert "CSS parsing failed" in a.fragment_groups[1]


def _cand(content: str) -> Candidate:
    chunk = Chunk(
        id=content[:20], source="fw", kind="api", path="fw.py", content=content, embed_text=content
    )
    return Candidate(chunk=chunk, fused=1.0, signals={})


def test_literal_match_credits_the_emitter_of_either_message() -> None:
    a = analyze(
        "startup: `Invalid CSS property 'colour'. Did you mean 'color'?` then "
        "`CSS parsing failed: 1 error found in stylesheet`"
    )
    helper = _cand('summary = f"Invalid CSS property {name!r}. Did you mean {best!r}?"')
    loader = _cand('raise Error(f"CSS parsing failed: {n} error found in stylesheet")')
    other = _cand("def parse(self): return self.tokens")
    boosts = LiteralMatch()(a, [helper, loader, other])
    assert boosts[0] > 1.5 and boosts[1] > 1.5  # each holds all of one message
    assert boosts[2] == 1.0
