"""The admin panel's WebSocket commands for moving memories in and out and for the learning
switches: memory/export, memory/import, memory/settings, memory/settings/update
(docs/websocket_api.md; the command framework is websocket_base.py's).

Export is a JSON document a person can read: every current memory (MemoryView) with the values it
replaced (`history`), the pending ones, tombstones as counts only (they hold no text), no vectors.
Import takes such a document (anything else is invalid_export; more than MAX_IMPORT memories
import_too_large): each memory is checked like a memory.remember (content, language, scope with
its owner or area, which must exist here; never the system scope) and then written by the
engine's import, which applies remember's own dedup and restatement rules, never brings back what
was forgotten or what has been replaced here, and never replaces the current value of a fact
(MemoryEngine.import_memories). A rejected memory is reported with its reason (a strings.json
exceptions key) and the field it is about. A history entry is for
reading: the import recreates the current and the pending memories (at the time of the import).

The settings ARE the config entry's options (the keys the options flow edits, const.py CONF_*):
read from entry.options with their documented defaults, written with async_update_entry; the
running entry reads its options from runtime_data.options, updated with them.
"""

from __future__ import annotations

from typing import Any

import probatio as vol
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv
from homeassistant.util import dt as dt_util

from .config_flow import validate_options
from .const import (
    CONF_CLOUD_PERSONAL,
    CONF_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS,
    CONF_REVIEW,
    CONF_TRANSCRIPT_RETENTION_DAYS,
    DEFAULT_CLOUD_PERSONAL,
    DEFAULT_LEARNING,
    DEFAULT_REVIEW,
    DEFAULT_TRANSCRIPT_RETENTION_DAYS,
    DOMAIN,
    TRANSCRIPT_RETENTION_RANGE,
)
from .engine.api import MemoryDraft
from .engine.models import Kind, Memory, Provenance, Scope, Source, Speaker, Status
from .engine_calls import async_run
from .runtime import MemoryConfigEntry
from .speaker import is_person
from .validation import LANGUAGE_TAG, REASON_KEYS, invalid, map_invalid, text, whole_in_range
from .views import async_renderer
from .websocket_base import check_area, memory_command

EXPORT_FORMAT = "household-memory/export"
EXPORT_VERSION = 1
MAX_IMPORT = 10_000  # memories per import: a household's lifetime, a bounded request

# Defaults of the settings: the same as the options flow's (config_flow._options_schema).
SETTINGS: dict[str, Any] = {
    CONF_LEARNING: DEFAULT_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS: [],
    CONF_REVIEW: DEFAULT_REVIEW,
    CONF_CLOUD_PERSONAL: DEFAULT_CLOUD_PERSONAL,
    CONF_TRANSCRIPT_RETENTION_DAYS: DEFAULT_TRANSCRIPT_RETENTION_DAYS,
}
SETTINGS_SCHEMA: dict[vol.Marker, Any] = {
    vol.Optional(CONF_LEARNING): cv.boolean,
    vol.Optional(CONF_LEARNING_OPT_OUT_AREAS): vol.All(cv.ensure_list, [text]),
    vol.Optional(CONF_REVIEW): cv.boolean,
    vol.Optional(CONF_CLOUD_PERSONAL): cv.boolean,
    # checked by _settings_update: a whole number in range, else a translated error naming it
    vol.Optional(CONF_TRANSCRIPT_RETENTION_DAYS): object,
}

# One memory of an export as the import reads it: what remember needs; the rest of a MemoryView
# (ids, times, status, history, …) is allowed and left unread.
_NAME = vol.Any(None, text)


def _fraction(value: Any) -> float:
    """A number 0…1 as a float; not a bool, not a string."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise vol.Invalid("expected a number")
    return float(value)


_SAID_BY = vol.Schema({vol.Optional("person_id"): _NAME}, extra=vol.ALLOW_EXTRA)
IMPORTED_MEMORY = vol.Schema(
    {
        vol.Required("content"): text,
        vol.Optional("kind", default=Kind.FACT.value): vol.In([k.value for k in Kind]),
        vol.Required("scope"): vol.In([s.value for s in Scope]),
        vol.Optional("language"): text,
        vol.Optional("provenance", default=Provenance.CONFIRMED.value): vol.In([p.value for p in Provenance]),
        vol.Optional("owner_id"): _NAME,
        vol.Optional("area_id"): _NAME,
        vol.Optional("subject"): _NAME,
        vol.Optional("predicate"): _NAME,
        vol.Optional("value"): _NAME,
        vol.Optional("importance", default=0.5): vol.All(_fraction, vol.Range(min=0, max=1)),
        vol.Optional("source"): _NAME,
        vol.Optional("source_ref"): _NAME,
        vol.Optional("said_by"): vol.Any(None, _SAID_BY),
    },
    extra=vol.ALLOW_EXTRA,
)
EXPORT_SCHEMA = vol.Schema(
    {
        vol.Required("format"): EXPORT_FORMAT,
        vol.Required("version"): EXPORT_VERSION,
        vol.Required("memories"): list,
        vol.Optional("pending", default=[]): list,
    },
    extra=vol.ALLOW_EXTRA,
)


@memory_command("export", {})
async def _export(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    export = await async_run(hass, engine.export)
    everything: list[Memory] = [*export.pending]
    for chain in export.current:
        everything += [chain.memory, *chain.older]
    view = await async_renderer(hass, engine, everything)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": dt_util.utcnow().isoformat(),
        "memories": [
            {**view(chain.memory), "history": [view(m) for m in chain.older]} for chain in export.current
        ],
        "pending": [view(m) for m in export.pending],
        "tombstones": {
            "count": sum(export.tombstones_by_scope.values()),
            "by_scope": export.tombstones_by_scope,
        },
    }


def draft_of(hass: HomeAssistant, item: Any, status: Status) -> MemoryDraft:
    """One exported memory as the draft an import remembers; ServiceValidationError (translated,
    naming the field) when it cannot be: not a memory (invalid_input), the system scope
    (scope_reserved: the integration's own notes), an unknown language tag,
    a private memory's owner or a room memory's area that does not exist here. Who told it is
    kept when that person exists here."""
    try:
        raw = IMPORTED_MEMORY(item)
    except vol.Invalid as err:
        raise invalid("invalid_input", ".".join(str(p) for p in err.path) or "memories") from err
    language = raw.get("language") or hass.config.language
    if not LANGUAGE_TAG.match(language):
        raise invalid("invalid_language", "language")
    scope = Scope(raw["scope"])
    if scope is Scope.SYSTEM:  # the integration's own notes, seen by every speaker (privacy.md)
        raise invalid("scope_reserved", "scope")
    owner = raw.get("owner_id") if scope is Scope.PRIVATE else None
    if scope is Scope.PRIVATE and not is_person(hass, owner):
        raise invalid("unknown_person", "owner_id")
    area = check_area(hass, raw.get("area_id"), "area_id") if scope is Scope.ROOM else None
    if scope is Scope.ROOM and area is None:
        raise invalid("scope_needs_area", "area_id")
    teller = (raw.get("said_by") or {}).get("person_id")
    source = raw.get("source")
    return MemoryDraft(
        raw["content"],
        speaker=Speaker(person_id=teller if is_person(hass, teller) else None),
        scope=scope,
        kind=Kind(raw["kind"]),
        language=language,
        provenance=Provenance(raw["provenance"]),
        source=Source(source) if source in {s.value for s in Source} else Source.ADMIN,
        source_ref=raw.get("source_ref"),
        owner_id=owner,
        area_id=area,
        subject=raw.get("subject"),
        predicate=raw.get("predicate"),
        value=raw.get("value"),
        importance=raw["importance"],
        status=status,
    )


# The field an engine rejection of an imported memory is about (its `field` in the report) where
# the engine names none (an import's own outcomes) or another than the export's key.
IMPORT_FIELDS = {
    "forgotten": "content",
    "conflict": "value",
    "scope_needs_person": "owner_id",
    "scope_needs_area": "area_id",
    "scope_reserved": "scope",
}


def export_of(data: Any) -> dict[str, Any]:
    """`data` as an export (EXPORT_SCHEMA); else invalid_export naming `data` (anything that is
    not one: a list, a string, another document), or import_too_large (more than MAX_IMPORT
    memories and pending ones together)."""
    try:
        export: dict[str, Any] = EXPORT_SCHEMA(data)
    except vol.Invalid as err:
        raise invalid("invalid_export", "data") from err
    if len(export["memories"]) + len(export["pending"]) > MAX_IMPORT:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="import_too_large",
            translation_placeholders={"field": "data", "max": str(MAX_IMPORT)},
        )
    return export


@memory_command("import", {vol.Required("data"): object}, streams=True)
async def _import(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    """Every memory then every pending one of `data`, numbered in that order (`index`); each
    rejected one with its reason (a strings.json exceptions key) and the field it is about. With
    `progress: true`, `{"done", "total"}` events as the engine goes (drafts handled so far; a
    batch at a time), then the result as an event."""
    data = export_of(msg["data"])
    items = [(item, Status.ACTIVE) for item in data["memories"]]
    items += [(item, Status.PENDING) for item in data["pending"]]
    drafts: list[tuple[int, MemoryDraft]] = []
    rejected: list[dict[str, Any]] = []
    for index, (item, status) in enumerate(items):
        try:
            drafts.append((index, draft_of(hass, item, status)))
        except ServiceValidationError as err:
            field = (err.translation_placeholders or {}).get("field")
            rejected.append({"index": index, "reason": err.translation_key, "field": field})
    send = msg["send"]
    report = await async_run(
        hass,
        entry.runtime_data.engine.import_memories,
        [d for _, d in drafts],
        progress=lambda done, total: send({"done": done, "total": total}),
    )
    for i, reason in report.rejected:
        refusal = report.refusals.get(i)
        key = map_invalid(refusal).translation_key if refusal else REASON_KEYS.get(reason, "invalid_input")
        field = IMPORT_FIELDS.get(reason) or (refusal.field if refusal else None)
        rejected.append({"index": drafts[i][0], "reason": key, "field": field})
    return {
        "created": report.created,
        "duplicates": report.duplicates,
        "rejected": sorted(rejected, key=lambda r: r["index"]),
    }


def current_settings(entry: MemoryConfigEntry) -> dict[str, Any]:
    """The learning switches as the entry's options hold them, defaults filled in."""
    return {key: entry.options.get(key, default) for key, default in SETTINGS.items()}


@memory_command("settings", {})
async def _settings(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    return current_settings(entry)


def retention_days(value: Any) -> int:
    """The transcript retention asked for: a whole number within TRANSCRIPT_RETENTION_RANGE, else
    the translated out_of_range error naming the field and the range (nothing is saved)."""
    return whole_in_range(value, CONF_TRANSCRIPT_RETENTION_DAYS, *TRANSCRIPT_RETENTION_RANGE)


@memory_command("settings/update", SETTINGS_SCHEMA)
async def _settings_update(
    hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]
) -> dict[str, Any]:
    changes = {key: msg[key] for key in SETTINGS if key in msg}
    if CONF_TRANSCRIPT_RETENTION_DAYS in changes:
        changes[CONF_TRANSCRIPT_RETENTION_DAYS] = retention_days(changes[CONF_TRANSCRIPT_RETENTION_DAYS])
    if errors := validate_options(hass, changes):  # the options flow's own checks: areas exist
        raise invalid("unknown_area", next(iter(errors)))
    hass.config_entries.async_update_entry(entry, options={**entry.options, **changes})
    entry.runtime_data.options = dict(entry.options)
    return current_settings(entry)


TRANSFER_COMMANDS = (_export, _import, _settings, _settings_update)
