#!/usr/bin/env bash
# Fetch the corpus that click_dev.jsonl is verified against: the click==8.1.8 sdist.
#
#   get_click_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-click; prints the
# corpus root as one "click=path" line.
# fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/fetch_sdist.sh" click 8.1.8 \
  ed53c9d8990d83c2a27deae68e4ee337473f6330c040a31d4225c9574d16096a "$@"
