"""The /api/ endpoints: each one opens a HubSession on a worker thread, calls one
use case of this package, and answers JSON (errors: `respond.failed`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ctxhub.config import Settings
from ctxhub.dashboard import feedback, memory, overview, playground, projection
from ctxhub.dashboard.jobs import Jobs
from ctxhub.dashboard.respond import ApiError, body, caller_name, failed, ok, require_write
from ctxhub.session import HubSession
from ctxhub.store.factory import is_file_location, open_store
from ctxhub.store.protocol import HubStore

T = TypeVar("T")


class Api:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.jobs = Jobs(settings)
        # A server store's connection pool is the process's while any store holds it:
        # one kept open spares each request a new connection (a file needs none).
        location = settings.store_location
        self._keep: HubStore | None = None if is_file_location(location) else open_store(location)

    async def _with_hub(self, work: Callable[[HubSession], T]) -> T:
        def run() -> T:
            with HubSession(self.settings) as hub:
                return work(hub)

        return await run_in_threadpool(run)

    async def _answer(self, action: str, work: Callable[[HubSession], Any]) -> Response:
        try:
            return ok(await self._with_hub(work))
        except Exception as exc:
            return failed(exc, action)

    # -- overview and refresh -----------------------------------------------------------
    async def get_overview(self, request: Request) -> Response:
        def work(hub: HubSession) -> dict[str, Any]:
            data = overview.overview(hub)
            data["jobs"] = [j.model_dump(mode="json") for j in self.jobs.all()]
            return data

        return await self._answer("overview", work)

    async def start_refresh(self, request: Request) -> Response:
        try:
            require_write(request)
            source = request.path_params["source"]
            try:
                job = await run_in_threadpool(self.jobs.start, source)
            except LookupError as exc:
                raise ApiError(404, str(exc.args[0])) from None
            except ValueError as exc:
                raise ApiError(409, str(exc)) from None
            return ok(job, status=202)
        except Exception as exc:
            return failed(exc, "refresh")

    async def get_job(self, request: Request) -> Response:
        job = self.jobs.get(request.path_params["job"])
        if job is None:
            return failed(ApiError(404, f"no refresh job {request.path_params['job']!r}"), "")
        return ok(job)

    # -- search playground --------------------------------------------------------------
    async def get_tools(self, request: Request) -> Response:
        return ok({"tools": playground.tool_forms()})

    async def run_tool(self, request: Request) -> Response:
        try:
            data = await body(request)
            tool, args = str(data.get("tool", "")), data.get("args") or {}
            if not isinstance(args, dict):
                raise ApiError(400, "args must be a JSON object")
        except Exception as exc:
            return failed(exc, "call")
        return await self._answer(tool, lambda hub: playground.run_tool(hub, tool, args))

    async def get_chunk(self, request: Request) -> Response:
        chunk_id = request.path_params["chunk_id"]
        return await self._answer("chunk", lambda hub: playground.chunk_detail(hub, chunk_id))

    async def rate(self, request: Request) -> Response:
        try:
            require_write(request)
            data = await body(request)
            if not isinstance(data.get("worked"), bool):
                raise ApiError(400, "worked must be true or false")
        except Exception as exc:
            return failed(exc, "rate")
        who = caller_name(request)
        return await self._answer(
            "rate",
            lambda hub: playground.rate_hit(
                hub,
                str(data.get("id", "")),
                bool(data["worked"]),
                data.get("query"),
                data.get("note"),
                who,
            ),
        )

    # -- memory -------------------------------------------------------------------------
    async def list_records(self, request: Request) -> Response:
        params = request.query_params
        filters: dict[str, Any] = {
            k: params[k] for k in ("language", "framework", "source", "error_type") if params.get(k)
        }
        if params.get("tag"):
            filters["tags"] = [params["tag"]]
        try:
            offset = int(params.get("offset", "0"))
        except ValueError:
            return failed(ApiError(400, "offset must be a whole number"), "memory")
        return await self._answer(
            "memory", lambda hub: memory.list_records(hub, filters, offset=offset)
        )

    async def get_record(self, request: Request) -> Response:
        record_id = request.path_params["record_id"]
        return await self._answer("memory", lambda hub: memory.record_detail(hub, record_id))

    async def set_tags(self, request: Request) -> Response:
        record_id = request.path_params["record_id"]
        try:
            require_write(request)
            tags = (await body(request)).get("tags")
        except Exception as exc:
            return failed(exc, "edit tags")
        return await self._answer("edit tags", lambda hub: memory.set_tags(hub, record_id, tags))

    async def forget(self, request: Request) -> Response:
        record_id = request.path_params["record_id"]
        try:
            require_write(request)
        except Exception as exc:
            return failed(exc, "forget")
        return await self._answer("forget", lambda hub: memory.forget(hub, record_id))

    async def export(self, request: Request) -> Response:
        try:
            text, _ = await self._with_hub(memory.export)
        except Exception as exc:
            return failed(exc, "export")
        return Response(
            text,
            media_type="application/x-ndjson",
            headers={"content-disposition": 'attachment; filename="ctxhub-memory.jsonl"'},
        )

    # -- feedback and the map -----------------------------------------------------------
    async def get_feedback(self, request: Request) -> Response:
        return await self._answer("feedback", feedback.feedback)

    async def get_projection(self, request: Request) -> Response:
        return await self._answer("projection", projection.projection)

    async def not_found(self, request: Request) -> Response:
        return JSONResponse({"error": f"no endpoint {request.url.path}"}, status_code=404)

    def routes(self) -> list[Route]:
        return [
            Route("/api/overview", self.get_overview),
            Route("/api/refresh/{source:str}", self.start_refresh, methods=["POST"]),
            Route("/api/jobs/{job:str}", self.get_job),
            Route("/api/tools", self.get_tools),
            Route("/api/call", self.run_tool, methods=["POST"]),
            Route("/api/chunks/{chunk_id:str}", self.get_chunk),
            Route("/api/rate", self.rate, methods=["POST"]),
            Route("/api/memory", self.list_records),
            Route("/api/memory/export", self.export),
            Route("/api/memory/{record_id:str}", self.get_record),
            Route("/api/memory/{record_id:str}/tags", self.set_tags, methods=["PUT"]),
            Route("/api/memory/{record_id:str}", self.forget, methods=["DELETE"]),
            Route("/api/feedback", self.get_feedback),
            Route("/api/projection", self.get_projection),
            Route("/api/{rest:path}", self.not_found, methods=["GET", "POST", "PUT", "DELETE"]),
        ]
