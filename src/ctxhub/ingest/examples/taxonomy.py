"""What an example is about, derived from its own files: tags, language, key files,
execution mode, the framework version it pins.

Capability tags are the dotted parts of the framework modules an example imports
(`pipecat.services.deepgram.stt` -> `deepgram`, `stt`). A part is dropped as generic when
it is a stop word, a namespace (three or more different modules hang below it across the
source's imports, like `services`) or, in a source with enough examples, present in at
least half of them: a tag every example has does not tell examples apart.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass, field
from typing import Any

from ctxhub.ingest.examples.files import (
    ENV_EXAMPLE,
    PROSE_OR_CONFIG,
    README_RE,
    SCRIPT_EXTS,
    Reader,
    ext_of,
    language_of,
    read_or_empty,
)
from ctxhub.ingest.examples.layout import STRONG_MARKERS, Example
from ctxhub.ingest.examples.prose import leading_comment, summarize
from ctxhub.ingest.examples.python_facts import PyFacts, python_facts
from ctxhub.ingest.examples.versions import REQUIREMENT_FILE, framework_pins

#: Module parts that name plumbing rather than a capability.
STOP_PARTS = frozenset(
    "utils util base frames frame types typing common core helpers internal api init models "
    "interfaces abc constants errors exceptions config settings".split()
)
STOP_WORDS = frozenset(
    "a an and the of for to in on with using use uses via how your you this that from is are "
    "be it its as by or example examples demo sample simple basic bot app project readme".split()
)
#: Generic by frequency only with this many examples: two examples share too much by chance.
MIN_EXAMPLES_FOR_FREQUENCY = 4
GENERIC_SHARE = 0.5
NAMESPACE_CHILDREN = 3
TITLE_WORDS = 12
DESCRIPTION_CHARS = 1500

#: Deployment descriptors of common hosting tools (any `*deploy*` file counts too).
DEPLOY_FILE = re.compile(
    r"^((docker|container)file[\w.-]*|(docker-)?compose[\w.-]*\.ya?ml|procfile|fly\.toml|"
    r"app\.ya?ml|render\.ya?ml|vercel\.json|netlify\.toml|serverless\.ya?ml|chart\.ya?ml|"
    r"cloudbuild\.ya?ml|[\w.-]*deploy[\w.-]*)$",
    re.IGNORECASE,
)
DEPLOY_WORD = re.compile(r"\bdeploy(?:s|ed|ing|ment|ments)?\b", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z0-9]+", text.lower()) if w not in STOP_WORDS]


def module_parts(module: str, packages: Iterable[str]) -> list[str]:
    """Meaningful dotted parts of a framework module below its package."""
    parts = module.split(".")
    if parts[0] not in set(packages):
        return []
    return [p for p in parts[1:] if not p.startswith("_") and p not in STOP_PARTS]


@dataclass
class Taxonomy:
    tags: list[str] = field(default_factory=list)  # distinctive tags, filterable
    capability_tags: list[str] = field(default_factory=list)  # from framework imports
    library_tags: list[str] = field(default_factory=list)  # third-party imports
    name_tags: list[str] = field(default_factory=list)  # folder/file name, README title
    all_capabilities: list[str] = field(default_factory=list)  # before generic filtering
    language: str | None = None
    languages: list[str] = field(default_factory=list)
    entry_point: str | None = None
    readme: str | None = None
    config_files: list[str] = field(default_factory=list)
    execution_mode: str = "local"  # local | cloud
    execution_reasons: list[str] = field(default_factory=list)
    framework_requirements: list[str] = field(default_factory=list)
    framework_pin: str | None = None
    pin_file: str | None = None
    pin_inherited: bool = False  # pin found in an enclosing folder, not the example's own
    compatible: bool | None = None
    framework_modules: list[str] = field(default_factory=list)
    framework_names: list[str] = field(default_factory=list)  # distinctive first
    distinctive_names: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    env_vars: list[str] = field(default_factory=list)
    summary: str = ""
    description: str = ""  # module docstring / README opening, longer than summary
    issues: dict[str, str] = field(default_factory=dict)

    def to_extra(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("summary", "description", "defines", "framework_names", "framework_modules"):
            d.pop(k)
        return d


def _example_facts(example: Example, read: Reader) -> dict[str, PyFacts]:
    return {f: python_facts(read_or_empty(read, f)) for f in example.files if ext_of(f) == "py"}


def import_profile(
    facts: Iterable[PyFacts], packages: set[str], local_modules: AbstractSet[str]
) -> tuple[list[str], list[str], list[str]]:
    """(framework modules, capability parts, third-party top-level names) of an example."""
    stdlib = set(getattr(sys, "stdlib_module_names", ()))
    mods: list[str] = []
    libs: list[str] = []
    for f in facts:
        for m in f.imports:
            top = m.split(".")[0]
            if top in packages:
                mods.append(m)
            elif top not in stdlib and top not in local_modules and top != "__future__":
                libs.append(top)
    parts = [p for m in mods for p in module_parts(m, packages)]
    return list(dict.fromkeys(mods)), list(dict.fromkeys(parts)), list(dict.fromkeys(libs))


@dataclass(frozen=True)
class SourceStats:
    """What is common across one source's examples (see the module docstring)."""

    generic: frozenset[str] = frozenset()  # capability parts and library names
    generic_names: frozenset[str] = frozenset()  # framework names most examples import
    local_modules: frozenset[str] = frozenset()  # script stems: `from utils import x`
    examples: int = 0


def source_stats(
    examples: Iterable[Example], read: Reader, *, framework_packages: set[str]
) -> SourceStats:
    exs = [e for e in examples if e.role == "example"]
    # Script stems and the folders that hold them: `from tiny_agent.tools import x` is local.
    local = frozenset(
        part
        for e in examples
        for f in e.files
        if ext_of(f) in SCRIPT_EXTS
        for part in [*f.split("/")[:-1], posixpath.basename(f).rsplit(".", 1)[0]]
    )
    share: Counter[str] = Counter()
    name_share: Counter[str] = Counter()
    children: dict[str, set[str]] = defaultdict(set)
    for e in exs:
        facts = _example_facts(e, read).values()
        mods, parts, libs = import_profile(facts, framework_packages, local)
        share.update(set(parts) | set(libs))
        name_share.update({n for f in facts for m, n in f.names if m in mods})
        for m in mods:
            for a, b in itertools.pairwise(m.split(".")):
                children[a].add(b)
    generic = {p for p, kids in children.items() if len(kids) >= NAMESPACE_CHILDREN}
    names: set[str] = set()
    if len(exs) >= MIN_EXAMPLES_FOR_FREQUENCY:
        generic |= {p for p, n in share.items() if n >= GENERIC_SHARE * len(exs)}
        names = {p for p, n in name_share.items() if n >= GENERIC_SHARE * len(exs)}
    return SourceStats(frozenset(generic), frozenset(names), local, len(exs))


def _entry_point(example: Example, facts: Mapping[str, PyFacts]) -> str | None:
    if example.is_file:
        return example.path
    scripts = [f for f in example.files if ext_of(f) in SCRIPT_EXTS]

    def rank(f: str) -> tuple[int, int, int, str]:
        stem = posixpath.basename(f).rsplit(".", 1)[0].lower()
        mainish = stem in {"main", "app", "bot", "server", "run", "__main__", "agent", "index"}
        runs = f in facts and facts[f].has_main
        return (not runs, not mainish, f.count("/"), f)

    return min(scripts, key=rank) if scripts else None


def example_taxonomy(
    example: Example,
    read: Reader,
    *,
    framework_packages: set[str],
    framework_version: str | Mapping[str, str] | None,
    stats: SourceStats | None = None,
) -> Taxonomy:
    """The taxonomy of one example. Pass `stats` (`source_stats` over the whole source)
    to drop tags common to most examples; without it only the stop list filters tags and
    only the example's own scripts count as local modules."""
    facts = _example_facts(example, read)
    if stats is None:
        stats = source_stats([example], read, framework_packages=framework_packages)
    mods, parts, libs = import_profile(facts.values(), framework_packages, stats.local_modules)
    gen = stats.generic
    tax = Taxonomy(framework_modules=mods, all_capabilities=parts)
    tax.issues = {f: p.error for f, p in facts.items() if p.error}
    tax.capability_tags = [p for p in parts if p not in gen]
    tax.library_tags = [lib for lib in libs if lib not in gen and lib not in STOP_PARTS]
    fw_tokens = {t for p in framework_packages for t in re.findall(r"[a-z0-9]+", p.lower())}

    files_here = [f for f in example.files if posixpath.dirname(f) == example.folder]
    readmes = [f for f in files_here if README_RE.match(posixpath.basename(f))]
    tax.readme = None if example.is_file else (readmes[0] if readmes else None)
    tax.entry_point = _entry_point(example, facts)
    entry_facts = facts.get(tax.entry_point or "")
    readme_text = read_or_empty(read, tax.readme) if tax.readme else ""
    doc = (entry_facts.docstring if entry_facts else None) or ""
    if not doc and tax.entry_point:
        doc = leading_comment(read_or_empty(read, tax.entry_point))
    prose = readme_text or doc
    tax.summary = summarize(prose)
    tax.description = summarize(prose, DESCRIPTION_CHARS, fill=0.9, sep="\n")
    if readme_text and doc:  # a project's entry script often says what the README does not
        tax.description = f"{summarize(doc, fill=0)}\n{tax.description}"
    title = re.search(r"^#\s+(.+)$", readme_text, re.M) if readme_text else None
    title_text = title.group(1) if title else (doc.strip().splitlines() or [""])[0]
    if len(title_text.split()) > TITLE_WORDS:  # a sentence, not a title
        title_text = ""
    names = re.findall(r"[a-z0-9]+", example.name.lower())
    tax.name_tags = [
        w
        for w in dict.fromkeys([*names, *_words(title_text)])
        if len(w) > 2 and not w.isdigit() and w not in STOP_WORDS and w not in fw_tokens
    ]
    tax.tags = list(dict.fromkeys([*tax.capability_tags, *tax.library_tags, *tax.name_tags]))

    langs = Counter(lang for f in example.files if (lang := language_of(f)))
    code = [lang for lang, _ in langs.most_common() if lang not in PROSE_OR_CONFIG]
    tax.languages = [lang for lang, _ in langs.most_common()]
    tax.language = code[0] if code else (tax.languages[0] if tax.languages else None)
    tax.config_files = [
        f
        for f in files_here
        if STRONG_MARKERS.match(posixpath.basename(f))
        or DEPLOY_FILE.match(posixpath.basename(f))
        or ENV_EXAMPLE.match(posixpath.basename(f))
    ]
    tax.execution_mode, tax.execution_reasons = _execution_mode(example, readme_text or doc)

    own = [f for f in files_here if REQUIREMENT_FILE.match(posixpath.basename(f))]
    pins = framework_pins(
        [*own, *example.context_files], read, framework_packages, framework_version
    )
    tax.framework_requirements = pins.requirements
    tax.framework_pin, tax.pin_file, tax.compatible = pins.pin, pins.file, pins.compatible
    tax.pin_inherited = pins.file is not None and pins.file not in own

    names = [n for p in facts.values() for m, n in p.names if m in mods]
    # Names that set this example apart come first: they are what a query would name.
    tax.framework_names = sorted(dict.fromkeys(names), key=lambda n: n in stats.generic_names)
    tax.distinctive_names = [n for n in tax.framework_names if n not in stats.generic_names]
    tax.defines = list(dict.fromkeys(d for p in facts.values() for d in p.defs))
    tax.env_vars = list(dict.fromkeys(v for p in facts.values() for v in p.env_vars))
    return tax


def _execution_mode(example: Example, prose: str) -> tuple[str, list[str]]:
    """cloud when the example ships a deployment descriptor or its README is about
    deploying; a plain script run on the developer's machine is local."""
    deploy = [f for f in example.files if DEPLOY_FILE.match(posixpath.basename(f))]
    if deploy:
        return "cloud", [f"deployment file {f}" for f in deploy]
    heading = re.search(r"^#+\s.*\bdeploy", prose, re.I | re.M)
    mentions = len(DEPLOY_WORD.findall(prose))
    if heading or mentions >= 2:
        return "cloud", [f"README talks about deploying ({mentions} mentions)"]
    return "local", ["no deployment files; runs as a local script"]


def taxonomies_for(
    examples: list[Example],
    read: Reader,
    *,
    framework_packages: set[str],
    framework_version: str | Mapping[str, str] | None,
) -> dict[str, Taxonomy]:
    """Taxonomy of every entry, keyed by example path, against the source's statistics."""
    stats = source_stats(examples, read, framework_packages=framework_packages)
    return {
        e.path: example_taxonomy(
            e,
            read,
            framework_packages=framework_packages,
            framework_version=framework_version,
            stats=stats,
        )
        for e in examples
    }
