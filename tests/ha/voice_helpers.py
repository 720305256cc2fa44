"""Voice turns for the HA tests: Assist pipeline runs from the STT stage, the memory STT entity in
the pipeline, enrolment clips as media-source WAVs.

Fixtures that go with these (tests/ha/conftest.py): `whisper_model` (the real Whisper base model,
loaded once per session), `whisper_entry` (Household Memory with its STT entity on in-process
Whisper, in the preferred pipeline), `media` (the config dir's media folder behind media_source).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from homeassistant.components import stt
from homeassistant.components.assist_pipeline import (
    AudioSettings,
    PipelineEvent,
    PipelineEventType,
    async_pipeline_from_audio_stream,
)
from homeassistant.components.assist_pipeline.pipeline import (
    PipelineStage,
    async_get_pipeline,
    async_update_pipeline,
)
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er

from custom_components.memory.const import CONF_VOICE, DOMAIN
from custom_components.memory.engine.models import Role
from tests.conftest import Resident, Room, async_call
from tests.ha.helpers_conversation import (
    async_transcript,
)
from tests.speech import MEN, SAMPLE_RATE, WOMEN, speak, wav_bytes

SPEED = 140  # words per minute: Whisper base hears espeak best slowly
CHUNK = 2048  # bytes of PCM per streamed chunk (64 ms)
PIPELINE_TIMEOUT = 120  # seconds one pipeline run may take before the test fails (never a hang)

# What each person reads for enrolment (3-4 s each).
ENROLMENT = (
    "The quick brown fox jumps over the lazy dog near the river bank.",
    "Please turn on the kitchen lights and start the coffee machine.",
    "Tomorrow I will visit my grandmother in the countryside.",
)


def metadata(language: str = "en", sample_rate: int = SAMPLE_RATE) -> stt.SpeechMetadata:
    """The metadata a satellite sends with 16-bit mono PCM (WAV) at `sample_rate` Hz."""
    return stt.SpeechMetadata(
        language=language,
        format=stt.AudioFormats.WAV,
        codec=stt.AudioCodecs.PCM,
        bit_rate=stt.AudioBitRates.BITRATE_16,
        sample_rate=stt.AudioSampleRates(sample_rate),
        channel=stt.AudioChannels.CHANNEL_MONO,
    )


@dataclass
class Stream:
    """PCM handed out in CHUNK-sized pieces, counting what was read."""

    pcm: bytes
    read: int = 0

    async def chunks(self) -> AsyncGenerator[bytes]:
        for start in range(0, len(self.pcm), CHUNK):
            chunk = self.pcm[start : start + CHUNK]
            self.read += len(chunk)
            yield chunk
            await asyncio.sleep(0)


@dataclass
class Run:
    """What one pipeline run showed: the STT text, the error code, the agent's answer."""

    events: list[PipelineEvent] = field(default_factory=list)

    def _data(self, kind: PipelineEventType) -> dict[str, Any] | None:
        found = [e.data for e in self.events if e.type is kind]
        return found[0] if found and found[0] is not None else None

    @property
    def text(self) -> str | None:
        """The STT stage's transcript; None when the stage did not end."""
        end = self._data(PipelineEventType.STT_END)
        return end["stt_output"]["text"] if end else None

    @property
    def error(self) -> str | None:
        """The pipeline error's code ("stt-no-text-recognized", ...); None without an error."""
        error = self._data(PipelineEventType.ERROR)
        return error["code"] if error else None

    @property
    def intent_output(self) -> dict[str, Any] | None:
        """The conversation agent's result; None when the run stopped before the intent stage."""
        end = self._data(PipelineEventType.INTENT_END)
        return end["intent_output"] if end else None

    @property
    def speech(self) -> str:
        """The agent's spoken answer ("" when the run stopped before the intent stage)."""
        output = self.intent_output
        return str(output["response"]["speech"]["plain"]["speech"]) if output else ""


async def async_run_pipeline(
    hass: HomeAssistant,
    pcm: bytes | Stream,
    *,
    stt_metadata: stt.SpeechMetadata | None = None,
    vad: bool = True,
    device_id: str | None = None,
    conversation_id: str | None = None,
    extra_system_prompt: str | None = None,
) -> Run:
    """One Assist pipeline run from the STT stage to the intent stage, as a satellite starts it
    (no HA user; `device_id`: the satellite's device; `extra_system_prompt`: what
    assist_satellite's start_conversation hands on after an announcement)."""
    stream = pcm if isinstance(pcm, Stream) else Stream(pcm)
    run = Run()
    async with asyncio.timeout(PIPELINE_TIMEOUT):  # a hang fails the test instead of blocking the suite
        await async_pipeline_from_audio_stream(
            hass,
            context=Context(),
            event_callback=run.events.append,
            stt_metadata=stt_metadata or metadata(),
            stt_stream=stream.chunks(),
            end_stage=PipelineStage.INTENT,
            audio_settings=AudioSettings(is_vad_enabled=vad),
            device_id=device_id,
            conversation_id=conversation_id,
            conversation_extra_system_prompt=extra_system_prompt,
        )
    return run


async def async_set_voice(hass: HomeAssistant, entry: ConfigEntry, **voice: Any) -> dict[str, Any]:
    """Save the options' voice section through the options flow; returns the flow's result."""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    result = await hass.config_entries.options.async_configure(result["flow_id"], {CONF_VOICE: voice})
    await hass.async_block_till_done(wait_background_tasks=True)  # the reload and the install
    return dict(result)


def stt_entity_id(hass: HomeAssistant, entry: ConfigEntry) -> str:
    """The entity id of the entry's STT entity."""
    entity_id = er.async_get(hass).async_get_entity_id("stt", DOMAIN, f"{entry.entry_id}-stt")
    assert entity_id is not None
    return entity_id


async def async_use_in_pipeline(hass: HomeAssistant, entity_id: str, language: str = "en") -> None:
    """Make the STT entity the preferred pipeline's speech-to-text engine."""
    await async_update_pipeline(hass, async_get_pipeline(hass), stt_engine=entity_id, stt_language=language)


def media_clip(folder: Path, name: str, pcm: bytes) -> str:
    """`pcm` written as `name` (a WAV) into the media folder; its media-source id."""
    (folder / name).write_bytes(wav_bytes(pcm))
    return f"media-source://media_source/local/{name}"


async def async_enrol(
    hass: HomeAssistant, media: Path, who: Resident, voice: str, *, speed: int = 160
) -> dict[str, Any]:
    """Enrol `who` from WAV clips of `voice` reading ENROLMENT at `speed` words per minute,
    through memory.enroll_voice; returns the service's response."""
    clips = [
        media_clip(media, f"{who.name.lower()}{i}.wav", speak(text, voice, speed=speed))
        for i, text in enumerate(ENROLMENT)
    ]
    response: dict[str, Any] = await async_call(
        hass, "enroll_voice", {"person": who.person_id, "clips": clips}
    )
    return response


async def async_enrol_household(
    hass: HomeAssistant, media: Path, julian: Resident, anna: Resident
) -> tuple[Resident, Resident]:
    """Julian (tests.speech.MEN[0]) and Anna (WOMEN[0]) enrolled by clips (async_enrol)."""
    await async_enrol(hass, media, julian, MEN[0])
    await async_enrol(hass, media, anna, WOMEN[0])
    return julian, anna


def words(text: str | None) -> str:
    """A transcript compared by its words: lower case, no punctuation."""
    return " ".join("".join(c for c in (text or "").lower() if c.isalnum() or c.isspace()).split())


async def async_speakers(hass: HomeAssistant, entry: ConfigEntry, run: Run) -> list[tuple[Any, Any]]:
    """(speaker_id, speaker_source) of the user turns stored for the run's conversation."""
    assert run.intent_output is not None
    engine = entry.runtime_data.engine
    turns = await async_transcript(hass, engine, run.intent_output["conversation_id"])
    return [(t.speaker_id, t.speaker_source) for t in turns if t.role is Role.USER]


async def async_heard(
    hass: HomeAssistant, room: Room, pcm: bytes, text: str, *, exact: bool = True, **kwargs: Any
) -> Run:
    """`pcm` (someone saying `text`) at `room`'s satellite: one pipeline run from the STT stage. With
    `exact` the transcript must be `text` word for word (sentences Whisper hears right); else any
    text (talk whose words do not matter)."""
    run = await async_run_pipeline(hass, pcm, device_id=room.device_id, **kwargs)
    assert run.error is None, run.events
    assert words(run.text) == words(text) if exact else run.text, run.text
    return run
