"""MyST roles and directives in Markdown docs become readable text, line for line."""

from __future__ import annotations

import pytest

from ctxhub.ingest.docs.chunks import parse_doc_file
from ctxhub.ingest.docs.include_directives import include_targets
from ctxhub.ingest.docs.myst import readable_myst, readable_roles, role_text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Call {func}`~structlog.BoundLoggerBase.bind` now.", "Call `bind` now."),
        ("See {doc}`contextvars`.", "See contextvars."),
        ("Read {ref}`the context <ctx-label>`.", "Read the context."),
        ("{class}`pkg.mod.Logger`, {py:meth}`!pkg.Log.info`", "`pkg.mod.Logger`, `pkg.Log.info`"),
        ("Per {pep}`8`.", "Per PEP 8."),
        ("A literal `{func}` and ``{x}`y``` stay.", "A literal `{func}` and ``{x}`y``` stay."),
        ("No roles {here} at all.", "No roles {here} at all."),
    ],
)  # fmt: skip
def test_roles_show_what_sphinx_shows(line: str, expected: str) -> None:
    assert readable_roles(line) == expected


PAGE = """\
# Binding

(binding-label)=
## Context

:::{attention}
Be careful with {any}`bind`.
:::

```{note} Short one
Body of the note.
```

::::{admonition} Custom title
:class: tip

Text inside.
::::

```{image} _static/console.png
:alt: A console screenshot
:width: 80%
```

```{figure} _static/flow.png
The flow of an event.
```

```{code-block} python
:emphasize-lines: 2

import structlog
log = structlog.get_logger()
```

```python
x = "{func}`not a role`"
```

```{python}
print("a Quarto cell stays code")
```

```{deprecated} 23.1.0
Use {func}`other` instead.
```

:::{versionchanged} 21.2.0 Return a {any}`bytearray`.
:::

```{testsetup}
import structlog
```

```{doctest}
>>> structlog.get_logger()
```

```{toctree}
:maxdepth: 2

getting-started
```

```{literalinclude} ../examples/app.py
:lines: 1-3
```
"""


def test_directives_become_readable_and_lines_are_kept() -> None:
    out = readable_myst(PAGE)
    lines = out.split("\n")
    assert len(lines) == len(PAGE.split("\n"))  # every line still maps to its original
    assert "(binding-label)=" not in out
    kept = {'x = "{func}`not a role`"', "```{python}"}  # an ordinary fence, a Quarto cell
    assert not [line for line in lines if "{" in line and line not in kept]
    assert "Attention:" in lines and "Be careful with `bind`." in lines
    assert "Note: Short one" in lines and "Body of the note." in lines
    assert "Custom title" in lines and ":class: tip" not in out
    assert "A console screenshot" in lines and "_static/console.png" not in out
    assert "The flow of an event." in lines
    assert "```python" in lines and "import structlog" in lines
    assert ":emphasize-lines: 2" not in out
    assert 'x = "{func}`not a role`"' in lines  # an ordinary fence is untouched
    assert "```{python}" in lines  # a name MyST does not define: still a code block
    assert "Deprecated since version 23.1.0:" in lines and "Use `other` instead." in lines
    assert "Changed in version 21.2.0: Return a `bytearray`." in lines
    assert "import structlog" in lines and lines.count("import structlog") == 1  # set-up hidden
    assert "```pycon" in lines and ">>> structlog.get_logger()" in lines
    assert "getting-started" not in out
    assert ".. literalinclude:: ../examples/app.py" in lines and ":lines: 1-3" not in out


def test_markdown_pages_are_cleaned_and_code_blocks_stay_code() -> None:
    files = {"examples/app.py": "import structlog\nlog = structlog.get_logger()\n"}
    result = parse_doc_file("s", "docs/binding.md", PAGE, include=files.get)
    text = "\n".join(c.content for c in result.chunks)
    assert ":::{attention}" not in text and "{func}`" not in text.replace('"{func}`not', "")
    assert "Be careful with `bind`." in text
    assert result.chunks[0].metadata.extra["code_languages"][:1] == ["python"]
    assert result.chunks[0].metadata.extra["includes"] == ["examples/app.py"]
    assert include_targets(PAGE) == ["../examples/app.py"]  # the refresh plan sees it too


def test_a_relative_role_reads_without_its_leading_dot() -> None:
    assert role_text("meth", ".Env.configure") == "`Env.configure`"
    assert role_text("meth", "~.Env.configure") == "`configure`"
    assert role_text("pep", "681") == "PEP 681"


def test_a_seealso_whose_argument_starts_with_its_label_says_it_once() -> None:
    page = "# T\n\n```{seealso} See also: the guide\n```\n\n```{seealso} the tutorial\n```\n"
    lines = readable_myst(page).split("\n")
    assert "See also: the guide" in lines and "See also: See also: the guide" not in lines
    assert "See also: the tutorial" in lines
