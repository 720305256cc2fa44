"""The memory.* services (actions) for automations, scripts and the developer tools.

Who is speaking (the visibility rule's input, docs/design.md §5):
- person: the `person` field (a person entity id) when given, else the caller's HA user's person
  (context.user_id), else unknown. A non-admin user may only speak as their own person.
- area: the `area` field (an area id) when given, else none.
memory.recall may look back: `as_of` (a date and time; without a zone it is HA's time zone) recalls
the memories current then; memory.history lists a memory's values over time.
memory.consolidate is for administrators only (HA's admin-service check: Unauthorized otherwise).
memory.move_store (administrators only) copies every memory to another store, verifies it and
switches to it (move.py); the response has the rows and checksum of each table.
Voices: memory.enroll_voice (a person and at least MIN_ENROL_CLIPS clips: WAV files through media
source, or the last utterances heard at a satellite; re-enrolment replaces), memory.forget_voice
and memory.voice_status; like the person field elsewhere, a non-admin user may only enrol or forget
their own voice (an enrolled voice reads that person's private memories).
Bad input raises ServiceValidationError with a translation key from strings.json "exceptions"
and the offending field as the `field` placeholder; nothing is written then (one engine call,
made only after every check passed). Responses are documented in docs/services.md; their shapes,
shared with the panel, are responses.py's, and voice enrolment's checks voice_enrolment.py's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import probatio as vol
from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.service import async_register_admin_service
from homeassistant.util import dt as dt_util

from .answers import base_language
from .audience import ADMIN, UNATTENDED_ADMIN, for_person
from .const import (
    CONF_ANCHOR_KEY,
    CONF_DB_PATH,
    CONF_DB_URL,
    CONF_HOUSEHOLD,
    CONF_STORAGE,
    DOMAIN,
    STORAGE_POSTGRESQL,
    STORAGE_SQLITE,
)
from .engine.api import MAX_CONTENT_CHARS, EngineError, InvalidInput, MemoryDraft
from .engine.audience import withheld_count
from .engine.inputs import MAX_QUERY_CHARS
from .engine.models import Kind, Provenance, Scope, Source, Speaker
from .engine.text import is_encodable
from .engine.transfer import TargetNotEmpty
from .engine.writer import checked_text, scope_for
from .engine_calls import async_recall, async_run
from .move import EntryNotLoaded, async_move_store
from .recognition import VoiceRecognizer
from .responses import (
    DEFAULT_PENDING_LIMIT,
    MAX_PENDING_LIMIT,
    async_consolidation_report,
    conflict_dict,
    history_dict,
    hit_dict,
    memory_dict,
    pending_dict,
)
from .runtime import MemoryRuntimeData, loaded_entry
from .speaker import acting_as, is_person, person_for_user
from .storage import StoreSettings, async_default_household, async_validate_postgres
from .validation import LANGUAGE_TAG, engine_failed, invalid, map_invalid, whole_number
from .voice_enrolment import (
    ATTR_CLIPS,
    ATTR_SATELLITE,
    ATTR_UTTERANCES,
    async_enroll_voice,
    async_forget_voice,
    async_media_clip,
    async_satellite_clips,
    async_voices,
    check_clip_count,
    check_repeated,
    recognizer_of,
    utterance_count,
)

SERVICE_REMEMBER = "remember"
SERVICE_RECALL = "recall"
SERVICE_FIND_TO_FORGET = "find_to_forget"
SERVICE_FORGET = "forget"
SERVICE_FORGET_PERSON = "forget_person"
SERVICE_APPROVE = "approve"  # review mode: a pending extracted memory becomes active
SERVICE_REJECT = "reject"  # review mode: a pending extracted memory is forgotten (tombstone)
SERVICE_LIST_PENDING = "list_pending"  # review mode: what awaits approve/reject
SERVICE_CONSOLIDATE = "consolidate"  # admin: merge paraphrases, supersede old values, prune guesses
SERVICE_HISTORY = "history"  # a memory's values over time, newest first
SERVICE_ENROLL_VOICE = "enroll_voice"  # a person's voiceprint from clips or recent utterances
SERVICE_FORGET_VOICE = "forget_voice"
SERVICE_VOICE_STATUS = "voice_status"  # per person: enrolled, clips, when (no vectors)

ATTR_CONTENT = "content"
ATTR_KIND = "kind"
ATTR_SCOPE = "scope"
ATTR_PERSON = "person"
ATTR_AREA = "area"
ATTR_LANGUAGE = "language"
ATTR_OBSERVED = "observed"
ATTR_QUERY = "query"
ATTR_LIMIT = "limit"
ATTR_MEMORY_ID = "memory_id"
ATTR_REPLACES = "replaces"
ATTR_AS_OF = "as_of"

MAX_RECALL_LIMIT = 50  # a service response, not a prompt block: generous but bounded
DEFAULT_FORGET_CANDIDATES = 3  # as many as a person can choose between when asked
# Empty strings count as "not given" (UI forms and blueprint inputs send them).
_SPEAKER_FIELDS: dict[vol.Marker, Any] = {
    vol.Optional(ATTR_PERSON): vol.Any(None, cv.string),
    vol.Optional(ATTR_AREA): vol.Any(None, cv.string),
}
REMEMBER_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_CONTENT): cv.string,
        vol.Optional(ATTR_KIND, default=Kind.FACT.value): vol.In([k.value for k in Kind]),
        # not given: the one rule every door uses (writer.scope_for)
        vol.Optional(ATTR_SCOPE): vol.In([Scope.PRIVATE.value, Scope.ROOM.value, Scope.SHARED.value]),
        vol.Optional(ATTR_LANGUAGE): cv.string,
        vol.Optional(ATTR_OBSERVED, default=False): cv.boolean,
        # ids of current memories this one replaces (a list, or one id; empty: none)
        vol.Optional(ATTR_REPLACES, default=[]): vol.All(cv.ensure_list, [cv.string]),
        **_SPEAKER_FIELDS,
    }
)
FIND_TO_FORGET_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_QUERY): cv.string,
        vol.Optional(ATTR_LIMIT): vol.All(whole_number, vol.Range(min=1, max=MAX_RECALL_LIMIT)),
        **_SPEAKER_FIELDS,
    }
)
# as_of is parsed by _as_of (not cv.datetime): a ServiceValidationError naming the field.
RECALL_SCHEMA = FIND_TO_FORGET_SCHEMA.extend({vol.Optional(ATTR_AS_OF): vol.Any(None, cv.string)})
FORGET_SCHEMA = vol.Schema({vol.Required(ATTR_MEMORY_ID): cv.string, **_SPEAKER_FIELDS})
FORGET_PERSON_SCHEMA = vol.Schema({vol.Required(ATTR_PERSON): cv.string})
# limit is checked by _pending_limit (not vol.Range): a ServiceValidationError naming the field.
LIST_PENDING_SCHEMA = vol.Schema({vol.Optional(ATTR_LIMIT): vol.Any(None, cv.string), **_SPEAKER_FIELDS})
HISTORY_SCHEMA = FORGET_SCHEMA
# utterances is checked by utterance_count (not vol.Range): a ServiceValidationError naming the field.
ENROLL_VOICE_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_PERSON): cv.string,
        vol.Optional(ATTR_CLIPS): vol.Any(None, vol.All(cv.ensure_list, [cv.string])),  # <= MAX_ENROL_CLIPS
        vol.Optional(ATTR_SATELLITE): vol.Any(None, cv.string),
        vol.Optional(ATTR_UTTERANCES): vol.Any(None, cv.string, int),
    }
)
FORGET_VOICE_SCHEMA = FORGET_PERSON_SCHEMA
VOICE_STATUS_SCHEMA = vol.Schema({})


async def _async_speaker(hass: HomeAssistant, call: ServiceCall) -> Speaker:
    """Validate `person`/`area` and resolve the caller (module docstring)."""
    person = call.data.get(ATTR_PERSON) or None
    if person is not None and not is_person(hass, person):
        raise invalid("unknown_person", ATTR_PERSON)
    area = call.data.get(ATTR_AREA) or None
    if area is not None and ar.async_get(hass).async_get_area(area) is None:
        raise invalid("unknown_area", ATTR_AREA)
    if person is not None:
        await _async_may_act_for(hass, call, person)
    return acting_as(hass, call.context, person, area)


async def _async_may_act_for(hass: HomeAssistant, call: ServiceCall, person: str) -> None:
    """person_not_allowed unless the caller is that person's user, an administrator, or no user
    (an automation)."""
    if person != person_for_user(hass, call.context.user_id) and not await _async_is_admin(hass, call):
        raise invalid("person_not_allowed", ATTR_PERSON)


async def _async_is_admin(hass: HomeAssistant, call: ServiceCall) -> bool:
    """True for an administrator's call or one without a user (an automation, a script)."""
    if call.context.user_id is None:
        return True
    user = await hass.auth.async_get_user(call.context.user_id)
    return user is not None and user.is_admin


def _text(call: ServiceCall, field: str, limit: int) -> str:
    """The field's text without invisible edges; invalid_text (lone surrogates), empty_content
    (nothing visible: whitespace, zero-width and format characters only) or content_too_long."""
    try:
        return checked_text(field, str(call.data[field]), limit)
    except InvalidInput as err:
        raise map_invalid(err) from err


def _pending_limit(call: ServiceCall) -> int:
    """`limit` as a whole number 1..MAX_PENDING_LIMIT (default when absent or empty);
    invalid_limit otherwise (text, fractions, out of range)."""
    raw = call.data.get(ATTR_LIMIT)
    if raw is None or not str(raw).strip():
        return DEFAULT_PENDING_LIMIT
    try:
        value = float(str(raw).strip())
    except ValueError:
        value = 0.5  # not a number: fails the whole-number check below
    if not value.is_integer() or not 1 <= value <= MAX_PENDING_LIMIT:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="invalid_limit",
            translation_placeholders={"field": ATTR_LIMIT, "max": str(MAX_PENDING_LIMIT)},
        )
    return int(value)


def _as_of(call: ServiceCall) -> datetime | None:
    """`as_of` as an aware UTC datetime (None when absent or empty): a date and time as
    dt_util.parse_datetime reads it (ISO 8601, "2026-11-23 09:00"; a date alone is its midnight);
    without a zone it is in HA's time zone. invalid_datetime otherwise."""
    raw = call.data.get(ATTR_AS_OF)
    if raw is None or not str(raw).strip():
        return None
    try:
        moment = dt_util.parse_datetime(str(raw).strip(), raise_on_error=True)
    except ValueError:
        moment = None
    if moment is None:
        raise invalid("invalid_datetime", ATTR_AS_OF)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt_util.get_default_time_zone())
    try:
        return dt_util.as_utc(moment)
    except OverflowError:  # the first or last day of the calendar in a zone ahead of or behind UTC
        raise invalid("invalid_datetime", ATTR_AS_OF) from None


# The field a scope the caller cannot have is missing (InvalidInput reasons of writer.resolve_bucket).
SCOPE_NEEDS = {"scope_needs_person": ATTR_PERSON, "scope_needs_area": ATTR_AREA}


async def _async_remember(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = loaded_entry(hass).runtime_data
    content = _text(call, ATTR_CONTENT, MAX_CONTENT_CHARS)
    speaker = await _async_speaker(hass, call)
    language = call.data.get(ATTR_LANGUAGE) or hass.config.language
    if not LANGUAGE_TAG.match(language):
        raise invalid("invalid_language", ATTR_LANGUAGE)
    given = call.data.get(ATTR_SCOPE)
    scope = Scope(given) if given else scope_for(content, base_language(language), speaker)
    observed = call.data[ATTR_OBSERVED]
    try:
        result = await async_run(
            hass,
            data.engine.remember,
            MemoryDraft(
                content,
                speaker=speaker,
                scope=scope,
                kind=Kind(call.data[ATTR_KIND]),
                language=language,
                provenance=Provenance.OBSERVED if observed else Provenance.CONFIRMED,
                source=Source.AUTOMATION if observed else Source.SERVICE,
                source_ref=call.context.id,
                replaces=tuple(r.strip() for r in call.data[ATTR_REPLACES]),
            ),
            for_person(data, speaker),
        )
    except InvalidInput as err:
        # a scope the caller cannot have names the field that is missing (`person`, `area`)
        raise map_invalid(err, SCOPE_NEEDS.get(err.reason)) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {
        "memory": memory_dict(result.memory),
        "action": result.action.value,
        "lifted_tombstones": result.lifted_tombstones,
        "sensitive": result.sensitive,
        "superseded": list(result.superseded),
        # current memories this one likely replaces, left current: call again with `replaces`
        "conflicts": [conflict_dict(c) for c in result.conflicts],
    }


async def _async_recall(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = loaded_entry(hass).runtime_data
    if not is_encodable(str(call.data[ATTR_QUERY])):
        return {"memories": []}  # recall never fails on text (invariant 2); nothing can match it
    query = _text(call, ATTR_QUERY, MAX_QUERY_CHARS)
    as_of = _as_of(call)
    speaker = await _async_speaker(hass, call)
    overrides: dict[str, Any] = {"limit": call.data[ATTR_LIMIT]} if ATTR_LIMIT in call.data else {}
    if as_of is not None:
        overrides["as_of"] = as_of
    # an automation's query is taken to be in the installation's language (full-text stems)
    hits = await async_recall(
        hass,
        data,
        query,
        for_person(data, speaker),
        language=base_language(hass.config.language),
        **overrides,
    )
    return {
        "memories": [hit_dict(hit) for hit in hits if not hit.withheld],
        "withheld": withheld_count(hit.memory for hit in hits),
    }


async def _async_find_to_forget(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = loaded_entry(hass).runtime_data
    query = _text(call, ATTR_QUERY, MAX_QUERY_CHARS)
    speaker = await _async_speaker(hass, call)
    limit = call.data.get(ATTR_LIMIT, DEFAULT_FORGET_CANDIDATES)
    try:
        hits = await async_run(hass, data.engine.find_to_forget, query, for_person(data, speaker), limit)
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"candidates": [hit_dict(hit) for hit in hits]}


async def _async_forget(call: ServiceCall) -> ServiceResponse:
    data, memory_id, speaker = await _async_memory_id(call)
    try:
        memory = await async_run(call.hass, data.engine.forget, memory_id, for_person(data, speaker))
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"forgotten": memory_dict(memory)}


async def _async_forget_person(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = loaded_entry(hass).runtime_data
    speaker = await _async_speaker(hass, call)  # a non-admin user may only forget themselves
    if speaker.person_id is None:
        raise invalid("unknown_person", ATTR_PERSON)
    try:
        count = await async_run(hass, data.engine.forget_person, speaker.person_id)
    except InvalidInput as err:
        raise map_invalid(err, ATTR_PERSON) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"person": speaker.person_id, "forgotten": count}


async def _async_memory_id(call: ServiceCall) -> tuple[MemoryRuntimeData, str, Speaker]:
    data = loaded_entry(call.hass).runtime_data
    speaker = await _async_speaker(call.hass, call)
    memory_id = call.data[ATTR_MEMORY_ID].strip()
    if not is_encodable(memory_id):
        raise invalid("invalid_text", ATTR_MEMORY_ID)
    return data, memory_id, speaker


async def _async_approve(call: ServiceCall) -> ServiceResponse:
    data, memory_id, speaker = await _async_memory_id(call)
    try:
        memory = await async_run(call.hass, data.engine.approve, memory_id, for_person(data, speaker))
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"approved": memory_dict(memory)}


async def _async_reject(call: ServiceCall) -> ServiceResponse:
    data, memory_id, speaker = await _async_memory_id(call)
    try:
        forgotten = await async_run(call.hass, data.engine.reject, memory_id, for_person(data, speaker))
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"rejected": memory_dict(forgotten)}


async def _async_history(call: ServiceCall) -> ServiceResponse:
    data, memory_id, speaker = await _async_memory_id(call)
    try:
        memories = await async_run(call.hass, data.engine.history, memory_id, for_person(data, speaker))
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"history": [history_dict(m) for m in memories]}


async def _async_list_pending(call: ServiceCall) -> ServiceResponse:
    data = loaded_entry(call.hass).runtime_data
    limit = _pending_limit(call)
    speaker = await _async_speaker(call.hass, call)
    try:
        memories = await async_run(
            call.hass, data.engine.list_pending, for_person(data, speaker), limit=limit
        )
    except InvalidInput as err:
        raise map_invalid(err) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"memories": [pending_dict(m) for m in memories]}


ATTR_DRY_RUN = "dry_run"
CONSOLIDATE_SCHEMA = vol.Schema({vol.Optional(ATTR_DRY_RUN, default=False): cv.boolean})


async def _async_consolidate(call: ServiceCall) -> ServiceResponse:
    """Consolidate now (async_consolidation_report)."""
    entry = loaded_entry(call.hass)
    try:
        return await async_consolidation_report(
            call.hass,
            entry,
            dry_run=bool(call.data.get(ATTR_DRY_RUN, False)),
            context=call.context,
            audience=ADMIN if call.context.user_id else UNATTENDED_ADMIN,
        )
    except EngineError as err:
        raise engine_failed(err) from err


async def _async_enroll_clips(
    hass: HomeAssistant, call: ServiceCall, recognizer: VoiceRecognizer
) -> tuple[str, list[tuple[str, bytes]]]:
    """(the field the clips came from, [(clip name, PCM)]) from `clips` or `satellite` +
    `utterances`; every format and count checked before anything is embedded."""
    media_ids = [m.strip() for m in call.data.get(ATTR_CLIPS) or [] if m and m.strip()]
    satellite = (call.data.get(ATTR_SATELLITE) or "").strip()
    if bool(media_ids) == bool(satellite):
        raise invalid("enroll_needs_clips", ATTR_CLIPS)
    if media_ids:
        check_clip_count(len(media_ids), ATTR_CLIPS)
        clips = [(media_id, await async_media_clip(hass, media_id)) for media_id in media_ids]
        check_repeated(clips, ATTR_CLIPS)
        return ATTR_CLIPS, clips
    if not await _async_is_admin(hass, call):  # what a satellite heard may be anyone's voice
        raise invalid("satellite_enrolment_admin_only", ATTR_SATELLITE)
    count = utterance_count(call.data.get(ATTR_UTTERANCES))
    return ATTR_UTTERANCES, async_satellite_clips(hass, recognizer, satellite, count)


async def _async_enroll_voice(call: ServiceCall) -> ServiceResponse:
    """memory.enroll_voice: a person's voiceprint from clips (module docstring); re-enrolment
    replaces. Response: async_enroll_voice's."""
    hass = call.hass
    data = loaded_entry(hass).runtime_data
    recognizer = recognizer_of(data)
    person = str(call.data[ATTR_PERSON]).strip()
    if not is_person(hass, person):
        raise invalid("unknown_person", ATTR_PERSON)
    await _async_may_act_for(hass, call, person)
    field, clips = await _async_enroll_clips(hass, call, recognizer)
    return await async_enroll_voice(recognizer, person, field, clips)


async def _async_forget_voice(call: ServiceCall) -> ServiceResponse:
    """memory.forget_voice: delete a person's voiceprint (async_forget_voice)."""
    person = str(call.data[ATTR_PERSON]).strip()
    await _async_may_act_for(call.hass, call, person)
    return await async_forget_voice(call.hass, loaded_entry(call.hass).runtime_data, person, ATTR_PERSON)


async def _async_voice_status(call: ServiceCall) -> ServiceResponse:
    """memory.voice_status: async_voices."""
    return await async_voices(call.hass, loaded_entry(call.hass).runtime_data)


SERVICE_MOVE_STORE = "move_store"  # admin: copy everything to another store, verify, switch
MOVE_STORE_SCHEMA = vol.Schema(
    {
        vol.Required(CONF_STORAGE): vol.In([STORAGE_SQLITE, STORAGE_POSTGRESQL]),
        vol.Optional(CONF_DB_PATH): vol.Any(None, cv.string),
        vol.Optional(CONF_DB_URL): vol.Any(None, cv.string),
        vol.Optional(CONF_HOUSEHOLD): vol.Any(None, cv.string),
    }
)


async def _async_move_target(hass: HomeAssistant, call: ServiceCall, key: str) -> StoreSettings:
    """The target store of memory.move_store, checked: missing_field for an empty db_path/db_url
    (household defaults to this installation's key), the server's problem for a PostgreSQL URL
    (storage.async_validate_postgres: one translated key per reason, naming db_url), a household
    claimed with another anchor key than `key` (the entry's: the moved tombstones were made with
    it) naming household."""
    if call.data[CONF_STORAGE] == STORAGE_SQLITE:
        if not (path := str(call.data.get(CONF_DB_PATH) or "").strip()):
            raise invalid("missing_field", CONF_DB_PATH)
        return StoreSettings(STORAGE_SQLITE, db_path=path)
    if not str(call.data.get(CONF_DB_URL) or "").strip():
        raise invalid("missing_field", CONF_DB_URL)
    household = str(call.data.get(CONF_HOUSEHOLD) or "").strip() or await async_default_household(hass)
    settings, errors, _ = await async_validate_postgres(
        hass, {CONF_DB_URL: call.data[CONF_DB_URL], CONF_HOUSEHOLD: household}, None, key
    )
    if errors:
        field, reason = next(iter(errors.items()))
        if field == CONF_ANCHOR_KEY:
            raise invalid(reason, CONF_HOUSEHOLD)
        raise invalid(f"server_{reason}", CONF_DB_URL if field == "base" else field)
    return settings


async def _async_move_store(call: ServiceCall) -> ServiceResponse:
    """memory.move_store: move every memory to the target store, verify, switch (move.py).
    Response: {"storage", "store" (password-free), "tables": {table: {"rows", "checksum"}}}."""
    hass = call.hass
    entry = loaded_entry(hass)
    target = await _async_move_target(hass, call, entry.data[CONF_ANCHOR_KEY])
    field = CONF_DB_URL if target.storage == STORAGE_POSTGRESQL else CONF_DB_PATH
    try:
        report = await async_move_store(hass, entry, target)
    except EntryNotLoaded as err:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded") from err
    except TargetNotEmpty as err:
        raise invalid("target_not_empty", field) from err
    except EngineError as err:  # StoreUnavailable or MoveMismatch: the old store stays in use, intact
        raise HomeAssistantError(
            translation_domain=DOMAIN,
            translation_key="move_failed",
            translation_placeholders={"field": field, "error": str(err)},
        ) from err
    tables: dict[str, Any] = report.as_dict()
    return {"storage": target.storage, "store": target.describe(), "tables": tables}


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the memory.* services (once, from async_setup)."""
    for name, handler, schema, response in (
        (SERVICE_REMEMBER, _async_remember, REMEMBER_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_RECALL, _async_recall, RECALL_SCHEMA, SupportsResponse.ONLY),
        (SERVICE_FIND_TO_FORGET, _async_find_to_forget, FIND_TO_FORGET_SCHEMA, SupportsResponse.ONLY),
        (SERVICE_FORGET, _async_forget, FORGET_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_FORGET_PERSON, _async_forget_person, FORGET_PERSON_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_APPROVE, _async_approve, FORGET_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_REJECT, _async_reject, FORGET_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_LIST_PENDING, _async_list_pending, LIST_PENDING_SCHEMA, SupportsResponse.ONLY),
        (SERVICE_HISTORY, _async_history, HISTORY_SCHEMA, SupportsResponse.ONLY),
        (SERVICE_ENROLL_VOICE, _async_enroll_voice, ENROLL_VOICE_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_FORGET_VOICE, _async_forget_voice, FORGET_VOICE_SCHEMA, SupportsResponse.OPTIONAL),
        (SERVICE_VOICE_STATUS, _async_voice_status, VOICE_STATUS_SCHEMA, SupportsResponse.ONLY),
    ):
        hass.services.async_register(DOMAIN, name, handler, schema=schema, supports_response=response)
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_CONSOLIDATE,
        _async_consolidate,
        schema=CONSOLIDATE_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_MOVE_STORE,
        _async_move_store,
        schema=MOVE_STORE_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
