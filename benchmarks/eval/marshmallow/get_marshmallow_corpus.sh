#!/usr/bin/env bash
# Fetch the corpus that marshmallow_dev.jsonl is verified against: the marshmallow==4.4.0 sdist.
#
#   get_marshmallow_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-marshmallow; prints the
# corpus root as one "marshmallow=path" line.
# ../fetch_sdist.sh does the work (sha256-checked download, idempotent unpack;
# --force re-extracts); see its header.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
exec bash "$(dirname "${BASH_SOURCE[0]}")/../fetch_sdist.sh" marshmallow 4.4.0 \
  9e6ffa8511012ca89732324c1c253efd7b4d35632dcbdf80aa793fe01804af3e "$@"
