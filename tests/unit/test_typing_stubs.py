"""A def under `if TYPE_CHECKING:` with a docstring-and-`...` body is labelled a typing
stub, with the definition a decorator call registers under its name (tools/typing_stubs.py)."""

from __future__ import annotations

from pathlib import Path

from ctxhub.tools import code_tools, render
from tests.unit.package_hub import package_hub

FILES = {
    "base.py": '''
        from typing import TYPE_CHECKING


        class Operations:
            """Migration operations."""

            @classmethod
            def register_operation(cls, name):
                """Register `name` as an operation."""
                def register(op):
                    setattr(cls, name, op)
                    return op
                return register

            if TYPE_CHECKING:

                def add_column(self, table_name, column):
                    """Issue an "add column" instruction."""
                    ...
        ''',
    "ops.py": '''
        from shop.base import Operations


        @Operations.register_operation("add_column")
        class AddColumnOp:
            """Represent an add column operation."""

            @classmethod
            def add_column(cls, operations, table_name, column):
                """Issue an "add column" instruction."""
                op = cls(table_name, column)
                return operations.invoke(op)


        class DropColumnOp:
            def add_column(self):
                return None
        ''',
}


def test_a_typing_stub_is_labelled_and_linked_to_its_registered_code(tmp_path: Path) -> None:
    with package_hub(tmp_path, "shop", FILES) as hub:
        snippet = code_tools.get_code_snippet(hub, symbol="Operations.add_column")
        assert snippet.symbol == "shop.base.Operations.add_column"
        assert snippet.typing_stub
        assert [i.symbol for i in snippet.implementations] == ["shop.ops.AddColumnOp.add_column"]
        text = render.code_snippet(snippet)
        assert "a typing stub (under `if TYPE_CHECKING:`): this code never runs" in text
        runtime = code_tools.get_code_snippet(hub, symbol="AddColumnOp.add_column")
        assert not runtime.typing_stub and not runtime.implementations
