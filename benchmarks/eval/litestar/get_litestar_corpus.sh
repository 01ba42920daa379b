#!/usr/bin/env bash
# Fetch the corpus that litestar_howto.jsonl is verified against: the litestar==2.25.0 sdist.
#
#   get_litestar_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-litestar; prints the
# corpus root as one "litestar=path" line.
# ../fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/../fetch_sdist.sh" litestar 2.25.0 \
  7fad91fcd89367fcd26534ab19b6b05763cc67ab9574baa914546089e1ed1fb4 "$@"
