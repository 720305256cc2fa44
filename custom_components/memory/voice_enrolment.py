"""Voice enrolment's checks and answers, shared by the memory.enroll_voice, forget_voice and
voice_status services (services.py) and the panel's memory/voice/* commands (websocket_voice.py):
the clips' count, repeats and format, a satellite's recent utterances, assessment and enrolment
through recognition.VoiceRecognizer with their failures translated, and the voices' status.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN
from .engine.api import EngineError, InvalidInput
from .engine_calls import async_run
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
from .runtime import MemoryRuntimeData
from .validation import engine_failed, invalid, map_invalid, whole_in_range

# Where enrolment clips come from, in the service's fields and the panel's messages alike.
ATTR_CLIPS = "clips"
ATTR_SATELLITE = "satellite"
ATTR_UTTERANCES = "utterances"


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


async def async_media_clip(hass: HomeAssistant, media_id: str) -> bytes:
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


async def async_forget_voice(
    hass: HomeAssistant, data: MemoryRuntimeData, person: str, field: str
) -> dict[str, Any]:
    """Delete `person`'s voiceprint (`field`: where the person was named, in the errors). Returns
    person, forgotten (bool: there was one)."""
    try:
        forgotten = await async_run(hass, data.engine.forget_voice, person)
    except InvalidInput as err:
        raise map_invalid(err, field) from err
    except EngineError as err:
        raise engine_failed(err) from err
    return {"person": person, "forgotten": forgotten}


async def async_voices(hass: HomeAssistant, data: MemoryRuntimeData) -> dict[str, Any]:
    """Whether voice recognition is on and, per person, enrolled, clips and when
    (recognition.async_voice_status; never a vector)."""
    try:
        voices = await async_voice_status(hass, data.engine)
    except EngineError as err:
        raise engine_failed(err) from err
    return {"recognition": data.recognizer is not None, "voices": voices}
