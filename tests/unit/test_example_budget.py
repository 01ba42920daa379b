"""get_example at a modest budget: the taxonomy is slimmed before the entry point's code
is dropped, and the text says each fact once, readably."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.core.budget import estimate_tokens
from ctxhub.session import HubSession
from ctxhub.tools import example_tools, render
from tests.unit.package_hub import tree_hub

APP = "".join(
    f"def view_{i}(request):\n    '''Render page {i}.'''\n    return render('page{i}.html')\n\n\n"
    for i in range(60)
)
FILES = {
    "examples/blog/app.py": "from flask import Flask\n\napp = Flask(__name__)\n\n\n" + APP,
    "examples/blog/requirements.txt": "flask\nmarkdown\n",
    "examples/blog/static/site.min.js": "var a=1;" * 400 + "\n",
    **{f"examples/blog/templates/page{i}.html": f"<h1>Page {i}</h1>\n" * 20 for i in range(12)},
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("example-budget"), "ex", FILES, ("examples",)) as h:
        yield h


def _blog(hub: HubSession) -> str:
    [row] = hub.store.conn.execute(
        "SELECT id FROM chunks WHERE kind = 'example' AND chunk_type = 'example'"
    ).fetchall()
    return str(row[0])


def test_the_entry_points_code_comes_before_the_taxonomy(hub: HubSession) -> None:
    whole = example_tools.get_example(hub, _blog(hub))
    assert len(whole.taxonomy) > 4
    small = example_tools.get_example(hub, _blog(hub), max_tokens=1000)
    assert [f.path for f in small.files] == ["examples/blog/app.py"]
    assert small.files[0].truncated and small.files[0].content.startswith("from flask import")
    assert small.taxonomy.get("entry_point") == "examples/blog/app.py"
    assert set(small.taxonomy) < set(whole.taxonomy)
    assert estimate_tokens(small.model_dump_json()) <= 1000


def test_the_text_says_the_tags_once_and_lists_issues_as_words(hub: HubSession) -> None:
    text = render.example_bundle(example_tools.get_example(hub, _blog(hub)))
    assert sum(line.startswith("tags:") for line in text.splitlines()) == 1
    [issues] = [line for line in text.splitlines() if line.startswith("issues:")]
    assert "{" not in issues and "examples/blog/static/site.min.js (minified)" in issues
