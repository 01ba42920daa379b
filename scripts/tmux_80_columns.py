"""Run ctxhub commands in a real terminal 80 columns wide (tmux) and print what the
screen shows, so a person can check that it reads cleanly (issue 17).

    python scripts/tmux_80_columns.py [--width 80] [COMMAND ...]

Each COMMAND is a ctxhub command line (default: sources, status, refresh, and a search);
they run against the current CTXHUB_HOME. Needs tmux (`apt-get install tmux`). Exits 1
when a captured line outside code is wider than the terminal (tmux joins the lines it
wrapped, -J) or a cell was cut with an ellipsis. Code is printed whole on purpose.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid

DEFAULT = ["sources", "status", "refresh", "search 'how do I add a source' --limit 3"]


def capture(command: str, width: int, ctxhub: str, timeout: float = 120.0) -> str:
    """The pane's text after `ctxhub COMMAND` ran to its end in a fresh tmux session."""
    session = f"ctxhub-{uuid.uuid4().hex[:8]}"
    done = f"__done_{session}__"
    # the tmux server may predate this shell: pass the settings on the command line
    env = " ".join(
        f"{k}={shlex.quote(v)}" for k, v in os.environ.items() if k.startswith("CTXHUB_")
    )
    shell = f"clear; {env} {shlex.quote(ctxhub)} {command}; echo {done}"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", str(width), "-y", "50"],
        check=True,
    )
    try:
        subprocess.run(["tmux", "send-keys", "-t", session, shell, "Enter"], check=True)
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = subprocess.run(
                ["tmux", "capture-pane", "-p", "-J", "-S", "-200", "-t", session],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            if any(line.strip() == done for line in text.splitlines()):
                break
            time.sleep(0.2)
        lines = text.splitlines()
        ends = [i for i, line in enumerate(lines) if line.strip() == done]
        if not ends:
            raise TimeoutError(f"`ctxhub {command}` did not finish in {timeout:.0f}s:\n{text}")
        # `clear` ran first: the screen holds the command's output, then the marker
        # (capture-pane -S reaches into the scrollback too: start after the last clear)
        start = max(
            (i + 1 for i, line in enumerate(lines) if done in line and i < ends[-1]), default=0
        )
        return "\n".join(lines[start : ends[-1]]).strip("\n")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


def problems(screen: str, width: int) -> list[str]:
    """Lines a person cannot read whole: wider than the terminal (code excepted: it is
    printed whole on purpose, the terminal wraps it) or cut with an ellipsis."""
    out = []
    in_code = False
    for line in screen.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if len(line) > width and not in_code:
            out.append(f"wider than {width}: {line}")
        if "…" in line:
            out.append(f"cut with an ellipsis: {line}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commands", nargs="*", default=DEFAULT)
    parser.add_argument("--width", type=int, default=80)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is not installed: apt-get install tmux")
    ctxhub = shutil.which("ctxhub") or sys.exit("ctxhub is not on PATH")
    failed = False
    for command in args.commands:
        screen = capture(command, args.width, ctxhub)
        print(f"$ ctxhub {command}\n{screen}\n")
        for p in problems(screen, args.width):
            print(f"!! {p}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
