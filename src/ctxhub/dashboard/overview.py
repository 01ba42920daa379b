"""The overview: every source with its state, the store, the model, memory in numbers."""

from __future__ import annotations

from typing import Any

from ctxhub.app.sources import known_sources
from ctxhub.session import HubSession
from ctxhub.sources.base import ADD_COMMAND, SOURCE_FORMS
from ctxhub.tools.hub_status import get_hub_status

#: What an empty hub's page says (the issue's wording, the CLI's command).
EMPTY_MESSAGE = f"add a source: {ADD_COMMAND} ({SOURCE_FORMS})"


def overview(hub: HubSession) -> dict[str, Any]:
    """get_hub_status's report, plus for each source whether the page can refresh it
    (the store recorded its manifest entry) and where it is defined."""
    status = get_hub_status(hub)
    known = {k.name: k for k in known_sources(hub.store, hub.settings.home)}
    data = status.model_dump(mode="json")
    for source in data["sources"]:
        found = known.get(source["name"])
        source["refreshable"] = found is not None and found.spec is not None
        source["where"] = found.where if found is not None else None
    empty = not status.sources and status.chunks == 0
    data["empty"] = empty
    data["empty_message"] = EMPTY_MESSAGE if empty else None
    return data
