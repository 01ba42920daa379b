#!/usr/bin/env python3
"""Re-verify flask_dev.jsonl against the Flask 3.1.3 corpus root.

    verify_flask_gold.py --target DIR        # root DIR/flask
    verify_flask_gold.py --root flask=PATH   # root given directly

Checks: schema (fields, ids, categories and their counts, repo name, which kinds of gold
each category may hold); every gold path exists; every symbol is re-derived with ast and
its span [first decorator line or def line, end_lineno] equals `lines` (the last
definition of a name wins, as at import time, so for @typing.overload stubs the gold is
the implementation); symbol-less `lines` gold (module-level code) must span whole
top-level statements; no two gold spans of one query overlap; calls gold equals the
complete set recomputed with ast AND with an independent text scan of each function's own
lines; registered code fragments (error message text, the lines a note relies on) lie
inside the gold spans; error doc pages contain registered keywords; docs and examples
gold (pages, example files, example folders) contain the features their query asks for;
other statements that notes rely on exist in the corpus. Prints counts per category,
informational notes and three sample lines. Exit status 1 on any failure.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

# gold_* from the folder above; the registries beside this script come from its own
# folder, which Python puts on the path when it runs the script
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from flask_fragments import FRAGMENTS
from flask_pages import CLAIMS, ERROR_DOC_KEYWORDS, PAGE_FEATURES
from gold_ast import read, whole_statements
from gold_checks import GoldSet
from gold_text import check_keywords, check_statements, fail, note_includes, other_files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "flask"
PKG = "src/flask"
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 11,
    "docs": 8,
    "examples": 4,
    "error": 8,
    "calls": 2,
}


def read_any(path: str) -> str:
    """Text of a file, or of every readable text file under a folder, concatenated."""
    if os.path.isfile(path):
        return read(path)
    parts: list[str] = []
    for dp, dn, fn in os.walk(path):
        dn.sort()
        for f in sorted(fn):
            with contextlib.suppress(UnicodeDecodeError, OSError):
                parts.append(read(os.path.join(dp, f)))
    return "\n".join(parts)


def target_of(g: dict[str, Any]) -> str:
    """Name of a gold item in FRAGMENTS: its symbol, or path#Ls-e for a symbol-less span."""
    if g.get("symbol"):
        return str(g["symbol"])
    if g.get("lines"):
        s, e = g["lines"]
        return f"{g['path']}#L{s}-{e}"
    return str(g.get("path"))


class FlaskGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "flask_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    id_registries = (FRAGMENTS, CLAIMS)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES)
    symbol_dir = PKG + "/"
    symbol_where = "src/flask/*.py"
    root_dir = PKG
    null_for = "pages, files and folders"
    id_prefix = "fl"
    id_form = "fl-NNN"
    complete_rule = "only"
    overload = ""

    def label(self, g: dict[str, Any]) -> object:
        return target_of(g)

    def check_path(self, rel: str, full: str, where: str) -> bool:
        if rel.endswith("/"):
            fail(where, "folder paths are written without a trailing slash", rel)
        return super().check_path(rel, full, where)

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" not in g:
            return
        # symbol-less span: must be exactly one or more whole top-level statements
        if not rel.endswith(".py") or not os.path.isfile(full):
            fail(where, "symbol-less lines only on Python files")
            return
        lines = g["lines"]
        if not (isinstance(lines, list) and len(lines) == 2 and lines[0] <= lines[1]):
            fail(where, "bad lines", lines)
        elif not whole_statements(full, lines):
            fail(where, "symbol-less lines", lines, "do not bound top-level statements")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        path = str(g.get("path", ""))
        if not g.get("symbol") and "lines" in g and cat != "error":
            fail(where, "symbol-less lines are only used for error queries")
        if cat in self.page_cats and (g.get("symbol") or "lines" in g):
            fail(where, "docs/examples gold is a page, file or folder without symbol or lines")
        if cat == "docs" and not path.startswith("docs/"):
            fail(where, "docs gold must be a page under docs/")
        if cat == "examples" and not path.startswith(("docs/", "examples/")):
            fail(where, "examples gold must lie under examples/ or be a docs page")
        if path.startswith("docs/") and not path.endswith(".rst"):
            fail(where, "docs gold must be an .rst page")
        if g.get("symbol") and not path.startswith(PKG + "/"):
            fail(where, "symbol gold must lie under", PKG)

    def other_occurrences(self, kind: str, name: str) -> list[str]:
        """Files outside src/ (tests, docs, examples) whose text contains the pattern."""
        return other_files(self.root, kind, name, (), ("src", ".downloads", ".state"))

    def check_error(self, q: dict[str, Any]) -> None:
        qid = str(q["id"])
        if qid not in FRAGMENTS:
            fail(qid, "no code fragment registered for this error query")
        covered = {t for _, targets in FRAGMENTS.get(qid, []) for t in targets}
        for g in q["gold"]:
            if g.get("lines") and target_of(g) not in covered:
                fail(qid, "error code gold without a registered fragment:", target_of(g))
        pages = [g for g in q["gold"] if not g.get("lines")]
        if not pages:
            fail(qid, "error query has no doc page gold")
        for g in pages:
            if not str(g["path"]).startswith("docs/"):
                fail(qid, "error page gold must be a docs page:", g["path"])
            check_keywords(self.root, qid, g, ERROR_DOC_KEYWORDS)

    def page_text(self, page: str) -> str | None:
        return read_any(page) if os.path.exists(page) else None

    def check_claims(self, q: dict[str, Any]) -> None:
        check_statements(
            self.root, str(q["id"]), CLAIMS, "claim source missing:", "lacks claimed statement"
        )

    def corpus_notes(self) -> None:
        if not note_includes(self.root, "(?:literalinclude|include)", "include"):
            print("  note: every literalinclude/include target in docs/ exists in the sdist")


if __name__ == "__main__":
    FlaskGold().main(__doc__)
