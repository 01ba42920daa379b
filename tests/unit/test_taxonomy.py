"""Example taxonomy (tags, language, key files, execution mode, pins) and version specs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ctxhub.ingest.examples.files import fs_reader, list_files
from ctxhub.ingest.examples.layout import Example, discover_examples
from ctxhub.ingest.examples.prose import summarize
from ctxhub.ingest.examples.python_facts import python_facts
from ctxhub.ingest.examples.taxonomy import (
    Taxonomy,
    example_taxonomy,
    source_stats,
    taxonomies_for,
)
from ctxhub.ingest.examples.versions import (
    framework_package_for,
    framework_pins,
    requirements_from_pyproject,
    requirements_from_text,
    version_compatibility,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "examples"


def _reader(files: dict[str, str]) -> Callable[[str], str]:
    def read(path: str) -> str:
        if path not in files:
            raise FileNotFoundError(path)
        return files[path]

    return read


def _fixture_taxonomies(name: str, version: str | None = "2.1.0") -> dict[str, Taxonomy]:
    root = FIXTURES / name
    read = fs_reader(root)
    examples = discover_examples(list_files(root), read)
    return taxonomies_for(examples, read, framework_packages={"acme"}, framework_version=version)


# -- versions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "version", "expected"),
    [
        (">=0.0.80", "1.8.0", True),
        (">=1.4.0,<1.5.0", "1.8.0", False),
        (">=1.4.0,<1.5.0", "1.4.7", True),
        ("==1.8.0", "1.8.0", True),
        ("==1.8.*", "1.8.3", True),
        ("==1.7.0", "1.8.0", False),
        ("<=1.8", "1.8.0", True),
        (">1.8.0", "1.8.0", False),
        ("<2", "1.8.0", True),
        ("~=1.4", "1.8.0", True),  # ~=1.4 means >=1.4, ==1.*
        ("~=1.4.0", "1.8.0", False),  # ~=1.4.0 means >=1.4.0, ==1.4.*
        ("!=1.8.0", "1.8.0", False),
        ("!=1.7.0", "1.8.0", True),
        ("pipecat-ai[daily]>=0.0.80", "1.8.0", True),
        ("pipecat-ai[daily,openai]>=2.0; python_version>'3.9'", "1.8.0", False),
        (">=1.7", "1.8.0rc1", True),  # an indexed pre-release is still compared
        ("", "1.8.0", True),  # unpinned accepts anything
        (">=banana", "1.8.0", None),
        (">=1.0", "not-a-version", None),
        ("pipecat-ai @ https://x.invalid/p.whl", "1.8.0", None),
    ],
)
def test_version_compatibility(spec: str, version: str, expected: bool | None) -> None:
    assert version_compatibility(spec, version) is expected


def test_requirements_txt_skips_options_urls_and_comments() -> None:
    text = (
        "# comment\n-r base.txt\n--index-url https://x.invalid\n-e .\n"
        "git+https://x.invalid/repo.git\npipecat-ai[daily,openai]>=0.0.80  # pinned\n"
        "python-dotenv\nrequests==2.*; python_version >= '3.8'\nnot a requirement!\n"
    )
    reqs = requirements_from_text(text, "requirements.txt")
    assert [(r.name, r.extras, r.specifier) for r in reqs] == [
        ("pipecat-ai", ("daily", "openai"), ">=0.0.80"),
        ("python-dotenv", (), ""),
        ("requests", (), "==2.*"),
    ]
    assert reqs[0].raw == "pipecat-ai[daily,openai]>=0.0.80"


def test_pyproject_requirements_by_group_and_bad_toml() -> None:
    text = (
        '[project]\nname = "x"\ndependencies = ["pipecat-ai>=1.4.0,<1.5.0", "loguru~=0.7"]\n'
        '[project.optional-dependencies]\nvoice = ["pipecat-ai[silero]>=1.4"]\n'
        '[dependency-groups]\ndev = ["pytest>=8"]\n'
    )
    reqs = requirements_from_pyproject(text, "pyproject.toml")
    assert [(r.name, r.group) for r in reqs] == [
        ("pipecat-ai", "main"),
        ("loguru", "main"),
        ("pipecat-ai", "optional:voice"),
        ("pytest", "group:dev"),
    ]
    assert requirements_from_pyproject("[project\nbroken", "pyproject.toml") == []


@pytest.mark.parametrize(
    ("dist", "expected"),
    [
        ("pipecat-ai", "pipecat"),
        ("pipecat-ai-flows", "pipecat_flows"),
        ("Pipecat_AI", "pipecat"),
        ("requests", None),
        ("flows", None),
    ],
)
def test_distribution_to_framework_package(dist: str, expected: str | None) -> None:
    assert framework_package_for(dist, {"pipecat", "pipecat_flows"}) == expected


def test_framework_pins_nearest_file_wins_and_version_applies_to_primary_package() -> None:
    read = _reader(
        {
            "ex/requirements.txt": "pipecat-ai-flows>=0.0.10\npipecat-ai[daily]>=0.0.80\n",
            "pyproject.toml": '[project]\ndependencies = ["pipecat-ai<1"]\n',
        }
    )
    pins = framework_pins(
        ["ex/requirements.txt", "pyproject.toml"], read, {"pipecat", "pipecat_flows"}, "1.8.0"
    )
    assert pins.file == "ex/requirements.txt"
    assert pins.requirements == ["pipecat-ai-flows>=0.0.10", "pipecat-ai[daily]>=0.0.80"]
    assert pins.pin == "pipecat-ai[daily]>=0.0.80" and pins.compatible is True
    both = framework_pins(
        ["ex/requirements.txt"],
        read,
        {"pipecat", "pipecat_flows"},
        {"pipecat": "1.8.0", "pipecat_flows": "0.0.5"},
    )
    assert both.compatible is False  # flows 0.0.5 violates >=0.0.10
    unknown = framework_pins(["missing.txt"], read, {"pipecat"}, "1.8.0")
    assert unknown.pin is None and unknown.compatible is None


# -- taxonomy ------------------------------------------------------------------------------


def test_fixture_pins_execution_mode_and_key_files() -> None:
    tax = _fixture_taxonomies("examples_dir")
    voice = tax["examples/voice_agent"]
    assert voice.execution_mode == "cloud"
    assert any("Dockerfile" in r for r in voice.execution_reasons)
    assert voice.framework_pin == "acme-core[voice]>=2.0" and voice.compatible is True
    assert voice.pin_file == "examples/voice_agent/requirements.txt" and not voice.pin_inherited
    assert voice.entry_point == "examples/voice_agent/bot.py"
    assert voice.readme == "examples/voice_agent/README.md"
    assert set(voice.config_files) == {
        "examples/voice_agent/Dockerfile",
        "examples/voice_agent/requirements.txt",
    }
    assert voice.language == "python"  # not the Dockerfile or the README
    weather = tax["examples/weather_bot.py"]
    assert weather.execution_mode == "local"
    assert weather.framework_pin == "acme-core>=1.2,<2" and weather.pin_inherited
    assert weather.compatible is False  # the repo pins <2, the indexed version is 2.1.0
    assert weather.env_vars == ["WEATHER_CITY"]
    assert weather.summary.startswith("Weather bot: answers forecast questions")
    single = _fixture_taxonomies("single_project")[""]
    assert single.execution_mode == "cloud"  # pcc-deploy.toml is a deployment descriptor
    assert single.entry_point == "tiny_agent/main.py"
    assert "tiny_agent" not in single.tags  # its own package is not a library


def test_readme_about_deploying_makes_an_example_cloud() -> None:
    files = {
        "examples/svc/README.md": "# Svc\n\nA service.\n\n## Deployment\n\nPush it.\n",
        "examples/svc/main.py": "print(1)\n",
    }
    (svc,) = discover_examples(list(files), _reader(files))
    tax = example_taxonomy(svc, _reader(files), framework_packages={"acme"}, framework_version=None)
    assert tax.execution_mode == "cloud" and tax.compatible is None


def _source(n: int) -> tuple[list[Example], Callable[[str], str]]:
    """n single-file examples; all import acme.pipeline.core and acme.utils.log, example i
    imports its own service module, the first two also import acme.services.shared.extra."""
    files: dict[str, str] = {}
    vendors = ["whisper", "deepgram", "polly", "speechmatics", "riva"]
    for i in range(n):
        imports = [
            "from acme.pipeline.core import Pipeline",
            "from acme.utils.log import logger",
            f"from acme.services.{vendors[i]}.stt import STT{i}",
            "import loguru",
        ]
        if i < 2:
            imports.append("from acme.services.shared.extra import Extra")
        files[f"examples/ex{i}.py"] = "\n".join(imports) + "\n"
    read = _reader(files)
    return discover_examples(list(files), read), read


def test_generic_import_parts_are_dropped_by_frequency_and_namespace() -> None:
    examples, read = _source(5)
    stats = source_stats(examples, read, framework_packages={"acme"})
    assert {"pipeline", "services", "loguru", "stt"} <= stats.generic
    assert "whisper" not in stats.generic
    tax = taxonomies_for(examples, read, framework_packages={"acme"}, framework_version=None)
    t0 = tax["examples/ex0.py"]
    assert t0.capability_tags == ["whisper", "shared", "extra"]
    assert "pipeline" in t0.all_capabilities and "log" in t0.all_capabilities
    assert "utils" not in t0.all_capabilities and "core" not in t0.all_capabilities  # stop words
    assert t0.library_tags == []  # loguru is in every example
    assert t0.framework_names[:2] == ["STT0", "Extra"]  # distinctive names first
    assert "Pipeline" not in t0.distinctive_names


def test_small_sources_keep_common_parts() -> None:
    examples, read = _source(2)
    tax = taxonomies_for(examples, read, framework_packages={"acme"}, framework_version=None)
    # two examples share too much by chance: only the stop list and namespaces apply
    assert "pipeline" in tax["examples/ex0.py"].capability_tags
    assert "loguru" in tax["examples/ex0.py"].library_tags


def test_language_from_extensions() -> None:
    files = {
        "examples/web/README.md": "# Web\n\nA web client.\n",
        "examples/web/package.json": '{"name": "web"}',
        "examples/web/src/index.ts": "export const a = 1;\n",
        "examples/web/src/app.tsx": "export const b = 2;\n",
        "examples/web/server.py": "print(1)\n",
    }
    (web,) = discover_examples(list(files), _reader(files))
    tax = example_taxonomy(web, _reader(files), framework_packages={"acme"}, framework_version=None)
    assert tax.language == "typescript"
    assert set(tax.languages) == {"typescript", "python", "markdown", "json"}


def test_python_facts() -> None:
    text = (
        '"""Doc."""\nimport os\nfrom acme.x import A, B\nfrom . import local\n'
        'KEY = os.getenv("API_KEY")\nURL = os.environ["URL"]\nT = os.environ.get("T")\n'
        "class C: ...\nasync def run(): ...\nif __name__ == '__main__':\n    run()\n"
    )
    f = python_facts(text)
    assert f.docstring == "Doc." and f.has_main
    assert f.imports == ("os", "acme.x") and f.names == (("acme.x", "A"), ("acme.x", "B"))
    assert f.defs == ("C", "run") and f.env_vars == ("API_KEY", "URL", "T")
    broken = python_facts("import acme.y\ndef f(:\n")
    assert broken.error and broken.error.startswith("SyntaxError") and broken.imports == ("acme.y",)


def test_summarize_skips_titles_badges_code_and_setup() -> None:
    readme = (
        "# Title\n\n[![ci](https://x.invalid/b.svg)](https://x.invalid)\n\n"
        "## Installation\n\nRun pip install first.\n\n"
        "## About\n\nA bot that books tables.\nIt checks availability.\n\n"
        "```bash\nrun it\n```\n\nSecond paragraph here.\n"
    )
    assert summarize(readme, limit=300) == (
        "A bot that books tables. It checks availability. Second paragraph here."
    )
    long = summarize("word " * 200, limit=100)
    assert len(long) <= 102 and long.endswith("…")


def test_common_capabilities_stay_filterable(tmp_path: Path) -> None:
    """`stt` is in every example, so it is no display tag; `--tag stt` still finds them."""
    from ctxhub.core.knowledge import SearchFilters
    from ctxhub.ingest.examples.chunks import chunk_example
    from ctxhub.store.sqlite.store import SQLiteStore

    examples, read = _source(5)
    tax = taxonomies_for(examples, read, framework_packages={"acme"}, framework_version=None)
    with SQLiteStore(tmp_path / "s.db") as store:
        for ex in examples:
            chunks = chunk_example("src", ex, read, tax[ex.path], version=None)
            assert all("stt" not in c.metadata.tags for c in chunks)
            store.replace_file("src", ex.path, chunks)
        _, total = store.list_ids(SearchFilters(tags=["stt"]), ["example"], 100)
        _, overviews = store.list_ids(
            SearchFilters(tags=["stt"], chunk_type=["example"]), ["example"], 100
        )
    assert overviews == 5 and total >= 5
