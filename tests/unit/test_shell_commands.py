"""The reading of shell commands that the live hook and session mining share
(`shell_commands`): what a command runs, re-runs of the same target, read-only commands,
installs, and the command as a record shows it."""

from __future__ import annotations

import pytest

from ctxhub.memory.capture.shell_commands import (
    command_signature,
    failure_worth_keeping,
    is_install,
    only_inspects,
    shown_command,
    similar_commands,
)

# ---------------------------------------------------------------- commands


@pytest.mark.parametrize(
    ("command", "program", "action", "args"),
    [
        ("pytest tests/test_a.py -x", "pytest", "", {"tests/test_a.py"}),
        ("python -m pytest -q 2>&1 | tail -20", "pytest", "", set()),
        ("cd /work/app && source .venv/bin/activate && CI=1 uv run pytest", "pytest", "", set()),
        (
            "cd app && FOO=1 uv run python -m pytest tests/test_x.py::test_y -q 2>&1 | tail",
            "pytest",
            "",
            {"tests/test_x.py"},
        ),
        ("py.test -q", "pytest", "", set()),
        ("timeout 120 .venv/bin/python scripts/x.py > out.log", "python", "scripts/x.py", set()),
        ("timeout -s KILL 60 cargo test", "cargo", "test", set()),
        ("npm test", "npm", "test", set()),
        ("npm run test -- --watch=false", "npm", "test", set()),
        ("npx tsc --noEmit", "tsc", "", set()),
        ("pnpm exec jest a.test.ts", "jest", "", {"a.test.ts"}),
        ("cargo build --release", "cargo", "build", set()),
        ("node src/index.js", "node", "src/index.js", set()),
        ("ls -la; make 2>&1", "make", "", set()),  # looking first, then the real run
        ("cat data.csv | python load.py", "python", "load.py", set()),
        ("mkdir -p build && cd build && cmake ..", "cmake", "..", set()),
        ("uv run --with pyyaml python app.py", "python", "app.py", set()),
        ("conda run -n env python app.py", "python", "app.py", set()),
        ("sudo -E pip3 install requests", "pip", "install", {"requests"}),
        ("nice -n 10 make test", "make", "test", set()),
        ('python -c "import a; print(1)"', "python", "import a; print(1)", set()),  # quotes hold
        ("rm -rf build", "rm", "build", set()),  # quiet, but it does something
        ('grep -rn "datetime.now()" src/', "", "", set()),
        ("echo done", "", "", set()),
    ],
)
def test_command_signature(command: str, program: str, action: str, args: set[str]) -> None:
    assert command_signature(command) == (program, action, frozenset(args))


def test_a_heredoc_is_one_command_and_its_body_tells_scripts_apart() -> None:
    script = "python - <<'EOF'\nimport yaml\nrm -rf /\nEOF"
    assert command_signature(script).program == "python"  # the body is not commands
    assert similar_commands(script, script.replace("\n", "\n\n"))
    assert not similar_commands(script, "python - <<'EOF'\nimport json\nEOF")


@pytest.mark.parametrize(
    ("a", "b", "similar"),
    [
        ("pytest tests/test_a.py", "pytest tests/test_a.py::test_x -q", True),
        ("pytest tests/test_a.py", "pytest", True),  # a wider run
        ("pytest tests/test_calc.py -x", "python -m pytest", True),
        ("cd app && uv run python -m pytest -x", "pytest 2>&1 | tail -20", True),
        ("FOO=1 npm test", "npm test", True),
        ("npm test", "npm run test -- --watch=false", True),
        ("npx jest src/a.test.ts", "jest src/a.test.ts --watch=false", True),
        ("timeout 60 cargo test", "cargo test", True),
        ("cargo test parser", "cargo test", True),
        ("python x.py --n 3", "python x.py", True),
        ("go test ./...", "go test ./pkg/store", True),  # Go's pattern covers the package
        ("go test ./pkg/...", "go test pkg/store/sqlite", True),
        ("pytest tests", "pytest tests/unit/test_a.py", True),  # a file in the folder
        ("go test ./pkg/...", "go test ./cmd/server", False),
        ("pytest tests/unit", "pytest tests/integration/test_a.py", False),
        ("pytest tests/unit", "pytest tests/unit_extra/test_a.py", False),  # not a subfolder
        ("pytest tests/test_a.py", "pytest tests/test_b.py", False),  # another target
        ("pytest -k fast", "pytest -k slow", False),
        ("npm test", "npm run build", False),
        ("python a.py", "python b.py", False),
        ("pytest", "mypy src", False),
        ("cargo build", "cargo test", False),
        ("make test", "make", False),  # another target, not a wider one
        ('python -c "import a"', 'python -c "import b"', False),
        ("grep foo src", "grep bar src", False),
    ],
)
def test_similar_commands(a: str, b: str, similar: bool) -> None:
    assert similar_commands(a, b) is similar
    assert similar_commands(b, a) is similar


@pytest.mark.parametrize(
    ("command", "inspects"),
    [
        ("grep -rn TODO src", True),
        ("cat src/app.py | head -50", True),
        ("cd src && ls -la", True),
        ("git diff", True),
        ("git -C repo log --oneline", True),
        ("sed -n 1,20p app.py", True),
        ("find . -name '*.py'", True),
        ("echo 'a > b'", True),  # a quoted `>` redirects nothing
        ("echo hi 2>/dev/null", True),
        ("pytest", False),
        ("git commit -m fix", False),
        ("sed -i 's/a/b/' app.py", False),  # edits a file
        ("find . -name '*.pyc' -delete", False),
        ("echo API_URL=x >> .env", False),  # writes a file
        ("cat > src/x.py <<'EOF'\nprint(1)\nEOF", False),
        ("rm -rf .pytest_cache", False),
    ],
)
def test_only_inspects(command: str, inspects: bool) -> None:
    assert only_inspects(command) is inspects


def test_failures_worth_keeping() -> None:
    assert failure_worth_keeping("cd app && pytest -x")
    assert failure_worth_keeping("mkdir -p out && python build.py")  # the build failed
    for quiet in ("rm build/a.o", "mkdir src", "curl -f localhost:8000", "grep x y", "cd z"):
        assert not failure_worth_keeping(quiet), quiet


@pytest.mark.parametrize(
    "command",
    [
        "pip install pyyaml",
        ".venv/bin/python -m pip install -r requirements.txt",
        "uv add httpx",
        "uv sync",
        "poetry install",
        "npm i node-fetch@2",
        "cargo add serde",
        "go get github.com/x/y",
        "sudo apt-get install -y libpq-dev",
    ],
)
def test_installs(command: str) -> None:
    assert is_install(command)


def test_not_installs() -> None:
    assert not is_install("pip list")
    assert not is_install("npm test")
    assert not is_install("python install_helpers.py")


def test_shown_command_is_one_line_without_the_session_cd() -> None:
    assert shown_command("cd /work/app && pytest\n  -x", "/work/app") == "pytest -x"
    assert shown_command("cd /elsewhere && pytest", "/work/app") == "cd /elsewhere && pytest"
    long = shown_command("echo " + "x" * 1000, None)
    assert len(long) == 300 and long.endswith("...")
