"""The memory tools: log_solution, search_solutions, search_by_approach, rate,
browse_solutions, ecosystem_digest."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from ctxhub.core.outputs import BrowseResponse, DigestResponse, SolutionSearchResponse
from ctxhub.core.records import MAX_TEXT, LogResult, RateResult
from ctxhub.server import render_memory
from ctxhub.server.runtime import ToolRunner
from ctxhub.server.schema import READ_ONLY
from ctxhub.session import Hub
from ctxhub.tools import memory_tools

#: log_solution and rate write to the local store (nothing outside it).
WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)

StackTrace = Annotated[
    str | None, Field(max_length=MAX_TEXT, description="The error output or traceback")
]
SessionId = Annotated[
    str | None, Field(max_length=200, description="Your session id, to group records")
]
Agent = Annotated[str | None, Field(max_length=100, description="Who logs it, e.g. 'claude-code'")]
Language = Annotated[
    str | None, Field(max_length=60, description="Programming language, e.g. 'python'")
]
Framework = Annotated[
    str | None, Field(max_length=100, description="Framework, e.g. 'fastapi', 'pipecat'")
]
Tags = Annotated[list[str] | None, Field(max_length=50, description="Tags (all must match)")]
MemLimit = Annotated[int, Field(ge=1, le=50, description="Most records to return (1-50)")]

LOG_SOLUTION = """Record a problem you solved (or hit) so the next agent finds it: the
problem as you would search for it, the error type / stack trace, what fixed it, and the
code. A near-identical problem with the same fix merges into the existing record (its
count goes up); the same problem with a different fix is stored as a variant. Never put
secrets in it."""

SEARCH_SOLUTIONS = """Search solution memory: problems agents (and imported GitHub
issues, mined sessions) already solved. Paste the error message, describe the symptom,
and pass the offending code as `code_context`. Hits are ranked by match, confidence,
recency and how often the fix worked; each explains its score. When nothing relevant is
known, the response says so: solve it, then log_solution."""

SEARCH_BY_APPROACH = """Find records by how they were solved (e.g. "pin the dependency
version", "retry with exponential backoff"), searching the solution texts."""

RATE = """Rate a result after trying it: a memory record (worked / did not work) or a
knowledge hit from search/search_docs/search_api (useful / not useful; pass the `query`
you searched). Ratings re-rank future results."""

BROWSE = """List solution records by language, framework, tag, error type or source
(e.g. 'github:owner/repo', 'session', 'hook'), most recently seen first, with a cursor."""

DIGEST = """The known problems and fixes for a stack, as Markdown ready to paste into a
project's agent instructions file (AGENTS.md, CLAUDE.md)."""


def register(server: MCPServer[Any], runner: ToolRunner) -> None:
    @server.tool(name="log_solution", description=LOG_SOLUTION, annotations=WRITES)
    async def log_solution(
        problem: Annotated[
            str,
            Field(min_length=1, max_length=MAX_TEXT, description="The problem, as searched"),
        ],
        solution: Annotated[str, Field(max_length=MAX_TEXT, description="What fixed it")] = "",
        error_type: Annotated[
            str | None, Field(max_length=200, description="e.g. ModuleNotFoundError, E0463")
        ] = None,
        stack_trace: StackTrace = None,
        code_snippet: Annotated[
            str | None, Field(max_length=MAX_TEXT, description="The fixed code")
        ] = None,
        code_diff: Annotated[
            str | None, Field(max_length=MAX_TEXT, description="The change, as a diff")
        ] = None,
        language: Language = None,
        framework: Framework = None,
        libraries: Annotated[
            list[str] | None, Field(max_length=50, description="Libraries involved")
        ] = None,
        tags: Tags = None,
        file_path: Annotated[
            str | None, Field(max_length=1000, description="The file the fix was in")
        ] = None,
        agent: Agent = None,
        os: Annotated[
            str | None, Field(max_length=100, description="Operating system, e.g. linux")
        ] = None,
        confidence: Annotated[
            float, Field(ge=0, le=1, description="How sure you are the fix is right (0-1)")
        ] = 0.7,
        resolved: Annotated[bool, Field(description="False: problem seen, not solved")] = True,
        session_id: SessionId = None,
    ) -> Annotated[CallToolResult, LogResult]:
        fields = dict(
            problem=problem,
            solution=solution,
            error_type=error_type,
            stack_trace=stack_trace,
            code_snippet=code_snippet,
            code_diff=code_diff,
            language=language,
            framework=framework,
            libraries=libraries,
            tags=tags,
            file_path=file_path,
            agent=agent,
            os=os,
            confidence=confidence,
            resolved=resolved,
            session_id=session_id,
        )

        def work(hub: Hub) -> LogResult:
            return memory_tools.log_solution(hub, **fields)

        return await runner.run("log_solution", work, render_memory.log_result)

    @server.tool(name="search_solutions", description=SEARCH_SOLUTIONS, annotations=READ_ONLY)
    async def search_solutions(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=4000,
                description="The error message or the symptom, as you see it",
            ),
        ],
        code_context: Annotated[
            str | None,
            Field(max_length=8000, description="The code (or stack trace) involved"),
        ] = None,
        language: Language = None,
        framework: Framework = None,
        tags: Tags = None,
        error_type: Annotated[
            str | None, Field(max_length=200, description="Only records of this error type")
        ] = None,
        limit: MemLimit = 5,
    ) -> Annotated[CallToolResult, SolutionSearchResponse]:
        def work(hub: Hub) -> SolutionSearchResponse:
            return memory_tools.search_solutions(
                hub,
                query,
                code_context=code_context,
                language=language,
                framework=framework,
                tags=tags,
                error_type=error_type,
                limit=limit,
            )

        return await runner.run("search_solutions", work, render_memory.solution_response)

    @server.tool(name="search_by_approach", description=SEARCH_BY_APPROACH, annotations=READ_ONLY)
    async def search_by_approach(
        approach: Annotated[
            str, Field(min_length=1, max_length=2000, description="How it was solved")
        ],
        language: Language = None,
        limit: MemLimit = 5,
    ) -> Annotated[CallToolResult, SolutionSearchResponse]:
        def work(hub: Hub) -> SolutionSearchResponse:
            return memory_tools.search_by_approach(hub, approach, language=language, limit=limit)

        return await runner.run("search_by_approach", work, render_memory.solution_response)

    @server.tool(name="rate", description=RATE, annotations=WRITES)
    async def rate(
        id: Annotated[
            str, Field(min_length=1, max_length=200, description="A record or knowledge hit id")
        ],
        worked: Annotated[bool, Field(description="It worked / was useful (true) or not")],
        note: Annotated[
            str | None, Field(max_length=2000, description="What happened when you tried it")
        ] = None,
        agent: Agent = None,
        session_id: SessionId = None,
        query: Annotated[
            str | None, Field(max_length=2000, description="The query the hit answered")
        ] = None,
    ) -> Annotated[CallToolResult, RateResult]:
        def work(hub: Hub) -> RateResult:
            return memory_tools.rate(
                hub, id, worked, note=note, agent=agent, session_id=session_id, query=query
            )

        return await runner.run("rate", work, render_memory.rate_result)

    @server.tool(name="browse_solutions", description=BROWSE, annotations=READ_ONLY)
    async def browse_solutions(
        language: Language = None,
        framework: Framework = None,
        tag: Annotated[
            str | None, Field(max_length=100, description="Only records with this tag")
        ] = None,
        error_type: Annotated[
            str | None, Field(max_length=200, description="Only records of this error type")
        ] = None,
        source: Annotated[
            str | None,
            Field(max_length=200, description="local, session, hook, import, github:OWNER/REPO"),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Records per page (1-100)")] = 20,
        cursor: Annotated[
            str | None, Field(max_length=100, description="next_cursor of the previous page")
        ] = None,
    ) -> Annotated[CallToolResult, BrowseResponse]:
        def work(hub: Hub) -> BrowseResponse:
            return memory_tools.browse_solutions(
                hub,
                language=language,
                framework=framework,
                tag=tag,
                error_type=error_type,
                source=source,
                limit=limit,
                cursor=cursor,
            )

        return await runner.run("browse_solutions", work, render_memory.browse_response)

    @server.tool(name="ecosystem_digest", description=DIGEST, annotations=READ_ONLY)
    async def ecosystem_digest(
        languages: Annotated[
            list[str], Field(min_length=1, max_length=10, description="e.g. ['python']")
        ],
        frameworks: Annotated[
            list[str] | None, Field(max_length=20, description="Only these frameworks")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="Most records (1-200)")] = 30,
    ) -> Annotated[CallToolResult, DigestResponse]:
        def work(hub: Hub) -> DigestResponse:
            return memory_tools.ecosystem_digest(hub, languages, frameworks, limit)

        return await runner.run("ecosystem_digest", work, render_memory.digest)
