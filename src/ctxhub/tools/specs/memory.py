"""The memory tools: log_solution, search_solutions, search_by_approach, rate,
browse_solutions, ecosystem_digest."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ctxhub.core import limits
from ctxhub.core.outputs import BrowseResponse, DigestResponse, SolutionSearchResponse
from ctxhub.core.records import LogResult, RateResult
from ctxhub.tools.params import Agent, Cursor, ErrorType, Framework, Language, SessionId, Text
from ctxhub.tools.spec import CliSpec, ToolSpec
from ctxhub.tools.specs.base import ToolArgs

RENDER = "ctxhub.tools.render_memory"
FUNCTIONS = "ctxhub.tools.memory_tools"

Records = Annotated[
    int,
    Field(
        ge=1, le=limits.MAX_RECORDS, description=f"Most records to return (1-{limits.MAX_RECORDS})"
    ),
]
RecordTags = Annotated[
    list[str] | None, Field(max_length=limits.MAX_TAGS, description="Tags (all must match)")
]


class LogSolutionArgs(ToolArgs):
    problem: Annotated[
        str,
        Field(min_length=1, max_length=limits.MAX_TEXT, description="The problem, as searched"),
    ]
    solution: Annotated[str, Field(max_length=limits.MAX_TEXT, description="What fixed it")] = ""
    error_type: Annotated[
        str | None, Field(max_length=200, description="e.g. ModuleNotFoundError, E0463")
    ] = None
    stack_trace: Annotated[Text, Field(description="The error output or traceback")] = None
    code_snippet: Annotated[Text, Field(description="The fixed code")] = None
    code_diff: Annotated[Text, Field(description="The change, as a diff")] = None
    language: Language = None
    framework: Framework = None
    libraries: Annotated[
        list[str] | None, Field(max_length=limits.MAX_TAGS, description="Libraries involved")
    ] = None
    tags: RecordTags = None
    file_path: Annotated[
        str | None, Field(max_length=limits.MAX_PATH, description="The file the fix was in")
    ] = None
    agent: Agent = None
    os: Annotated[str | None, Field(max_length=100, description="Operating system, e.g. linux")] = (
        None
    )
    confidence: Annotated[
        float, Field(ge=0, le=1, description="How sure you are the fix is right (0-1)")
    ] = 0.7
    resolved: Annotated[bool, Field(description="False: problem seen, not solved")] = True
    session_id: SessionId = None


class SearchSolutionsArgs(ToolArgs):
    query: Annotated[
        str,
        Field(
            min_length=1,
            max_length=4000,
            description="The error message or the symptom, as you see it",
        ),
    ]
    code_context: Annotated[
        str | None, Field(max_length=8000, description="The code (or stack trace) involved")
    ] = None
    language: Language = None
    framework: Framework = None
    tags: RecordTags = None
    error_type: ErrorType = None
    limit: Records = limits.DEFAULT_RECORDS


class SearchByApproachArgs(ToolArgs):
    approach: Annotated[
        str, Field(min_length=1, max_length=limits.MAX_QUERY, description="How it was solved")
    ]
    language: Language = None
    limit: Records = limits.DEFAULT_RECORDS


class RateArgs(ToolArgs):
    id: Annotated[
        str,
        Field(min_length=1, max_length=limits.MAX_ID, description="A record or knowledge hit id"),
    ]
    worked: Annotated[bool, Field(description="It worked / was useful (true) or not")]
    note: Annotated[
        str | None, Field(max_length=2000, description="What happened when you tried it")
    ] = None
    agent: Agent = None
    session_id: SessionId = None
    query: Annotated[
        str | None, Field(max_length=limits.MAX_QUERY, description="The query the hit answered")
    ] = None


class BrowseSolutionsArgs(ToolArgs):
    language: Language = None
    framework: Framework = None
    tag: Annotated[str | None, Field(max_length=100, description="Only records with this tag")] = (
        None
    )
    error_type: ErrorType = None
    source: Annotated[
        str | None,
        Field(
            max_length=limits.MAX_ID,
            description="local, session, hook, import, github:OWNER/REPO, or 'github:'",
        ),
    ] = None
    limit: Annotated[
        int,
        Field(ge=1, le=limits.MAX_BROWSE, description=f"Records per page (1-{limits.MAX_BROWSE})"),
    ] = limits.DEFAULT_BROWSE
    cursor: Cursor = None


class EcosystemDigestArgs(ToolArgs):
    languages: Annotated[
        list[str], Field(min_length=1, max_length=10, description="e.g. ['python']")
    ]
    frameworks: Annotated[
        list[str] | None, Field(max_length=20, description="Only these frameworks")
    ] = None
    limit: Annotated[
        int, Field(ge=1, le=limits.MAX_DIGEST, description=f"Most records (1-{limits.MAX_DIGEST})")
    ] = limits.DEFAULT_DIGEST


LOG_SOLUTION = ToolSpec(
    title="Log a solution",
    name="log_solution",
    description="""Record a problem you solved (or hit) so the next agent finds it: the
problem as you would search for it, the error type / stack trace, what fixed it, and the
code. A near-identical problem with the same fix merges into the existing record (its
count goes up); the same problem with a different fix is stored as a variant. Never put
secrets in it.""",
    args=LogSolutionArgs,
    output=LogResult,
    function=f"{FUNCTIONS}:log_solution",
    render=f"{RENDER}:log_result",
    writes=True,
    cli=CliSpec(
        "log",
        aliases={
            "code_snippet": ("--code",),
            "code_diff": ("--diff",),
            "libraries": ("--library",),
            "tags": ("--tag",),
            "file_path": ("--file",),
            "resolved": ("--unresolved",),
        },
        files=("stack_trace", "code_snippet", "code_diff"),
        fixed={"agent": "cli"},
    ),
)

SEARCH_SOLUTIONS = ToolSpec(
    title="Search solution memory",
    name="search_solutions",
    description="""Search solution memory: problems agents (and imported GitHub
issues, mined sessions) already solved. Paste the error message, describe the symptom,
and pass the offending code as `code_context`. Hits are ranked by match, confidence,
recency and how often the fix worked; each explains its score. When nothing relevant is
known, the response says so: solve it, then log_solution.""",
    args=SearchSolutionsArgs,
    output=SolutionSearchResponse,
    function=f"{FUNCTIONS}:search_solutions",
    render=f"{RENDER}:solution_response",
    reads_memory=True,
    cli=CliSpec(
        "recall",
        positional=("query",),
        aliases={"code_context": ("--code",), "tags": ("--tag",)},
        files=("code_context",),
    ),
)

SEARCH_BY_APPROACH = ToolSpec(
    title="Search solutions by approach",
    name="search_by_approach",
    description="""Find records by how they were solved (e.g. "pin the dependency
version", "retry with exponential backoff"), searching the solution texts.""",
    args=SearchByApproachArgs,
    output=SolutionSearchResponse,
    function=f"{FUNCTIONS}:search_by_approach",
    render=f"{RENDER}:solution_response",
    reads_memory=True,
    cli=CliSpec("approach", positional=("approach",)),
)

RATE = ToolSpec(
    title="Rate a result",
    name="rate",
    description="""Rate a result after trying it: a memory record (worked / did not work) or a
knowledge hit from search/search_docs/search_api (useful / not useful; pass the `query`
you searched). Ratings re-rank future results.""",
    args=RateArgs,
    output=RateResult,
    # Nothing to store first: the feedback function itself (and a light import).
    function="ctxhub.memory.records.feedback:rate",
    render=f"{RENDER}:rate_result",
    writes=True,
    cli=CliSpec(
        "rate",
        positional=("id", "worked"),
        words={"worked": {"worked": True, "failed": False, "useful": True, "not-useful": False}},
        fixed={"agent": "cli"},
    ),
)

BROWSE_SOLUTIONS = ToolSpec(
    title="Browse solution records",
    name="browse_solutions",
    description="""List solution records by language, framework, tag, error type or source
(e.g. 'github:owner/repo', 'session', 'hook'), most recently seen first, with a cursor.""",
    args=BrowseSolutionsArgs,
    output=BrowseResponse,
    function=f"{FUNCTIONS}:browse_solutions",
    render=f"{RENDER}:browse_response",
    reads_memory=True,
    cli=CliSpec("browse"),
)

ECOSYSTEM_DIGEST = ToolSpec(
    title="Ecosystem digest",
    name="ecosystem_digest",
    description="""The known problems and fixes for a stack, as Markdown ready to paste into a
project's agent instructions file (AGENTS.md, CLAUDE.md).""",
    args=EcosystemDigestArgs,
    output=DigestResponse,
    function=f"{FUNCTIONS}:ecosystem_digest",
    render=f"{RENDER}:digest",
    reads_memory=True,
    cli=CliSpec("digest", aliases={"languages": ("--language",), "frameworks": ("--framework",)}),
)

SPECS = (
    LOG_SOLUTION,
    SEARCH_SOLUTIONS,
    SEARCH_BY_APPROACH,
    RATE,
    BROWSE_SOLUTIONS,
    ECOSYSTEM_DIGEST,
)
