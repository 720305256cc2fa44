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
websocket_transfer.py, the voices (status, assess, enrol, forget) in websocket_voice.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import replace
from typing import Any

import probatio as vol
from homeassistant.components import websocket_api
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.const import ERR_HOME_ASSISTANT_ERROR, ERR_NOT_FOUND
from homeassistant.components.websocket_api.decorators import (
    async_response,
    require_admin,
    websocket_command,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.translation import async_get_translations

from .answers import base_language
from .audience import ADMIN, for_person
from .const import DOMAIN
from .engine.api import EngineError, InvalidInput, MemoryEdit
from .engine.inputs import MAX_COUNT, MAX_ID_CHARS, MAX_LANGUAGE_CHARS, MAX_QUERY_CHARS
from .engine.models import Hit, Kind, Memory, Provenance, Scope, Status
from .engine.store.base import MemoryFilter
from .engine_calls import async_recall, async_run
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .services import MAX_PENDING_LIMIT, async_consolidation_report
from .speaker import acting_as, is_person
from .storage import StoreSettings
from .validation import engine_failed, invalid, map_invalid, text, whole_number
from .views import async_renderer

DEFAULT_PAGE = 50
MAX_PAGE = 200
DEFAULT_SEARCH_HITS = 10
MAX_SEARCH_HITS = 20
MAX_OFFSET = MAX_COUNT  # a page's offset: the engine's limit of counts (engine/inputs.py)
STATUS_ANY = "any"
# strings.json exceptions keys answered with these codes (others: invalid_input / the engine's)
CODES = {
    "unknown_memory": ERR_NOT_FOUND,
    "unknown_tombstone": ERR_NOT_FOUND,
    "not_loaded": "not_loaded",
    "store_unreachable": "store_unavailable",
    "store_write_refused": "store_unavailable",
    "store_file_changed": "store_unavailable",
    "store_damaged": "store_unavailable",
    "store_unwritable": "store_unavailable",
    "store_paused": "store_unavailable",
}
ERR_INVALID_INPUT = "invalid_input"

type Handler = Callable[[HomeAssistant, MemoryConfigEntry, dict[str, Any]], Awaitable[dict[str, Any]]]
type Command = Callable[[HomeAssistant, ActiveConnection, dict[str, Any]], None]

# Strings must be strings and numbers whole numbers (validation.text, whole_number): no 5 taken
# for "5", no 1.5 truncated to 1.
_ID = vol.All(text, vol.Length(min=1, max=MAX_ID_CHARS))
_LANGUAGE = vol.All(text, vol.Length(min=1, max=MAX_LANGUAGE_CHARS))
_PAGE: dict[vol.Marker, Any] = {
    vol.Optional("offset", default=0): vol.All(whole_number, vol.Range(min=0, max=MAX_OFFSET)),
    vol.Optional("limit", default=DEFAULT_PAGE): vol.All(whole_number, vol.Range(min=1, max=MAX_PAGE)),
}
_EDITABLE_SCOPES = [Scope.PRIVATE.value, Scope.ROOM.value, Scope.SHARED.value]


def memory_command(
    name: str, schema: dict[Any, Any], *, streams: bool = False
) -> Callable[[Handler], Command]:
    """The WebSocket command `memory/<name>` around `handler(hass, entry, msg) -> result`: admin
    only, `schema` validated, answered for the loaded entry, every failure sent as an error
    (module docstring); msg["context"] is the request's Context (the connection's user).
    streams: the command takes `progress: true`, with which it is answered like a subscription —
    each event the handler sends (msg["send"](event), from any thread) and, last,
    `{"result": result}` as events, then the (empty) result."""

    def decorate(handler: Handler) -> Command:
        extra: dict[Any, Any] = {vol.Optional("progress", default=False): bool} if streams else {}

        @websocket_command({vol.Required("type"): f"{DOMAIN}/{name}", **schema, **extra})
        @require_admin
        @async_response
        async def command(hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]) -> None:
            streaming = bool(msg.get("progress"))
            if streaming:  # the client unsubscribes once it has the result: nothing to cancel
                connection.subscriptions[msg["id"]] = lambda: None

            def send(event: dict[str, Any]) -> None:
                if streaming:
                    hass.loop.call_soon_threadsafe(
                        connection.send_message, websocket_api.event_message(msg["id"], event)
                    )

            try:
                entries = hass.config_entries.async_loaded_entries(DOMAIN)
                if not entries:
                    raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
                result = await handler(
                    hass, entries[0], {**msg, "send": send, "context": connection.context(msg)}
                )
            except InvalidInput as err:
                await async_send_error(hass, connection, msg["id"], map_invalid(err))
            except EngineError as err:
                await async_send_error(hass, connection, msg["id"], engine_failed(err))
            except HomeAssistantError as err:
                await async_send_error(hass, connection, msg["id"], err)
            else:
                if streaming:
                    connection.send_message(websocket_api.event_message(msg["id"], {"result": result}))
                connection.send_result(msg["id"], None if streaming else result)

        return command

    return decorate


async def async_send_error(
    hass: HomeAssistant, connection: ActiveConnection, msg_id: int, err: HomeAssistantError
) -> None:
    """Answer msg_id with the translated error `err` (module docstring: codes)."""
    key = err.translation_key
    placeholders = {k: str(v) for k, v in (err.translation_placeholders or {}).items()}
    code = CODES.get(key or "", ERR_INVALID_INPUT if isinstance(err, ServiceValidationError) else "")
    message = str(err)
    if key is not None:
        translations = await async_get_translations(hass, hass.config.language, "exceptions", [DOMAIN])
        message = translations.get(f"component.{DOMAIN}.exceptions.{key}.message", key)
        with suppress(KeyError, IndexError, ValueError):
            message = message.format(**placeholders)
    connection.send_error(
        msg_id,
        code or ERR_HOME_ASSISTANT_ERROR,
        message,
        translation_key=key,
        translation_domain=DOMAIN if key else None,
        translation_placeholders=placeholders if key else None,
    )


def check_person(hass: HomeAssistant, person: str | None, field: str) -> str | None:
    """`person` when it is an existing person entity (None stays None); else unknown_person."""
    if person is not None and not is_person(hass, person):
        raise invalid("unknown_person", field)
    return person


def check_area(hass: HomeAssistant, area: str | None, field: str) -> str | None:
    """`area` when it is an existing area id (None stays None); else unknown_area."""
    if area is not None and ar.async_get(hass).async_get_area(area) is None:
        raise invalid("unknown_area", field)
    return area


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
        vol.Optional("person"): vol.Any(None, _ID),
        vol.Optional("area"): vol.Any(None, _ID),
        vol.Optional("provenance"): _optional_in([p.value for p in Provenance]),
        vol.Optional("status", default=Status.ACTIVE.value): vol.In([*(s.value for s in Status), STATUS_ANY]),
        vol.Optional("language"): vol.Any(None, _LANGUAGE),
        vol.Optional("said_by"): vol.Any(None, _ID),
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
        vol.Optional("person"): vol.Any(None, _ID),
        vol.Optional("area"): vol.Any(None, _ID),
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


@memory_command("get", {vol.Required("memory_id"): _ID})
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
        vol.Required("memory_id"): _ID,
        vol.Optional("content"): text,
        vol.Optional("scope"): vol.In(_EDITABLE_SCOPES),
        vol.Optional("owner"): _ID,
        vol.Optional("area"): _ID,
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


@memory_command("approve", {vol.Required("memory_id"): _ID})
async def _approve(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    memory, replaced = await async_run(hass, engine.approve_pending, msg["memory_id"], ADMIN)
    view = await async_renderer(hass, engine, [memory])
    return {"memory": view(memory), "replaced": list(replaced)}


@memory_command("reject", {vol.Required("memory_id"): _ID})
async def _reject(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    memory = await async_run(hass, entry.runtime_data.engine.reject, msg["memory_id"], ADMIN)
    return {"forgotten": memory.id}


@memory_command("forget", {vol.Required("memory_id"): _ID})
async def _forget(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    memory = await async_run(hass, entry.runtime_data.engine.forget, msg["memory_id"], ADMIN)
    return {"forgotten": memory.id}


@memory_command("forget_person", {vol.Required("person"): _ID})
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


@memory_command("lift_tombstone", {vol.Required("tombstone_id"): _ID})
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
    """Register every memory/... command (once per HA run, from the integration's async_setup)."""
    from .websocket_transfer import TRANSFER_COMMANDS  # noqa: PLC0415 - it imports this module
    from .websocket_voice import VOICE_COMMANDS  # noqa: PLC0415 - it imports this module

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
