"""A truncated snippet says how to see the rest (the next lines by path and range, as
tool arguments and as the CLI spells them), and a token budget raised above the default
shows more lines when max_lines was not given."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.core.limits import DEFAULT_LINES
from ctxhub.session import HubSession
from ctxhub.tools import code_tools, render
from tests.unit.package_hub import tree_hub

METHODS = 60  # 5 lines each: a class of about 300 lines


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[HubSession]:
    methods = "".join(
        f"    def method_{i}(self, x):\n"
        f'        """Method {i}."""\n'
        f"        y = x + {i}\n"
        f"        return y\n\n"
        for i in range(METHODS)
    )
    big = f'class Big:\n    """A large class."""\n\n{methods}'
    with tree_hub(tmp_path, "pkg", {"pkg/__init__.py": "", "pkg/big.py": big}) as h:
        yield h


def test_a_truncated_snippet_names_the_call_and_the_options_that_show_the_rest(
    hub: HubSession,
) -> None:
    snippet = code_tools.get_code_snippet(hub, symbol="pkg.big.Big")
    assert snippet.truncated and snippet.line_end - snippet.line_start + 1 == DEFAULT_LINES
    text = render.code_snippet(snippet)
    nxt, end = snippet.line_end + 1, snippet.full_line_end
    assert (
        f"get_code_snippet(path='pkg/big.py', line_start={nxt}, line_end={end}, source='pkg')"
        in text
    )
    assert f"`ctxhub snippet --path pkg/big.py --line {nxt} --end {end} --source pkg`" in text
    assert "max_lines" in text and "--max-lines" in text
    # the call it names shows the next lines
    rest = code_tools.get_code_snippet(hub, path="pkg/big.py", line_start=nxt, line_end=end)
    assert rest.line_start == nxt and rest.code.startswith(f"{' ' * 4}")
    whole = code_tools.get_code_snippet(hub, symbol="pkg.big.Big", max_lines=2000)
    assert not whole.truncated and "not shown" not in render.code_snippet(whole)


def test_a_larger_budget_shows_more_lines_unless_max_lines_is_given(hub: HubSession) -> None:
    wide = code_tools.get_code_snippet(hub, symbol="pkg.big.Big", max_tokens=25_000)
    assert not wide.truncated and wide.line_end == wide.full_line_end
    capped = code_tools.get_code_snippet(hub, symbol="pkg.big.Big", max_lines=50, max_tokens=25_000)
    assert capped.truncated and capped.line_end - capped.line_start + 1 == 50
