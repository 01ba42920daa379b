#!/usr/bin/env python3
"""Re-verify aiohttp_dev.jsonl against the aiohttp 3.14.5 corpus root.

    verify_aiohttp_gold.py --target DIR            # root DIR/aiohttp
    verify_aiohttp_gold.py --root aiohttp=PATH     # root given directly

Checks: schema (fields, ids, categories and their counts, repo name, which kinds of gold
each category may have); every gold path exists; every symbol is re-derived with ast from
the package at the root (aiohttp/**.py) and its span [first decorator line or def line,
end_lineno] equals `lines` (the last definition of a name wins, as at import time, so for
@typing.overload stubs the gold is the implementation); no two gold spans of one query
overlap; calls gold equals the complete set recomputed with ast AND with an independent
text scan of each function's own lines; registered code fragments (error message text,
the lines a note relies on) lie inside the gold spans; code text that a note relies on
outside every gold span is found in its file; error queries quote the reproduced message
text; error doc pages contain registered keywords; docs and examples pages contain the
features their query asks for; literalinclude targets of gold pages exist and define the
:pyobject: they name; deprecation statements cited by notes exist in the corpus.
Prints counts per category, informational notes and three sample lines. Exit status 1 on
any failure.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

# gold_* from the folder above; the registries beside this script come from its own
# folder, which Python puts on the path when it runs the script
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from aiohttp_fragments import CODE_TEXT, FRAGMENTS
from aiohttp_pages import DEPRECATIONS, ERROR_DOC_KEYWORDS, PAGE_FEATURES, QUERY_QUOTES
from gold_ast import defs, read, tree
from gold_checks import GoldSet
from gold_text import check_keywords, check_texts, docs_pages, fail, other_files

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "aiohttp"
PKG = "aiohttp"  # the package sits at the root of the sdist (no src/ layout)
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 10,
    "docs": 7,
    "examples": 4,
    "error": 6,
    "calls": 2,
}

_INCLUDE_RE = re.compile(r"^\.\. literalinclude:: (\S+)((?:\n[ \t]+:.*)*)", re.M)


def literalincludes(root: str, rel: str) -> list[tuple[str, str | None]]:
    """(target path relative to root, :pyobject: name or None) of a page's literalincludes."""
    out: list[tuple[str, str | None]] = []
    for m in _INCLUDE_RE.finditer(read(os.path.join(root, rel))):
        target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
        obj = re.search(r":pyobject:\s*(\S+)", m.group(2))
        out.append((target.replace(os.sep, "/"), obj.group(1) if obj else None))
    return out


def check_literalincludes(root: str, qid: str, rel: str) -> None:
    """A gold page's literalinclude targets exist and define the :pyobject: they name."""
    if not rel.endswith(".rst"):
        return
    for target, obj in literalincludes(root, rel):
        full = os.path.join(root, target)
        if not os.path.isfile(full):
            fail(qid, rel, "literalinclude target missing:", target)
        elif obj is not None and target.endswith(".py"):
            names = {q for q, _ in defs(tree(full).body)}
            if obj not in names:
                fail(qid, rel, "literalinclude :pyobject:", obj, "not defined in", target)


def outside_package(folder: str, name: str) -> bool:
    """Files other_occurrences reads: Cython sources in the package, text files elsewhere."""
    if folder.split(os.sep)[0] == PKG:
        return name.endswith((".pyx", ".pxd", ".pxi"))
    return name.endswith((".py", ".rst", ".md", ".pyx"))


class AiohttpGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "aiohttp_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    fragments = FRAGMENTS
    deprecations = DEPRECATIONS
    id_registries = (FRAGMENTS, CODE_TEXT, QUERY_QUOTES, DEPRECATIONS)
    page_registries = (ERROR_DOC_KEYWORDS, PAGE_FEATURES)
    src = ""
    scan_dir = PKG
    symbol_dir = PKG + "/"
    symbol_where = PKG + "/**.py:"
    files_only = True
    id_prefix = "ah"
    id_form = "ah-NNN"
    complete_rule = "only"

    def is_root(self, root: str) -> bool:
        return os.path.isfile(os.path.join(root, PKG, "__init__.py"))

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" in g:
            fail(where, "page gold must not carry lines")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        path = str(g.get("path", ""))
        rst_page = path.startswith("docs/") and path.endswith(".rst")
        if cat == "docs" and (g.get("symbol") or not rst_page):
            fail(where, "docs gold must be an .rst page under docs/")
        if cat == "examples" and (
            g.get("symbol")
            or not (
                (path.startswith("examples/") and path.endswith(".py"))
                or rst_page
                or (path.startswith("docs/code/") and path.endswith(".py"))
            )
        ):
            fail(where, "examples gold must be examples/*.py, docs/**.rst or docs/code/*.py")
        if cat == "error" and not g.get("symbol") and not rst_page:
            fail(where, "error page gold must be an .rst page under docs/")

    def other_occurrences(self, kind: str, name: str) -> list[str]:
        """Files outside the package (tests, examples, docs) whose text contains the pattern,
        plus Cython sources inside it (informational; the gold covers aiohttp/**.py only)."""
        return other_files(self.root, kind, name, skip=(".git",), want=outside_package)

    def note_structural(self, qid: str, kind: str, name: str, found: dict[str, Any]) -> None:
        others = self.other_occurrences(kind, name)
        where = f"outside {PKG}/**.py in {others}" if others else f"none outside {PKG}/**.py"
        print(f"  note: {qid} pattern {kind}={name}: {len(found)} functions, {where}")

    def check_error(self, q: dict[str, Any]) -> None:
        qid = str(q["id"])
        self.check_coverage(q)
        if not any(not g.get("symbol") for g in q["gold"]):
            fail(qid, "error query has no doc page gold")
        quotes = QUERY_QUOTES.get(qid)
        if not quotes:
            fail(qid, "no reproduced message text registered for this error query")
        for quote in quotes or []:
            if quote not in q["query"]:
                fail(qid, "query does not quote", repr(quote))
        for g in q["gold"]:
            if not g.get("symbol"):
                check_keywords(self.root, qid, g, ERROR_DOC_KEYWORDS)

    def check_code(self, q: dict[str, Any]) -> None:
        check_texts(self.root, str(q["id"]), CODE_TEXT, "code text")

    def check_page(self, qid: str, g: dict[str, Any]) -> bool:
        read_it = super().check_page(qid, g)
        if read_it:
            check_literalincludes(self.root, qid, g["path"])
        return read_it

    def corpus_notes(self) -> None:
        """Informational: literalinclude directives in docs/ and whether their targets exist."""
        root = self.root
        present: list[str] = []
        missing: list[str] = []
        for full in docs_pages(root):
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            for target, _ in literalincludes(root, rel):
                ok = os.path.exists(os.path.join(root, target))
                (present if ok else missing).append(f"{rel} -> {target}")
        print(
            f"  note: {len(present)} literalinclude directives in docs/ with their target shipped,"
            f" {len(missing)} without"
        )
        for m_ in sorted(set(missing)):
            print("    missing: " + m_)


if __name__ == "__main__":
    AiohttpGold().main(__doc__)
