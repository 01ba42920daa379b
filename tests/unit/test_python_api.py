"""API chunks of Python files: module naming, spans, symbols, signatures, overviews."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxhub.core.errors import SkipFile
from ctxhub.core.knowledge import Chunk, chunk_id
from ctxhub.ingest.python.chunks import PythonFileExtract, extract_python_file
from ctxhub.ingest.python.modules import (
    PackageLayout,
    find_internal_packages,
    module_name_for,
    module_names,
    resolve_relative,
)
from ctxhub.ingest.python.source import decode_source, split_lines

TREE = Path(__file__).parent.parent / "fixtures" / "python_api" / "tree"
SOURCE = "fx"


def fixture_paths() -> list[str]:
    return sorted(str(p.relative_to(TREE))[: -len(".txt")] for p in TREE.rglob("*.py*.txt"))


def extract(relpath: str) -> PythonFileExtract:
    data = (TREE / f"{relpath}.txt").read_bytes()
    modules = module_names(fixture_paths())
    return extract_python_file(
        SOURCE, relpath, data, version="1.0", internal_packages={"fakepkg"}, known_modules=modules
    )


def by_symbol(ex: PythonFileExtract) -> dict[str, list[Chunk]]:
    out: dict[str, list[Chunk]] = {}
    for c in ex.chunks:
        out.setdefault(c.symbol or "", []).append(c)
    return out


def line_of(relpath: str, needle: str) -> int:
    """1-based line of the first fixture line containing `needle`."""
    lines = (TREE / f"{relpath}.txt").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


CORE = "src/fakepkg/sub/core.py"


@pytest.fixture(scope="module")
def core() -> dict[str, list[Chunk]]:
    return by_symbol(extract(CORE))


# --- module names -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("relpath", "expected"),
    [
        ("src/pkg/mod.py", "pkg.mod"),
        ("src/pkg/__init__.py", "pkg"),
        ("lib/pkg/sub/__init__.pyi", "pkg.sub"),
        ("src/top.py", "top"),
        ("src/my-scripts/run.py", None),  # not an identifier: not importable
        ("src/pkg/README.md", None),
    ],
)
def test_module_name_from_source_prefix(relpath: str, expected: str | None) -> None:
    assert module_name_for(relpath) == expected


def test_module_name_in_flat_layout_starts_at_topmost_package() -> None:
    paths = ["pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/mod.py", "examples/demo.py"]
    layout = PackageLayout.from_paths(paths)
    assert module_name_for("pkg/sub/mod.py", layout) == "pkg.sub.mod"
    assert module_name_for("pkg/__init__.py", layout) == "pkg"
    assert module_name_for("examples/demo.py", layout) is None  # no package around it
    assert module_name_for("setup.py", layout) == "setup"
    # A package nested in a plain folder is importable from that folder.
    nested = PackageLayout.from_paths(["python/pkg/__init__.py", "python/pkg/m.py"])
    assert nested.module_for("python/pkg/m.py") == "pkg.m"


def test_internal_packages_of_a_tree() -> None:
    assert find_internal_packages(fixture_paths()) == {"fakepkg"}
    flat = ["pkg/__init__.py", "pkg/a.py", "setup.py", "conftest.py", "scripts/x.py"]
    assert find_internal_packages(flat) == {"pkg"}
    assert find_internal_packages(["src/one/__init__.py", "src/solo.py"]) == {"one", "solo"}


@pytest.mark.parametrize(
    ("module", "is_package", "level", "target", "expected"),
    [
        ("pkg.sub.mod", False, 1, "frames", "pkg.sub.frames"),
        ("pkg.sub.mod", False, 2, "frames", "pkg.frames"),
        ("pkg.sub.mod", False, 2, None, "pkg"),
        ("pkg.sub", True, 1, "mod", "pkg.sub.mod"),
        ("pkg.mod", False, 3, "x", None),  # climbs above the top-level package
        ("pkg.mod", False, 0, "os.path", "os.path"),
    ],
)
def test_resolve_relative(
    module: str, is_package: bool, level: int, target: str | None, expected: str | None
) -> None:
    assert resolve_relative(module, is_package, level, target) == expected


# --- decoding and skipping ----------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"def broken(:\n    pass\n", "syntax error at line 1"),
        (b"x = '\xff\xfe not utf-8'\n", "not decodable"),
        (b"x = 1\x00\n", "NUL"),
        (b"# -*- coding: no-such-codec -*-\nx = 1\n", "encoding"),
    ],
)
def test_unusable_files_raise_skipfile(data: bytes, reason: str) -> None:
    with pytest.raises(SkipFile) as info:
        extract_python_file(SOURCE, "src/pkg/bad.py", data, version=None, internal_packages=set())
    assert reason in info.value.reason


def test_coding_cookie_and_bom_are_honoured() -> None:
    latin = "# -*- coding: latin-1 -*-\ndef f():\n    return 'caf\xe9'\n".encode("latin-1")
    assert "café" in decode_source(latin)
    assert decode_source(b"\xef\xbb\xbfx = 1\n") == "x = 1\n"


def test_line_numbers_follow_ast_not_str_splitlines() -> None:
    # \f and \x1c split str.splitlines() but are not line ends for the compiler.
    text = "a = 1  # \x0c form feed\nb = '\x1c'\nc = 3\n"
    assert split_lines(text)[2] == "c = 3"


def test_a_broken_file_does_not_stop_the_others() -> None:
    good, skipped = [], []
    for relpath, data in [
        ("src/pkg/ok.py", b"def f(a):\n    x = a\n    y = x\n    return y\n"),
        ("src/pkg/bad.py", b"class :\n"),
    ]:
        try:
            good.append(
                extract_python_file(SOURCE, relpath, data, version=None, internal_packages=set())
            )
        except SkipFile as e:
            skipped.append((relpath, e.reason))
    assert [g.module for g in good] == ["pkg.ok"] and skipped[0][0] == "src/pkg/bad.py"


# --- chunks ---------------------------------------------------------------------------


def test_common_chunk_fields(core: dict[str, list[Chunk]]) -> None:
    push = core["fakepkg.sub.core.BaseProcessor.push"][0]
    assert (push.kind, push.source, push.path, push.version) == ("api", SOURCE, CORE, "1.0")
    assert push.title == "BaseProcessor.push" and push.section == "BaseProcessor"
    assert push.id == chunk_id(SOURCE, CORE, "fakepkg.sub.core.BaseProcessor.push", 0)
    meta = push.metadata
    assert (meta.chunk_type, meta.module, meta.class_name) == (
        "method",
        "fakepkg.sub.core",
        "BaseProcessor",
    )
    assert meta.language == "python" and meta.is_async is True
    assert meta.signature == "async def push(self, frame: Frame, direction: int = 1) -> None"
    assert meta.return_type == "None"


def test_method_content_is_its_full_source_and_span(core: dict[str, list[Chunk]]) -> None:
    clamp = core["fakepkg.sub.core.EchoProcessor.Options.Limits.clamp"][0]
    start = line_of(CORE, "def clamp(")
    assert (clamp.line_start, clamp.line_end) == (start, start + 4)
    assert clamp.content.lstrip().startswith("def clamp(self, value: int) -> int:")
    assert clamp.content.rstrip().endswith("return max(low, min(high, value))")
    assert clamp.metadata.class_name == "EchoProcessor.Options.Limits"
    assert clamp.title == "EchoProcessor.Options.Limits.clamp"


def test_spans_start_at_the_first_decorator(core: dict[str, list[Chunk]]) -> None:
    echo = core["fakepkg.sub.core.EchoProcessor"][0]
    assert echo.line_start == line_of(CORE, '@register("echo")')
    assert echo.line_end == line_of(CORE, "def tiny()") + 1  # end of its last method
    decorated = core["fakepkg.sub.core.decorated"][0]
    assert decorated.line_start == line_of(CORE, '@register("plain")')
    assert decorated.content.startswith('@register("plain")')
    assert decorated.metadata.decorators == ["register('plain')"]


def test_class_chunk_is_an_overview_not_the_source(core: dict[str, list[Chunk]]) -> None:
    base = core["fakepkg.sub.core.BaseProcessor"][0]
    meta = base.metadata
    assert meta.chunk_type == "class" and meta.bases == ["ABC"] and meta.is_abstract is True
    assert meta.signature == "class BaseProcessor(ABC)"
    assert "await self._send(frame)" not in base.content  # method bodies stay out
    assert "Base class of all processors." in base.content
    assert "def __init__(self, settings: Settings, *, loop:" in base.content
    # A short method has a chunk of its own (looked up by name) and is listed by the class.
    assert core["fakepkg.sub.core.EchoProcessor.label"][0].lookup_only
    echo = core["fakepkg.sub.core.EchoProcessor"][0]
    assert "def label(self, x: int) -> str" in echo.content
    assert "@staticmethod def tiny() -> int" in echo.content
    assert "class Options — Nested options." in echo.content
    assert echo.metadata.extra["methods"] == ["process", "stream", "replay", "label", "tiny"]


def test_nested_classes_are_dotted(core: dict[str, list[Chunk]]) -> None:
    limits = core["fakepkg.sub.core.EchoProcessor.Options.Limits"][0]
    assert limits.metadata.class_name == "EchoProcessor.Options.Limits"
    assert limits.section == "EchoProcessor.Options"


def test_dataclass_overview_synthesises_the_constructor(core: dict[str, list[Chunk]]) -> None:
    settings = core["fakepkg.sub.core.Settings"][0]
    assert settings.metadata.is_dataclass is True
    assert settings.metadata.decorators == ["dataclass(frozen=True)"]
    expected = (
        "Settings(name: str, retries: int = 3, tags: list[str] = field(default_factory=list))"
    )
    assert expected in settings.content  # ClassVar LIMIT is no parameter
    assert "LIMIT: ClassVar[int] = 10" in settings.content
    assert core["fakepkg.sub.core.BaseProcessor"][0].metadata.is_dataclass is False


def test_duplicate_symbols_get_distinct_ordinals(core: dict[str, list[Chunk]]) -> None:
    # The property getter is the first `name` (a short one, looked up by name), the
    # setter the second.
    getter, setter = core["fakepkg.sub.core.BaseProcessor.name"]
    assert getter.id == chunk_id(SOURCE, CORE, "fakepkg.sub.core.BaseProcessor.name", 0)
    assert setter.id == chunk_id(SOURCE, CORE, "fakepkg.sub.core.BaseProcessor.name", 1)
    assert setter.metadata.extra["property"] is True
    # `if TYPE_CHECKING:` stub first (a short one, looked up by name), runtime definition
    # second.
    _, hook = core["fakepkg.sub.core.typed_hook"]
    assert hook.id == chunk_id(SOURCE, CORE, "fakepkg.sub.core.typed_hook", 1)
    assert hook.line_start == line_of(CORE, "def typed_hook(frame):")


def test_ids_are_unique_and_stable() -> None:
    first = [
        c.id for p in fixture_paths() if p.endswith((".py", ".pyi")) for c in extract(p).chunks
    ]
    second = [
        c.id for p in fixture_paths() if p.endswith((".py", ".pyi")) for c in extract(p).chunks
    ]
    assert first == second and len(set(first)) == len(first)


def test_module_overview(core: dict[str, list[Chunk]]) -> None:
    (mod,) = core["fakepkg.sub.core"]
    assert mod.metadata.chunk_type == "module" and mod.title == "fakepkg.sub.core"
    assert (mod.line_start, mod.line_end) == (
        1,
        len((TREE / f"{CORE}.txt").read_text().splitlines()),
    )
    assert "Core processing for fakepkg." in mod.content
    assert "class BaseProcessor(ABC) — Base class of all processors." in mod.content
    assert "def register(name) — Decorator factory" in mod.content
    assert "OldEcho = EchoProcessor" in mod.content  # module-level code
    assert "if TYPE_CHECKING:" not in mod.content.split("Module-level code:")[-1]
    # Internal imports only, relative ones resolved.
    assert "fakepkg.frames.TextFrame" in mod.metadata.imports
    assert "fakepkg.helpers" in mod.metadata.imports
    assert not any(i.startswith(("asyncio", "json", "typing")) for i in mod.metadata.imports)


def test_empty_init_has_no_chunks_but_reexporting_one_does() -> None:
    assert extract("src/fakepkg/sub/__init__.py").chunks == []
    (init,) = extract("src/fakepkg/__init__.py").chunks
    assert init.symbol == "fakepkg" and init.metadata.chunk_type == "module"
    assert init.metadata.imports == [
        "fakepkg.frames.Frame",
        "fakepkg.frames.TextFrame",
        "fakepkg.helpers.retry",
    ]


def test_stub_file_defs_all_get_chunks() -> None:
    chunks = by_symbol(extract("src/fakepkg/stubs.pyi"))
    method = chunks["fakepkg.stubs.Thing.method"][0]
    assert method.metadata.signature == (
        "def method(self, a: int, /, b: str = ..., *args: int, flag: bool, **kw: str) -> str"
    )
    assert method.metadata.extra["stub"] is True
    overloads = chunks["fakepkg.stubs.Thing.get"]
    assert [c.metadata.return_type for c in overloads] == ["int", "str"]
    assert len({c.id for c in overloads}) == 2
    assert chunks["fakepkg.stubs.build"][0].metadata.chunk_type == "function"


def test_nested_function_is_its_own_chunk(core: dict[str, list[Chunk]]) -> None:
    on_done = core["fakepkg.sub.core.EchoProcessor.process.on_done"][0]
    assert on_done.metadata.chunk_type == "function"
    assert on_done.metadata.class_name == "EchoProcessor"
    assert on_done.metadata.extra["nested_in"] == "EchoProcessor.process"


def test_embed_text_leads_with_symbol_signature_and_summary(core: dict[str, list[Chunk]]) -> None:
    push = core["fakepkg.sub.core.BaseProcessor.push"][0]
    lines = push.embed_text.splitlines()
    assert lines[0] == "fakepkg.sub.core.BaseProcessor.push"
    assert lines[1].startswith("async def push(")
    assert lines[2] == "Push a frame downstream."
    assert push.embed_text.count("Push a frame downstream.") == 1
    assert "await self._send(frame)" in push.embed_text
    echo = core["fakepkg.sub.core.EchoProcessor"][0]
    assert echo.embed_text.splitlines()[:2] == [
        "fakepkg.sub.core.EchoProcessor",
        "class EchoProcessor(BaseProcessor)",
    ]
    assert "stream" in echo.embed_text  # member names, for "which class does X" queries


def test_a_class_lists_its_name_mangled_methods_but_not_dunders() -> None:
    data = (
        b"class Schema:\n"
        b"    def __len__(self):\n        return 0\n"
        b"    def __apply_option(self, names):\n        return names\n"
        b"    def load(self, data):\n        return self.__apply_option(data)\n"
    )
    ex = extract_python_file(SOURCE, "src/pkg/s.py", data, version=None, internal_packages=set())
    (cls,) = [c for c in ex.chunks if c.metadata.chunk_type == "class"]
    members = [line for line in cls.embed_text.splitlines() if line.startswith("members:")]
    assert members == ["members: __apply_option, load"]


def test_module_name_defaults_from_path_and_can_be_given() -> None:
    data = b"def f(a):\n    b = a\n    c = b\n    return c\n"
    default = extract_python_file(
        SOURCE, "src/pkg/m.py", data, version=None, internal_packages=set()
    )
    given = extract_python_file(
        SOURCE, "code/m.py", data, version=None, internal_packages=set(), module="other.m"
    )
    assert [c.symbol for c in default.chunks] == ["pkg.m", "pkg.m.f"]
    assert [c.symbol for c in given.chunks] == ["other.m", "other.m.f"]
