import pytest

from ctxhub.core.knowledge import Signal
from ctxhub.search.analyzer import analyze
from ctxhub.search.confidence import (
    ConfidenceFeatures,
    confidence,
    features,
    next_queries,
    term_coverage,
)
from ctxhub.search.rank import Candidate
from tests.conftest import make_chunk


def test_confidence_is_monotonic_in_each_feature() -> None:
    base = ConfidenceFeatures(
        agreement=0.5, top_cosine=0.4, exact_symbol=0.0, margin=0.1, coverage=0.8
    )
    c0 = confidence(base)
    assert 0 < c0 < 1
    for field, value in (
        ("agreement", 1.0),
        ("top_cosine", 0.8),
        ("exact_symbol", 1.0),
        ("margin", 0.6),
        ("coverage", 1.0),
    ):
        raised = ConfidenceFeatures(**{**base.__dict__, field: value})
        assert confidence(raised) > c0


def test_features_of_a_ranked_list() -> None:
    analysis = analyze("Worker.run")
    top = Candidate(
        chunk=make_chunk(symbol="pkg.Worker.run"),
        fused=0.03,
        signals={
            "bm25": Signal(rank=1, score=5.0),
            "dense": Signal(rank=2, score=0.7),
            "symbol": Signal(rank=1, score=2.0),
        },
    )
    second = Candidate(chunk=make_chunk(symbol="pkg.Other.run"), fused=0.01, signals={})
    f = features(analysis, [top, second], ["bm25", "dense", "symbol"])
    assert f.agreement == 1.0 and f.exact_symbol == 1.0 and f.top_cosine == 0.7
    assert 0.6 < f.margin < 0.7
    assert features(analysis, [], ["bm25"]).agreement == 0.0
    assert f.coverage == 1.0  # the default: nothing known about the index's words
    assert features(analysis, [top], ["bm25"], coverage=0.25).coverage == 0.25


def test_term_coverage_is_the_share_of_terms_the_index_holds() -> None:
    assert term_coverage(["queue", "frames", "helm", "kubernetes"], {"queue": 3, "helm": 0}) == 0.25
    assert term_coverage([], {}) == 1.0  # no words: no evidence either way


def _ranked(*names: tuple[str | None, str | None]) -> list[Candidate]:
    """Candidates whose chunks carry these (symbol, section) names."""
    out = []
    for i, (symbol, section) in enumerate(names):
        chunk = make_chunk(symbol=symbol, path=f"docs/p{i}.md", kind="doc" if section else "api")
        out.append(
            Candidate(chunk=chunk.model_copy(update={"section": section}), fused=0.01, signals={})
        )
    return out


JUNK = {"e.g", "i.e", "eg", "ie", "etc", "vs", "doesn", "the", "how", "when", "what", "with"}


@pytest.mark.parametrize(
    "query",
    [
        "how do I stream audio, e.g. from a microphone, i.e. live?",
        "why doesn't my pipeline stop when the client disconnects?",
        "retry with exponential backoff (vs. linear), etc.",
        "What is the difference between Worker.run and Worker.start when shutting down the pool?",
        "ValueError: e.g. 'timeout' must be > 0 -- see i.e. the docs",
    ],
)
def test_next_queries_are_real_terms_and_names(query: str) -> None:
    ranked = _ranked(
        ("pkg.Worker.run", None), (None, "Install > e.g."), ("pkg.worker.Run", None), (None, "...")
    )
    suggestions = next_queries(analyze(query), ranked, limit=5)
    assert suggestions
    words = [w.lower() for s in suggestions for w in s.split()]
    assert not JUNK & set(words), suggestions
    # no fragments of punctuation, no repeats (case-insensitively), not the query itself
    assert all(any(c.isalnum() for c in w) and w.strip(".,;:!?()'\"-") == w for w in words)
    assert len({s.lower() for s in suggestions}) == len(suggestions)
    assert query.lower() not in {s.lower() for s in suggestions}


def test_next_queries_offer_the_names_then_the_top_hits_names() -> None:
    query = "What is the difference between Worker.run and Worker.start when shutting the pool?"
    ranked = _ranked(("pkg.Pool.close", None))
    mention = make_chunk(symbol="pkg.Pool", content="Worker.run() then Worker.start() later")
    ranked.append(Candidate(chunk=mention, fused=0.005, signals={}))
    suggestions = next_queries(analyze(query), ranked, limit=5)
    assert suggestions == [
        "Worker.run Worker.start",
        "pkg.Pool.close",
        "pkg.Pool",
        "difference shutting pool",
    ]
    plain = next_queries(analyze("how do I stream audio, e.g. from a microphone?"), [])
    assert plain == ["stream audio microphone"]


def test_a_name_the_symbol_path_read_through_a_re_export_is_exact() -> None:
    analysis = analyze("fw.Option")
    found = Candidate(
        chunk=make_chunk(symbol="fw.params.Option"),
        fused=0.03,
        signals={"symbol": Signal(rank=1, score=3.5)},
    )
    assert features(analysis, [found], ["bm25", "dense", "symbol"]).exact_symbol == 1.0
    unnamed = Candidate(chunk=make_chunk(symbol="fw.params.Option"), fused=0.03, signals={})
    assert features(analysis, [unnamed], ["bm25", "dense", "symbol"]).exact_symbol == 0.0


def test_a_name_nothing_indexed_holds_is_the_users_value_not_a_suggestion() -> None:
    """A pasted message's own value ('xx_yy') is no name to search for; the class the
    candidates do hold still is."""
    query = "ValueError: Invalid locale 'xx_yy' passed to humanize"
    held = make_chunk(symbol="pkg.locales.get_locale", content="raise ValueError(msg)")
    ranked = [Candidate(chunk=held, fused=0.01, signals={})]
    suggestions = next_queries(analyze(query), ranked, limit=5)
    assert suggestions[0] == "ValueError"
    assert not any("xx_yy" in s for s in suggestions), suggestions
    assert "Invalid locale passed humanize" in suggestions


def test_a_one_word_heading_is_offered_with_the_heading_above_it() -> None:
    ranked = _ranked(
        (None, "Quick Tutorial for JSON > Steps"),  # generic alone: with its parent
        (None, "Returning JSON"),  # two words: specific as it is
        (None, "Narrative > view_config"),  # a code name: specific as it is
        (None, "Overview"),  # nothing above it but the page's own title
        (None, "Features"),  # nothing above it, and the same title: not offered
    )
    ranked[3] = Candidate(
        chunk=ranked[3].chunk.model_copy(update={"title": "Logging Basics"}),
        fused=0.01,
        signals={},
    )
    ranked[4] = Candidate(
        chunk=ranked[4].chunk.model_copy(update={"title": "Features"}), fused=0.01, signals={}
    )
    suggestions = next_queries(analyze("how does it serialise the answer?"), ranked, limit=6)
    assert suggestions[:4] == [
        "Quick Tutorial for JSON Steps",
        "Returning JSON",
        "view_config",
        "Logging Basics Overview",
    ]
    assert not {"Steps", "Overview", "Features"} & set(suggestions)
