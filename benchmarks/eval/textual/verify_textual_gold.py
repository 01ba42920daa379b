#!/usr/bin/env python3
"""Re-verify textual_dev.jsonl against the textual 8.2.8 corpus root.

    verify_textual_gold.py --target DIR         # root DIR/textual (get_textual_corpus.sh's)
    verify_textual_gold.py --root textual=PATH  # root given directly

Checks: schema (fields, ids, categories and their counts, repo name); the root is the 8.2.8
sdist; every gold path exists; every symbol is re-derived with ast and its span [first
decorator line or def line, end_lineno] equals `lines` (the last definition of a name wins,
as at import time, so for @overload stubs the gold is the implementation); calls/yields gold
equals the complete set recomputed with ast AND with an independent text scan of each
function's own lines; error queries quote the message textual prints and the message
fragments lie inside the gold spans; examples gold are single standalone .py files under
docs/examples/ that parse and contain the features their query asks for (in the file itself
or, for "tcss:" features, in the stylesheet named by its CSS_PATH). Prints counts per
category and three sample lines. Exit status 1 on any failure.
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
REPO = "textual"
VERSION = "8.2.8"
CATS: dict[str, int] = {
    "symbol": 5,
    "api": 12,
    "examples": 11,
    "error": 6,
    "calls": 2,
    "yields": 1,
}
SOURCE_CATS = ("symbol", "api", "error", "calls", "yields")
PAGE_CATS = ("examples",)
STRUCTURAL = ("calls", "yields")
EXAMPLES_DIR = "docs/examples/"

# error queries: text the query must quote (as textual 8.2.8 prints it) ...
ERROR_QUERY_TEXT: dict[str, str] = {
    "tx-029": "NoMatches: No nodes match '#status' on Dialog()",
    "tx-030": (
        "ReactiveError: Node is missing data; Check you are calling super().__init__(...)"
        " in the Counter() constructor, before setting reactives."
    ),
    "tx-031": (
        "WorkerDeclarationError: Can not create a worker from a non-async function unless"
        " `thread=True` is set on the work decorator."
    ),
    "tx-032": (
        "NoActiveWorker: push_screen must be run from a worker when `wait_for_dismiss` is True"
    ),
    "tx-033": (
        "RuntimeError: The `call_from_thread` method must run in a different thread from the app"
    ),
    "tx-034": "Invalid CSS property 'colour'. Did you mean 'color'?",
}
# ... and source fragments that must appear inside the gold spans of the listed symbols
ERROR_STRINGS: dict[str, list[tuple[str, list[str]]]] = {
    "tx-029": [
        (
            'raise NoMatches(f"No nodes match {query_selector!r} on {base_node!r}")',
            ["textual.dom.DOMNode.query_one"],
        )
    ],
    "tx-030": [
        (
            "Node is missing data; Check you are calling super().__init__(...) in the"
            " {obj.__class__.__name__}() constructor, before setting reactives.",
            ["textual.reactive.Reactive._set"],
        )
    ],
    "tx-031": [
        (
            "Can not create a worker from a non-async function unless `thread=True` is set"
            " on the work decorator.",
            ["textual._work_decorator.work.decorator"],
        )
    ],
    "tx-032": [
        (
            "push_screen must be run from a worker when `wait_for_dismiss` is True",
            ["textual.app.App.push_screen"],
        ),
        ("wait_for_dismiss=True", ["textual.app.App.push_screen_wait"]),
    ],
    "tx-033": [
        (
            "The `call_from_thread` method must run in a different thread from the app",
            ["textual.app.App.call_from_thread"],
        )
    ],
    "tx-034": [
        (
            "property_invalid_value_help_text(",
            ["textual.css._styles_builder.StylesBuilder.add_declaration"],
        ),
        (
            "get_suggestion(rule_name",
            ["textual.css._styles_builder.StylesBuilder._get_suggested_property_name_for_rule"],
        ),
        (
            'summary = f"Invalid CSS property {property_name!r}"',
            ["textual.css._help_text.property_invalid_value_help_text"],
        ),
        (
            "Did you mean '{suggested_property_name}'?",
            ["textual.css._help_text.property_invalid_value_help_text"],
        ),
        ("CSS parsing failed:", ["textual.css.stylesheet.StylesheetErrors.__rich_console__"]),
    ],
}
# examples gold: (query id, path) -> strings that must all occur in the example file;
# a "tcss:" prefix means the string must occur in the stylesheet named by its CSS_PATH
EX = EXAMPLES_DIR
PAGE_FEATURES: dict[tuple[str, str], list[str]] = {
    ("tx-018", EX + "guide/screens/modal03.py"): [
        "class QuitScreen(ModalScreen[bool]):",
        "self.dismiss(True)",
        "self.push_screen(QuitScreen(), check_quit)",
    ],
    ("tx-018", EX + "guide/screens/questions01.py"): [
        "class QuestionScreen(Screen[bool]):",
        "self.dismiss(True)",
        "await self.push_screen_wait(",
        "@work",
    ],
    ("tx-019", EX + "guide/workers/weather05.py"): [
        "@work(exclusive=True, thread=True)",
        "urlopen(request)",
        "self.call_from_thread(weather_widget.update, weather)",
        "worker.is_cancelled",
    ],
    ("tx-020", EX + "app/suspend.py"): ["with self.suspend():", 'system("vim")'],
    ("tx-021", EX + "guide/command_palette/command01.py"): [
        "def get_system_commands(self, screen: Screen)",
        'yield SystemCommand("Bell", "Ring the bell", self.bell)',
    ],
    ("tx-021", EX + "guide/command_palette/command02.py"): [
        "class PythonFileCommands(Provider):",
        "async def search(self, query: str) -> Hits:",
        "matcher.match(command)",
        "yield Hit(",
        "COMMANDS = App.COMMANDS | {PythonFileCommands}",
    ],
    ("tx-022", EX + "widgets/input_validation.py"): [
        "Number(minimum=1, maximum=100)",
        "class Palindrome(Validator):",
        "failure_descriptions",
    ],
    ("tx-023", EX + "widgets/data_table_sort.py"): [
        "table.sort(",
        "key=sort_by_average_time_then_last_name",
        "reverse=self.sort_reverse(",
    ],
    ("tx-024", EX + "guide/testing/test_rgb.py"): [
        "async with app.run_test() as pilot:",
        'await pilot.press("r")',
        'await pilot.click("#red")',
        "assert app.screen.styles.background",
    ],
    ("tx-025", EX + "how-to/inline01.py"): ["app.run(inline=True)"],
    ("tx-025", EX + "how-to/inline02.py"): ["app.run(inline=True)", "&:inline"],
    ("tx-025", EX + "widgets/clock.py"): ["app.run(inline=True)"],
    ("tx-026", EX + "events/custom01.py"): [
        "class Selected(Message):",
        "self.post_message(self.Selected(self.color))",
        "def on_color_button_selected(",
    ],
    ("tx-026", EX + "guide/compound/byte02.py"): [
        "class BitChanged(Message):",
        "self.post_message(self.BitChanged(",
        "def on_bit_switch_bit_changed(",
    ],
    ("tx-026", EX + "guide/compound/byte03.py"): [
        "class BitChanged(Message):",
        "self.post_message(self.BitChanged(",
        "def on_bit_switch_bit_changed(",
    ],
    ("tx-027", EX + "guide/input/mouse01.py"): [
        "def on_mouse_move(self, event: events.MouseMove)",
        "event.screen_offset",
        "tcss:layers: log ball;",
        "tcss:layer: ball;",
    ],
    ("tx-028", EX + "widgets/text_area_custom_language.py"): [
        'get_language("java")',
        'text_area.register_language("java", java_language, java_highlight_query)',
        '"java_highlights.scm"',
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


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def tree(path: str) -> ast.Module:
    if path not in _trees:
        _trees[path] = ast.parse(read(path))
    return _trees[path]


def text_lines(path: str) -> list[str]:
    if path not in _lines:
        _lines[path] = read(path).splitlines()
    return _lines[path]


def defs(body: Sequence[ast.stmt], prefix: str = "") -> Iterator[tuple[str, Def]]:
    """(qualname, node) for every def/class, nested ones joined with dots; also descends
    into if/try/with/for/while/match blocks at the same scope (e.g. `if TYPE_CHECKING:`)."""
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
    if set(g) - {"repo", "path", "symbol", "lines"}:
        fail(where, "unknown gold fields", sorted(set(g) - {"repo", "path", "symbol", "lines"}))
    if g.get("repo") != REPO:
        fail(where, "unknown repo", g.get("repo"))
        return
    rel = g.get("path")
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/"):
        fail(where, "bad path", rel)
        return
    full = os.path.join(root, rel)
    if not os.path.isfile(full):
        fail(where, "path missing (or not a file):", rel)
        return
    if "symbol" not in g:
        fail(where, "missing field symbol (use null for example files)")
    if g.get("symbol"):
        if not rel.endswith(".py") or not rel.startswith("src/textual/"):
            fail(where, "symbol gold outside src/textual/**.py", rel)
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
        fail(where, "lines given without a symbol")


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


def other_occurrences(root: str, kind: str, name: str) -> dict[str, int]:
    """Per top folder outside src/ (docs/examples, tests): number of .py files whose text
    contains the pattern (informational)."""
    pat = pattern(kind, name)
    out: collections.Counter[str] = collections.Counter()
    for dp, dn, fn in os.walk(root):
        dn[:] = sorted(d for d in dn if d not in ("__pycache__", "src") and not d.startswith("."))
        for f in sorted(fn):
            if not f.endswith(".py"):
                continue
            full = os.path.join(dp, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            top = "docs/examples" if rel.startswith(EXAMPLES_DIR) else rel.split("/")[0]
            try:
                if pat.search(read(full)):
                    out[top] += 1
            except (UnicodeDecodeError, OSError):
                pass
    return dict(out)


def css_path_of(example: str) -> str | None:
    """The stylesheet an example app names in a class-level CSS_PATH = "..." (if any)."""
    for node in ast.walk(tree(example)):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "CSS_PATH" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return os.path.join(os.path.dirname(example), node.value.value)
    return None


def check_example(root: str, qid: str, g: dict[str, Any]) -> None:
    rel = str(g.get("path", ""))
    if g.get("symbol") or "lines" in g:
        fail(qid, rel, "examples gold must be a whole file (symbol null, no lines)")
    if not rel.startswith(EXAMPLES_DIR) or not rel.endswith(".py") or rel.count("/") < 3:
        fail(qid, rel, "examples gold must be a .py file in a topic folder under", EXAMPLES_DIR)
        return
    full = os.path.join(root, rel)
    if not os.path.isfile(full):
        return
    try:
        tree(full)
    except SyntaxError as error:
        fail(qid, rel, "does not parse:", error)
        return
    feats = PAGE_FEATURES.get((qid, rel))
    if feats is None:
        fail(qid, "no features registered for", rel)
        return
    text = read(full)
    css = css_path_of(full)
    css_text = read(css) if css and os.path.isfile(css) else None
    lack = []
    for feat in feats:
        if feat.startswith("tcss:"):
            if css_text is None:
                fail(qid, rel, "has a tcss feature but no readable CSS_PATH stylesheet", css)
            elif feat[len("tcss:") :] not in css_text:
                lack.append(feat)
        elif feat not in text:
            lack.append(feat)
    if lack:
        fail(qid, rel, "lacks", lack)


def check_query(root: str, q: dict[str, Any], per: collections.Counter[str]) -> int:
    qid = str(q.get("id"))
    for k in ("id", "category", "query", "gold", "note"):
        if k not in q:
            fail(qid, "missing field", k)
    extra = set(q) - {"id", "category", "query", "filters", "gold", "gold_complete", "note"}
    if extra:
        fail(qid, "unknown fields", sorted(extra))
    if not re.fullmatch(r"tx-\d{3}", qid):
        fail(qid, "id must look like tx-001")
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
    if ("gold_complete" in q) != (cat in STRUCTURAL):
        fail(qid, "gold_complete must be given exactly for structural categories")

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
        if cat in PAGE_CATS:
            check_example(root, qid, g)

    if cat in STRUCTURAL:
        check_structural(root, q)
    if cat == "error":
        check_error(root, q)
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
    if not 3 <= len(a) <= 12:
        fail(qid, "pattern", kind, name, "has", len(a), "matches, expected 3-12")
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
        print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others} files")


def check_error(root: str, q: dict[str, Any]) -> None:
    qid = q["id"]
    if qid not in ERROR_STRINGS or qid not in ERROR_QUERY_TEXT:
        fail(qid, "no error string registered for this error query")
        return
    if ERROR_QUERY_TEXT[qid] not in q["query"]:
        fail(qid, "query does not quote", repr(ERROR_QUERY_TEXT[qid]))
    covered: set[str] = set()
    for frag, targets in ERROR_STRINGS[qid]:
        for tgt in targets:
            covered.add(tgt)
            gs = [g for g in q["gold"] if g.get("symbol") == tgt]
            if not gs:
                fail(qid, "no gold item", tgt)
                continue
            for g in gs:
                if "lines" in g and frag not in span_text(root, g):
                    fail(qid, repr(frag), "not inside", tgt, g["lines"])
    for g in q["gold"]:
        if g.get("symbol") not in covered:
            fail(qid, "gold item without a registered fragment:", g.get("symbol"))


def check_version(root: str) -> None:
    pkg_info = os.path.join(root, "PKG-INFO")
    if not os.path.isfile(pkg_info):
        fail("root has no PKG-INFO (not an unpacked sdist?)", root)
        return
    m = re.search(r"^Version: (\S+)$", read(pkg_info), re.M)
    if not m or m.group(1) != VERSION:
        fail("PKG-INFO version", m.group(1) if m else None, "!=", VERSION)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--target", help="folder written by get_textual_corpus.sh (root TARGET/textual)"
    )
    ap.add_argument("--root", action="append", default=[], help="textual=PATH")
    ap.add_argument("--file", default=os.path.join(HERE, "textual_dev.jsonl"))
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
    if not root or not os.path.isdir(os.path.join(root, "src", "textual")):
        sys.exit(f"missing corpus root for {REPO!r} (use --target DIR or --root textual=PATH)")
    check_version(root)

    raw = [line for line in read(args.file).splitlines() if line.strip()]
    queries: list[dict[str, Any]] = [json.loads(line) for line in raw]
    ids = collections.Counter(q.get("id") for q in queries)
    for qid, n in ids.items():
        if n > 1:
            fail(qid, "duplicate id")
    expected_ids = [f"tx-{i:03d}" for i in range(1, len(queries) + 1)]
    if [q.get("id") for q in queries] != expected_ids:
        fail("ids are not tx-001.. in file order")
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
            "gold symbols defined more than once (the last definition, after @overload stubs,"
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
