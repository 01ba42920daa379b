"""The files of an examples tree: which are indexed (and why not), their language, and how
to list and read them.

A `Reader` maps a relative path to its text, so the caller decides what is readable (a
directory through `fs_reader`, a git tree, an sdist).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path

#: Files longer than this (characters) are skipped: generated data, not examples.
MAX_FILE_CHARS = 200_000

Reader = Callable[[str], str]

JUNK_DIRS = frozenset(
    {
        "node_modules", "__pycache__", "venv", "site-packages", "dist", "build", "htmlcov",
        "coverage", "target", "bower_components",
    }
)  # fmt: skip
LOCK_NAMES = frozenset(
    {
        "uv.lock", "poetry.lock", "pipfile.lock", "package-lock.json", "yarn.lock",
        "pnpm-lock.yaml", "bun.lockb", "cargo.lock", "composer.lock", "gemfile.lock",
        "npm-shrinkwrap.json",
    }
)  # fmt: skip
BINARY_EXTS = frozenset(
    """png jpg jpeg gif bmp ico icns webp tiff psd svg wav mp3 ogg flac m4a aac opus mp4 mov
    avi webm mkv pdf zip gz tgz bz2 xz 7z tar rar jar whl egg so dll dylib exe bin o a pyc
    pyo class woff woff2 ttf otf eot onnx pt pth ckpt safetensors h5 pkl npy npz parquet db
    sqlite sqlite3 lockb map""".split()
)
TEXT_EXTS = frozenset(
    """py pyi ts tsx js jsx mjs cjs json yaml yml toml ini cfg conf sh bash zsh ps1 bat md
    mdx rst txt html css scss sql graphql proto go rs java kt swift rb php vue svelte xml
    env example sample template""".split()
)
TEXT_NAMES = frozenset(
    {"dockerfile", "makefile", "procfile", "justfile", "caddyfile", "gemfile", "containerfile"}
)
SCRIPT_EXTS = frozenset({"py", "ts", "tsx", "js", "mjs", "cjs"})
README_RE = re.compile(r"^readme(\.[a-z]+)?$", re.IGNORECASE)

LANGUAGES = {
    "py": "python", "pyi": "python", "ts": "typescript", "tsx": "typescript",
    "js": "javascript", "jsx": "javascript", "mjs": "javascript", "cjs": "javascript",
    "go": "go", "rs": "rust", "java": "java", "kt": "kotlin", "swift": "swift", "rb": "ruby",
    "php": "php", "sh": "shell", "bash": "shell", "zsh": "shell", "vue": "vue",
    "svelte": "svelte", "html": "html", "css": "css", "scss": "css", "sql": "sql",
    "md": "markdown", "mdx": "markdown", "rst": "rst", "yaml": "yaml", "yml": "yaml",
    "toml": "toml", "json": "json", "ini": "ini", "cfg": "ini", "txt": "text",
}  # fmt: skip
#: Languages that accompany an example's code rather than being it.
PROSE_OR_CONFIG = frozenset(
    "markdown rst yaml toml json ini text dockerfile dotenv shell html css sql".split()
)
ENV_EXAMPLE = re.compile(r"^\.?env\.(example|sample|template)$|^example\.env$", re.IGNORECASE)


def language_of(path: str) -> str | None:
    name = posixpath.basename(path).lower()
    if name.startswith(("dockerfile", "containerfile")):
        return "dockerfile"
    if ENV_EXAMPLE.match(name):
        return "dotenv"
    return LANGUAGES.get(ext_of(path))


def ext_of(path: str) -> str:
    name = posixpath.basename(path).lower()
    return name.rsplit(".", 1)[1] if "." in name.lstrip(".") else ""


def skip_reason(path: str) -> str | None:
    """Why a file is not indexed (junk folder, lock file, binary, secret), or None."""
    parts = path.split("/")
    for d in parts[:-1]:
        if d.startswith(".") or d in JUNK_DIRS or d.endswith(".egg-info"):
            return f"junk folder {d}"
    name = parts[-1].lower()
    if name in LOCK_NAMES or name.endswith(".lock"):
        return "lock file"
    if name.endswith((".min.js", ".min.css")):
        return "minified"
    if name == ".env" or (name.startswith(".env.") and ext_of(name) not in TEXT_EXTS):
        return "secrets"  # .env holds keys; .env.example is documentation
    if name.startswith(".") and not name.startswith(".env."):
        return "dotfile"
    if name.split(".")[0] in {"license", "licence", "copying", "notice"}:
        return "license"
    ext = ext_of(name)
    if ext in BINARY_EXTS:
        return "binary"
    if ext in TEXT_EXTS or name in TEXT_NAMES or name.startswith(("dockerfile", "containerfile")):
        return None
    if name.startswith("env") or "requirements" in name:
        return None
    return "unsupported type"


def read_or_empty(read: Reader, path: str) -> str:
    """A file's text, or "" when `read` will not serve it."""
    try:
        return read(path)
    except (OSError, UnicodeDecodeError, ValueError):
        return ""


def fs_reader(root: Path, max_chars: int = MAX_FILE_CHARS) -> Reader:
    """A reader over a directory: UTF-8, undecodable bytes replaced (callers flag U+FFFD)."""

    def read(rel: str) -> str:
        p = root / rel
        if p.stat().st_size > max_chars * 4:  # cheap guard before reading a huge file
            raise ValueError(f"file over {max_chars} characters")
        data = p.read_bytes()
        if b"\x00" in data[:8192]:
            raise ValueError("binary content")
        return data.decode("utf-8", errors="replace")

    return read


def list_files(root: Path) -> list[str]:
    """Relative POSIX paths of every file under root, without descending into junk folders."""
    out: list[str] = []
    stack = [root]
    while stack:
        d = stack.pop()
        for p in sorted(d.iterdir()):
            if p.is_symlink():
                continue
            if p.is_dir():
                if not (p.name.startswith(".") or p.name in JUNK_DIRS):
                    stack.append(p)
            elif p.is_file():
                out.append(p.relative_to(root).as_posix())
    return sorted(out)
