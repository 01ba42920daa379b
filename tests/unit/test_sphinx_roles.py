"""Sphinx roles read as Sphinx shows them, for docs pages and deprecation notes."""

from __future__ import annotations

from ctxhub.ingest.docs.rst_text import readable_inline
from ctxhub.ingest.sphinx_roles import readable_roles, role_reference


def test_a_relative_reference_shows_and_targets_the_name_without_its_dot() -> None:
    ref = role_reference(".EnvironmentContext.configure.include_symbol", "paramref")
    assert (ref.shown, ref.target, ref.titled) == (
        "EnvironmentContext.configure.include_symbol",
        "EnvironmentContext.configure.include_symbol",
        False,
    )
    assert role_reference("~.Operations.drop_constraint", "meth").shown == "drop_constraint"
    assert role_reference("~.Operations.drop_constraint", "meth").target == (
        "Operations.drop_constraint"
    )
    titled = role_reference("the hook <.Env.configure>", "meth")
    assert (titled.shown, titled.target, titled.titled) == ("the hook", "Env.configure", True)
    assert role_reference("!pkg.Name", "class").shown == "pkg.Name"
    assert role_reference("681", "pep").shown == "PEP 681"


def test_notes_read_roles_as_names_in_code_marks_and_titles_as_words() -> None:
    note = (
        "The long deprecated :paramref:`.EnvironmentContext.configure.include_symbol` hook"
        " is removed; see :meth:`~.Operations.drop_constraint`, :ref:`the guide <guide>`"
        " and :pep:`681`."
    )
    assert readable_roles(note) == (
        "The long deprecated `EnvironmentContext.configure.include_symbol` hook is removed;"
        " see `drop_constraint`, the guide and PEP 681."
    )


def test_rst_lines_read_relative_references_without_the_dot() -> None:
    line = "Use :meth:`.Env.run` or :func:`~.make`."
    assert readable_inline(line) == "Use Env.run or make."
    assert readable_inline(line, short=True) == "Use Env.run or make."
