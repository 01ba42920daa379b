#!/usr/bin/env bash
# Fetch one sdist from PyPI as an eval corpus; what every get_<name>_corpus.sh runs.
#
#   fetch_sdist.sh NAME VERSION SHA256 [--force] [TARGET_DIR]
#
# TARGET_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-NAME. The script
#   - pip-downloads the source distribution (no deps, sdist only) of NAME==VERSION and
#     checks its sha256,
#   - unpacks it to TARGET/NAME (the versioned top folder, e.g. NAME-VERSION/, stripped),
#   - prints the corpus root on stdout as one "repo=path" line (NAME=TARGET/NAME).
# It is idempotent: the downloaded archive is reused, a root whose files all match the
# archive is left alone (one with missing or truncated files is re-extracted).
# --force re-extracts the sdist.
# Environment: PYTHON (default python3) picks the interpreter whose pip is used.
set -euo pipefail

[[ $# -ge 3 ]] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
NAME="$1"; VERSION="$2"; SHA256="$3"; shift 3

FORCE=0
TARGET=""
for arg in "$@"; do
  case "$arg" in
    -f|--force) FORCE=1 ;;
    -*) echo "unknown option: $arg" >&2; exit 2 ;;
    *) if [[ -n "$TARGET" ]]; then echo "only one TARGET_DIR allowed" >&2; exit 2; fi; TARGET="$arg" ;;
  esac
done

TARGET="${TARGET:-${XDG_CACHE_HOME:-$HOME/.cache}/ctxhub-eval-$NAME}"
PY="${PYTHON:-python3}"

log() { echo "[get_${NAME}_corpus] $*" >&2; }
die() { echo "[get_${NAME}_corpus] error: $*" >&2; exit 1; }

command -v "$PY" >/dev/null 2>&1 || die "python interpreter '$PY' not found (set PYTHON=...)"
"$PY" -m pip --version >/dev/null 2>&1 || die "'$PY -m pip' is not available"
command -v tar >/dev/null 2>&1 || die "tar not found"

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

fetch_sdist "$NAME" "$VERSION" "$SHA256" "$NAME"

echo "$NAME=$TARGET/$NAME"
