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

import ast
import collections
import os
import re
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gold_ast import pattern, read, tree
from gold_checks import GOLD_FIELDS, GoldSet
from gold_text import check_fragments, fail

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


def check_version(root: str) -> None:
    pkg_info = os.path.join(root, "PKG-INFO")
    if not os.path.isfile(pkg_info):
        fail("root has no PKG-INFO (not an unpacked sdist?)", root)
        return
    m = re.search(r"^Version: (\S+)$", read(pkg_info), re.M)
    if not m or m.group(1) != VERSION:
        fail("PKG-INFO version", m.group(1) if m else None, "!=", VERSION)


class TextualGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "textual_dev.jsonl")
    cats = CATS
    source_cats = SOURCE_CATS
    page_cats = ()  # examples are checked per item, by check_example
    symbol_dir = "src/textual/"
    symbol_where = "src/textual/**.py"
    root_dir = "src/textual"
    files_only = True
    missing_msg = "path missing (or not a file):"
    null_for = "example files"
    id_prefix = "tx"
    id_form = "tx-001"
    order_msg = "ids are not tx-001.. in file order"
    gold_fields = False  # checked first thing in check_item
    complete_rule = "exact"
    overlaps = False
    range_noun = "matches,"
    catch_json = False
    notes_header = False
    overload = "@overload"

    def check_root(self) -> None:
        check_version(self.root)

    def check_item(self, g: dict[str, Any], where: str) -> None:
        if set(g) - GOLD_FIELDS:
            fail(where, "unknown gold fields", sorted(set(g) - GOLD_FIELDS))
        super().check_item(g, where)

    def check_symbolless(self, g: dict[str, Any], rel: str, full: str, where: str) -> None:
        if "lines" in g:
            fail(where, "lines given without a symbol")

    def check_gold(self, q: dict[str, Any], cat: Any, g: dict[str, Any], where: str) -> None:
        if cat in PAGE_CATS:
            check_example(self.root, str(q.get("id")), g)

    def note_structural(self, qid: str, kind: str, name: str, found: dict[str, Any]) -> None:
        others = other_occurrences(self.root, kind, name)
        if others:
            print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others} files")

    def check_error(self, q: dict[str, Any]) -> None:
        qid = q["id"]
        if qid not in ERROR_STRINGS or qid not in ERROR_QUERY_TEXT:
            fail(qid, "no error string registered for this error query")
            return
        if ERROR_QUERY_TEXT[qid] not in q["query"]:
            fail(qid, "query does not quote", repr(ERROR_QUERY_TEXT[qid]))
        check_fragments(self.root, q, ERROR_STRINGS, missing="no gold item", guard=False)
        covered = {t for _, targets in ERROR_STRINGS[qid] for t in targets}
        for g in q["gold"]:
            if g.get("symbol") not in covered:
                fail(qid, "gold item without a registered fragment:", g.get("symbol"))


if __name__ == "__main__":
    TextualGold().main(__doc__)
