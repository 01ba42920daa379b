"""Requirement specs an example pins, and whether the indexed framework version satisfies them.

Built on `packaging` (PEP 440 / PEP 508), which is always present: onnxruntime, a declared
dependency, requires it. Parsing is lenient: a line that is not a requirement (pip options,
URLs, editable installs) is skipped, never an error.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

# tomllib is 3.11+; tomli is its 3.10 backport (a declared dependency there).
_toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")


@dataclass(frozen=True)
class PinnedRequirement:
    """One requirement line as found in a file: `pipecat-ai[daily]>=0.0.80`."""

    name: str  # canonical distribution name (PEP 503): pipecat-ai
    extras: tuple[str, ...]
    specifier: str  # ">=0.0.80", "" when unpinned
    raw: str  # the requirement as written (markers dropped)
    file: str  # relative path of the file it came from
    group: str = "main"  # main | optional:<extra> | group:<name>


def parse_requirement(line: str) -> tuple[str, tuple[str, ...], str, str] | None:
    """(canonical name, extras, specifier, text without marker), or None if not a requirement."""
    text = line.split(" #", 1)[0].strip()
    if not text or text.startswith(("#", "-", "git+", "http:", "https:", "file:", ".", "/")):
        return None
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    if req.url:
        return None
    spec = str(req.specifier)
    raw = text.split(";", 1)[0].strip()
    return canonicalize_name(req.name), tuple(sorted(req.extras)), spec, raw


def requirements_from_text(text: str, file: str) -> list[PinnedRequirement]:
    """Requirements from a requirements*.txt (one per line; options and includes skipped)."""
    out: list[PinnedRequirement] = []
    for line in text.splitlines():
        parsed = parse_requirement(line)
        if parsed:
            out.append(PinnedRequirement(*parsed, file=file))
    return out


def requirements_from_pyproject(text: str, file: str) -> list[PinnedRequirement]:
    """PEP 621 dependencies, optional-dependencies and PEP 735 dependency-groups.

    A pyproject that does not parse as TOML yields nothing rather than an error: the
    caller reports the example as unpinned.
    """
    try:
        data = _toml.loads(text)
    except Exception:  # tomllib.TOMLDecodeError, but the module is chosen at run time
        return []
    if not isinstance(data, dict):
        return []
    groups: list[tuple[str, object]] = []
    project = data.get("project")
    if isinstance(project, dict):
        groups.append(("main", project.get("dependencies")))
        optional = project.get("optional-dependencies")
        if isinstance(optional, dict):
            groups.extend((f"optional:{k}", v) for k, v in optional.items())
    dep_groups = data.get("dependency-groups")
    if isinstance(dep_groups, dict):
        groups.extend((f"group:{k}", v) for k, v in dep_groups.items())
    out: list[PinnedRequirement] = []
    for group, items in groups:
        if not isinstance(items, list):
            continue
        for item in items:
            parsed = parse_requirement(item) if isinstance(item, str) else None
            if parsed:
                out.append(PinnedRequirement(*parsed, file=file, group=group))
    return out


def project_name_from_pyproject(text: str) -> str | None:
    try:
        data = _toml.loads(text)
    except Exception:
        return None
    project = data.get("project") if isinstance(data, dict) else None
    name = project.get("name") if isinstance(project, dict) else None
    return name if isinstance(name, str) else None


def version_compatibility(spec: str, version: str) -> bool | None:
    """Does `version` satisfy `spec`? None when either cannot be parsed.

    `spec` is a specifier set (`>=1.4.0,<1.5.0`, `~=0.7`) or a whole requirement
    (`pipecat-ai[daily]>=0.0.80`). An empty specifier accepts every version. Pre-releases
    are compared as versions (1.8.0rc1 satisfies >=1.7), since an indexed framework that
    is a pre-release is still the version the user has.
    """
    try:
        v = Version(version)
    except InvalidVersion:
        return None
    text = spec.strip()
    specifier: SpecifierSet | None = None
    if not text or text[0] in "<>=!~":
        try:
            specifier = SpecifierSet(text)
        except InvalidSpecifier:
            return None
    else:
        try:
            req = Requirement(text.split(";", 1)[0])
        except InvalidRequirement:
            return None
        if req.url:  # whatever the URL serves: no version to compare
            return None
        specifier = req.specifier
    return specifier.contains(v, prereleases=True)


_TOKEN = re.compile(r"[a-z0-9]+")


def _tokens(name: str) -> set[str]:
    return set(_TOKEN.findall(name.lower()))


def framework_package_for(dist_name: str, packages: Iterable[str]) -> str | None:
    """Which import package a distribution provides, by shared name tokens.

    Distribution and import names differ (`pipecat-ai` provides `pipecat`,
    `pipecat-ai-flows` provides `pipecat_flows`), so a package matches when all of its
    tokens are among the distribution's; the package with the most tokens wins, so
    `pipecat-ai-flows` goes to `pipecat_flows`, not to `pipecat`.
    """
    dist = _tokens(dist_name)
    best: tuple[int, str] | None = None
    for pkg in packages:
        toks = _tokens(pkg)
        if toks and toks <= dist and (best is None or (len(toks), pkg) > best):
            best = (len(toks), pkg)
    return best[1] if best else None


def primary_package(packages: Iterable[str]) -> str | None:
    """The framework's root package: the one with the fewest name tokens (`pipecat`)."""
    ranked = sorted(packages, key=lambda p: (len(_tokens(p)), p))
    return ranked[0] if ranked else None


def versions_by_package(
    packages: Iterable[str], framework_version: str | Mapping[str, str] | None
) -> dict[str, str]:
    """A single version applies to the primary package; a mapping names each package."""
    if framework_version is None:
        return {}
    if isinstance(framework_version, str):
        primary = primary_package(packages)
        return {primary: framework_version} if primary else {}
    return dict(framework_version)


#: Files whose requirements an example runs with.
REQUIREMENT_FILE = re.compile(r"^(pyproject\.toml|requirements[\w.-]*\.txt)$")


@dataclass(frozen=True)
class FrameworkPins:
    requirements: list[str]  # framework requirements as written, from `file`
    pin: str | None  # the one for a package with a known version
    file: str | None
    compatible: bool | None  # all satisfied: True; any violated: False; else None


def framework_pins(
    files: Iterable[str],
    read: Callable[[str], str],
    packages: Iterable[str],
    framework_version: str | Mapping[str, str] | None,
) -> FrameworkPins:
    """Framework requirements of the first file (nearest first) that has any, judged
    against the indexed versions."""
    pkgs = list(packages)
    versions = versions_by_package(pkgs, framework_version)
    for f in files:
        try:
            text = read(f)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        parse = requirements_from_pyproject if f.endswith(".toml") else requirements_from_text
        fw = [r for r in parse(text, f) if framework_package_for(r.name, pkgs)]
        if not fw:
            continue
        # Runtime dependencies first; dev/optional groups only when nothing else pins it.
        fw = [r for r in fw if r.group == "main"] or fw
        pin: str | None = None
        verdicts: list[bool | None] = []
        for r in fw:
            pkg = framework_package_for(r.name, pkgs)
            if pkg in versions:
                pin = pin or r.raw
                verdicts.append(version_compatibility(r.specifier, versions[pkg]))
        compat = None if not verdicts or None in verdicts else all(verdicts)
        compat = False if False in verdicts else compat
        return FrameworkPins([r.raw for r in fw], pin, f, compat)
    return FrameworkPins([], None, None, None)
