"""The text rendering is cut to what the structured content leaves, measured as it
travels: JSON-escaped."""

from __future__ import annotations

from ctxhub.tools.fit import compact, fit_text, structured_budget, text_room


def test_the_text_fits_its_room_as_escaped_json() -> None:
    # quotes and newlines grow when escaped: the room counts the escaped form
    text = "3 hits for 'x'\n" + "\n".join(f'line {i}: say "hi"\tthere' for i in range(200))
    for room in (100, 500, 2000):
        cut = fit_text(text, room)
        assert len(compact(cut)) <= room and cut.endswith("…")
        assert cut.startswith("3 hits for 'x'\nline 0")
    assert fit_text(text, 10**6) == text


def test_the_text_keeps_its_first_line_whatever_the_room() -> None:
    text = "1 hit for 'a long question about speech'\n\n## 1. [doc] Speech\nid abc"
    assert fit_text(text, 0).startswith("1 hit for 'a long question about speech'")


def test_the_budget_is_shared_with_the_structured_content() -> None:
    assert structured_budget(8000, search=True) == 4800
    assert structured_budget(8000, search=False) == 4000
    assert structured_budget(200, search=True) == 200  # the tools' own minimum
    data = {"hits": [{"id": "a" * 10, "snippet": "é" * 100}]}
    assert text_room(data, 1000) == 3000 - 3 - 200 - len(compact(data))
