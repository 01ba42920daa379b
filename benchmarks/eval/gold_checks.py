"""Checks shared by the labelled-query-set gold verifiers (verify_<set>_gold.py).

Standard library only. A verifier subclasses GoldSet, sets its corpus facts and
registries, overrides the hooks where its set differs, and calls main(__doc__). What a
check reads from the corpus (files, `ast` spans, recomputed structural sets) is in
gold_ast.py; the text checks and the failure log are in gold_text.py.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gold_ast import Item, find_symbol, read, span, structural_sets, whole_statements
from gold_text import (
    Fragments,
    Texts,
    check_fragments,
    check_statements,
    fail,
    fails,
    other_files,
)

REQUIRED = ("id", "category", "query", "gold", "note")
GOLD_FIELDS = {"repo", "path", "symbol", "lines"}

multi_defs: dict[str, int] = {}


# ---------- one query set ----------
class GoldSet:
    """A labelled query set: its corpus facts, registries and the hooks where it differs."""

    repo = ""
    jsonl = ""  # default --file
    cats: ClassVar[dict[str, int]] = {}  # expected queries per category
    source_cats: tuple[str, ...] = ("symbol", "api", "calls", "yields")
    page_cats: tuple[str, ...] = ("docs", "examples")  # checked against page_features
    structural: tuple[str, ...] = ("calls", "yields")
    page_features: ClassVar[Mapping[tuple[str, str], Sequence[str]]] = {}
    fragments: ClassVar[Fragments | None] = None  # checked on every query when set
    deprecations: ClassVar[Texts] = {}  # (path, statement) pairs notes rely on
    id_registries: ClassVar[Sequence[Mapping[str, object]]] = ()  # ids must be in the file
    page_registries: ClassVar[Sequence[Mapping[tuple[str, str], object]]] = ()  # must be gold
    src = "src/"  # layout prefix dropped from a path to get its module
    scan_dir = "src"  # folder the structural sets are recomputed over
    symbol_dir = "src/"  # symbol gold lies in a .py file under here ...
    symbol_where = "src/*.py"  # ... as the failure message says
    root_dir = ""  # folder that marks a corpus root
    files_only = False  # gold paths must be files (not folders)
    missing_msg = "path missing:"
    null_for = "pages"
    id_prefix = ""  # ids must look like <prefix>-NNN when id_form is set
    id_form = ""
    order_msg = ""  # when set, ids must run <prefix>-001.. in file order
    gold_fields = True  # check gold item fields in check_query
    max_gold = 0  # when set, 1..max_gold gold items per query
    complete_rule = ""  # "exact" or "only": where gold_complete may appear
    overlaps = True  # no two gold spans of a query overlap
    calls_range: tuple[int, int] | None = (3, 12)
    range_noun = "callers;"
    catch_json = True  # an invalid JSON line is a failure (else it raises)
    notes_header = True
    overload = "@typing.overload"  # named in the multi-definition line; "" for none
    root = ""

    # --- hooks ---
    def is_root(self, root: str) -> bool:
        return os.path.isdir(os.path.join(root, self.root_dir))

    def check_root(self) -> None:
        """Checks of the corpus root itself, before the queries."""

    def corpus_notes(self) -> None:
        """Informational lines after the queries."""

    def label(self, g: dict[str, Any]) -> object:
        """How overlap messages and fragment targets name a gold item."""
        return g.get("symbol")

    def check_path(self, rel: str, full: str, where: str) -> bool:
        if not (os.path.isfile(full) if self.files_only else os.path.exists(full)):
            fail(where, self.missing_msg, rel)
            return False
        return True

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        # symbol-less span: must be exactly one or more whole top-level statements
        if "lines" in g and not whole_statements(full, g["lines"]):
            fail(where, "symbol-less lines", g["lines"], "do not bound top-level statements")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        """Which kinds of gold a category may hold (after the shared per-item checks)."""
        path = str(g.get("path", ""))
        if cat in self.page_cats and (
            g.get("symbol") or not path.startswith(("docs/", "examples/"))
        ):
            fail(where, "docs/examples gold must be a page under docs/ or examples/")
        if path.startswith("docs/") and not str(g["path"]).endswith(".rst"):
            fail(where, "docs gold must be an .rst page")

    def check_error(self, q: dict[str, Any]) -> None:
        """Checks of an error query."""

    def check_code(self, q: dict[str, Any]) -> None:
        """More code checks, after the fragments and before the page features."""

    def check_claims(self, q: dict[str, Any]) -> None:
        """Statements the notes rely on (by default the deprecations), after the pages."""
        check_statements(
            self.root,
            str(q["id"]),
            self.deprecations,
            "deprecation source missing:",
            "lacks deprecation statement",
        )

    def page_text(self, page: str) -> str | None:
        return read(page) if os.path.isfile(page) else None

    def other_occurrences(self, kind: str, name: str) -> list[str]:
        return other_files(self.root, kind, name)

    def note_structural(self, qid: str, kind: str, name: str, found: dict[str, Item]) -> None:
        others = self.other_occurrences(kind, name)
        if others:
            print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others}")
        else:
            print(f"  note: {qid} pattern {kind}={name}: {len(found)} functions, none outside src/")

    # --- shared checks ---
    def check_item(self, g: dict[str, Any], where: str) -> None:
        if g.get("repo") != self.repo:
            fail(where, "unknown repo", g.get("repo"))
            return
        rel = g.get("path")
        if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
            fail(where, "bad path", rel)
            return
        full = os.path.join(self.root, rel)
        if not self.check_path(rel, full, where):
            return
        if "symbol" not in g:
            fail(where, f"missing field symbol (use null for {self.null_for})")
        if not g.get("symbol"):
            self.check_symbolless(g, rel, full, where)
            return
        if not rel.endswith(".py") or not rel.startswith(self.symbol_dir):
            fail(where, f"symbol gold outside {self.symbol_where}", rel)
            return
        node, count, err = find_symbol(self.root, rel, g["symbol"], self.src)
        if err or node is None:
            fail(where, err)
            return
        if count > 1:
            multi_defs[g["symbol"]] = count
        if span(node) != g.get("lines"):
            fail(where, g["symbol"], "lines", g.get("lines"), "!= ast span", span(node))

    def check_query(self, q: dict[str, Any], per: collections.Counter[str]) -> int:
        qid = q.get("id")
        for k in REQUIRED:
            if k not in q:
                fail(qid, "missing field", k)
        fields = {*REQUIRED, "filters", "gold_complete"} if self.structural else {*REQUIRED}
        extra = set(q) - fields
        if extra:
            fail(qid, "unknown fields", sorted(extra))
        if self.id_form and not re.fullmatch(rf"{self.id_prefix}-\d{{3}}", str(qid)):
            fail(qid, "id must look like", self.id_form)
        cat = q.get("category")
        if cat not in self.cats:
            fail(qid, "unknown category", cat)
        if not q.get("gold"):
            fail(qid, "empty gold")
            return 0
        if self.max_gold and not 1 <= len(q["gold"]) <= self.max_gold:
            fail(qid, f"gold must hold 1-{self.max_gold} items, has", len(q["gold"]))
        if not str(q.get("query", "")).strip() or not str(q.get("note", "")).strip():
            fail(qid, "empty query or note")
        structural = cat in self.structural
        if self.structural and ("filters" in q) != structural:
            fail(qid, "filters must be given exactly for structural categories")
        if self.complete_rule == "exact" and ("gold_complete" in q) != structural:
            fail(qid, "gold_complete must be given exactly for structural categories")
        if self.complete_rule == "only" and "gold_complete" in q and not structural:
            fail(qid, "gold_complete is only used on structural queries")

        keys: set[tuple[Any, ...]] = set()
        for g in q["gold"]:
            where = f"{qid} {g.get('repo')}:{g.get('path')}"
            if self.gold_fields and set(g) - GOLD_FIELDS:
                fail(where, "unknown gold fields", sorted(set(g) - GOLD_FIELDS))
            key = (g.get("repo"), g.get("path"), g.get("symbol"), tuple(g.get("lines") or ()))
            if key in keys:
                fail(where, "duplicate gold item")
            keys.add(key)
            self.check_item(g, where)
            per[str(cat)] += 1
            if cat in self.source_cats and not g.get("symbol"):
                fail(where, "source categories need symbol gold")
            self.check_gold(q, cat, g, where)

        if self.overlaps:
            self.check_overlaps(q)
        if structural:
            self.check_structural(q)
        if cat == "error":
            self.check_error(q)
        if self.fragments is not None:
            check_fragments(self.root, q, self.fragments, self.label)
        self.check_code(q)
        if cat in self.page_cats:
            for g in q["gold"]:
                self.check_page(str(qid), g)
        self.check_claims(q)
        return len(q["gold"])

    def check_overlaps(self, q: dict[str, Any]) -> None:
        """Two gold items of one query in the same file must not overlap (one hit would match
        both by the line-overlap rule)."""
        items = [g for g in q["gold"] if g.get("lines")]
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                same = a["path"] == b["path"]
                if same and a["lines"][0] <= b["lines"][1] and b["lines"][0] <= a["lines"][1]:
                    fail(q["id"], "gold spans overlap:", self.label(a), self.label(b))

    def check_structural(self, q: dict[str, Any]) -> None:
        """calls/yields: the gold is the complete set, recomputed with ast and a text scan."""
        qid = q["id"]
        filters = q.get("filters") or {}
        if len(filters) != 1:
            fail(qid, "filters must hold exactly one key")
            return
        ((kind, name),) = filters.items()
        if kind != q["category"]:
            fail(qid, "filter kind", kind, "!= category")
        if q.get("gold_complete") is not True:
            fail(qid, "gold_complete must be true")
        a, t = structural_sets(self.root, self.scan_dir, self.src, kind, name)
        if not a:
            fail(qid, "pattern", kind, name, "matches nothing")
        if self.calls_range and not self.calls_range[0] <= len(a) <= self.calls_range[1]:
            lo, hi = self.calls_range
            fail(qid, "pattern", kind, name, "has", len(a), f"{self.range_noun} expected {lo}-{hi}")
        if set(a) != set(t):
            fail(qid, "ast vs text scan disagree:", sorted(set(a) ^ set(t)))
        gold = {g["symbol"]: g for g in q["gold"]}
        if set(gold) != set(a):
            fail(
                qid,
                "gold != recomputed set; missing",
                sorted(set(a) - set(gold)),
                "extra",
                sorted(set(gold) - set(a)),
            )
        for s in set(gold) & set(a):
            if gold[s]["path"] != a[s][0] or list(gold[s]["lines"]) != a[s][2]:
                fail(
                    qid, s, "path/lines", gold[s]["path"], gold[s]["lines"], "!=", a[s][0], a[s][2]
                )
        self.note_structural(qid, kind, name, a)

    def check_coverage(self, q: dict[str, Any]) -> None:
        """An error query has fragments registered for every symbol gold."""
        qid = str(q["id"])
        frags = self.fragments or {}
        if qid not in frags:
            fail(qid, "no code fragment registered for this error query")
        covered = {t for _, targets in frags.get(qid, []) for t in targets}
        for g in q["gold"]:
            if g.get("symbol") and g["symbol"] not in covered:
                fail(qid, "error gold without a registered fragment:", g["symbol"])

    def check_page(self, qid: str, g: dict[str, Any]) -> bool:
        """A docs/examples gold contains the features registered for it; whether it was read."""
        feats = self.page_features.get((qid, g["path"]))
        if feats is None:
            fail(qid, "no features registered for", g["path"])
            return False
        text = self.page_text(os.path.join(self.root, g["path"]))
        if text is None:
            return False
        lack = [s for s in feats if s not in text]
        if lack:
            fail(qid, g["path"], "lacks", lack)
        return True

    def main(self, doc: str | None) -> None:
        repo = self.repo
        ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
        ap.add_argument(
            "--target", help=f"folder written by get_{repo}_corpus.sh (root TARGET/{repo})"
        )
        ap.add_argument("--root", action="append", default=[], help=f"{repo}=PATH")
        ap.add_argument("--file", default=self.jsonl)
        ap.add_argument("--samples", type=int, default=3)
        ap.add_argument("--seed", type=int, default=7)
        args = ap.parse_args()
        roots: dict[str, str] = {}
        if args.target:
            roots[repo] = os.path.join(args.target, repo)
        for kv in args.root:
            k, _, v = kv.partition("=")
            roots[k] = v
        root = roots.get(repo)
        if not root or not self.is_root(root):
            sys.exit(f"missing corpus root for {repo!r} (use --target DIR or --root {repo}=PATH)")
        self.root = root
        self.check_root()

        raw = [line for line in read(args.file).splitlines() if line.strip()]
        queries: list[dict[str, Any]] = []
        for n, line in enumerate(raw, 1):
            try:
                queries.append(json.loads(line))
            except json.JSONDecodeError as e:
                if not self.catch_json:
                    raise
                fail(f"line {n}: invalid JSON: {e}")
        ids = collections.Counter(q.get("id") for q in queries)
        for qid, n in ids.items():
            if n > 1:
                fail(qid, "duplicate id")
        expected_ids = [f"{self.id_prefix}-{i:03d}" for i in range(1, len(queries) + 1)]
        if self.order_msg and [q.get("id") for q in queries] != expected_ids:
            fail(self.order_msg)
        cats = collections.Counter(q.get("category") for q in queries)
        if dict(cats) != self.cats:
            fail("category counts", dict(cats), "!= expected", self.cats)
        for reg in self.id_registries:
            for qid in reg:
                if qid not in ids:
                    fail("registered id", qid, "is not in the file")
        for qid, path in [key for reg in self.page_registries for key in reg]:
            if not any(
                q.get("id") == qid and any(g.get("path") == path for g in q["gold"])
                for q in queries
            ):
                fail("registered page", qid, path, "is not gold in the file")

        per: collections.Counter[str] = collections.Counter()
        if self.notes_header:
            print("notes:")
        items = sum(self.check_query(q, per) for q in queries)
        self.corpus_notes()

        print(f"{len(queries)} queries, {items} gold items (repo {repo!r}, root {root})")
        print("counts per category: queries [gold items]")
        for c in self.cats:
            print(f"  {c:9s} {cats[c]:2d}  [{per[c]}]")
        if multi_defs:
            after = f", after {self.overload} stubs," if self.overload else ""
            print(
                f"gold symbols defined more than once (the last definition{after} is the gold"
                " span):",
                ", ".join(f"{s} x{n}" for s, n in sorted(multi_defs.items())),
            )
        rnd = random.Random(args.seed)
        print(f"{args.samples} sample lines:")
        for line in rnd.sample(raw, min(args.samples, len(raw))):
            print("  " + line)
        if fails:
            print(f"\nFAILED ({len(fails)}):")
            for f in fails:
                print("  " + f)
            sys.exit(1)
        print("\nOK: all gold verified")
