"""How the admin panel's WebSocket API (websocket_api.py) shows a memory: the MemoryView, with
who said it, where and when (docs/websocket_api.md).

`said_by` names the person who told it (the memory's speaker_id, their name from the person's
state), the room (for a memory learned in or told to a conversation: the area of that
conversation's turns as the transcripts kept it, the satellite's; otherwise the memory's own area)
and the time (created_at). Names are read from HA at render time; a deleted person or area keeps
its id with a null name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar

from .engine.engine import MemoryEngine
from .engine.models import Memory, Role, Source
from .engine_calls import async_run
from .speaker import person_names

# Memories whose source_ref is a conversation id (intents.py, extraction): their room is the
# satellite's area of that conversation.
CONVERSATION_SOURCES = frozenset({Source.VOICE, Source.EXTRACTION})

type MemoryView = dict[str, Any]


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat()


def conversation_areas(engine: MemoryEngine, conversation_ids: Iterable[str]) -> dict[str, str | None]:
    """Blocking: per conversation id the area of its first user turn that has one (None when the
    transcript has none or was purged)."""
    out: dict[str, str | None] = {}
    for conversation_id in conversation_ids:
        turns = engine.conversation(conversation_id)
        out[conversation_id] = next(
            (t.area_id for t in turns if t.role is Role.USER and t.area_id is not None), None
        )
    return out


async def async_renderer(
    hass: HomeAssistant, engine: MemoryEngine, memories: Iterable[Memory]
) -> Callable[[Memory], MemoryView]:
    """A function rendering each of `memories` (and any other memory, without a conversation's
    room then) as a MemoryView: the conversations they came from are read once, in the executor."""
    refs = {m.source_ref for m in memories if m.source in CONVERSATION_SOURCES and m.source_ref is not None}
    rooms = await async_run(hass, conversation_areas, engine, refs) if refs else {}
    names = person_names(hass)
    areas = ar.async_get(hass)

    def area_name(area_id: str | None) -> str | None:
        area = areas.async_get_area(area_id) if area_id else None
        return area.name if area is not None else None

    def view(memory: Memory) -> MemoryView:
        room = memory.area_id
        if memory.source in CONVERSATION_SOURCES and memory.source_ref is not None:
            room = rooms.get(memory.source_ref) or memory.area_id
        return {
            "id": memory.id,
            "content": memory.content,
            "kind": memory.kind.value,
            "language": memory.language,
            "provenance": memory.provenance.value,
            "scope": memory.scope.value,
            "owner_id": memory.owner_id,
            "area_id": memory.area_id,
            "status": memory.status.value,
            "sensitive": memory.sensitive,
            "importance": memory.importance,
            "confidence": memory.confidence,
            "subject": memory.subject,
            "predicate": memory.predicate,
            "value": memory.value,
            "created_at": _iso(memory.created_at),
            "updated_at": _iso(memory.updated_at),
            "valid_from": _iso(memory.valid_from),
            "valid_to": _iso(memory.valid_to),
            "superseded_by": memory.superseded_by,
            "source": memory.source.value,
            "source_ref": memory.source_ref,
            "said_by": {
                "person_id": memory.speaker_id,
                "person_name": names.get(memory.speaker_id) if memory.speaker_id else None,
                "area_id": room,
                "area_name": area_name(room),
                "at": _iso(memory.created_at),
            },
        }

    return view
