"""A built docs site (Sphinx or MkDocs output) is docs: its pages index as doc pages,
and what they load (theme JS/CSS, search indexes, `_sources/` copies) is left out with a
reason, never taken for examples."""

from __future__ import annotations

import shutil
from pathlib import Path

from ctxhub.ingest.docs.built_site import (
    ASSET,
    BUILT_TWIN,
    SITE_INDEX,
    SOURCE_COPY,
    TEMPLATE,
    site_roots,
)
from ctxhub.ingest.refresh.plan import plan_units
from ctxhub.sources.local import BUILD_OUTPUT, snapshot_dir

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


def _sdist_with_docs_sources(root: Path) -> Path:
    """An sdist layout: the built site in `docs/`, the Sphinx project it was built from
    in `docs/build/` (a name the walker otherwise skips as build output), and a
    setuptools `build/` of output beside them."""
    _sphinx_build(root)
    (root / "html").rename(root / "docs")
    project = root / "docs" / "build"
    (project / "guide").mkdir(parents=True)
    (project / "conf.py").write_text("project = 'acme'\n")
    (project / "index.rst").write_text("Acme\n====\n\nWelcome to acme.\n")
    (project / "guide" / "startup.rst").write_text("Startup\n=======\n\nStart it up.\n")
    (project / "_templates").mkdir()
    (project / "_templates" / "sidebar.html").write_text("<div>{{ toctree() }}</div>\n")
    (root / "build" / "lib" / "acme").mkdir(parents=True)
    (root / "build" / "lib" / "acme" / "__init__.py").write_text("X = 1\n")
    return root


def test_a_build_folder_of_docs_sources_is_read_and_build_output_is_named(
    tmp_path: Path,
) -> None:
    snap = snapshot_dir(_sdist_with_docs_sources(tmp_path))
    assert {"docs/build/conf.py", "docs/build/index.rst", "docs/build/guide/startup.rst"} <= set(
        snap.files
    )
    assert not any(f.startswith("build/") for f in snap.files)
    assert ("build/", BUILD_OUTPUT) in snap.skipped


def test_a_page_built_from_an_indexed_source_page_is_left_out_for_it(tmp_path: Path) -> None:
    plan = plan_units(snapshot_dir(_sdist_with_docs_sources(tmp_path)))
    docs = {u.key for u in plan.units if u.kind == "docs"}
    assert {"docs/build/index.rst", "docs/build/guide/startup.rst"} <= docs
    assert not {"docs/index.html", "docs/guide/startup.html"} & docs
    why = dict(plan.left_out)
    assert why["docs/index.html"] == why["docs/guide/startup.html"] == BUILT_TWIN
    assert why["docs/build/_templates/sidebar.html"] == TEMPLATE
