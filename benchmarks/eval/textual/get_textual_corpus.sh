#!/usr/bin/env bash
# Fetch the corpus that textual_dev.jsonl is verified against: the textual==8.2.8 sdist.
#
#   get_textual_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-textual; prints the
# corpus root as one "textual=path" line.
# ../fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/../fetch_sdist.sh" textual 8.2.8 \
  3f106a9fbc73e39dd266c9712432087de78a6d644084c7c241d6a25c3169115b "$@"
