"""The admin panel's WebSocket API: the `memory/...` commands (docs/websocket_api.md).

Every command is for administrators only (`websocket_api.require_admin`), validated by its
voluptuous schema (unknown keys rejected: HA answers `invalid_format`), registered once per HA run
from async_setup and answered for the loaded entry (`not_loaded` without one). The admin view
(Speaker.administrator) sees every memory, except `memory/search`, which recalls exactly as the
assistant does for the chosen speaker in the chosen room.

Errors: `connection.send_error(id, code, message)` with code `not_found` (no such memory or
tombstone), `invalid_input` (validation: the message translated from strings.json "exceptions" in
Home Assistant's language, with translation_key/translation_placeholders so a client can translate
it into its user's language; `field` names the offending field), `not_loaded`,
`store_unavailable` (the store cannot be reached: nothing was done) or `home_assistant_error`.
Input is checked by validation.py, the same helpers as the memory.* services use. Memories are
rendered by views.py (MemoryView, with who said it); export, import and the settings live in
websocket_transfer.py, the voices (status, assess, enrol, forget) in websocket_voice.py; the
command framework they all use (memory_command, the error codes) in websocket_base.py. This module
registers them all.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import probatio as vol
from homeassistant.components import websocket_api
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import config_validation as cv

from .answers import base_language
from .audience import ADMIN, for_person
from .engine.api import InvalidInput, MemoryEdit
from .engine.inputs import MAX_COUNT, MAX_LANGUAGE_CHARS, MAX_QUERY_CHARS
from .engine.models import Hit, Kind, Memory, Provenance, Scope, Status
from .engine.store.base import MemoryFilter
from .engine_calls import async_recall, async_run
from .responses import MAX_PENDING_LIMIT, async_consolidation_report
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .speaker import acting_as
from .storage import StoreSettings
from .validation import map_invalid, text, whole_number
from .views import async_renderer
from .websocket_base import ID, check_area, check_person, memory_command
from .websocket_transfer import TRANSFER_COMMANDS
from .websocket_voice import VOICE_COMMANDS

DEFAULT_PAGE = 50
MAX_PAGE = 200
DEFAULT_SEARCH_HITS = 10
MAX_SEARCH_HITS = 20
MAX_OFFSET = MAX_COUNT  # a page's offset: the engine's limit of counts (engine/inputs.py)
STATUS_ANY = "any"
# Strings must be strings and numbers whole numbers (validation.text, whole_number): no 5 taken
# for "5", no 1.5 truncated to 1.
_LANGUAGE = vol.All(text, vol.Length(min=1, max=MAX_LANGUAGE_CHARS))
_PAGE: dict[vol.Marker, Any] = {
    vol.Optional("offset", default=0): vol.All(whole_number, vol.Range(min=0, max=MAX_OFFSET)),
    vol.Optional("limit", default=DEFAULT_PAGE): vol.All(whole_number, vol.Range(min=1, max=MAX_PAGE)),
}
_EDITABLE_SCOPES = [Scope.PRIVATE.value, Scope.ROOM.value, Scope.SHARED.value]


@memory_command("overview", {})
async def _overview(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    stats = await async_run(hass, entry.runtime_data.engine.stats)
    settings = StoreSettings.of(entry.data)
    last = entry.runtime_data.last_consolidation
    identity = stats.embedding
    return {
        "counts": {
            "by_scope": stats.by_scope,
            "by_provenance": stats.by_provenance,
            "by_status": stats.by_status,
            "pending": stats.by_status.get(Status.PENDING.value, 0),
            "tombstones": stats.tombstones,
        },
        "last_consolidation": last.isoformat() if last else None,
        "store": {"kind": settings.storage, "where": settings.describe()},
        "encoder": {
            "provider": identity.provider if identity else None,
            "model": identity.model if identity else None,
            "dimension": identity.dimension if identity else None,
        },
    }


def _optional_in(values: list[str]) -> vol.Any:
    return vol.Any(None, vol.In(values))


@memory_command(
    "list",
    {
        vol.Optional("kind"): _optional_in([k.value for k in Kind]),
        vol.Optional("scope"): _optional_in([s.value for s in Scope]),
        vol.Optional("person"): vol.Any(None, ID),
        vol.Optional("area"): vol.Any(None, ID),
        vol.Optional("provenance"): _optional_in([p.value for p in Provenance]),
        vol.Optional("status", default=Status.ACTIVE.value): vol.In([*(s.value for s in Status), STATUS_ANY]),
        vol.Optional("language"): vol.Any(None, _LANGUAGE),
        vol.Optional("said_by"): vol.Any(None, ID),
        **_PAGE,
    },
)
async def _list(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    status = msg["status"]
    where = MemoryFilter(
        kind=Kind(msg["kind"]) if msg.get("kind") else None,
        scope=Scope(msg["scope"]) if msg.get("scope") else None,
        person=msg.get("person"),
        area=msg.get("area"),
        provenance=Provenance(msg["provenance"]) if msg.get("provenance") else None,
        status=None if status == STATUS_ANY else Status(status),
        language=msg.get("language"),
        said_by=msg.get("said_by"),
    )
    engine = entry.runtime_data.engine
    memories, total = await async_run(
        hass, engine.find, ADMIN, where, limit=msg["limit"], offset=msg["offset"]
    )
    view = await async_renderer(hass, engine, memories)
    return {
        "memories": [view(m) for m in memories],
        "total": total,
        "offset": msg["offset"],
        "limit": msg["limit"],
    }


@memory_command(
    "search",
    {
        vol.Required("query"): vol.All(text, vol.Length(min=1, max=MAX_QUERY_CHARS)),
        vol.Optional("person"): vol.Any(None, ID),
        vol.Optional("area"): vol.Any(None, ID),
        vol.Optional("language"): vol.Any(None, _LANGUAGE),
        vol.Optional("limit", default=DEFAULT_SEARCH_HITS): vol.All(
            whole_number, vol.Range(min=1, max=MAX_SEARCH_HITS)
        ),
    },
)
async def _search(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    # the administrator sees what the assistant would tell this speaker (nobody named: an
    # unknown one), and the text of what it would withhold from them
    speaker = acting_as(
        hass, None, check_person(hass, msg.get("person"), "person"), check_area(hass, msg.get("area"), "area")
    )
    language = base_language(msg.get("language") or hass.config.language)
    data = entry.runtime_data
    audience = for_person(data, speaker)
    hits = await async_recall(hass, data, msg["query"], audience, language=language, limit=msg["limit"])
    told = [h for h in hits if not h.withheld]
    kept = [
        replace(h, memory=m)
        for h in hits
        if h.withheld and (m := await _admin_copy(hass, data, h)) is not None
    ]
    view = await async_renderer(hass, data.engine, [h.memory for h in (*told, *kept)])

    def shown(h: Hit) -> dict[str, Any]:
        return {
            "memory": view(h.memory),
            "score": round(h.score, 4),
            "similarity": round(h.similarity, 4),
            "factors": {name: round(value, 4) for name, value in h.factors.items()},
            "outdated_by": h.outdated_by,
        }

    return {"hits": [shown(h) for h in told], "withheld": [shown(h) for h in kept]}


async def _admin_copy(hass: HomeAssistant, data: MemoryRuntimeData, hit: Hit) -> Memory | None:
    """The administrator's copy of a memory withheld from the speaker searched as (None: gone)."""
    return await async_run(hass, data.engine.get, hit.memory.id, ADMIN)


@memory_command("get", {vol.Required("memory_id"): ID})
async def _get(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    chain = await async_run(hass, engine.lineage, msg["memory_id"], ADMIN)
    view = await async_renderer(hass, engine, [chain.memory, *chain.older, *chain.newer])
    return {
        "memory": view(chain.memory),
        "older": [view(m) for m in chain.older],
        "newer": [view(m) for m in chain.newer],
    }


@memory_command(
    "update",
    {
        vol.Required("memory_id"): ID,
        vol.Optional("content"): text,
        vol.Optional("scope"): vol.In(_EDITABLE_SCOPES),
        vol.Optional("owner"): ID,
        vol.Optional("area"): ID,
        vol.Optional("kind"): vol.In([k.value for k in Kind]),
    },
)
async def _update(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    change = MemoryEdit(
        content=msg.get("content"),
        kind=Kind(msg["kind"]) if "kind" in msg else None,
        scope=Scope(msg["scope"]) if "scope" in msg else None,
        owner_id=check_person(hass, msg.get("owner"), "owner"),
        area_id=check_area(hass, msg.get("area"), "area"),
    )
    engine = entry.runtime_data.engine
    try:
        memory = await async_run(hass, engine.edit, msg["memory_id"], change, ADMIN.speaker)
    except InvalidInput as err:  # the engine names its own fields; the command's are these
        fields = {
            "scope_needs_person": "owner",
            "scope_needs_area": "area",
            "owner_needs_private": "owner",
            "area_needs_room": "area",
        }
        raise map_invalid(err, fields.get(err.reason, err.field)) from err
    view = await async_renderer(hass, engine, [memory])
    return {"memory": view(memory)}


@memory_command("pending", {})
async def _pending(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    review = await async_run(hass, engine.pending_review, ADMIN, limit=MAX_PENDING_LIMIT)
    view = await async_renderer(hass, engine, [m for memory, old in review for m in (memory, *old)])
    return {
        "pending": [
            {"memory": view(memory), "replaces": [view(m) for m in replaced]} for memory, replaced in review
        ]
    }


@memory_command("approve", {vol.Required("memory_id"): ID})
async def _approve(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    memory, replaced = await async_run(hass, engine.approve_pending, msg["memory_id"], ADMIN)
    view = await async_renderer(hass, engine, [memory])
    return {"memory": view(memory), "replaced": list(replaced)}


@memory_command("reject", {vol.Required("memory_id"): ID})
async def _reject(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    memory = await async_run(hass, entry.runtime_data.engine.reject, msg["memory_id"], ADMIN)
    return {"forgotten": memory.id}


@memory_command("forget", {vol.Required("memory_id"): ID})
async def _forget(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    memory = await async_run(hass, entry.runtime_data.engine.forget, msg["memory_id"], ADMIN)
    return {"forgotten": memory.id}


@memory_command("forget_person", {vol.Required("person"): ID})
async def _forget_person(
    hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]
) -> dict[str, Any]:
    person = check_person(hass, msg["person"], "person")
    count = await async_run(hass, entry.runtime_data.engine.forget_person, person)
    return {"forgotten": count}


@memory_command("tombstones", dict(_PAGE))
async def _tombstones(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    found, total = await async_run(
        hass, entry.runtime_data.engine.tombstones, limit=msg["limit"], offset=msg["offset"]
    )
    return {
        "tombstones": [
            {
                "id": t.id,
                "scope": t.scope.value,
                "owner_id": t.owner_id,
                "area_id": t.area_id,
                "created_at": t.created_at.isoformat(),
                "lifted_at": t.lifted_at.isoformat() if t.lifted_at else None,
            }
            for t in found
        ],
        "total": total,
    }


@memory_command("lift_tombstone", {vol.Required("tombstone_id"): ID})
async def _lift_tombstone(
    hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]
) -> dict[str, Any]:
    lifted = await async_run(hass, entry.runtime_data.engine.lift_tombstone, msg["tombstone_id"])
    return {"lifted": lifted.id}


@memory_command("consolidate", {vol.Required("dry_run"): cv.boolean})
async def _consolidate(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    return await async_consolidation_report(hass, entry, dry_run=msg["dry_run"], context=msg["context"])


@callback
def async_setup(hass: HomeAssistant) -> None:
    """Register every memory/... command (once per HA run, from the integration's async_setup):
    these, and websocket_transfer's and websocket_voice's."""
    for command in (
        _overview,
        _list,
        _search,
        _get,
        _update,
        _pending,
        _approve,
        _reject,
        _forget,
        _forget_person,
        _tombstones,
        _lift_tombstone,
        _consolidate,
        *TRANSFER_COMMANDS,
        *VOICE_COMMANDS,
    ):
        websocket_api.async_register_command(hass, command)
