"""What a lookup says about a name it cannot answer: that the import path asked does not
exist and where the name is defined, that another source defines it, that a file which
may define it could not be read, and the nearest names."""

from __future__ import annotations

import re
from pathlib import Path

from ctxhub.core.errors import shown
from ctxhub.core.knowledge import SearchFilters
from ctxhub.core.name_templates import keys_for_name
from ctxhub.session import HubSession
from ctxhub.tools import resolve
from ctxhub.tools.bound_names import defined_below
from ctxhub.tools.nearest import as_imported, nearest_names, spelled_closely

#: Unreadable files named at most, and bytes of one read to look for the name.
MAX_UNREAD = 3
_MAX_READ = 2_000_000


def missing_symbol(
    hub: HubSession, symbol: str, source: str | None, what: str, extra: str = ""
) -> str:
    """The whole not-found line for `symbol` (`extra` goes before "did you mean");
    `what` names what was looked for ("definition", "indexed function or method")."""
    asked = symbol.strip().strip("`").removesuffix("()")
    head = f"no {what} named {shown(symbol)} in the index"
    below = as_imported(hub, defined_below(hub.store, asked, source)[:3])
    if below:
        package, last = asked.rsplit(".", 1)
        head = (
            f"{shown(symbol)} is not importable ({package} does not bind {last}); "
            f"defined as {', '.join(below)}"
        )
    elif source:
        head += _elsewhere(hub, asked, source)
    near = [n for n in nearest_names(hub, symbol, source) if n not in below]
    if below:  # the answer names the definition: only its namesakes and near-typos beside
        near = [n for n in near if spelled_closely(asked, n)]
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    return f"{head}{extra}{_unread_files(hub, asked, source)}{hint}"


def _elsewhere(hub: HubSession, symbol: str, source: str) -> str:
    """` of source S (version V); defined in T (version W) as X` when another source
    defines `symbol`."""
    found, _ = resolve.find_symbol(hub.store, symbol)
    others = {c.source: c for c in found if c.source != source}
    if not others:
        return f" of source {source}{_version(hub, source)}"
    where = ", ".join(
        f"{name}{f' ({c.version})' if c.version else ''} as {c.symbol}"
        for name, c in sorted(others.items())
    )
    return f" of source {source}{_version(hub, source)}; defined in {where}"


def _version(hub: HubSession, source: str) -> str:
    state = next((s for s in hub.store.sources() if s.name == source), None)
    return f" ({state.version})" if state is not None and state.version else ""


def _unread_files(hub: HubSession, symbol: str, source: str | None) -> str:
    """`; mypkg/good.py (source localpkg) defines it but the last refresh could not read
    it (syntax error ...)` for the Python files the last refresh skipped whose text on
    disk defines the name's last part (a file that cannot be read now is named when it
    might)."""
    last = symbol.rsplit(".", 1)[-1]
    name = re.escape(last)
    defines = re.compile(rf"^\s*(?:async\s+def|def|class)\s+{name}\b|^{name}\s*[:=]", re.M)
    notes: list[str] = []
    for state in hub.store.sources():
        if source and state.name != source:
            continue
        for path, file in sorted(hub.store.file_states(state.name).items()):
            if file.status == "ok" or file.kind != "python" or len(notes) >= MAX_UNREAD:
                continue
            text = _read(state.root, path)
            if text is not None and not defines.search(text):
                continue
            verb = "defines it" if text is not None else "may define it"
            why = file.reason or file.status
            notes.append(
                f"{path} (source {state.name}) {verb} but the last refresh could not read it "
                f"({why})"
            )
    return "".join(f"; {n}" for n in notes)


def _read(root: str | None, path: str) -> str | None:
    if not root:
        return None
    file = Path(root) / path
    try:
        if file.stat().st_size > _MAX_READ:
            return None
        return file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def no_such_symbol(hub: HubSession, symbol: str, source: str | None) -> str:
    """The not-found message (tools/not_found.py), with the code that looks a name of
    this shape up when the name is one a framework finds by convention (`key_space`:
    `f"key_{key}"`)."""
    message = missing_symbol(
        hub, symbol, source, "definition", extra=_built_by(hub, symbol, source)
    )
    return f"{message} (pass intent to search by what the code does)"


def _built_by(hub: HubSession, symbol: str, source: str | None) -> str:
    """`; names like it (key_*) are looked up by pkg.mod.dispatch_key`, or nothing. Only
    for a name of the user's own (undotted, or under a qualifier the index does not
    hold): `pkg.status.HTTP_999` is no handler a framework looks up by its shape."""
    name = symbol.strip().strip("`").removesuffix("()")
    keys = keys_for_name(name)
    if not keys or ("." in name and resolve.find_symbol(hub.store, name.rsplit(".", 1)[0])[0]):
        return ""
    filters = SearchFilters(source=[source] if source else None, name_templates=keys)
    ids, _ = hub.store.list_ids(filters, ["api"], 3)
    chunks = hub.store.get_chunks(ids)
    if not chunks:
        return ""
    shapes = sorted(
        {k for c in chunks for k in c.metadata.extra.get("name_templates", ())} & set(keys)
    )
    where = ", ".join(dict.fromkeys(c.symbol or c.path for c in chunks))
    return f"; names like it ({', '.join(shapes)}) are looked up by {where}"
