"""The definitions of a module and what their headers say: names, spans, signatures.

A definition's qualified name joins enclosing classes and functions with dots
(`Outer.Inner.method`, `func.helper`), the way the eval gold and `__qualname__` (minus
`<locals>`) name them. Defs under `if`/`try`/`with` blocks belong to the enclosing
scope, so `if TYPE_CHECKING:` redefinitions and property setters share a symbol and
are told apart by an ordinal.
"""

from __future__ import annotations

import ast
import inspect
import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ctxhub.ingest.python.callgraph import ImportTable, scope_statements

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
FuncNode = ast.FunctionDef | ast.AsyncFunctionDef

_ABSTRACT_DECORATORS = frozenset({"abstractmethod", "abstractproperty", "abstractclassmethod"})
_ABC_BASES = frozenset({"ABC", "abc.ABC"})
_DATACLASS_TARGETS = frozenset(
    {
        "dataclasses.dataclass",
        "pydantic.dataclasses.dataclass",
        "attr.s",
        "attr.attrs",
        "attr.define",
        "attr.frozen",
        "attr.mutable",
        "attrs.define",
        "attrs.frozen",
        "attrs.mutable",
    }
)
_DECORATOR_TEXT_MAX = 80


@dataclass(frozen=True)
class Definition:
    node: DefNode
    qualname: str  # Outer.Inner.method
    parent_class: str | None  # qualname of the nearest enclosing class
    in_class: bool  # defined directly in a class body (a method or nested class)
    ordinal: int  # 0 for the first definition of this qualname in the file
    #: qualname of the innermost function it is made in, at any depth (`factory` for
    #: `factory.Inner.method`): a local, no name anyone imports; None at module level
    #: and in classes only
    local_to: str | None = None

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def line_start(self) -> int:
        """First decorator line, else the def/class line."""
        return min([d.lineno for d in self.node.decorator_list] + [self.node.lineno])

    @property
    def line_end(self) -> int:
        return self.node.end_lineno or self.node.lineno


def collect_definitions(tree: ast.Module) -> list[Definition]:
    """Every def and class, nested ones included, in source order."""
    seen: Counter[str] = Counter()
    out: list[Definition] = []

    def visit(
        body: list[ast.stmt], prefix: str, cls: str | None, in_class: bool, func: str | None
    ) -> None:
        for stmt in scope_statements(body):
            if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            qual = prefix + stmt.name
            out.append(Definition(stmt, qual, cls, in_class, seen[qual], func))
            seen[qual] += 1
            is_class = isinstance(stmt, ast.ClassDef)
            visit(
                stmt.body,
                qual + ".",
                qual if is_class else cls,
                is_class,
                func if is_class else qual,
            )

    visit(tree.body, "", None, False, None)
    return out


def docstring(node: DefNode | ast.Module) -> str | None:
    return ast.get_docstring(node, clean=True)


def first_line(doc: str | None) -> str | None:
    if not doc:
        return None
    for line in doc.splitlines():
        if line.strip():
            return line.strip()
    return None


def docstring_span(node: DefNode | ast.Module) -> tuple[int, int] | None:
    """Lines of the docstring expression, if the body opens with one."""
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[0].lineno, body[0].end_lineno or body[0].lineno
    return None


def decorator_name(expr: ast.expr) -> str:
    """`functools.lru_cache` for `@functools.lru_cache(maxsize=1)`."""
    target = expr.func if isinstance(expr, ast.Call) else expr
    return ast.unparse(target)


def decorator_texts(node: DefNode) -> list[str]:
    """Decorators as written, without `@`; long argument lists elided."""
    out = []
    for d in node.decorator_list:
        text = ast.unparse(d)
        if len(text) > _DECORATOR_TEXT_MAX and isinstance(d, ast.Call):
            text = f"{decorator_name(d)}(...)"
        out.append(text)
    return out


def _param(arg: ast.arg, default: ast.expr | None, prefix: str = "") -> str:
    text = prefix + arg.arg
    if arg.annotation is not None:
        text += f": {ast.unparse(arg.annotation)}"
    if default is not None:
        # PEP 8: spaces around `=` only when the parameter is annotated.
        text += (" = " if arg.annotation is not None else "=") + ast.unparse(default)
    return text


def format_arguments(args: ast.arguments) -> str:
    """A parameter list as it reads in source, `/` and `*` markers included."""
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    parts = [_param(a, d) for a, d in zip(positional, defaults, strict=True)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    if args.vararg is not None:
        parts.append(_param(args.vararg, None, "*"))
    elif args.kwonlyargs:
        parts.append("*")
    parts += [_param(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg is not None:
        parts.append(_param(args.kwarg, None, "**"))
    return ", ".join(parts)


def _type_params(node: DefNode) -> str:
    params = getattr(node, "type_params", None)  # PEP 695, Python 3.12+
    return f"[{', '.join(ast.unparse(p) for p in params)}]" if params else ""


def function_signature(node: FuncNode) -> str:
    """`async def name(args) -> ret`, annotations and defaults as written."""
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    sig = f"{prefix} {node.name}{_type_params(node)}({format_arguments(node.args)})"
    return f"{sig} -> {ast.unparse(node.returns)}" if node.returns is not None else sig


def return_type(node: FuncNode) -> str | None:
    return ast.unparse(node.returns) if node.returns is not None else None


def class_bases(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(b) for b in node.bases]


def class_signature(node: ast.ClassDef) -> str:
    """`class Name(Base, metaclass=Meta)`."""
    parts = class_bases(node) + [ast.unparse(k) for k in node.keywords]
    inner = f"({', '.join(parts)})" if parts else ""
    return f"class {node.name}{_type_params(node)}{inner}"


def self_parameter(node: FuncNode) -> str | None:
    """Name of the implicit first parameter of a method (None for a staticmethod)."""
    if any(decorator_name(d).endswith("staticmethod") for d in node.decorator_list):
        return None
    positional = [*node.args.posonlyargs, *node.args.args]
    return positional[0].arg if positional else None


def is_abstract_function(node: FuncNode) -> bool:
    return any(
        decorator_name(d).split(".")[-1] in _ABSTRACT_DECORATORS for d in node.decorator_list
    )


def is_property(node: FuncNode) -> bool:
    names = [decorator_name(d) for d in node.decorator_list]
    return any(
        n.split(".")[-1] in ("property", "cached_property")
        or n.endswith((".setter", ".getter", ".deleter"))
        for n in names
    )


def is_dataclass(node: ast.ClassDef, imports: ImportTable) -> bool:
    for d in node.decorator_list:
        chain = decorator_name(d)
        resolved = imports.qualify(chain)
        if chain.split(".")[-1] == "dataclass" or resolved in _DATACLASS_TARGETS:
            return True
    return False


def is_abstract_class(node: ast.ClassDef) -> bool:
    if any(ast.unparse(b) in _ABC_BASES for b in node.bases):
        return True
    if any(
        k.arg == "metaclass" and ast.unparse(k.value).endswith("ABCMeta") for k in node.keywords
    ):
        return True
    return any(
        isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and is_abstract_function(s)
        for s in scope_statements(node.body)
    )


def header_end_line(node: FuncNode) -> int:
    """Last line of a def's signature (an estimate: the closing `):` may follow it)."""
    ends = [node.lineno]
    args = node.args
    for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if a is not None:
            ends.append(a.end_lineno or a.lineno)
    for d in [*args.defaults, *args.kw_defaults]:
        if d is not None:
            ends.append(d.end_lineno or d.lineno)
    if node.returns is not None:
        ends.append(node.returns.end_lineno or node.returns.lineno)
    return max(ends)


def body_line_count(node: FuncNode, lines: list[str]) -> int:
    """Lines after the signature, docstring and comments included."""
    end = header_end_line(node)
    first_body = node.body[0].lineno
    # A multi-line signature closes with a `) -> T:` line of its own.
    while end + 1 < first_body and lines[end].lstrip().startswith(")"):
        end += 1
    return (node.end_lineno or node.lineno) - end


def class_fields(node: ast.ClassDef) -> Iterator[ast.AnnAssign | ast.Assign]:
    """Class-level attribute statements, in order."""
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign | ast.Assign):
            yield stmt


@dataclass(frozen=True)
class DocumentedAttribute:
    """`name = value` or `name: T` directly followed by a string literal: the attribute
    docstring Sphinx's autodoc reads (`#:` comments are not kept by `ast`)."""

    names: tuple[str, ...]  # each plain name it binds (`a = b = 1`: both)
    statement: ast.Assign | ast.AnnAssign
    literal: ast.Expr  # the string statement after it
    doc: str  # the string, cleaned as `inspect.cleandoc` cleans a docstring


def documented_attributes(body: list[ast.stmt]) -> Iterator[DocumentedAttribute]:
    """The documented attributes of one body (a module's or a class's), in order."""
    for stmt, following in itertools.pairwise(body):
        if not isinstance(stmt, ast.Assign | ast.AnnAssign):
            continue
        if not (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names = tuple(t.id for t in targets if isinstance(t, ast.Name))
        if names:
            yield DocumentedAttribute(
                names, stmt, following, inspect.cleandoc(following.value.value)
            )


def dataclass_init_signature(node: ast.ClassDef) -> str | None:
    """The generated constructor of a dataclass-like class, from its annotated fields."""
    params = []
    for stmt in class_fields(node):
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        ann = ast.unparse(stmt.annotation)
        if ann.split("[", 1)[0].split(".")[-1] == "ClassVar":
            continue  # class attributes are not constructor parameters
        param = f"{stmt.target.id}: {ann}"
        if stmt.value is not None:
            param += f" = {_short(ast.unparse(stmt.value))}"
        params.append(param)
    return f"{node.name}({', '.join(params)})" if params else None


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def field_text(stmt: ast.AnnAssign | ast.Assign) -> str:
    """`name: T = value` for the class index, long values elided."""
    if isinstance(stmt, ast.AnnAssign):
        text = f"{ast.unparse(stmt.target)}: {ast.unparse(stmt.annotation)}"
    else:
        text = " = ".join(ast.unparse(t) for t in stmt.targets)
        return f"{text} = {_short(ast.unparse(stmt.value))}"
    return f"{text} = {_short(ast.unparse(stmt.value))}" if stmt.value is not None else text
