"""The admin panel's WebSocket commands for voices: memory/voice/status, memory/voice/assess,
memory/voice/enroll, memory/voice/forget, memory/voice/recognitions (docs/websocket_api.md; the
command framework, admin only, is websocket_base.py's).

memory/voice/recognitions lists, per satellite, who spoke the last utterances and how sure
(recognition.Heard.report: time, person, recogniser, score, threshold, speech, level over noise,
strict) — never audio or text.

Clips come either as WAV files in the message (`clips`: [{name, wav}], `wav` base64 of a 16-bit
mono 16 kHz WAV, recorded or converted by the panel) or as the last utterances heard at a
satellite (`satellite`, `utterances`: voice_enrolment.async_satellite_clips, the path memory.enroll_voice
takes). Uploads are bounded: at most recognition.MAX_ENROL_CLIPS clips, MAX_CLIP_SECONDS each and
MAX_UPLOAD_SECONDS together; longer is refused (clip_too_long, clips_too_long), never cut. The
audio is decoded in RAM, assessed or enrolled, and dropped: nothing of it is written anywhere.
Assessment and enrolment are recognition.VoiceRecognizer's (async_assess, async_enroll), the same
checks as memory.enroll_voice's.
"""

from __future__ import annotations

import binascii
import io
from base64 import b64decode
from typing import Any

import probatio as vol
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr

from .recognition import (
    BYTES_PER_SECOND,
    MAX_CLIP_SECONDS,
    MIN_ENROL_CLIPS,
    RECENT_RECOGNITIONS,
    ClipFormatError,
    ClipTooLong,
    VoiceRecognizer,
    read_wav,
)
from .runtime import MemoryConfigEntry
from .validation import invalid, text
from .voice_enrolment import (
    ATTR_CLIPS,
    ATTR_SATELLITE,
    ATTR_UTTERANCES,
    async_assess_voice,
    async_enroll_voice,
    async_forget_voice,
    async_satellite_clips,
    async_voices,
    check_clip_count,
    check_repeated,
    clip_error,
    recognizer_of,
    utterance_count,
)
from .websocket_base import ID, check_person, memory_command

# What one message may carry: 90 s of 16-bit 16 kHz audio is 2.9 MB, 3.8 MB as base64, under the
# 4 MiB aiohttp lets Home Assistant's WebSocket receive in one message (a bigger one closes it).
MAX_UPLOAD_SECONDS = 90
MAX_CLIP_NAME_CHARS = 100  # a file name or "Clip 3"
# base64 of the longest clip: MAX_CLIP_SECONDS of PCM and a WAV header (44 bytes; more with extra chunks)
MAX_WAV_CHARS = (MAX_CLIP_SECONDS * BYTES_PER_SECOND + 4096) * 4 // 3 + 4

_CLIP = vol.Schema(
    {
        vol.Required("name"): vol.All(text, vol.Length(min=1, max=MAX_CLIP_NAME_CHARS)),
        vol.Required("wav"): text,
    }
)
_SOURCE: dict[vol.Marker, Any] = {
    vol.Optional(ATTR_CLIPS): [_CLIP],
    vol.Optional(ATTR_SATELLITE): vol.Any(None, ID),
    vol.Optional(ATTR_UTTERANCES): vol.Any(None, int, float, str),  # utterance_count names a bad one
}


def _decode(clip: dict[str, str]) -> tuple[str, bytes]:
    """(name, PCM) of one uploaded clip; clip_too_long or clip_format (field `clips`)."""
    name = clip["name"]
    if len(clip["wav"]) > MAX_WAV_CHARS:
        raise clip_error("clip_too_long", ATTR_CLIPS, name)
    try:
        data = b64decode(clip["wav"], validate=True)
        return name, read_wav(io.BytesIO(data), refuse_longer=True)
    except ClipTooLong as err:
        raise clip_error("clip_too_long", ATTR_CLIPS, name) from err
    except (binascii.Error, ClipFormatError, OSError) as err:
        raise clip_error("clip_format", ATTR_CLIPS, name) from err


async def _async_clips(
    hass: HomeAssistant, recognizer: VoiceRecognizer, msg: dict[str, Any], least: int
) -> tuple[str, list[tuple[str, bytes]]]:
    """(the field the clips came from, [(name, PCM)]) from the message's `clips` or `satellite`
    (+ `utterances`), at least `least` of them, every bound checked (module docstring)."""
    uploads = msg.get(ATTR_CLIPS) or []
    satellite = msg.get(ATTR_SATELLITE)
    if bool(uploads) == bool(satellite):
        raise invalid("enroll_needs_clips", ATTR_CLIPS)
    if satellite:
        clips = async_satellite_clips(hass, recognizer, satellite, utterance_count(msg.get(ATTR_UTTERANCES)))
        return ATTR_UTTERANCES, clips
    check_clip_count(len(uploads), ATTR_CLIPS, least)
    clips = [_decode(clip) for clip in uploads]
    if sum(len(pcm) for _, pcm in clips) > MAX_UPLOAD_SECONDS * BYTES_PER_SECOND:
        raise invalid("clips_too_long", ATTR_CLIPS)
    check_repeated(clips, ATTR_CLIPS)
    return ATTR_CLIPS, clips


@callback
def _by_satellite(hass: HomeAssistant, kept: dict[str, Any], field: str) -> list[dict[str, Any]]:
    """`kept` (satellite key -> value) as a list sorted by name: satellite (the key: a device id,
    else an entity id), name (the device's, else the key) and the value under `field`."""
    devices = dr.async_get(hass)
    shown = []
    for key, value in kept.items():
        device = devices.async_get(key)
        name = (device.name_by_user or device.name) if device else None
        shown.append({"satellite": key, "name": name or key, field: value})
    return sorted(shown, key=lambda s: str(s["name"]).casefold())


@callback
def _satellites(hass: HomeAssistant, recognizer: VoiceRecognizer | None) -> list[dict[str, Any]]:
    """The satellites with utterances kept for enrolment, and how many utterances."""
    return [] if recognizer is None else _by_satellite(hass, recognizer.satellites(), "utterances")


@memory_command("voice/status", {})
async def _status(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    data = entry.runtime_data
    status = await async_voices(hass, data)
    return {**status, "satellites": _satellites(hass, data.recognizer)}


@memory_command("voice/assess", {vol.Optional("person"): vol.Any(None, ID), **_SOURCE})
async def _assess(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    recognizer = recognizer_of(entry.runtime_data)
    person = check_person(hass, msg.get("person"), "person")
    _, clips = await _async_clips(hass, recognizer, msg, 1)
    return (await async_assess_voice(recognizer, person, clips)).as_dict()


@memory_command("voice/enroll", {vol.Required("person"): ID, **_SOURCE})
async def _enroll(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    recognizer = recognizer_of(entry.runtime_data)
    person = check_person(hass, msg["person"], "person")
    assert person is not None  # required by the schema
    field, clips = await _async_clips(hass, recognizer, msg, MIN_ENROL_CLIPS)
    return await async_enroll_voice(recognizer, person, field, clips)


@memory_command("voice/forget", {vol.Required("person"): ID})
async def _forget(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    return await async_forget_voice(hass, entry.runtime_data, msg["person"], "person")


@memory_command("voice/recognitions", {})
async def _recognitions(hass: HomeAssistant, entry: MemoryConfigEntry, msg: dict[str, Any]) -> dict[str, Any]:
    recognizer = entry.runtime_data.recognizer
    kept = recognizer.recognitions() if recognizer is not None else {}
    return {
        "recognition": recognizer is not None,
        "kept": RECENT_RECOGNITIONS,
        "satellites": _by_satellite(hass, kept, "recognitions"),
    }


VOICE_COMMANDS = (_status, _assess, _enroll, _forget, _recognitions)
