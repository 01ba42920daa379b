"""Sphinx's roles and directives for a plain docutils parse, registered generically: a
docs tree written for Sphinx must not turn into error messages under docutils.

Every role docutils does not know becomes an `api_ref` (its title, its target, whether
it names an API object); every directive docutils does not know becomes an `labelled`
block (a label, its argument as inline text, its content parsed as reST), except the
families below: code directives give literal blocks with their language, API
description directives (`.. data:: NAME`, `.. autoclass:: x.Y`) a `described` block,
`.. literalinclude::` and `.. include::` an `include_ref` (includes.py reads the file
later; docutils' own include, which would read it now, is replaced), and
navigation or build machinery (toctree, index, currentmodule, ...) nothing at all.
Directive names are registered as a page uses them (`register_directives`), so a
project's own directive (`.. tab::`) reads like the Sphinx ones.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes, utils  # type: ignore[import-untyped]
from docutils.parsers.rst import Directive, directives, roles  # type: ignore[import-untyped]
from docutils.parsers.rst.languages import en  # type: ignore[import-untyped]
from docutils.parsers.rst.states import Inliner  # type: ignore[import-untyped]

from ctxhub.ingest.sphinx_roles import role_reference


class api_ref(nodes.Inline, nodes.TextElement):  # type: ignore[misc]
    """A Sphinx cross-reference: text is what Sphinx shows; `target` the qualified name;
    `api` whether it names a Python object (then the body text keeps the target)."""


class labelled(nodes.Element):  # type: ignore[misc]
    """A directive read as prose: `label` ("Note", "Added in version 3.0"), then an
    optional `argument` inline child, then the parsed content."""


class described(nodes.Element):  # type: ignore[misc]
    """An API description directive: `signature` ("class marshmallow.Schema"), body."""


class include_ref(nodes.Element):  # type: ignore[misc]
    """`.. literalinclude:: path` or `.. include:: path` (`directive`): the renderer
    writes the directive back for includes.py (which reads its options from the page)."""


#: Roles whose target is a Python name: a search for the API matches the qualified name.
_API_ROLES = frozenset(
    "class meth func attr exc data obj mod const type any member property function "
    "method attribute exception module".split()
)


def generic_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[Any], list[Any]]:
    """`:class:`Meta <x.Meta>`` -> Meta (target x.Meta); `~x.y.z` shows `z`; `.x.y`
    (Sphinx's relative reference) is `x.y`."""
    ref = role_reference(utils.unescape(text), name)
    api = name.rsplit(":", 1)[-1].lower() in _API_ROLES
    return [api_ref(rawtext, ref.shown, target=ref.target, api=api, titled=ref.titled)], []


def sphinx_inliner() -> Any:
    """docutils' inliner, where interpreted text with a role docutils does not know reads
    as a cross-reference instead of an error. (Not a subclass: `init_customizations`
    reads its patterns from `vars(type(self))`, which a subclass does not have.)"""
    inliner = Inliner()
    plain = inliner.interpreted

    def interpreted(rawsource: str, text: str, role: str, lineno: int) -> Any:
        if not role and "" not in roles._roles:
            # the default role: Sphinx projects mostly make it py:obj (`Schema`)
            return generic_role("obj", rawsource, text, lineno, inliner)
        if role and not _role_known(role.lower()):
            return generic_role(role, rawsource, text, lineno, inliner)
        return plain(rawsource, text, role, lineno)

    inliner.interpreted = interpreted
    return inliner


def _role_known(name: str) -> bool:
    # the registries are module dicts: docutils' public lookup reports unknown names as
    # errors, and `.. role::` on a page adds to `_roles`
    return name in en.roles or name in roles._roles or name in roles._role_registry


class _AnyOptions(dict[str, Any]):
    """Sphinx directives take options docutils cannot know: accept every one. Not empty:
    docutils parses options only when a directive's option_spec is truthy."""

    def __missing__(self, key: str) -> Any:
        return directives.unchanged


_ANY = _AnyOptions(name=directives.unchanged)
_CONTINUED = re.compile(r"\\[ \t]*(?:\n|$)")


class _Sphinx(Directive):  # type: ignore[misc]
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _ANY

    @property
    def argument(self) -> str:
        """The argument on one line; a backslash that continues a long signature onto
        the next line (`ClientSession(base_url=None, *, \\`) is Sphinx syntax, not text."""
        if not self.arguments:
            return ""
        return " ".join(_CONTINUED.sub(" ", self.arguments[0]).split())

    def parsed_into(self, node: Any, titles: bool = False) -> list[Any]:
        """`node` holding the parsed content; `titles`: section titles in it are sections
        of their own levels (Sphinx's `nested_parse_with_titles`, which autodoc and the
        description directives use), not docutils' "Unexpected section title"."""
        node.line = self.lineno
        if not titles:
            self.state.nested_parse(self.content, self.content_offset, node)
            return [node]
        memo = self.state.memo
        styles, level = memo.title_styles, memo.section_level
        memo.title_styles, memo.section_level = [], 0
        try:
            self.state.nested_parse(self.content, self.content_offset, node, match_titles=True)
        finally:
            memo.title_styles, memo.section_level = styles, level
        return [node]


class Dropped(_Sphinx):
    """Navigation and build machinery: nothing a reader of the page needs."""

    def run(self) -> list[Any]:
        return []


class Transparent(_Sphinx):
    """Layout (tabs, grids, `only`): the content, without a label."""

    def run(self) -> list[Any]:
        return self.parsed_into(nodes.container(self.block_text))


_LABELS = {
    "seealso": "See also",
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
    "todo": "To do",
}


class Labelled(_Sphinx):
    """`.. seealso:: :ref:`guide`` -> "See also: guide"; `.. deprecated:: 3.0 Use X.`
    -> "Deprecated since version 3.0: Use X."; others "Name: argument"."""

    def run(self) -> list[Any]:
        name = self.name.lower().rsplit(":", 1)[-1]
        label = _LABELS.get(name) or name.replace("-", " ").replace("_", " ").capitalize()
        argument = self.argument
        if name.startswith(("version", "deprecated")) and argument:
            version, _, argument = argument.partition(" ")
            label = f"{label} {version}"
        node = labelled(self.block_text, label=label)
        if argument:
            inline, messages = self.state.inline_text(argument, self.lineno)
            node += nodes.inline(argument, "", *inline, classes=["argument"])
            node += messages
        first = next((line for line in self.content if line.strip()), "")
        language = _code_language(first) if name not in _LABELS else None
        if language is None:
            return self.parsed_into(node)
        node.line = self.lineno  # a project's code directive (`.. click:example::`)
        node += code_block(self.content, language)
        return [node]


class Described(_Sphinx):
    """`.. data:: EXCLUDE` -> "data EXCLUDE"; `.. autoclass:: x.Y` -> "class x.Y"."""

    def run(self) -> list[Any]:
        kind = self.name.lower().rsplit(":", 1)[-1].removeprefix("auto")
        node = described(self.block_text, signature=f"{kind} {self.argument}".strip())
        return self.parsed_into(node, titles=True)


#: The first content line of a directive docutils does not know that says "code".
_PYTHON_START = re.compile(
    r"\s*(?:from\s+[\w.]+\s+import\s|import\s+\w|(?:async\s+)?def\s+\w|class\s+\w+\s*[:(]"
    r"|@[\w.]+\s*(?:\(|$)|>>>\s|[\w.]+\(.*\)\s*$)"
)


def _code_language(first: str) -> str | None:
    if _PYTHON_START.match(first):
        return "python"
    return "console" if first.lstrip().startswith("$ ") else None


def code_block(content: Any, language: str) -> Any:
    """A literal block of directive content; `first_line`: the source line of its first
    line (content items are (source, 0-based line offset))."""
    text = "\n".join(content)
    node = nodes.literal_block(text, text, language=language)
    if content:
        node["first_line"] = content.items[0][1] + 1
    return node


class Code(_Sphinx):
    """`.. code-block:: python` and friends: a literal block with its language and the
    source line of its first code line (`first_line`)."""

    def run(self) -> list[Any]:
        language = self.arguments[0].split()[0].lower() if self.arguments else ""
        if not language and self.name.lower() in ("testcode", "testsetup", "doctest"):
            language = "python"
        node = code_block(self.content, language)
        node.line = self.lineno
        return [node]


class Include(_Sphinx):
    has_content = False

    def run(self) -> list[Any]:
        node = include_ref(
            self.block_text,
            path=self.arguments[0] if self.arguments else "",
            directive=self.name.lower(),
        )
        node.line = self.lineno
        return [node]


_FAMILIES: dict[type[_Sphinx], str] = {
    Dropped: "toctree index currentmodule highlight tabularcolumns sectionauthor "
    "codeauthor moduleauthor default-domain autosummary-nav py:currentmodule",
    Transparent: "only tabs tab-set grid grid-item hlist glossary rst-class cssclass",
    Code: "code code-block sourcecode code-cell testcode testsetup testoutput doctest "
    "ipython jupyter-execute prompt productionlist",
    Include: "literalinclude include",
}
_DESCRIBES = re.compile(
    r"(?:py:)?(?:auto)?(?:class|function|method|attribute|data|module|exception|"
    r"decorator|property|classmethod|staticmethod|attr|func|meth|exc|obj)"
)
#: A directive name as docutils reads it (`states.Body.patterns`' simplename).
DIRECTIVE_NAME = re.compile(
    r"^[ \t]*\.\.[ \t]+((?:(?!_)\w)+(?:[-._+:](?:(?!_)\w)+)*)[ \t]*::", re.M
)


#: docutils has these too, but Sphinx means something else by them: the code directives
#: take options docutils rejects (`:caption:`, `:emphasize-lines:`) and would lose the
#: whole block to an error, and `.. class:: Name(args)` describes a Python class (the
#: default domain's directive; docutils' own, which sets an element's CSS classes, is
#: `rst-class` under Sphinx). docutils' `include` would read a file (file insertion is
#: off, so it reads nothing): ours leaves it to includes.py, which reads only the source.
_SPHINX_OVERRIDES = frozenset({"code", "code-block", "sourcecode", "class", "include"})


def _docutils_knows(name: str) -> bool:
    # private module dicts again: the public lookup reports errors for unknown names
    return name in en.directives or name in directives._directive_registry


def directive_class(name: str) -> type[_Sphinx]:
    for cls, names in _FAMILIES.items():
        if name in names.split():
            return cls
    return Described if _DESCRIBES.fullmatch(name) else Labelled


def register_directives(text: str) -> None:
    """Register a generic directive for each name `text` uses that neither docutils nor
    an earlier page registered (the registry is docutils' own, process-wide)."""
    for match in DIRECTIVE_NAME.finditer(text):
        name = match.group(1).lower()
        if name in directives._directives:
            continue
        if name in _SPHINX_OVERRIDES or not _docutils_knows(name):
            directives.register_directive(name, directive_class(name))
