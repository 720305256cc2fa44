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
made only after every check passed). Responses are documented in docs/services.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import probatio as vol
from homeassistant.core import (
    Context,
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.service import async_register_admin_service
from homeassistant.util import dt as dt_util

from .answers import base_language
from .audience import ADMIN, for_person
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
from .engine.api import (
    MAX_CONTENT_CHARS,
    Conflict,
    EngineError,
    InvalidInput,
    MemoryDraft,
)
from .engine.audience import Audience
from .engine.inputs import MAX_QUERY_CHARS
from .engine.models import Hit, Kind, Memory, Provenance, Scope, Source, Speaker
from .engine.text import is_encodable
from .engine.writer import checked_text, scope_for
from .engine_calls import async_recall, async_run
from .judge import async_consolidate
from .recognition import (
    MAX_ENROL_CLIPS,
    MIN_ENROL_CLIPS,
    RECENT_UTTERANCES,
    ClipFormatError,
    ClipProblem,
    EnrolmentReport,
    VoiceRecognizer,
    VoiceTaken,
    async_voice_status,
    read_wav,
    satellite_key,
)
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .speaker import acting_as, is_person, person_for_user
from .storage import StoreSettings, async_default_household, async_validate_postgres
from .validation import LANGUAGE_TAG, engine_failed, invalid, map_invalid, whole_in_range, whole_number

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
ATTR_CLIPS = "clips"
ATTR_SATELLITE = "satellite"
ATTR_UTTERANCES = "utterances"

MAX_RECALL_LIMIT = 50  # a service response, not a prompt block: generous but bounded
DEFAULT_FORGET_CANDIDATES = 3  # as many as a person can choose between when asked
DEFAULT_PENDING_LIMIT = 50  # one review session's worth
MAX_PENDING_LIMIT = 500  # a whole backlog of a chatty household, still a bounded response
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
# What a reviewer needs to decide; owner/area are the caller's own or shared anyway.
PENDING_FIELDS = ("id", "content", "kind", "scope", "language", "created_at")
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


def _runtime(hass: HomeAssistant) -> MemoryRuntimeData:
    """The loaded entry's runtime data (single_config_entry)."""
    if not (entries := hass.config_entries.async_loaded_entries(DOMAIN)):
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    data: MemoryRuntimeData = entries[0].runtime_data
    return data


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


def memory_dict(memory: Memory) -> dict[str, Any]:
    """A memory as service response data (JSON-safe; times ISO 8601 UTC). One withheld from the
    caller (engine/audience.py) has `content` null and `withheld` its reason; told, `withheld`
    is null."""
    return {
        "id": memory.id,
        "content": None if memory.withheld is not None else memory.content,
        "withheld": memory.withheld,
        "kind": memory.kind.value,
        "scope": memory.scope.value,
        "provenance": memory.provenance.value,
        "language": memory.language,
        "person": memory.owner_id,
        "said_by": memory.speaker_id,
        "area": memory.area_id,
        "created_at": memory.created_at.isoformat(),
    }


def conflict_dict(conflict: Conflict) -> dict[str, Any]:
    """A memory a new one may replace: the memory plus the relation and their similarity."""
    return {
        **memory_dict(conflict.memory),
        "relation": conflict.relation.value,
        "similarity": round(conflict.similarity, 4),
    }


def history_dict(memory: Memory) -> dict[str, Any]:
    """One value in a memory's history: memory_dict plus its status, what replaced it and the
    window it was current in (valid_to null: still current)."""
    return {
        **memory_dict(memory),
        "status": memory.status.value,
        "superseded_by": memory.superseded_by,
        "valid_from": (memory.valid_from or memory.created_at).isoformat(),
        "valid_to": None if memory.valid_to is None else memory.valid_to.isoformat(),
    }


# The field a scope the caller cannot have is missing (InvalidInput reasons of writer.resolve_bucket).
SCOPE_NEEDS = {"scope_needs_person": ATTR_PERSON, "scope_needs_area": ATTR_AREA}


def withheld_hits(hits: list[Hit]) -> int:
    """How many recalled memories matched but were withheld from the caller."""
    return sum(hit.withheld for hit in hits)


def hit_dict(hit: Hit) -> dict[str, Any]:
    """A recall hit: the memory plus its score, similarity, the factors behind the score and
    `outdated_by` (the id of a newer memory of the same answer that likely replaces it, or None)."""
    return {
        **memory_dict(hit.memory),
        "score": round(hit.score, 4),
        "similarity": round(hit.similarity, 4),
        "factors": {name: round(value, 4) for name, value in hit.factors.items()},
        "outdated_by": hit.outdated_by,
    }


async def _async_remember(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = _runtime(hass)
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
    data = _runtime(hass)
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
    return {"memories": [hit_dict(hit) for hit in hits if not hit.withheld], "withheld": withheld_hits(hits)}


async def _async_find_to_forget(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    data = _runtime(hass)
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
    data = _runtime(hass)
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
    data = _runtime(call.hass)
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
    data = _runtime(call.hass)
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
    return {
        "memories": [
            {key: value for key, value in memory_dict(m).items() if key in PENDING_FIELDS} for m in memories
        ]
    }


ATTR_DRY_RUN = "dry_run"
CONSOLIDATE_SCHEMA = vol.Schema({vol.Optional(ATTR_DRY_RUN, default=False): cv.boolean})


async def _async_consolidate(call: ServiceCall) -> ServiceResponse:
    """Consolidate now (async_consolidation_report)."""
    entries = call.hass.config_entries.async_loaded_entries(DOMAIN)
    if not entries:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    try:
        return await async_consolidation_report(
            call.hass,
            entries[0],
            dry_run=bool(call.data.get(ATTR_DRY_RUN, False)),
            context=call.context,
            # an administrator's call reads every text; an automation's (no user) is nobody's:
            # what an unknown speaker may not hear stays withheld (engine/audience.py)
            audience=ADMIN if call.context.user_id else Audience(Speaker.administrator()),
        )
    except EngineError as err:
        raise engine_failed(err) from err


async def async_consolidation_report(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    *,
    dry_run: bool,
    context: Context | None = None,
    audience: Audience = ADMIN,
) -> dict[str, Any]:
    """Consolidate now (judge.async_consolidate) and describe it: merged, superseded, pruned and
    the possible conflicts left for a person ({older, newer: {id, content}, similarity}: an
    administrator's view); with dry_run (`dry_run: true`) also what it would merge and supersede
    (`changes`: {id, content, status, by}) and prune (`prune`: ids of inferred guesses), and
    nothing is done; otherwise `judged`: the verdicts the AI Task applied (docs/consolidation.md).
    The same response for memory.consolidate and the panel's memory/consolidate; `context`, the
    request's, tells the judge whether a person asked (judge.async_judge_pairs). Raises
    EngineError."""
    report, judged = await async_consolidate(hass, entry, dry_run=dry_run, context=context)
    ids = [i for c in report.changes for i in (c.memory_id, c.by_id)]
    ids += [i for c in report.conflicts for i in (c.older_id, c.newer_id)]
    memories = await async_run(hass, _memories, entry.runtime_data.engine, ids, audience)

    def brief(memory_id: str) -> dict[str, Any]:
        memory = memories.get(memory_id)
        if memory is None or memory.withheld is not None:
            return {"id": memory_id, "content": None}
        return {"id": memory_id, "content": memory.content}

    response: dict[str, Any] = {
        "merged": report.merged,
        "superseded": report.superseded,
        "pruned": report.pruned,
        "conflicts": [
            {"older": brief(c.older_id), "newer": brief(c.newer_id), "similarity": c.similarity}
            for c in report.conflicts
        ],
    }
    if dry_run:
        response["dry_run"] = True
        response["changes"] = [
            {**brief(c.memory_id), "status": c.status.value, "by": brief(c.by_id)} for c in report.changes
        ]
        response["prune"] = list(report.pruned_ids)  # inferred guesses: ids only
    else:
        response["judged"] = len(judged.applied)
    return response


def _memories(engine: Any, ids: list[str], audience: Audience) -> dict[str, Memory]:
    """The memories of `ids` (any status) told or withheld for `audience`, for the consolidate
    response's texts."""
    found = {mid: engine.get(mid, audience) for mid in dict.fromkeys(ids)}
    return {mid: m for mid, m in found.items() if m is not None}


def recognizer_of(data: MemoryRuntimeData) -> VoiceRecognizer:
    """The entry's voice recognizer; voice_recognition_off when the option is off."""
    if data.recognizer is None:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="voice_recognition_off")
    return data.recognizer


def clip_error(key: str, field: str, clip: str) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders={"field": field, "clip": clip},
    )


def _too_few(field: str, count: int, least: int = MIN_ENROL_CLIPS) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN,
        translation_key="too_few_clips",
        translation_placeholders={"field": field, "count": str(count), "min": str(least)},
    )


async def _async_media_clip(hass: HomeAssistant, media_id: str) -> bytes:
    """The PCM of a media-source WAV file on this machine (media_source.async_resolve_media gives
    its path); clip_unreadable when it does not resolve to a readable local file, clip_format
    when it is not 16-bit mono 16 kHz WAV."""
    from homeassistant.components import media_source  # noqa: PLC0415 - only for enrolment

    if not media_source.is_media_source_id(media_id):
        raise clip_error("clip_unreadable", ATTR_CLIPS, media_id)
    try:
        resolved = await media_source.async_resolve_media(hass, media_id, None)
    except HomeAssistantError as err:  # media_source.Unresolvable, not loaded
        raise clip_error("clip_unreadable", ATTR_CLIPS, media_id) from err
    if resolved.path is None:
        raise clip_error("clip_unreadable", ATTR_CLIPS, media_id)
    try:
        return await hass.async_add_executor_job(read_wav, resolved.path)
    except ClipFormatError as err:
        raise clip_error("clip_format", ATTR_CLIPS, media_id) from err
    except OSError as err:
        raise clip_error("clip_unreadable", ATTR_CLIPS, media_id) from err


def utterance_count(raw: Any) -> int:
    """`utterances` as a whole number MIN_ENROL_CLIPS..RECENT_UTTERANCES (None or empty: all kept);
    invalid_utterances otherwise."""
    if raw is None or not str(raw).strip():
        return RECENT_UTTERANCES
    return whole_in_range(raw, ATTR_UTTERANCES, MIN_ENROL_CLIPS, RECENT_UTTERANCES, "invalid_utterances")


def _satellite(hass: HomeAssistant, value: str) -> str:
    """The recent-utterance key of a satellite given as an entity id or a device id
    (recognition.satellite_key); unknown_satellite when it is neither."""
    if er.async_get(hass).async_get(value) is not None:
        key = satellite_key(hass, satellite_id=value, device_id=None)
    elif dr.async_get(hass).async_get(value) is not None:
        key = value
    else:
        key = None
    if key is None:
        raise invalid("unknown_satellite", ATTR_SATELLITE)
    return key


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
        clips = [(media_id, await _async_media_clip(hass, media_id)) for media_id in media_ids]
        check_repeated(clips, ATTR_CLIPS)
        return ATTR_CLIPS, clips
    if not await _async_is_admin(hass, call):  # what a satellite heard may be anyone's voice
        raise invalid("satellite_enrolment_admin_only", ATTR_SATELLITE)
    count = utterance_count(call.data.get(ATTR_UTTERANCES))
    return ATTR_UTTERANCES, async_satellite_clips(hass, recognizer, satellite, count)


def check_clip_count(count: int, field: str, least: int = MIN_ENROL_CLIPS) -> None:
    """too_few_clips below `least`, too_many_clips above MAX_ENROL_CLIPS, naming `field`."""
    if count < least:
        raise _too_few(field, count, least)
    if count > MAX_ENROL_CLIPS:
        raise invalid("too_many_clips", field)


def check_repeated(clips: list[tuple[str, bytes]], field: str) -> None:
    """clip_repeated for the first clip whose name or audio an earlier clip has (one recording twice)."""
    for index, (name, pcm) in enumerate(clips):
        if any(name == seen or pcm == heard for seen, heard in clips[:index]):
            raise clip_error("clip_repeated", field, name)


@callback
def async_satellite_clips(
    hass: HomeAssistant, recognizer: VoiceRecognizer, satellite: str, count: int
) -> list[tuple[str, bytes]]:
    """[(clip name, PCM)] of the last `count` utterances heard at `satellite` (an entity id or a
    device id), oldest first; unknown_satellite, or too_few_clips (field `utterances`) when fewer
    than MIN_ENROL_CLIPS are kept (recognition.VoiceRecognizer.recent)."""
    heard = recognizer.recent(_satellite(hass, satellite))[-count:]
    if len(heard) < MIN_ENROL_CLIPS:
        raise _too_few(ATTR_UTTERANCES, len(heard))
    return [(f"utterance {i} ({h.text!r})", h.pcm) for i, h in enumerate(heard, 1)]


def _voice_failed(err: Exception) -> HomeAssistantError:
    """The speaker encoder (OSError: its weights cannot be read) or the engine failed."""
    if isinstance(err, EngineError):
        return engine_failed(err)
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key="engine_error",
        translation_placeholders={"error": str(err)},
    )


async def async_assess_voice(
    recognizer: VoiceRecognizer, person: str | None, clips: list[tuple[str, bytes]]
) -> EnrolmentReport:
    """recognizer.async_assess with its failures translated (_voice_failed)."""
    try:
        return await recognizer.async_assess(person, clips)
    except (EngineError, OSError) as err:
        raise _voice_failed(err) from err


async def async_enroll_voice(
    recognizer: VoiceRecognizer, person: str, field: str, clips: list[tuple[str, bytes]]
) -> dict[str, Any]:
    """Enrol `person` from `clips` (checked for count and format already; `field`: where they came
    from, named in the errors): clip_<reason> for a rejected clip, voice_of_another_person,
    or the engine's and the encoder's failures. Returns person, clips (how many), enrolled_at (ISO
    8601 UTC) and report (recognition.EnrolmentReport.as_dict)."""
    try:
        stored, report = await recognizer.async_enroll(person, clips)
    except ClipProblem as err:
        raise clip_error(f"clip_{err.reason}", field, err.clip) from err
    except VoiceTaken as err:  # these clips are someone else's enrolled voice
        raise invalid("voice_of_another_person", field) from err
    except (EngineError, OSError) as err:
        raise _voice_failed(err) from err
    return {
        "person": person,
        "clips": stored.clips,
        "enrolled_at": stored.updated_at.isoformat(),
        "report": report.as_dict(),
    }


async def _async_enroll_voice(call: ServiceCall) -> ServiceResponse:
    """memory.enroll_voice: a person's voiceprint from clips (module docstring); re-enrolment
    replaces. Response: async_enroll_voice's."""
    hass = call.hass
    data = _runtime(hass)
    recognizer = recognizer_of(data)
    person = str(call.data[ATTR_PERSON]).strip()
    if not is_person(hass, person):
        raise invalid("unknown_person", ATTR_PERSON)
    await _async_may_act_for(hass, call, person)
    field, clips = await _async_enroll_clips(hass, call, recognizer)
    return await async_enroll_voice(recognizer, person, field, clips)


async def async_forget_voice(hass: HomeAssistant, data: MemoryRuntimeData, person: str) -> dict[str, Any]:
    """Delete `person`'s voiceprint. Returns person, forgotten (bool: there was one)."""
    try:
        forgotten = await async_run(hass, data.engine.forget_voice, person)
    except InvalidInput as err:
        raise map_invalid(err, ATTR_PERSON) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"person": person, "forgotten": forgotten}


async def _async_forget_voice(call: ServiceCall) -> ServiceResponse:
    """memory.forget_voice: delete a person's voiceprint (async_forget_voice)."""
    person = str(call.data[ATTR_PERSON]).strip()
    await _async_may_act_for(call.hass, call, person)
    return await async_forget_voice(call.hass, _runtime(call.hass), person)


async def async_voices(hass: HomeAssistant, data: MemoryRuntimeData) -> dict[str, Any]:
    """Whether voice recognition is on and, per person, enrolled, clips and when
    (recognition.async_voice_status; never a vector)."""
    try:
        voices = await async_voice_status(hass, data.engine)
    except EngineError as err:
        raise engine_failed(err) from err
    return {"recognition": data.recognizer is not None, "voices": voices}


async def _async_voice_status(call: ServiceCall) -> ServiceResponse:
    """memory.voice_status: async_voices."""
    return await async_voices(call.hass, _runtime(call.hass))


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
    from .engine.transfer import TargetNotEmpty  # noqa: PLC0415
    from .move import EntryNotLoaded, async_move_store  # noqa: PLC0415 - the engine factory

    hass = call.hass
    if not (entries := hass.config_entries.async_loaded_entries(DOMAIN)):
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    target = await _async_move_target(hass, call, entries[0].data[CONF_ANCHOR_KEY])
    field = CONF_DB_URL if target.storage == STORAGE_POSTGRESQL else CONF_DB_PATH
    try:
        report = await async_move_store(hass, entries[0], target)
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
