"""Deprecation helpers found by behaviour across a package, attribute docstrings, and
check_deprecation's answers (code, docs-only, unknown, not deprecated)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ctxhub.config import Settings
from ctxhub.core.knowledge import Deprecation
from ctxhub.embed.hashing import HashingEmbedder
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.deprecation_helpers import DeprecationHelpers, scan_package
from ctxhub.ingest.refresh.incremental import refresh
from ctxhub.session import HubSession, set_embedder
from ctxhub.sources.base import SourceSpec
from ctxhub.store.sqlite.store import SQLiteStore
from ctxhub.tools.deprecation_tools import check_deprecation
from ctxhub.tools.render_deprecation import deprecation_report

PACKAGE = {
    "acme/__init__.py": "",
    "acme/errors.py": """
class AcmeDeprecation(DeprecationWarning):
    pass


class AcmeRemoval(AcmeDeprecation):
    pass
""",
    # named neutrally: only its behaviour (a computed message, a deprecation category)
    # makes it a helper
    "acme/_compat.py": '''
import warnings

from acme.errors import AcmeDeprecation, AcmeRemoval


def _notice(what, *, version, alternative=None):
    """Tell the user."""
    text = f"{what} is deprecated since {version}"
    if alternative:
        text += f"; use {alternative} instead"
    warnings.warn(text, category=AcmeRemoval, stacklevel=2)


def _relay(thing, since):
    _notice(thing, version=since)


def _renamed(old, new):
    warnings.warn(f"{old} is deprecated; use {new} instead", AcmeDeprecation)


def _hint(topic):
    warnings.warn(f"{topic} looks slow", UserWarning)


def old_fixed():
    warnings.warn("old_fixed is deprecated", DeprecationWarning)
    return 1
''',
    "acme/api.py": '''
from acme._compat import _hint, _notice, _relay, _renamed


class Client:
    """A client."""

    retries = 3
    """How often to retry.

    .. deprecated:: 1.4
       Use `Client.policy` instead.
    """

    timeout = 10
    """Seconds to wait."""

    def __init__(self, url):
        self.url = url

    def fetch_all(self):
        _notice("fetch_all", version="2.0", alternative="Client.fetch")
        return []

    def fetch(self):
        if not self.url:
            raise ValueError("no url")
        return self.url


def legacy_sync(x):
    _relay("legacy_sync", "1.9")
    return x


def ping(x):
    _renamed("ping", "acme.api.health")
    return x


def tune(x):
    _hint("tune")
    return x


def caller_of_fixed():
    return old_fixed_like()


def old_fixed_like():
    return 2
''',
}

DOCS = {
    "guide.md": """# Guide

## Connecting

Call `connect_pool()` to open a pool of connections for the client and reuse it.

!!! warning "Deprecated"

    `connect_pool` is deprecated since 3.1 and will be removed in 4.0; use
    `open_pool` instead.

## Fetching

`Client.fetch` returns the body. Use it in favour of the deprecated helpers.
""",
    # tornado's web.rst: a renamed method's old name documented as an alias; the
    # notice follows a line naming the replacement, which is not deprecated
    "api.rst": """API
===

.. method:: Client.fetch_body

   Deprecated alias for ``Client.fetch``.

   .. deprecated:: 2.0

.. method:: Client.fetch_head

   Deprecated alias for ``Client.head``.

   .. deprecated:: 2.0
""",
}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture(scope="module")
def helpers() -> DeprecationHelpers:
    modules = {rel: rel.removesuffix(".py").replace("/", ".") for rel in PACKAGE}
    modules["acme/__init__.py"] = "acme"
    return scan_package(modules, lambda rel: PACKAGE[rel], {"acme"})


def extract(rel: str, helpers: DeprecationHelpers | None) -> PythonFileExtract:
    module = rel.removesuffix(".py").replace("/", ".")
    return extract_python_file(
        "fx", rel, PACKAGE[rel], version=None, internal_packages={"acme"}, module=module,
        helpers=helpers,
    )  # fmt: skip


def by_symbol(ex: PythonFileExtract) -> dict[str, list[Deprecation]]:
    out: dict[str, list[Deprecation]] = {}
    for r in ex.deprecations:
        out.setdefault(r.symbol, []).append(r)
    return out


def test_helpers_are_found_by_behaviour(helpers: DeprecationHelpers) -> None:
    assert "acme.errors.AcmeRemoval" in helpers.categories  # a subclass of a subclass
    assert "acme._compat._notice" in helpers.functions
    assert "acme._compat._relay" in helpers.functions  # passes its parameters on
    assert "acme._compat._hint" not in helpers.functions  # a UserWarning
    assert "acme._compat.old_fixed" not in helpers.functions  # a fixed text: deprecated itself
    assert helpers.fingerprint()


def test_call_sites_of_a_neutral_helper_are_deprecations(helpers: DeprecationHelpers) -> None:
    ex = extract("acme/api.py", helpers)
    found = by_symbol(ex)
    (fetch_all,) = found["acme.api.Client.fetch_all"]
    assert fetch_all.note == "`fetch_all` is deprecated since 2.0; use `Client.fetch` instead."
    assert (fetch_all.since, fetch_all.replacement) == ("2.0", "acme.api.Client.fetch")
    (legacy,) = found["acme.api.legacy_sync"]  # through the two-level helper
    assert legacy.since == "1.9" and legacy.note == "`legacy_sync` is deprecated since 1.9."
    (ping,) = found["acme.api.ping"]  # the helper's own f-string, filled in
    assert ping.note == "ping is deprecated; use acme.api.health instead"
    assert "acme.api.tune" not in found  # a helper of another kind of warning
    deprecated = {c.symbol for c in ex.chunks if c.metadata.deprecated}
    assert {"acme.api.Client.fetch_all", "acme.api.legacy_sync"} <= deprecated
    assert {"acme.api.ping"} <= deprecated and "acme.api.Client.fetch" not in deprecated


def test_without_the_first_pass_a_neutral_name_is_not_a_helper() -> None:
    assert not any("fetch_all" in r.symbol for r in extract("acme/api.py", None).deprecations)


def test_a_helpers_own_warning_is_not_about_the_helper(helpers: DeprecationHelpers) -> None:
    found = by_symbol(extract("acme/_compat.py", helpers))
    assert "acme._compat._notice" not in found and "acme._compat._relay" not in found
    assert "acme._compat.old_fixed" in found


def test_attribute_docstring_deprecates_the_attribute(helpers: DeprecationHelpers) -> None:
    found = by_symbol(extract("acme/api.py", helpers))
    (retries,) = found["acme.api.Client.retries"]
    assert (retries.since, retries.replacement, retries.origin) == (
        "1.4",
        "acme.api.Client.policy",
        "docstring",
    )
    assert "acme.api.Client.timeout" not in found and "acme.api.Client" not in found


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    home = tmp_path_factory.mktemp("deprecation-home")
    write(home / "pkg", PACKAGE)
    write(home / "docs", DOCS)
    embedder = HashingEmbedder(dim=64)
    specs = [
        SourceSpec(name="acme", kind=["python"], path=str(home / "pkg")),
        SourceSpec(name="acme-docs", kind=["docs"], path=str(home / "docs")),
    ]
    with SQLiteStore(home / "ctxhub.db") as store:
        store.bind_model(embedder.id, embedder.dim)
        refresh(store, specs, home / "sources", embedder)
    set_embedder(embedder)
    with HubSession(Settings(home=home)) as h:
        yield h
    set_embedder(None)


def test_refresh_runs_the_first_pass(hub: HubSession) -> None:
    report = check_deprecation(hub, "Client.fetch_all")
    assert report.deprecated and report.evidence == "code" and report.since == "2.0"
    assert check_deprecation(hub, "legacy_sync").deprecated
    assert check_deprecation(hub, "acme.api.Client.retries").since == "1.4"


def test_a_deprecation_stated_only_in_the_docs(hub: HubSession) -> None:
    report = check_deprecation(hub, "connect_pool")
    assert report.deprecated and report.evidence == "docs" and not report.found
    assert (report.since, report.replacement) == ("3.1", "open_pool")
    assert report.entries[0].origin == "docs" and report.entries[0].path == "guide.md"
    text = deprecation_report(report)
    assert text.startswith("connect_pool: deprecated (stated in the docs: acme-docs:guide.md:")
    assert "docs only" in text and "will be removed in 4.0" in text


def test_not_deprecated_and_unknown(hub: HubSession) -> None:
    current = check_deprecation(hub, "Client.fetch")  # named in the docs, as the replacement
    assert current.found and not current.deprecated
    assert any("docs" in c for c in current.checked)
    assert deprecation_report(current).startswith("Client.fetch: no deprecation found (checked: ")
    assert not check_deprecation(hub, "tune").deprecated  # warns, but not a deprecation
    unknown = check_deprecation(hub, "NoSuchThing")
    assert not unknown.found and not unknown.deprecated
    assert "unknown symbol" in deprecation_report(unknown)
