"""Every tool with a `cli` spec as a click command, generated from its arguments model:
the same names (`--max-tokens` for `max_tokens`), bounds, defaults and help as over MCP,
the same validation and error wording, the same text (or, with `--json`, exactly the
structured content an MCP client receives)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

import click
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from ctxhub.cli.context import Context
from ctxhub.core.errors import InputError
from ctxhub.tools.spec import CliSpec, ToolSpec

if TYPE_CHECKING:
    from ctxhub.session import HubSession
from ctxhub.tools.specs import TOOLS


def _option_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(the value type, whether the option repeats): `str | None` -> (str, False),
    `list[str] | None` and `str | list[str] | None` -> (str, True)."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        arms = [a for a in get_args(annotation) if a is not type(None)]
        lists = [a for a in arms if get_origin(a) is list]
        if lists:
            return _unwrap(lists[0])
        return _unwrap(arms[0]) if len(arms) == 1 else (str, False)
    if origin is list:
        inner, _ = _unwrap(get_args(annotation)[0])
        return inner, True
    if get_origin(annotation) is not None and hasattr(annotation, "__metadata__"):
        return _unwrap(get_args(annotation)[0])
    return annotation, False


def _bounds(info: FieldInfo) -> tuple[Any, Any]:
    low = high = None
    for item in info.metadata:
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high


def _click_type(value_type: Any, info: FieldInfo) -> Any:
    if get_origin(value_type) is Literal:
        return click.Choice([str(v) for v in get_args(value_type)])
    low, high = _bounds(info)
    if value_type is int:
        return click.IntRange(low, high)
    if value_type is float:
        return click.FloatRange(low, high)
    return click.STRING


def _help(info: FieldInfo, cli: CliSpec, name: str) -> str:
    text = info.description or ""
    if name in cli.files:
        text += " ('-' reads stdin, '@FILE' a file)"
    return text


def _params(spec: ToolSpec, cli: CliSpec) -> list[click.Parameter]:
    params: list[click.Parameter] = []
    fields = spec.args.model_fields
    for name in cli.positional:
        info = fields[name]
        if name in cli.words:
            kind: Any = click.Choice(list(cli.words[name]))
        else:
            kind = _click_type(_unwrap(info.annotation)[0], info)
        params.append(click.Argument([name], type=kind, required=info.is_required()))
    for name, info in fields.items():
        if name in cli.positional or name in cli.fixed:
            continue
        value_type, multiple = _unwrap(info.annotation)
        decls = [_option_name(name), *cli.aliases.get(name, ())]
        default = None if info.is_required() else info.default
        if value_type is bool:
            off = [a for a in cli.aliases.get(name, ())] or [f"--no-{name.replace('_', '-')}"]
            params.append(
                click.Option(
                    [f"{_option_name(name)}/{off[0]}", name],
                    default=default,
                    help=_help(info, cli, name),
                    show_default=default is not None,
                )
            )
            continue
        params.append(
            click.Option(
                [*decls, name],
                type=_click_type(value_type, info),
                multiple=multiple,
                default=None if multiple else default,
                required=info.is_required(),
                show_default=default not in (None, "", []),
                help=_help(info, cli, name) + (" (repeatable)" if multiple else ""),
            )
        )
    for name, flags in cli.flags.items():
        for flag, value in flags.items():
            params.append(
                click.Option(
                    [flag, f"{name}__{flag.lstrip('-')}"],
                    is_flag=True,
                    help=f"Same as {_option_name(name)} {value}.",
                )
            )
    params.append(
        click.Option(["--json", "as_json"], is_flag=True, help="Print the tool's JSON output.")
    )
    return params


def _read_text(value: str, option: str) -> str:
    """`-` reads the text from stdin (a pasted stack trace), `@FILE` from a file."""
    if value == "-":
        return sys.stdin.read()
    if value.startswith("@") and len(value) > 1:
        try:
            return Path(value[1:]).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise click.BadParameter(
                f"cannot read {value[1:]}: {exc.strerror or exc}", param_hint=option
            ) from None
    return value


def _arguments(spec: ToolSpec, cli: CliSpec, values: dict[str, Any]) -> dict[str, Any]:
    """What the command line gave, as the tool's arguments (unset ones left out)."""
    args: dict[str, Any] = {}
    for name, flags in cli.flags.items():
        for flag, value in flags.items():
            if values.pop(f"{name}__{flag.lstrip('-')}", False):
                args[name] = value
    for name, value in values.items():
        if value is None or value == ():
            continue
        if name in cli.words:
            value = cli.words[name][value]
        elif isinstance(value, tuple):
            value = list(value)
        elif name in cli.files and isinstance(value, str):
            value = _read_text(value, _option_name(name))
        args.setdefault(name, value)
    args.update(cli.fixed)
    return args


def _run(spec: ToolSpec, cli: CliSpec, values: dict[str, Any]) -> None:
    from ctxhub.session import HubSession
    from ctxhub.tools.run import failure, parse_args

    as_json = values.pop("as_json", False)
    ctx = click.get_current_context().find_object(Context)
    assert ctx is not None
    given = _arguments(spec, cli, values)  # an unreadable @FILE is click's usage error
    try:
        args = parse_args(spec, given)
    except InputError as exc:
        raise click.UsageError(failure(spec, exc) or str(exc)) from None
    with HubSession(ctx.settings) as hub:
        if spec.reads_memory:
            from ctxhub.tools.memory_tools import store_pending

            store_pending(hub)
        print_answer(spec, hub, args, as_json)


def print_answer(spec: ToolSpec, hub: HubSession, args: BaseModel, as_json: bool) -> None:
    """Run the tool and print its text (or, with --json, its structured content); an
    expected failure is one line on stderr and exit 1 (2 for bad arguments)."""
    from ctxhub.tools.run import answer, failure

    try:
        result = answer(spec, hub, args)
    except Exception as exc:
        message = failure(spec, exc)
        if message is None:
            raise  # a bug: the traceback is the report
        click.echo(f"error: {message}", err=True)
        sys.exit(int(getattr(exc, "exit_code", 1)))
    if as_json:
        sys.stdout.write(json.dumps(result.data, indent=2) + "\n")
    else:
        click.echo(result.text)
    if (
        spec.cli is not None
        and spec.cli.not_found is not None
        and spec.cli.not_found(result.output)
    ):
        sys.exit(1)  # the answer is printed; the shell still learns the name is missing


def command(spec: ToolSpec) -> click.Command:
    cli = spec.cli
    assert cli is not None
    first = spec.description.split(". ")[0].replace("\n", " ").rstrip(".")

    def callback(**values: Any) -> None:
        _run(spec, cli, values)

    return click.Command(
        cli.name,
        callback=callback,
        params=_params(spec, cli),
        help=f"{spec.description}\n\n(The MCP tool `{spec.name}`.)",
        short_help=first if len(first) <= 80 else first[:77] + "...",
    )


COMMANDS = [command(spec) for spec in TOOLS if spec.cli is not None]
