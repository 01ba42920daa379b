"""The call-graph facts of every function in one file, with what the file says about the
classes its receivers hold: each class's attributes (`attributes.py`), each function's
locals and parameters (`local_types.py`) and the module-level instances its names read,
the module's own or imported (`module_instances.py`), read with what the package's other
modules state (`package_types.py`), when the caller knows it."""

from __future__ import annotations

import ast

from ctxhub.ingest.python.attributes import attribute_types
from ctxhub.ingest.python.callgraph import BodyFacts, ScopeContext, analyze_body
from ctxhub.ingest.python.class_names import ClassNames
from ctxhub.ingest.python.definitions import Definition, FuncNode, self_parameter
from ctxhub.ingest.python.local_types import FunctionScope, local_types
from ctxhub.ingest.python.package_types import PackageTypes
from ctxhub.ingest.python.returns import return_types


def function_facts(
    defs: list[Definition], ctx: ScopeContext, module: str, types: PackageTypes | None = None
) -> dict[int, BodyFacts]:
    """`id(definition)` -> its body's facts, for every function and method in `defs`.
    `types`: the module's own facts over the package's (`package_types.py`)."""
    classes = ClassNames(ctx.imports, ctx.module_names, module)
    funcs = [(d, d.node) for d in defs if not isinstance(d.node, ast.ClassDef)]
    module_returns = return_types(
        [n for d, n in funcs if not d.in_class and "." not in d.qualname], classes
    )
    methods: dict[str, list[FuncNode]] = {}
    for d, n in funcs:
        if d.in_class and d.parent_class is not None:
            methods.setdefault(d.parent_class, []).append(n)
    own_returns = {
        cls: return_types(nodes, classes, f"{module}.{cls}") for cls, nodes in methods.items()
    }
    attrs = {
        d.qualname: attribute_types(
            d.node,
            ctx,
            module,
            owner=f"{module}.{d.qualname}",
            own_returns=own_returns.get(d.qualname, {}),
            module_returns=module_returns,
            types=types,
        )
        for d in defs
        if isinstance(d.node, ast.ClassDef)
    }
    instances = _module_instances(ctx, module, types)
    facts: dict[int, BodyFacts] = {}
    for d, node in funcs:
        receiver = self_parameter(node) if d.in_class else None
        owner = d.parent_class if d.in_class else None
        scope = FunctionScope(
            classes,
            attrs.get(owner or "", {}),
            own_returns.get(owner or "", {}),
            module_returns,
            types,
            f"{module}.{owner}" if owner else None,
            instances,
        )
        found = local_types(node, receiver, scope)
        facts[id(d)] = analyze_body(
            node.body,
            ctx,
            [receiver] if receiver else [],
            own_name=d.name if d.in_class else None,
            attr_types=attrs.get(owner or "") if owner else None,
            receiver_types=found.receivers,
            local_methods=found.methods,
        )
    return facts


def _module_instances(ctx: ScopeContext, module: str, types: PackageTypes | None) -> dict[str, str]:
    """Module-level name -> the class of the instance it holds: the module's own
    instances, and those it imports from the package's other modules."""
    if types is None:
        return {}
    out: dict[str, str] = {}
    for name in ctx.module_names:
        if cls := types.instance(f"{module}.{name}"):
            out[name] = cls
    imports = ctx.imports
    for name, target in imports.bindings.items():
        if name in imports.modules or name in ctx.module_names:
            continue  # a module; or a name the module also binds itself (not known then)
        if cls := types.instance(target):
            out[name] = cls
    return out
