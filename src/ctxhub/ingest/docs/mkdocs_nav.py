"""The titles an MkDocs site's `nav` gives its pages (`- Getting started:
getting-started/index.md`), by the page's path in the source.

`nav` paths are relative to the config's `docs_dir` (`docs` unless it says otherwise),
which is relative to the folder of `mkdocs.yml`. A page listed bare (`- index.md`) has no
nav title, except a section's index page (`- Tutorial: [tutorial/index.md, ...]`),
which MkDocs Material shows as the section itself. Links to other sites are no pages.
The config is read with PyYAML, its tags (`!!python/name:...`, `!ENV`) as nothing.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

CONFIG_NAMES = frozenset({"mkdocs.yml", "mkdocs.yaml"})
_URL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_INDEX_STEMS = frozenset({"index", "readme", "_index"})


def _load(text: str) -> Any:
    import yaml  # only a source with an mkdocs.yml needs it

    class _Loader(yaml.SafeLoader):  # type: ignore[misc]
        """Any tag reads as nothing: a config names Python objects the site's build
        imports (`!!python/name:material.extensions.emoji.twemoji`), never data."""

    def _nothing(loader: Any, suffix: str, node: Any) -> None:
        return None

    _Loader.add_multi_constructor("", _nothing)
    _Loader.add_multi_constructor("tag:yaml.org,2002:python/", _nothing)
    try:
        return yaml.load(text, Loader=_Loader)  # a SafeLoader's subclass: data only
    except yaml.YAMLError:
        return None


def _is_index(path: str) -> bool:
    return posixpath.splitext(posixpath.basename(path))[0].lower() in _INDEX_STEMS


def _walk(items: Any, root: str, out: dict[str, str], section: str | None = None) -> None:
    if not isinstance(items, list):
        return
    for k, item in enumerate(items):
        if isinstance(item, str):
            if k == 0 and section and _is_index(item) and not _URL.match(item):
                out.setdefault(posixpath.normpath(posixpath.join(root, item)), section)
            continue
        if not isinstance(item, dict):
            continue
        for title, value in item.items():
            if not isinstance(title, str) or not title.strip():
                continue
            if isinstance(value, str) and not _URL.match(value):
                path = posixpath.normpath(posixpath.join(root, value.strip()))
                out.setdefault(path, " ".join(title.split()))
            elif isinstance(value, list):
                _walk(value, root, out, " ".join(title.split()))


def nav_titles(config_path: str, text: str) -> dict[str, str]:
    """{page path in the source: its nav title} from the config at `config_path`."""
    config = _load(text)
    if not isinstance(config, dict):
        return {}
    docs_dir = config.get("docs_dir") if isinstance(config.get("docs_dir"), str) else "docs"
    root = posixpath.normpath(posixpath.join(posixpath.dirname(config_path), str(docs_dir)))
    if root.startswith(".."):
        return {}  # a docs_dir outside the source: none of its pages are ours
    out: dict[str, str] = {}
    _walk(config.get("nav"), "" if root == "." else root, out)
    return {p: t for p, t in out.items() if not p.startswith("..")}
