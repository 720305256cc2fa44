"""Fixtures of the voice tests (tests/ha/voice_helpers.py has the helpers that go with them).

- `whisper_model` (session): the real Whisper base model (tests.speech.whisper_base_dir), int8,
  2 threads, as the STT entity loads it; loaded once per test session.
- `whisper_entry` -> ConfigEntry: Household Memory with its STT entity on in-process Whisper (the
  base model's folder as the model option), the entity the preferred pipeline's STT engine, the
  pipeline's language English (the Whisper language option's default: the pipeline's).
- `media` -> Path: the config dir's media folder, served by media_source as
  media-source://media_source/local/ (enrolment clips).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.components.assist_pipeline.pipeline import async_get_pipeline, async_update_pipeline
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.setup import async_setup_component

from custom_components.memory.const import CONF_STT_ENGINE, CONF_WHISPER_MODEL
from custom_components.memory.recognition import VoiceRecognizer
from custom_components.memory.voice import Utterance, VoiceMatch
from tests.conftest import Room, setup_memory
from tests.ha.helpers_conversation import RecordingAgent, async_wrap_recording_agent, memory_agent_id
from tests.ha.voice_helpers import async_set_voice, async_use_in_pipeline, stt_entity_id
from tests.speech import whisper_base_dir


@pytest.fixture(scope="session")
def whisper_model() -> Any:
    """The Whisper base model, loaded once per session (int8, 2 threads, as the entity loads it)."""
    from faster_whisper import WhisperModel  # noqa: PLC0415

    return WhisperModel(
        str(whisper_base_dir()), device="cpu", compute_type="int8", cpu_threads=2, local_files_only=True
    )


@pytest.fixture
async def whisper_entry(household: HomeAssistant, whisper_model: Any) -> AsyncGenerator[ConfigEntry]:
    """Household Memory with its STT entity on in-process Whisper, in the preferred pipeline.
    faster_whisper.WhisperModel hands out the session's model for the base model's folder, so it
    is not loaded again per test (nor per reload of the entry). tqdm (which faster-whisper's
    transcribe uses, disabled) would start its monitor thread, which HA's test harness counts as a
    leaked thread: it is turned off here."""
    import faster_whisper  # noqa: PLC0415
    import tqdm  # noqa: PLC0415

    folder = str(whisper_base_dir())
    real = faster_whisper.WhisperModel

    def shared(path: str, **kwargs: Any) -> Any:
        assert kwargs["local_files_only"] and kwargs["compute_type"] == "int8"
        return whisper_model if path == folder else real(path, **kwargs)

    with patch.object(faster_whisper, "WhisperModel", shared), patch.object(tqdm.tqdm, "monitor_interval", 0):
        entry = await setup_memory(household)
        result = await async_set_voice(
            household,
            entry,
            **{CONF_STT_ENGINE: "whisper", CONF_WHISPER_MODEL: folder},
        )
        assert result["type"] is FlowResultType.CREATE_ENTRY
        await async_use_in_pipeline(household, stt_entity_id(household, entry))
        yield entry


@pytest.fixture
async def media(household: HomeAssistant) -> Path:
    """The config dir's media folder, served by media_source as media-source://media_source/local/."""
    folder = Path(household.config.config_dir) / "media"
    folder.mkdir(exist_ok=True)
    household.config.media_dirs = {"local": str(folder)}
    assert await async_setup_component(household, "media_source", {})
    return folder


@pytest.fixture
async def voice_entry(
    household: HomeAssistant, whisper_entry: ConfigEntry, kitchen: Room
) -> AsyncGenerator[ConfigEntry]:
    """The whisper entry with the memory agent as the pipeline's conversation agent."""
    await async_update_pipeline(
        household,
        async_get_pipeline(household),
        conversation_engine=memory_agent_id(household, whisper_entry),
        conversation_language="en",
        language="en",
    )
    yield whisper_entry


@pytest.fixture
async def agent(household: HomeAssistant, voice_entry: ConfigEntry) -> RecordingAgent:
    """The LLM agent the memory agent wraps (the entry reloads; the STT entity with it)."""
    return await async_wrap_recording_agent(household, voice_entry, with_memory_api=True)


@pytest.fixture
def recognizer(voice_entry: ConfigEntry, agent: RecordingAgent) -> VoiceRecognizer:
    """The entry's recognizer, after the agent's reload of the entry."""
    recognizer = voice_entry.runtime_data.recognizer
    assert recognizer is not None  # voice recognition is on by default
    return recognizer


@pytest.fixture
def matches(monkeypatch: pytest.MonkeyPatch) -> list[VoiceMatch]:
    """Every voice match a recognizer makes in the test, in order (recorded, not changed)."""
    made: list[VoiceMatch] = []
    real = VoiceRecognizer.async_identify

    async def recorded(self: VoiceRecognizer, utterance: Utterance) -> VoiceMatch:
        match = await real(self, utterance)
        made.append(match)
        return match

    monkeypatch.setattr(VoiceRecognizer, "async_identify", recorded)
    return made
