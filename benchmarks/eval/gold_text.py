"""Text checks the labelled-query-set gold verifiers share, and the failure log they
write to (gold_checks.py's GoldSet prints it at the end).

Standard library only. Each check reads corpus files (through gold_ast.py) and records a
failure with `fail` instead of raising, so one run reports every broken gold item.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from gold_ast import pattern, read, span_text

Fragments = Mapping[str, Sequence[tuple[str, Sequence[str]]]]
Texts = Mapping[str, Sequence[tuple[str, str]]]

fails: list[str] = []


def fail(*parts: object) -> None:
    fails.append(" ".join(str(p) for p in parts))


def check_fragments(
    root: str,
    q: dict[str, Any],
    frags: Fragments,
    label: Callable[[dict[str, Any]], object] | None = None,
    missing: str = "fragment target is not gold:",
    guard: bool = True,
) -> None:
    """Each registered fragment lies inside the gold span of each of its targets (gold
    items whose label, by default the symbol, is the target). Without `guard`, a missing
    file raises, as the click and textual verifiers always did."""
    qid = str(q["id"])
    for frag, targets in frags.get(qid, []):
        for tgt in targets:
            gs = [g for g in q["gold"] if (label(g) if label else g.get("symbol")) == tgt]
            if not gs:
                fail(qid, missing, tgt)
                continue
            for g in gs:
                here = "lines" in g and (not guard or os.path.isfile(os.path.join(root, g["path"])))
                if here and frag not in span_text(root, g):
                    fail(qid, repr(frag), "not inside", tgt, g["lines"])


def check_keywords(
    root: str, qid: str, g: dict[str, Any], registry: Mapping[tuple[str, str], Sequence[str]]
) -> None:
    """An error query's doc page contains the keywords registered for it."""
    kws = registry.get((qid, g["path"]))
    page = os.path.join(root, g["path"])
    if kws is None:
        fail(qid, "no keyword registered for doc", g["path"])
    elif os.path.isfile(page):
        lack = [kw for kw in kws if kw not in read(page)]
        if lack:
            fail(qid, g["path"], "lacks", lack)


def check_texts(root: str, qid: str, texts: Texts, what: str) -> None:
    """Registered (path, text) pairs: the file holds the text."""
    for rel, text in texts.get(qid, []):
        full = os.path.join(root, rel)
        if not os.path.isfile(full) or text not in read(full):
            fail(qid, rel, "lacks", what, repr(text))


def check_statements(root: str, qid: str, texts: Texts, missing: str, lacks: str) -> None:
    """Like check_texts, but a missing file and a missing statement read differently."""
    for rel, text in texts.get(qid, []):
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            fail(qid, missing, rel)
        elif text not in read(full):
            fail(qid, rel, lacks, repr(text))


def other_files(
    root: str,
    kind: str,
    name: str,
    skip: Sequence[str] = ("src",),
    skip_top: Sequence[str] = (),
    want: Callable[[str, str], bool] | None = None,
) -> list[str]:
    """Files whose text contains the pattern, outside the folders named `skip` (at any depth)
    and `skip_top` (at the root only); want(folder relative to root, file name) picks the
    files to read, by default .py and .rst."""
    pat = pattern(kind, name)
    out = []
    for dp, dn, fn in os.walk(root):
        top = os.path.abspath(dp) == os.path.abspath(root)
        dn[:] = sorted(
            d for d in dn if d != "__pycache__" and d not in skip and not (top and d in skip_top)
        )
        for f in sorted(fn):
            if not (want(os.path.relpath(dp, root), f) if want else f.endswith((".py", ".rst"))):
                continue
            full = os.path.join(dp, f)
            try:
                if pat.search(read(full)):
                    out.append(os.path.relpath(full, root))
            except (UnicodeDecodeError, OSError):
                pass
    return out


def docs_pages(root: str) -> Iterator[str]:
    """Full paths of the docs/**.rst pages, in sorted order."""
    for dp, dn, fn in os.walk(os.path.join(root, "docs")):
        dn.sort()
        for f in sorted(fn):
            if f.endswith(".rst"):
                yield os.path.join(dp, f)


def note_includes(root: str, directive: str, what: str) -> list[str]:
    """Notes each docs/**.rst include directive whose target is absent; returns them."""
    missing: list[str] = []
    for full in docs_pages(root):
        for m in re.finditer(rf"^\.\. {directive}:: (\S+)", read(full), re.M):
            target = os.path.normpath(os.path.join(os.path.dirname(full), m.group(1)))
            if not os.path.exists(target):
                missing.append(f"{os.path.relpath(full, root)} -> {m.group(1)}")
    if missing:
        print(f"  note: {len(missing)} {what} targets absent from the sdist:")
        for m_ in missing:
            print("    " + m_)
    return missing
