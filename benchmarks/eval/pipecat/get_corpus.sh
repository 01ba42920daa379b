#!/usr/bin/env bash
# Fetch the corpus that pipecat_dev.jsonl is verified against.
#
#   get_corpus.sh [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/contexthub-eval. The script
#   - pip-downloads the source distributions (no deps, sdist only) of
#     pipecat-ai==1.8.0 and pipecat-ai-flows==1.4.0, checks their sha256,
#   - unpacks them to TARGET/pipecat-ai and TARGET/pipecat-ai-flows
#     (the versioned top folder, e.g. pipecat_ai-1.8.0/, is stripped),
#   - copies corpus/pipecat-docs (beside this script) to TARGET/docs,
#   - prints the three corpus roots on stdout, one "repo=path" per line.
# It is idempotent: downloaded archives are reused, a root whose files all match its
# archive is left alone (one with missing or truncated files is re-extracted), and
# TARGET/docs is replaced unless it already equals the shipped copy.
# --force re-extracts both sdists.
# Environment: PYTHON (default python3) picks the interpreter whose pip is used.
set -euo pipefail

PIPECAT_VERSION="1.8.0"
PIPECAT_SHA256="abbb2aa9ce533bef57bc5635fda6c0abc8dc186cdfe8faacd6b740889100c169"
FLOWS_VERSION="1.4.0"
FLOWS_SHA256="3cdcecf66606bc8ed7e1cfeb3eec2e13e7a40af894a9c8c7717d8f713955f608"

FORCE=0
TARGET=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -f|--force) FORCE=1 ;;
    -*) echo "unknown option: $arg" >&2; exit 2 ;;
    *) if [[ -n "$TARGET" ]]; then echo "only one TARGET_DIR allowed" >&2; exit 2; fi; TARGET="$arg" ;;
  esac
done

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DOCS_SRC="$SCRIPT_DIR/corpus/pipecat-docs"
TARGET="${TARGET:-${XDG_CACHE_HOME:-$HOME/.cache}/contexthub-eval}"
PY="${PYTHON:-python3}"

log() { echo "[get_corpus] $*" >&2; }
die() { echo "[get_corpus] error: $*" >&2; exit 1; }

command -v "$PY" >/dev/null 2>&1 || die "python interpreter '$PY' not found (set PYTHON=...)"
"$PY" -m pip --version >/dev/null 2>&1 || die "'$PY -m pip' is not available"
command -v tar >/dev/null 2>&1 || die "tar not found"
[[ -f "$DOCS_SRC/docs.json" ]] || die "docs data not found at $DOCS_SRC (expected docs.json there)"
DOCS_SRC="$(cd "$DOCS_SRC" && pwd)"

mkdir -p "$TARGET"
TARGET="$(cd "$TARGET" && pwd)"
DL="$TARGET/.downloads"
STATE="$TARGET/.state"
mkdir -p "$DL" "$STATE"
trap 'rm -rf "$TARGET"/.stage.?????? 2>/dev/null || true' EXIT

sha256_of() {
  "$PY" -c 'import hashlib,sys
h=hashlib.sha256()
with open(sys.argv[1],"rb") as f:
    for b in iter(lambda: f.read(1<<20), b""): h.update(b)
print(h.hexdigest())' "$1"
}

# find_sdist NAME VERSION -> path of a downloaded sdist archive in $DL, or nothing
find_sdist() {
  local norm="${1//-/_}" f
  for f in "$DL/$norm-$2.tar.gz" "$DL/$1-$2.tar.gz"; do
    [[ -f "$f" ]] && { echo "$f"; return 0; }
  done
  return 0
}

# tree_matches ARCHIVE ROOT: every regular file of the archive (top folder stripped)
# exists under ROOT with the same size.
tree_matches() {
  "$PY" - "$1" "$2" <<'PYEOF'
import os, sys, tarfile
archive, root = sys.argv[1], sys.argv[2]
with tarfile.open(archive, "r:gz") as t:
    for m in t:
        if not m.isfile():
            continue
        rel = m.name.split("/", 1)[1] if "/" in m.name else ""
        p = os.path.join(root, rel)
        if not rel or not os.path.isfile(p) or os.path.getsize(p) != m.size:
            sys.exit(1)
PYEOF
}

# fetch_sdist NAME VERSION SHA256 DEST  (DEST = folder name under $TARGET)
fetch_sdist() {
  local name="$1" version="$2" sha="$3" dest="$4"
  local root="$TARGET/$dest" stamp="$STATE/$dest"
  local want="$name==$version sha256:$sha"

  local archive
  archive="$(find_sdist "$name" "$version")"
  if [[ -n "$archive" && "$(sha256_of "$archive")" != "$sha" ]]; then
    log "$dest: cached archive has a different sha256, downloading again"
    rm -f "$archive"; archive=""
  fi
  if [[ "$FORCE" -eq 0 && -n "$archive" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]] \
     && tree_matches "$archive" "$root"; then
    log "$dest: $name $version already in place"
    return 0
  fi
  if [[ -z "$archive" ]]; then
    log "$dest: downloading $name==$version (sdist, no deps)"
    "$PY" -m pip download --quiet --disable-pip-version-check \
      --no-deps --no-binary :all: --dest "$DL" "$name==$version" >&2 \
      || die "pip download of $name==$version failed"
    archive="$(find_sdist "$name" "$version")"
    [[ -n "$archive" ]] || die "pip did not leave an sdist for $name==$version in $DL"
  fi
  local got
  got="$(sha256_of "$archive")"
  [[ "$got" == "$sha" ]] || die "$archive: sha256 $got, expected $sha"

  local stage
  stage="$(mktemp -d "$TARGET/.stage.XXXXXX")"
  tar -xzf "$archive" -C "$stage" --no-same-owner
  local tops=("$stage"/*)
  [[ ${#tops[@]} -eq 1 && -d "${tops[0]}" ]] || { rm -rf "$stage"; die "unexpected layout in $archive"; }
  rm -rf "$root" "$stamp"
  mv "${tops[0]}" "$root"
  rm -rf "$stage"
  echo "$want" > "$stamp"
  log "$dest: unpacked $(basename "$archive") -> $root"
}

copy_docs() {
  local root="$TARGET/docs"
  if [[ -d "$root" ]] && command -v diff >/dev/null 2>&1 && diff -rq "$DOCS_SRC" "$root" >/dev/null 2>&1; then
    log "docs: already in place"
    return 0
  fi
  local stage
  stage="$(mktemp -d "$TARGET/.stage.XXXXXX")"
  chmod 755 "$stage"
  cp -R "$DOCS_SRC/." "$stage/"
  rm -rf "$root"
  mv "$stage" "$root"
  log "docs: copied $DOCS_SRC -> $root"
}

fetch_sdist pipecat-ai "$PIPECAT_VERSION" "$PIPECAT_SHA256" pipecat-ai
fetch_sdist pipecat-ai-flows "$FLOWS_VERSION" "$FLOWS_SHA256" pipecat-ai-flows
copy_docs

echo "pipecat-ai=$TARGET/pipecat-ai"
echo "pipecat-ai-flows=$TARGET/pipecat-ai-flows"
echo "docs=$TARGET/docs"
