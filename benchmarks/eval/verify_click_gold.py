#!/usr/bin/env python3
"""Re-verify click_dev.jsonl against the click 8.1.8 corpus root.

    verify_click_gold.py --target DIR        # root DIR/click (what get_click_corpus.sh writes)
    verify_click_gold.py --root click=PATH   # root given directly

Checks: schema (fields, ids, categories and their counts, repo name); every gold path
exists; every symbol is re-derived with ast and its span [first decorator line or def
line, end_lineno] equals `lines` (the last definition of a name wins, as at import time,
so for @t.overload stubs the gold is the implementation); calls gold equals the complete
set recomputed with ast AND with an independent text scan of each function's own lines;
error message fragments lie inside the gold spans and the error doc pages contain a
registered keyword; docs and examples pages contain the features their query asks for.
Prints counts per category and three sample lines. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import random
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = "click"
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 7,
    "docs": 5,
    "examples": 3,
    "error": 4,
    "calls": 2,
}
SOURCE_CATS = ("symbol", "api", "calls", "yields")
PAGE_CATS = ("docs", "examples")
STRUCTURAL = ("calls", "yields")

# error queries: message fragments that must appear inside the gold spans of the listed symbols
ERROR_STRINGS: dict[str, list[tuple[str, list[str]]]] = {
    "click-021": [
        ("No such option: {name}", ["click.exceptions.NoSuchOption.__init__"]),
        ("raise NoSuchOption(opt, ctx=self.ctx)", ["click.parser.OptionParser._match_short_opt"]),
    ],
    "click-022": [("Got unexpected extra argument", ["click.core.Command.parse_args"])],
    "click-023": [("There is no active click context.", ["click.globals.get_current_context"])],
    "click-024": [
        ("{value!r} is not one of {choices}.", ["click.types.Choice.convert"]),
        (
            "Invalid value for {param_hint}: {message}",
            ["click.exceptions.BadParameter.format_message"],
        ),
    ],
}
# doc pages of error queries: a keyword the page must contain
ERROR_DOC_KEYWORDS: dict[tuple[str, str], str] = {
    ("click-021", "docs/advanced.rst"): "ignore_unknown_options",
    ("click-021", "docs/arguments.rst"): "ignore_unknown_options",
    ("click-022", "docs/arguments.rst"): "nargs=-1",
    ("click-022", "docs/advanced.rst"): "allow_extra_args",
    ("click-023", "docs/advanced.rst"): "only works within the current thread",
    ("click-024", "docs/options.rst"): "click.Choice(",
}
# docs / examples gold: (query id, path) -> strings that must all occur in the page
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("click-013", "docs/commands.rst"): ["default_map", "context_settings=CONTEXT_SETTINGS"],
    ("click-014", "docs/documentation.rst"): ["help_option_names=['-h', '--help']", "\\b"],
    ("click-015", "docs/shell-completion.rst"): [
        "~/.zshrc",
        "_FOO_BAR_COMPLETE=zsh_source foo-bar",
        "~/.foo-bar-complete.zsh",
    ],
    ("click-016", "docs/testing.rst"): ["input='wau wau\\n'", "isolated_filesystem", "temp_dir"],
    ("click-017", "docs/advanced.rst"): ["Callback Evaluation Order", "Eagerness:"],
    ("click-017", "docs/options.rst"): ["Callbacks and Eager Options", "is_eager=True"],
    ("click-018", "docs/commands.rst"): [
        "@click.group(chain=True, invoke_without_command=True)",
        "@cli.result_callback()",
        "def processor(iterator):",
        "type=click.File('r')",
    ],
    ("click-019", "docs/complex.rst"): [
        "class LazyGroup(click.Group):",
        "lazy_subcommands",
        "importlib.import_module(modname)",
        "def get_command(self, ctx, cmd_name):",
    ],
    ("click-020", "docs/advanced.rst"): [
        "class AliasedGroup(click.Group):",
        "x.startswith(cmd_name)",
        "Too many matches",
        "def resolve_command(self, ctx, args):",
    ],
}

Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
fails: list[str] = []


def fail(*parts: object) -> None:
    fails.append(" ".join(str(p) for p in parts))


def span(node: ast.AST) -> list[int]:
    decorators = getattr(node, "decorator_list", [])
    lineno: int = node.lineno  # type: ignore[attr-defined]
    end: int = node.end_lineno  # type: ignore[attr-defined]
    return [min([d.lineno for d in decorators] + [lineno]), end]


def module_of(rel: str) -> str:
    parts = rel[len("src/") : -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


_trees: dict[str, ast.Module] = {}
_lines: dict[str, list[str]] = {}


def tree(path: str) -> ast.Module:
    if path not in _trees:
        with open(path, encoding="utf-8") as f:
            _trees[path] = ast.parse(f.read())
    return _trees[path]


def text_lines(path: str) -> list[str]:
    if path not in _lines:
        with open(path, encoding="utf-8") as f:
            _lines[path] = f.read().splitlines()
    return _lines[path]


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def defs(body: Sequence[ast.stmt], prefix: str = "") -> Iterator[tuple[str, Def]]:
    """(qualname, node) for every def/class, nested ones joined with dots; also descends
    into if/try/with/for/while/match blocks at the same scope."""
    for n in body:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            q = prefix + n.name
            yield q, n
            yield from defs(n.body, q + ".")
        else:
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(n, field, None)
                if isinstance(sub, list):
                    yield from defs(sub, prefix)
            for h in getattr(n, "handlers", []) or []:
                yield from defs(h.body, prefix)
            for c in getattr(n, "cases", []) or []:
                yield from defs(c.body, prefix)


def find_symbol(root: str, rel: str, symbol: str) -> tuple[Def | None, int, str | None]:
    mod = module_of(rel)
    if not symbol.startswith(mod + "."):
        return None, 0, f"symbol {symbol} is not in module {mod}"
    want = symbol[len(mod) + 1 :]
    hits = [n for q, n in defs(tree(os.path.join(root, rel)).body) if q == want]
    if not hits:
        return None, 0, f"{symbol} not defined in {rel}"
    return hits[-1], len(hits), None  # last definition wins, as at import time


multi_defs: dict[str, int] = {}


def check_item(root: str, g: dict[str, Any], where: str) -> None:
    if g.get("repo") != REPO:
        fail(where, "unknown repo", g.get("repo"))
        return
    rel = g.get("path")
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
        fail(where, "bad path", rel)
        return
    full = os.path.join(root, rel)
    if not os.path.exists(full):
        fail(where, "path missing:", rel)
        return
    if "symbol" not in g:
        fail(where, "missing field symbol (use null for pages)")
    if g.get("symbol"):
        if not rel.endswith(".py") or not rel.startswith("src/"):
            fail(where, "symbol gold outside src/*.py", rel)
            return
        node, count, err = find_symbol(root, rel, g["symbol"])
        if err or node is None:
            fail(where, err)
            return
        if count > 1:
            multi_defs[g["symbol"]] = count
        if span(node) != g.get("lines"):
            fail(where, g["symbol"], "lines", g.get("lines"), "!= ast span", span(node))
    elif "lines" in g:
        # symbol-less span: must be exactly one or more whole top-level statements
        body = tree(full).body
        starts = {span(n)[0] for n in body}
        ends = {n.end_lineno for n in body}
        s, e = g["lines"]
        if s not in starts or e not in ends:
            fail(where, "symbol-less lines", g["lines"], "do not bound top-level statements")


def span_text(root: str, g: dict[str, Any]) -> str:
    s, e = g["lines"]
    return "\n".join(text_lines(os.path.join(root, g["path"]))[s - 1 : e])


# ---------- structural truth sets ----------
def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """Nodes of fn's own body: nested defs, classes and lambdas are not descended into."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, NESTED):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def nested_ranges(fn: ast.AST) -> list[list[int]]:
    return [
        span(x) if not isinstance(x, ast.Lambda) else [x.lineno, x.end_lineno or x.lineno]
        for x in ast.walk(fn)
        if x is not fn and isinstance(x, NESTED)
    ]


Item = tuple[str, str, list[int]]


def pattern(kind: str, name: str) -> re.Pattern[str]:
    return re.compile(
        (r"\byield\s+" if kind == "yields" else r"\bself\.") + re.escape(name) + r"\s*\("
    )


def matches(kind: str, name: str, x: ast.AST) -> bool:
    if kind == "yields":
        return (
            isinstance(x, ast.Yield)
            and isinstance(x.value, ast.Call)
            and isinstance(x.value.func, ast.Name)
            and x.value.func.id == name
        )
    return (
        isinstance(x, ast.Call)
        and isinstance(x.func, ast.Attribute)
        and x.func.attr == name
        and isinstance(x.func.value, ast.Name)
        and x.func.value.id == "self"
    )


def structural_sets(root: str, kind: str, name: str) -> tuple[dict[str, Item], dict[str, Item]]:
    """Functions under ROOT/src whose own body matches, by ast and by a text scan."""
    by_ast: dict[str, Item] = {}
    by_text: dict[str, Item] = {}
    pat = pattern(kind, name)
    src = os.path.join(root, "src")
    for dp, dn, fn in os.walk(src):
        dn[:] = sorted(d for d in dn if d != "__pycache__")
        for f in sorted(fn):
            if not f.endswith(".py"):
                continue
            full = os.path.join(dp, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            mod = module_of(rel)
            lines = text_lines(full)
            for q, n in defs(tree(full).body):
                if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                sym = mod + "." + q
                item: Item = (rel, sym, span(n))
                if any(matches(kind, name, x) for x in own_nodes(n)):
                    by_ast[sym] = item
                nr = nested_ranges(n)
                end = n.end_lineno or n.lineno
                own = [
                    lines[i - 1]
                    for i in range(n.lineno, end + 1)
                    if not any(s <= i <= e for s, e in nr)
                ]
                if pat.search("\n".join(own)):
                    by_text[sym] = item
    return by_ast, by_text


def other_occurrences(root: str, kind: str, name: str) -> list[str]:
    """Files outside src/ (tests, docs) whose text contains the pattern (informational)."""
    pat = pattern(kind, name)
    out = []
    for dp, dn, fn in os.walk(root):
        dn[:] = sorted(d for d in dn if d not in ("__pycache__", "src"))
        for f in sorted(fn):
            if not f.endswith((".py", ".rst")):
                continue
            full = os.path.join(dp, f)
            try:
                if pat.search(read(full)):
                    out.append(os.path.relpath(full, root))
            except (UnicodeDecodeError, OSError):
                pass
    return out


def check_query(root: str, q: dict[str, Any], per: collections.Counter[str]) -> int:
    qid = q.get("id")
    for k in ("id", "category", "query", "gold", "note"):
        if k not in q:
            fail(qid, "missing field", k)
    extra = set(q) - {"id", "category", "query", "filters", "gold", "gold_complete", "note"}
    if extra:
        fail(qid, "unknown fields", sorted(extra))
    cat = q.get("category")
    if cat not in CATS:
        fail(qid, "unknown category", cat)
    if not q.get("gold"):
        fail(qid, "empty gold")
        return 0
    if not str(q.get("query", "")).strip() or not str(q.get("note", "")).strip():
        fail(qid, "empty query or note")
    if ("filters" in q) != (cat in STRUCTURAL):
        fail(qid, "filters must be given exactly for structural categories")

    keys: set[tuple[Any, ...]] = set()
    for g in q["gold"]:
        where = f"{qid} {g.get('repo')}:{g.get('path')}"
        key = (g.get("repo"), g.get("path"), g.get("symbol"), tuple(g.get("lines") or ()))
        if key in keys:
            fail(where, "duplicate gold item")
        keys.add(key)
        check_item(root, g, where)
        per[str(cat)] += 1
        if cat in SOURCE_CATS and not g.get("symbol"):
            fail(where, "source categories need symbol gold")
        if cat in PAGE_CATS and (
            g.get("symbol") or not str(g.get("path", "")).startswith(("docs/", "examples/"))
        ):
            fail(where, "docs/examples gold must be a page under docs/ or examples/")
        if str(g.get("path", "")).startswith("docs/") and not str(g["path"]).endswith(".rst"):
            fail(where, "docs gold must be an .rst page")

    if cat in STRUCTURAL:
        check_structural(root, q)
    if cat == "error":
        check_error(root, q)
    if cat in PAGE_CATS:
        for g in q["gold"]:
            feats = PAGE_FEATURES.get((qid, g["path"]))  # type: ignore[arg-type]
            if feats is None:
                fail(qid, "no features registered for", g["path"])
                continue
            page = os.path.join(root, g["path"])
            if os.path.isfile(page):
                lack = [s for s in feats if s not in read(page)]
                if lack:
                    fail(qid, g["path"], "lacks", lack)
    return len(q["gold"])


def check_structural(root: str, q: dict[str, Any]) -> None:
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
    a, t = structural_sets(root, kind, name)
    if not a:
        fail(qid, "pattern", kind, name, "matches nothing")
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
            fail(qid, s, "path/lines", gold[s]["path"], gold[s]["lines"], "!=", a[s][0], a[s][2])
    others = other_occurrences(root, kind, name)
    if others:
        print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others}")


def check_error(root: str, q: dict[str, Any]) -> None:
    qid = q["id"]
    if qid not in ERROR_STRINGS:
        fail(qid, "no error string registered for this error query")
    for frag, targets in ERROR_STRINGS.get(qid, []):
        for tgt in targets:
            gs = [g for g in q["gold"] if g.get("symbol") == tgt]
            if not gs:
                fail(qid, "no gold item", tgt)
                continue
            for g in gs:
                if "lines" in g and frag not in span_text(root, g):
                    fail(qid, repr(frag), "not inside", tgt, g["lines"])
    for g in q["gold"]:
        if g.get("symbol"):
            continue
        kw = ERROR_DOC_KEYWORDS.get((qid, g["path"]))
        if kw is None:
            fail(qid, "no keyword registered for doc", g["path"])
        elif os.path.isfile(os.path.join(root, g["path"])) and kw not in read(
            os.path.join(root, g["path"])
        ):
            fail(qid, g["path"], "lacks", repr(kw))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--target", help="folder written by get_click_corpus.sh (root TARGET/click)")
    ap.add_argument("--root", action="append", default=[], help="click=PATH")
    ap.add_argument("--file", default=os.path.join(HERE, "click_dev.jsonl"))
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    roots: dict[str, str] = {}
    if args.target:
        roots[REPO] = os.path.join(args.target, REPO)
    for kv in args.root:
        k, _, v = kv.partition("=")
        roots[k] = v
    root = roots.get(REPO)
    if not root or not os.path.isdir(os.path.join(root, "src", "click")):
        sys.exit(f"missing corpus root for {REPO!r} (use --target DIR or --root click=PATH)")

    raw = [line for line in read(args.file).splitlines() if line.strip()]
    queries: list[dict[str, Any]] = [json.loads(line) for line in raw]
    ids = collections.Counter(q.get("id") for q in queries)
    for qid, n in ids.items():
        if n > 1:
            fail(qid, "duplicate id")
    cats = collections.Counter(q.get("category") for q in queries)
    if dict(cats) != CATS:
        fail("category counts", dict(cats), "!= expected", CATS)

    per: collections.Counter[str] = collections.Counter()
    items = sum(check_query(root, q, per) for q in queries)

    print(f"{len(queries)} queries, {items} gold items (repo {REPO!r}, root {root})")
    print("counts per category: queries [gold items]")
    for c in CATS:
        print(f"  {c:9s} {cats[c]:2d}  [{per[c]}]")
    if multi_defs:
        print(
            "gold symbols defined more than once (the last definition, after @t.overload stubs,"
            " is the gold span):",
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


if __name__ == "__main__":
    main()
