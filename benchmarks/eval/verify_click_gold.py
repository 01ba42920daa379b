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

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gold_ast import read
from gold_checks import GoldSet
from gold_text import check_fragments, fail

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


class ClickGold(GoldSet):
    repo = REPO
    jsonl = os.path.join(HERE, "click_dev.jsonl")
    cats = CATS
    page_features = PAGE_FEATURES
    root_dir = "src/click"
    gold_fields = False
    overlaps = False
    calls_range = None
    catch_json = False
    notes_header = False
    overload = "@t.overload"

    def note_structural(self, qid: str, kind: str, name: str, found: dict[str, Any]) -> None:
        others = self.other_occurrences(kind, name)
        if others:
            print(f"  note: {qid} pattern {kind}={name} also occurs outside src/ in {others}")

    def check_error(self, q: dict[str, Any]) -> None:
        qid = q["id"]
        if qid not in ERROR_STRINGS:
            fail(qid, "no error string registered for this error query")
        check_fragments(self.root, q, ERROR_STRINGS, missing="no gold item", guard=False)
        for g in q["gold"]:
            if g.get("symbol"):
                continue
            kw = ERROR_DOC_KEYWORDS.get((qid, g["path"]))
            page = os.path.join(self.root, g["path"])
            if kw is None:
                fail(qid, "no keyword registered for doc", g["path"])
            elif os.path.isfile(page) and kw not in read(page):
                fail(qid, g["path"], "lacks", repr(kw))


if __name__ == "__main__":
    ClickGold().main(__doc__)
