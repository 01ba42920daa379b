"""The `ctxhub` console script.

`ctxhub hook <event>` runs after every tool call an agent makes, so it skips click, the
settings and the command modules (hundreds of milliseconds of imports) and goes straight
to the stdlib-only hook handler. Everything else is the click CLI in `ctxhub.cli.main`.
"""

from __future__ import annotations

import os
import sys

#: The hook events the fast path handles (`ctxhub hook post-tool-use`).
HOOK_EVENTS = frozenset({"post-tool-use", "post-tool-use-failure"})


def is_hook_call(argv: list[str]) -> bool:
    """`hook <event>` with nothing else that click should see (`--help`)."""
    return (
        len(argv) >= 2
        and argv[0] == "hook"
        and argv[1] in HOOK_EVENTS
        and not any(a in ("-h", "--help") for a in argv[2:])
    )


def main() -> None:
    from ctxhub import parent

    parent.remember()  # before any slow import: `serve` watches this pid
    argv = sys.argv[1:]
    if is_hook_call(argv):
        try:
            from ctxhub.memory.capture.hooks import run

            run(argv[1:], sys.stdin, os.environ)
        except BaseException:  # the hook never fails the agent
            pass
        sys.exit(0)
    try:
        from ctxhub.cli.main import main as cli_main

        cli_main()
    except KeyboardInterrupt:  # Ctrl-C while still importing: one line, not a traceback
        sys.stderr.write("ctxhub: interrupted\n")
        sys.exit(130)
