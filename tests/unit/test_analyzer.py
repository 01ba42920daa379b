from ctxhub.core.identifiers import identifier_parts, is_identifier_like, split_identifier
from ctxhub.search.analyzer import analyze, bm25_terms


def test_split_dotted_camel_and_snake() -> None:
    assert split_identifier("DailyTransport.configure") == [
        "DailyTransport.configure",
        "DailyTransport",
        "Daily",
        "Transport",
        "configure",
    ]
    assert split_identifier("run_function_calls") == [
        "run_function_calls",
        "run",
        "function",
        "calls",
    ]


def test_split_keeps_acronyms_together() -> None:
    parts = split_identifier("LLMContextAggregatorPair")
    assert parts[0] == "LLMContextAggregatorPair"
    assert parts[1:] == ["LLM", "Context", "Aggregator", "Pair"]
    assert split_identifier("TTSStoppedFrame")[1:] == ["TTS", "Stopped", "Frame"]


def test_identifier_like() -> None:
    assert is_identifier_like("FrameProcessor")
    assert is_identifier_like("push_frame")
    assert is_identifier_like("a.b")
    assert not is_identifier_like("processor")
    assert not is_identifier_like("Processor")
    assert not is_identifier_like("TTS")


def test_identifier_parts_of_text() -> None:
    parts = identifier_parts("await self.push_frame(TTSStoppedFrame()) then done")
    assert "push_frame" in parts and "push" in parts and "Stopped" in parts
    assert "then" not in parts


def test_analyze_finds_identifiers_and_drops_stopwords() -> None:
    a = analyze("where is the FrameProcessor.push_frame implementation?")
    assert a.identifiers == ["FrameProcessor.push_frame"]
    assert "where" not in a.terms and "the" not in a.terms
    assert "push_frame" in a.terms and "implementation" in a.terms
    assert a.weights["symbol"] > 0


def test_plain_question_has_no_symbol_weight() -> None:
    a = analyze("how do I record audio of long calls")
    assert a.identifiers == []
    assert a.weights["symbol"] == 0
    assert not a.is_error


def test_error_markers_shift_weights() -> None:
    a = analyze("ValueError: auto_hang_up is enabled but missing required parameters")
    assert a.is_error
    plain = analyze("auto hang up parameters")
    assert a.weights["bm25"] > plain.weights["bm25"]
    assert a.weights["dense"] < plain.weights["dense"]


def test_quoted_spans_become_phrases() -> None:
    a = analyze("logs say `heartbeat frame not received for more than 10.0 seconds`")
    assert a.phrases == ["heartbeat frame not received for more than seconds"]


def test_bm25_terms_are_words_and_phrases_without_operators() -> None:
    terms = bm25_terms(analyze("DailyTransport.configure AND `missed heartbeat frame` OR x"))
    assert terms[0] == "missed heartbeat frame"  # the quoted span is one phrase, first
    assert "and" not in [t.lower() for t in terms]  # stopword dropped
    assert bm25_terms(analyze("the of a")) == []
