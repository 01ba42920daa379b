#!/usr/bin/env bash
# Fetch the corpus that flask_dev.jsonl is verified against: the flask==3.1.3 sdist.
#
#   get_flask_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-flask; prints the
# corpus root as one "flask=path" line.
# ../fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/../fetch_sdist.sh" flask 3.1.3 \
  0ef0e52b8a9cd932855379197dd8f94047b359ca0a78695144304cb45f87c9eb "$@"
