#!/usr/bin/env bash
# Fetch the corpus that aiohttp_dev.jsonl is verified against: the aiohttp==3.14.5 sdist.
#
#   get_aiohttp_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-aiohttp; prints the
# corpus root as one "aiohttp=path" line.
# ../fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/../fetch_sdist.sh" aiohttp 3.14.5 \
  5558a7f5a05af9ecf744af91e5baefc436f93c9333e656c27ec253f9a6bbe178 "$@"
