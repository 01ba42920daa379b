"""A built docs site (Sphinx or MkDocs output) is docs: its pages index as doc pages,
and what they load (theme JS/CSS, search indexes, `_sources/` copies) is left out with a
reason, never taken for examples."""

from __future__ import annotations

import shutil
from pathlib import Path

from ctxhub.ingest.docs.built_site import ASSET, SITE_INDEX, SOURCE_COPY, site_roots
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.local import snapshot_dir

SPHINX = Path(__file__).parents[1] / "fixtures" / "html_docs" / "sphinx"
THEME_JS = "function toggle(){document.body.classList.toggle('dark')}\n" * 5


def _sphinx_build(root: Path) -> Path:
    """The fixture build plus what a furo build also writes beside the pages."""
    site = root / "html"
    shutil.copytree(SPHINX, site)
    for rel, text in {
        "_static/doctools.js": THEME_JS,
        "_static/searchtools.js": THEME_JS,
        "_static/scripts/furo.js": THEME_JS,
        "_static/scripts/furo-extensions.js": THEME_JS,
        "_static/styles/furo.css": "body { color: red }\n",
        "_sources/index.rst.txt": "Acme\n====\n\nWelcome.\n",
        "objects.inv": "# Sphinx inventory version 2\n",
        "searchindex.js": "Search.setIndex({})\n",
    }.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    return site


def test_a_sphinx_build_is_detected_as_docs_and_its_theme_files_are_no_examples(
    tmp_path: Path,
) -> None:
    plan = plan_units(snapshot_dir(_sphinx_build(tmp_path)))
    assert plan.kinds == ["docs"]
    assert {u.kind for u in plan.units} == {"docs"}
    assert {"index.html", "guide/startup.html"} <= {u.key for u in plan.units}
    why = dict(plan.left_out)
    assert why["_static/scripts/furo.js"] == ASSET
    assert why["_static/styles/furo.css"] == ASSET
    assert why["_sources/index.rst.txt"] == SOURCE_COPY
    assert why["objects.inv"] == why["searchindex.js"] == SITE_INDEX


def test_theme_files_are_no_examples_even_when_examples_are_asked_for(tmp_path: Path) -> None:
    plan = plan_units(snapshot_dir(_sphinx_build(tmp_path)), ["docs", "examples"])
    assert {u.kind for u in plan.units} == {"docs"}
    assert dict(plan.left_out)["_static/doctools.js"] == ASSET


def test_a_site_is_a_folder_of_pages_with_a_generator_mark() -> None:
    mkdocs = ["site/index.html", "site/a/index.html", "site/search/search_index.json"]
    assert site_roots(mkdocs) == {"site"}
    assert site_roots(["docs/build/html/index.html", "docs/build/html/_static/x.css"]) == {
        "docs/build/html"
    }
    # a web app's templates and static files, or Sphinx sources, are no built site
    assert site_roots(["app/templates/index.html", "app/static/app.js"]) == frozenset()
    assert site_roots(["docs/index.rst", "docs/_static/custom.css"]) == frozenset()
