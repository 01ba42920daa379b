"""What a docs unit depends on beyond its own file: the files it includes (and whether
one is a changelog read on its own), and the title an MkDocs `nav` gives it. Planning
reads these from the snapshot only."""

from __future__ import annotations

import hashlib
import posixpath

from ctxhub.core.errors import SourceError
from ctxhub.ingest.docs.include_directives import directives_in, resolve
from ctxhub.ingest.docs.includes import MAX_DEPTH
from ctxhub.ingest.docs.mkdocs_nav import CONFIG_NAMES, nav_titles
from ctxhub.ingest.refresh.file_roles import in_test_dir
from ctxhub.sources.base import Snapshot


def included_digests(snapshot: Snapshot, page: str, files: set[str]) -> dict[str, bytes]:
    """Digests of the files a docs page includes, and those its included pages include
    in turn (keyed `include:PATH`): the page's chunks carry their text, so a changed
    included file is a changed page. Only files of the snapshot are read."""
    out: dict[str, bytes] = {}
    pending = [(page, 0)]
    seen = {page}
    while pending:
        at, depth = pending.pop()
        try:
            text = snapshot.read(at).decode("utf-8", "replace")
        except (OSError, SourceError):
            continue  # the chunker says "include not found"
        if at != page:
            out["include:" + at] = hashlib.sha256(text.encode("utf-8")).digest()
        for directive in directives_in(text) if depth <= MAX_DEPTH else []:
            path = resolve(at, directive, lambda p: p in files or snapshot.includable(p)).path
            if path is None or path in seen:
                continue
            seen.add(path)
            if directive.as_code:
                try:
                    out["include:" + path] = hashlib.sha256(snapshot.read(path)).digest()
                except (OSError, SourceError):
                    continue
            else:
                pending.append((path, depth + 1))
    return out


def includes_text(snapshot: Snapshot, page: str, files: set[str]) -> bool:
    """The page makes another file of the source its text (a `docs/history.md` that is
    only ```` ```{include} ../HISTORY.md ````): a docs page, whatever its name says."""
    try:
        text = snapshot.read(page).decode("utf-8", "replace")
    except (OSError, SourceError):
        return False
    return any(
        not d.as_code and resolve(page, d, files.__contains__).path is not None
        for d in directives_in(text)
    )


def page_nav_titles(snapshot: Snapshot, files: list[str]) -> dict[str, str]:
    """{docs page: its MkDocs nav title} from every `mkdocs.yml` of the source."""
    out: dict[str, str] = {}
    for rel in files:
        if posixpath.basename(rel).lower() in CONFIG_NAMES and not in_test_dir(rel):
            try:
                text = snapshot.read(rel).decode("utf-8", "replace")
            except (OSError, SourceError):
                continue
            for page, title in nav_titles(rel, text).items():
                out.setdefault(page, title)
    return out
