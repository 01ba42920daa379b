"""The class a function's local holds where it is used: the type follows the bindings that
can reach the use, in the order the function runs them.

`locale = locales.get_locale(locale)` makes the later `locale.describe()` a call on what
`get_locale` returns, whatever the parameter's annotation said before. The walk goes
statement by statement: both arms of an `if` (and the cases of a `match`) start from
the state before it and meet after it; a loop's body is walked until the state at its
head settles (what one round binds reaches the next round's start); a `try`'s
handlers start from any state its body passed through; `return`, `raise`, `break` and
`continue` end a path (a `break`'s state reaches the loop's exit).

Where two paths meet, a name holds one class when every path that bound it agrees;
`None` says nothing (`s = None` then, on one path, `s = Screen()`), and a binding
whose class is unknown (a `for` target, `+=`, an unannotated factory) makes the name
unknown from there on. Names a comprehension binds are its own: a use inside it is
not the function's local.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from ctxhub.ingest.python.class_names import UNKNOWN

#: One path's state: local -> its class, UNKNOWN, or None (nothing stated yet).
State = dict[str, str | None]
#: What a value binds: (value, element index or None, tuple arity, the state) -> class.
ValueOf = Callable[[ast.expr, int | None, int, Mapping[str, str | None]], str | None]

#: Rounds a loop body is walked before what still changes counts as unknown.
_MAX_ROUNDS = 4
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_TRY = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


def merged(a: str | None, b: str | None) -> str | None:
    """What a name holds where two paths meet (see the module docstring)."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    return UNKNOWN


def _meet(states: Iterable[State | None]) -> State | None:
    """The state where the paths meet; None when no path gets there."""
    out: State | None = None
    for state in states:
        if state is None:
            continue
        if out is None:
            out = dict(state)
            continue
        for name in out.keys() | state.keys():
            out[name] = merged(out.get(name), state.get(name))
    return out


@dataclass
class LocalFlow:
    """One walk of a function's body (see the module docstring)."""

    #: the names the function binds (parameters included); others are not its locals
    local_names: frozenset[str]
    value_of: ValueOf
    #: local -> the class its annotation in the body declares: every assignment binds it
    declared: Mapping[str, str] = field(default_factory=dict)
    #: id(`name.attr` node) -> the class of `name` there, merged over every walk
    uses: dict[int, str | None] = field(default_factory=dict)
    use_names: dict[int, str] = field(default_factory=dict)
    #: locals some binding gives a class
    stated: set[str] = field(default_factory=set)
    _loops: list[tuple[list[State], list[State]]] = field(default_factory=list)
    _trying: list[list[State]] = field(default_factory=list)

    def run(self, body: list[ast.stmt], entry: State) -> None:
        for name, cls in entry.items():
            if cls:
                self.stated.add(name)
        self._block(body, entry)

    def class_at(self, node_id: int) -> str | None:
        """The class of the local a `name.attr` node reads: the class, UNKNOWN for a
        local some binding gives a class but not this one for sure; None when the name is
        no local or no binding of it ever states a class (then nothing is said)."""
        name = self.use_names.get(node_id)
        if name is None or name not in self.stated:
            return None
        return self.uses.get(node_id) or UNKNOWN

    # -- statements -------------------------------------------------------------------

    def _block(self, stmts: list[ast.stmt], state: State | None) -> State | None:
        for stmt in stmts:
            # code no path reaches (after a `return`) is still read, knowing nothing
            state = self._statement(stmt, dict(state) if state is not None else {})
            for states in self._trying:
                if state is not None:
                    states.append(state)
        return state

    def _statement(self, stmt: ast.stmt, state: State) -> State | None:
        if isinstance(stmt, ast.If):
            self._read(stmt.test, state)
            return _meet([self._block(stmt.body, state), self._block(stmt.orelse, state)])
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            return self._loop(stmt, state)
        if isinstance(stmt, _TRY):
            return self._try(stmt, state)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                self._read(item.context_expr, state)
                if item.optional_vars is not None:
                    self._read(item.optional_vars, state)
                    self._bind_all(item.optional_vars, state)
            return self._block(stmt.body, state)
        if isinstance(stmt, ast.Match):
            return self._match(stmt, state)
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self._bind(stmt.name, UNKNOWN, state)  # its parts are another scope's
            return state
        if isinstance(stmt, ast.AnnAssign):  # a local's annotation is never evaluated
            self._read(stmt.target, state)
            if stmt.value is not None:
                self._read(stmt.value, state)
        else:
            self._read(stmt, state)
        if isinstance(stmt, ast.Return | ast.Raise):
            return None
        if isinstance(stmt, ast.Break | ast.Continue):
            if self._loops:
                breaks, continues = self._loops[-1]
                (breaks if isinstance(stmt, ast.Break) else continues).append(state)
            return None
        self._binds(stmt, state)
        return state

    def _binds(self, stmt: ast.stmt, state: State) -> None:
        """Bind what a simple statement binds, after its values were read."""
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._assign(target, stmt.value, state)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._assign(stmt.target, stmt.value, state)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                self._bind((alias.asname or alias.name).split(".", 1)[0], UNKNOWN, state)
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    self._bind(target.id, None, state)
        elif isinstance(stmt, ast.AugAssign):  # `+=`: unknown from here on
            self._bind_all(stmt.target, state)

    def _assign(self, target: ast.expr, value: ast.expr, state: State) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, self._value(target.id, value, None, 1, state), state)
            return
        elts = target.elts if isinstance(target, ast.Tuple | ast.List) else []
        names = [e for e in elts if isinstance(e, ast.Name)]
        if elts and len(names) == len(elts):
            found = [self._value(e.id, value, i, len(names), state) for i, e in enumerate(names)]
            for elt, cls in zip(names, found, strict=True):
                self._bind(elt.id, cls, state)
            return
        self._bind_all(target, state)

    def _value(
        self, name: str, value: ast.expr, index: int | None, arity: int, state: State
    ) -> str | None:
        return self.declared.get(name) or self.value_of(value, index, arity, state)

    def _loop(self, stmt: ast.For | ast.AsyncFor | ast.While, state: State) -> State | None:
        if not isinstance(stmt, ast.While):
            self._read(stmt.iter, state)
        entry: State = state
        for round_ in range(_MAX_ROUNDS):
            if round_ == _MAX_ROUNDS - 1:
                # still changing: what the loop binds is unknown at its head, which settles
                entry = {**entry, **{n: UNKNOWN for n in _stored(stmt) & self.local_names}}
            head = dict(entry)
            if isinstance(stmt, ast.While):
                self._read(stmt.test, head)
            else:
                self._read(stmt.target, head)
                self._bind_all(stmt.target, head)
            self._loops.append(([], []))
            end = self._block(stmt.body, head)
            breaks, continues = self._loops.pop()
            again = _meet([entry, end, *continues]) or entry
            if again == entry:
                break
            entry = again
        endless = isinstance(stmt, ast.While) and _always_true(stmt.test)
        left = None if endless else self._block(stmt.orelse, head)
        return _meet([left, *breaks])

    def _try(self, stmt: ast.Try, state: State) -> State | None:
        passed: list[State] = []
        self._trying.append(passed)
        done = self._block(stmt.body, state)
        self._trying.pop()
        raised = _meet([state, *passed]) or {}
        handled: list[State] = []
        self._trying.append(handled)  # a handler or `else` that raises reaches `finally`
        outcomes = [self._block(stmt.orelse, done) if done is not None else None]
        for handler in stmt.handlers:
            inside = dict(raised)
            if handler.type is not None:
                self._read(handler.type, inside)
            if handler.name:
                self._bind(handler.name, UNKNOWN, inside)
            outcomes.append(self._block(handler.body, inside))
        self._trying.pop()
        after = _meet(outcomes)
        if not stmt.finalbody:
            return after
        final = self._block(stmt.finalbody, _meet([after, raised, *handled]))
        return final if after is not None else None

    def _match(self, stmt: ast.Match, state: State) -> State | None:
        self._read(stmt.subject, state)
        outcomes: list[State | None] = [state]  # no case matched
        for case in stmt.cases:
            inside = dict(state)
            self._read(case.pattern, inside)
            for node in ast.walk(case.pattern):
                for name in _pattern_names(node):
                    self._bind(name, UNKNOWN, inside)
            if case.guard is not None:
                self._read(case.guard, inside)
            outcomes.append(self._block(case.body, inside))
        return _meet(outcomes)

    # -- expressions ------------------------------------------------------------------

    def _read(self, node: ast.AST, state: State) -> None:
        """Record the class each `local.attr` in `node` reads (blocks and nested scopes
        left out); a `:=` binds its name first (unknown: read before or after it)."""
        for part, _ in _own_parts(node, frozenset()):
            if isinstance(part, ast.NamedExpr) and isinstance(part.target, ast.Name):
                self._bind(part.target.id, UNKNOWN, state)
        for part, shadowed in _own_parts(node, frozenset()):
            if not (isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name)):
                continue
            name = part.value.id
            if name in self.local_names and name not in shadowed:
                key = id(part)
                found = state.get(name)
                self.uses[key] = merged(self.uses[key], found) if key in self.uses else found
                self.use_names[key] = name

    def _bind(self, name: str, cls: str | None, state: State) -> None:
        if name not in self.local_names:
            return
        state[name] = cls
        if cls:
            self.stated.add(name)

    def _bind_all(self, target: ast.AST, state: State) -> None:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self._bind(node.id, UNKNOWN, state)


def _own_parts(node: ast.AST, shadowed: frozenset[str]) -> Iterator[tuple[ast.AST, frozenset[str]]]:
    """`node` and its parts, without the blocks of a compound statement or a lambda's
    or nested def's insides; with each, the names a comprehension around it binds."""
    stack = [(node, shadowed)]
    while stack:
        part, names = stack.pop()
        yield part, names
        if isinstance(part, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(part, _COMPREHENSIONS):
            names = names | {
                n.id
                for gen in part.generators
                for n in ast.walk(gen.target)
                if isinstance(n, ast.Name)
            }
        for name, value in ast.iter_fields(part):
            if isinstance(part, ast.stmt) and name in _BLOCKS:
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    stack.append((child, names))


def _stored(node: ast.AST) -> set[str]:
    """The names stored anywhere in `node`."""
    return {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }


def _pattern_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _always_true(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)
