"""One module's deprecation records, collected statement by statement: docstring
directives, warnings (a helper's call site counts as one), attribute docstrings and
decorators each add a record, and the records that deprecate one symbol merge into one."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from ctxhub.core.knowledge import Deprecation, parameter_note, usage_note
from ctxhub.ingest.python.callgraph import ScopeContext, dotted_chain
from ctxhub.ingest.python.definitions import Definition, docstring, documented_attributes
from ctxhub.ingest.python.deprecated_wrappers import deprecated_wrappers, is_deprecating
from ctxhub.ingest.python.deprecation_arguments import (
    called_with,
    deprecation_fields,
    fields_message,
    first_code,
    named,
)
from ctxhub.ingest.python.deprecation_helpers import HelperView
from ctxhub.ingest.python.deprecation_records import CodeDeprecations, code_deprecations
from ctxhub.ingest.python.deprecation_since import statement_since
from ctxhub.ingest.python.deprecation_subjects import (
    annotated_docs,
    deprecated_sentences,
    guard_parameter,
    note_parameter,
    parameter_said,
    sentences,
    superseded,
    version_notes,
)
from ctxhub.ingest.python.deprecation_text import (
    docstring_directives,
    find_replacement,
    find_since,
    find_subject,
    says_self_deprecated,
)
from ctxhub.ingest.python.deprecation_warnings import guarded_warn_sites
from ctxhub.ingest.python.named_deprecations import named_deprecations
from ctxhub.ingest.python.taken_names import taken_names, tested_option
from ctxhub.ingest.sphinx_roles import readable_roles

_INIT_LIKE = frozenset({"__init__", "__new__", "__post_init__"})


class DeprecationFinder:
    """Records are whole (the symbol itself is deprecated) or partial (about a
    parameter); `result` merges a symbol's whole records into one."""

    def __init__(
        self,
        source: str,
        relpath: str,
        module: str,
        ctx: ScopeContext,
        members: dict[str, set[str]],
        view: HelperView,
        lines: list[str] | None = None,
    ) -> None:
        self.source, self.relpath, self.module, self.ctx = source, relpath, module, ctx
        self.members = members  # class qualname -> names defined in its body
        self.view = view
        self.lines = lines or []  # the file's lines, for the comments next to a warning
        self.full: dict[str, list[Deprecation]] = {}
        self.partial: list[Deprecation] = []
        # parameter records whose note only named the parameter: kept only when no other
        # record tells of that parameter
        self.bare: list[Deprecation] = []
        self.thin: dict[str, str | None] = {}  # thin warning subclass -> its first base

    def resolve(self, name: str | None, class_qual: str | None = None) -> str | None:
        """A replacement as an absolute dotted name where this module can tell."""
        if not name:
            return None
        root = name.split(".", 1)[0]
        if root in self.ctx.imports.bindings:
            return self.ctx.imports.qualify(name)
        if class_qual and root in self.members.get(class_qual, set()):
            return f"{self.module}.{class_qual}.{name}"
        if root in self.ctx.module_names:
            return f"{self.module}.{name}"
        return name

    def add(
        self,
        symbol: str,
        text: str,
        origin: str,
        line: int | None,
        *,
        whole: bool,
        since: str | None = None,
        replacement: str | None = None,
        class_qual: str | None = None,
    ) -> Deprecation | None:
        record = Deprecation(
            source=self.source,
            symbol=symbol,
            replacement=replacement or self.resolve(find_replacement(text), class_qual),
            since=since or find_since(text),
            note=readable_roles(text.strip()) or None,  # as the rendered docs show it
            path=self.relpath,
            line=line,
            origin=origin,
        )
        if whole:
            self.full.setdefault(symbol, []).append(record)
        elif all(r.symbol != symbol or r.note != record.note for r in self.partial):
            self.partial.append(record)
        else:
            return None
        return record

    def docstring_notes(
        self, node: ast.AST, symbol: str, class_qual: str | None, first_line: int
    ) -> None:
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            return
        doc = docstring(node)
        if not doc:
            return
        params = taken_names(node)
        notes = version_notes(doc)
        for d in docstring_directives(doc):
            line = first_line + d.line_offset
            if d.nested:
                # under a section entry: a part of the object, never the object itself
                param = d.parameter if not d.bare_entry or d.parameter in params else None
                if param:
                    said, bare = parameter_said(doc, param, d.text, d.version)
                    text = parameter_note(param, said)
                else:
                    text, bare = usage_note(d.text), False
                added = self.add(symbol, text, "docstring", line, whole=False, since=d.version)
                self.bare += [added] if bare and added is not None else []
                continue
            # A top-level note may still be about one parameter or usage, and a later
            # `versionchanged` of the same docstring may have superseded it.
            later = superseded(notes, d.line_offset, d.version, d.text)
            if later is not None and later.undone:
                continue
            param = None if says_self_deprecated(d.text) else note_parameter(d.text, params)
            said, bare = parameter_said(doc, param, d.text, d.version) if param else (d.text, False)
            text = said + (f" ({later.text})" if later is not None else "")
            instead = None
            if param is not None:
                text = parameter_note(param, text)
                # another parameter to pass instead ("in favor of *processors*")
                other = find_replacement(said, params - {param})
                instead = other if other in params else None
            elif later is not None:
                text = usage_note(text)
            whole = param is None and later is None
            added = self.add(
                symbol,
                text,
                "docstring",
                line,
                whole=whole,
                since=d.version,
                class_qual=class_qual,
                replacement=instead,
            )
            self.bare += [added] if bare and added is not None else []

    def annotated_parameters(self, d: Definition) -> None:
        """A parameter whose `Annotated[..., Doc("...")]` says it (or a usage of it) is
        deprecated, or will be removed in a future version, or whose annotation carries
        a `deprecated("...")` marker: a parameter record; the function stays current."""
        if not isinstance(d.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return
        cls = d.parent_class if d.in_class else None
        params = taken_names(d.node)
        symbol = f"{self.module}.{d.qualname}"
        docs = [
            (n, deprecated_sentences(doc, n), line) for n, doc, line in annotated_docs(d.node.args)
        ]
        marked = annotated_docs(d.node.args, marker="deprecated")
        for name, said, line in [*docs, *marked]:
            if not said:
                continue
            other = find_replacement(said, params - {name})
            instead = other if other in params else None  # another parameter to pass
            note = parameter_note(name, said)
            self.add(
                symbol, note, "docstring", line, whole=False, class_qual=cls, replacement=instead
            )

    def warnings_in(self, body: list[ast.stmt], d: Definition | None) -> None:
        """Warnings of a def's own body (or of the module's, when d is None)."""
        own = self.module if d is None else f"{self.module}.{d.qualname}"
        cls = d.parent_class if d is not None and d.in_class else None
        if d is not None and isinstance(d.node, ast.ClassDef):
            cls = d.qualname
        if d is not None and not d.in_class and "." not in d.qualname:
            helpers = self.view.helpers
            if helpers is not None and own in helpers.functions:
                return  # a helper's own warning is about its callers, not about it
        for call, message, conditional, guard in guarded_warn_sites(body, view=self.view):
            if not message:
                continue  # a computed message (e.g. in a helper that emits warnings)
            subject = next(filter(None, map(find_subject, sentences(message))), None)
            last = subject.rsplit(".", 1)[-1] if subject else None
            itself = says_self_deprecated(message)
            symbol, whole = own, False
            if d is None:
                # A warning at module level fires on import: the module is what is
                # deprecated, unless the message names one of its members.
                if subject and subject.split(".")[0] in self.ctx.module_names:
                    symbol, whole = f"{self.module}.{subject}", True
                else:
                    whole = itself or subject == self.module or not conditional
            elif d.name in _INIT_LIKE and cls is not None and d.in_class:
                # Constructing the class warns about the class (or the class exists
                # only to warn): the class is deprecated.
                # So does a warning on every construction that names no parameter.
                cls_name = cls.rsplit(".", 1)[-1]
                always = (
                    not conditional and _warned_parameter(message, last, _parameters(d)) is None
                )
                if last == cls_name or itself or always or f"{self.module}.{cls}" in self.thin:
                    symbol, whole = f"{self.module}.{cls}", True
            else:
                # a parameterless helper's fixed words, on every call: the def is deprecated
                every_call = not conditional and self.view.fixed_helper(call)
                whole = last == d.name or itself or every_call
            if d is not None and subject == self.module:
                # a def's warning that says its own module is deprecated ("`pkg.old` is
                # deprecated, use `pkg.new`") tells of the module too
                self.add(self.module, message, "warn", call.lineno, whole=True)
            origin = "alias" if symbol in self.thin else "warn"
            replacement = self.thin.get(symbol) if origin == "alias" else None
            params = _parameters(d)
            said = find_replacement(message, params)
            text, instead = message, self.resolve(said, cls) or replacement
            param = None if whole or d is None else _warned_parameter(message, last, params)
            if param is None and not whole and d is not None and guard is not None:
                param = tested_option(guard, params) or guard_parameter(guard, params, last)
            if param is None and not whole and d is not None:
                # `f(x=False)` is deprecated: passing x so is, not f
                call_form = called_with(first_code(message))
                param = call_form[1] if call_form and call_form[1] in params else None
            if param is not None:
                # "The `x` argument is deprecated": a parameter of this def, and so is
                # the one to use instead when the def takes it (not a member of cls).
                text = parameter_note(param, message)
                if said == param:
                    # "drivers also use the `x` parameter": x is no way out of itself
                    said = find_replacement(message, params - {param})
                    instead = self.resolve(said, cls) if said and said != param else None
                instead = said if said in params else instead
            elif not whole and conditional:
                # warns only on some calls (or imports, `if old_dependency:`): one usage
                text = usage_note(message)
            # "deprecated since X" in the message, else a comment beside the call
            since = find_since(message) or statement_since(
                self.lines, call.lineno, call.end_lineno or call.lineno
            )
            self.add(
                symbol,
                text,
                origin,
                call.lineno,
                whole=whole,
                since=since,
                class_qual=cls,
                replacement=instead,
            )

    def attribute_docstrings(self, body: list[ast.stmt], owner: str, cls: str | None) -> None:
        """`name = value` followed by a string literal (Sphinx's attribute docstring):
        a deprecation note there deprecates `owner.name`."""
        for attribute in documented_attributes(body):
            for directive in docstring_directives(attribute.doc):
                if directive.nested:
                    continue
                for name in attribute.names:
                    self.add(
                        f"{owner}.{name}",
                        directive.text,
                        "docstring",
                        attribute.literal.lineno + directive.line_offset,
                        whole=True,
                        since=directive.version,
                        class_qual=cls,
                    )

    def decorators(self, d: Definition) -> None:
        """`@deprecated(...)`: its arguments say since (a version-like string), what to
        use (`instead=`) and what is deprecated (`thing=` a dotted name: that name too); a
        decorated `__init__` deprecates its class."""
        if "." in d.qualname and not d.in_class and not isinstance(d.node, ast.ClassDef):
            return  # a def nested in a function (a helper's wrapper) is no API
        symbol = f"{self.module}.{d.qualname}"
        cls = d.parent_class if d.in_class else None
        for dec in d.node.decorator_list:
            if not (is_deprecating(dec) or self._imported_deprecator(dec)):
                continue
            symbols = [symbol]
            if d.name in _INIT_LIKE and cls is not None:
                symbols.append(f"{self.module}.{cls}")
            args, keywords = (dec.args, dec.keywords) if isinstance(dec, ast.Call) else ([], [])
            self._decorated(
                symbols, args, keywords, dec.lineno, cls, called=isinstance(dec, ast.Call)
            )

    def _imported_deprecator(self, decorator: ast.expr) -> bool:
        """A decorator imported under another name whose own name says it deprecates
        (`from deprecated import deprecated as legacy` used as `@legacy(...)`)."""
        chain = dotted_chain(decorator.func if isinstance(decorator, ast.Call) else decorator)
        if chain is None or chain[0] not in self.ctx.imports.bindings:
            return False
        original = self.ctx.imports.qualify(".".join(chain)).rsplit(".", 1)[-1]
        return "deprecat" in original.lower()

    def wrappers(self, body: list[ast.stmt]) -> None:
        """`name = deprecated("...")(func)` or `name = deprecated(func, "...")` at module
        level: `name` is deprecated as a decorated def would be."""
        for wrapper in deprecated_wrappers(body):
            symbols = [f"{self.module}.{name}" for name in wrapper.names]
            called = bool(wrapper.arguments or wrapper.keywords)
            line = wrapper.statement.lineno
            self._decorated(symbols, wrapper.arguments, wrapper.keywords, line, None, called=called)

    def named_calls(self, body: list[ast.stmt]) -> None:
        """`deprecated('old_name', 'message')` at module level: the module's `old_name` is
        deprecated (`named_deprecations`)."""
        for found in named_deprecations(body, self.ctx):
            symbol = f"{self.module}.{found.name}"
            text = found.message or f"`{symbol}` is deprecated"
            call = found.call
            since = find_since(text) or statement_since(
                self.lines, call.lineno, call.end_lineno or call.lineno
            )
            self.add(symbol, text, "call", call.lineno, whole=True, since=since)

    def _decorated(
        self,
        symbols: list[str],
        args: Sequence[ast.expr],
        keywords: Sequence[ast.keyword],
        line: int,
        cls: str | None,
        *,
        called: bool,
    ) -> None:
        """The records a deprecation decorator's arguments make for what it wraps."""
        fields: dict[str, str] = {}
        if called:
            fields = deprecation_fields({kw.arg: kw.value for kw in keywords if kw.arg}, args)
        thing = named(fields.get("subject"))
        if thing and "." in thing and thing not in symbols:
            symbols = [*symbols, thing]
        text = fields.get("note") or (
            fields_message({**fields, "subject": thing or symbols[-1]}) if fields else ""
        )
        instead = self.resolve(named(fields.get("instead")), cls)
        for name in symbols:
            self.add(
                name,
                text,
                "decorator",
                line,
                whole=True,
                since=fields.get("since"),
                replacement=instead,
                class_qual=cls,
            )

    def result(self) -> CodeDeprecations:
        return code_deprecations(self.full, self.partial, self.bare)


def _warned_parameter(message: str, subject: str | None, params: set[str]) -> str | None:
    """The parameter a warning's message names as what is deprecated."""
    if subject in params:
        return subject
    return note_parameter(message, params)


def _parameters(d: Definition | None) -> set[str]:
    """The parameter names of a function definition (none for a class or the module)."""
    return set() if d is None else taken_names(d.node)
