"""The memory STT entity in Assist pipelines: real espeak-ng speech, the real Whisper base model,
proxy mode in front of a test STT entity, the ctranslate2-missing path, and bad input.

Pipelines run from the STT stage through assist_pipeline.async_pipeline_from_audio_stream (what
satellites use) to the intent stage. Whisper runs are few (each is seconds on this machine); the
model is loaded once per test session (whisper_model fixture).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator, AsyncIterable
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

import numpy as np
import pytest
from homeassistant.components import stt
from homeassistant.components.assist_pipeline import (
    PipelineEventType,
)
from homeassistant.components.assist_pipeline.const import BYTES_PER_CHUNK
from homeassistant.config_entries import ConfigEntry, ConfigEntryState, ConfigFlow
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.requirements import RequirementsNotFound
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockModule,
    MockPlatform,
    mock_config_flow,
    mock_integration,
    mock_platform,
)

from custom_components.memory import stt as memory_stt
from custom_components.memory.const import (
    CONF_STT_ENGINE,
    CONF_STT_PROXY,
    CONF_STT_SPEAKERS,
    CONF_STT_TRUST_SPEAKER,
    CONF_VOICE,
    CONF_WHISPER_LANGUAGE,
    CONF_WHISPER_MODEL,
    DOMAIN,
)
from custom_components.memory.ha_compat import ENTRY_SET_UP, FIELDS_CAN_HIDE, STT_NAMES_SPEAKERS
from custom_components.memory.recognition import heard_for
from custom_components.memory.whisper import LANGUAGES
from tests.conftest import Resident, setup_memory
from tests.ha.voice_helpers import (
    CHUNK,
    SPEED,
    Stream,
    async_run_pipeline,
    async_set_voice,
    async_use_in_pipeline,
    metadata,
    stt_entity_id,
)
from tests.speech import SAMPLE_RATE, silence, speak

TARGET = "stt.test_stt"  # the proxy's target in these tests


def _is_the_audio(received: bytes, pcm: bytes) -> bool:
    """`received` is `pcm` as a pipeline hands it on: whole 10-ms chunks, a shorter tail left out."""
    return pcm.startswith(received) and len(pcm) - len(received) < BYTES_PER_CHUNK


# --- fakes at the edges: a recognizer that records (plumbing), a test STT entity for the proxy ---


@dataclass
class HeardUtterance:
    chunks: list[bytes] = field(default_factory=list)
    finished: str | None = None
    named: Any = None
    aborted: bool = False

    async def async_feed(self, chunk: bytes) -> None:
        self.chunks.append(chunk)

    async def async_finish(self, text: str, named: Any = None) -> None:
        self.finished = text
        self.named = named

    def abort(self) -> None:
        self.aborted = True


@dataclass
class Recognizer:
    utterances: list[HeardUtterance] = field(default_factory=list)

    def utterance(self) -> HeardUtterance:
        self.utterances.append(HeardUtterance())
        return self.utterances[-1]


class TargetStt(stt.SpeechToTextEntity):
    """The STT entity behind the proxy: answers `text`, or fails the way `mode` says."""

    _attr_name = "Test STT"

    def __init__(self) -> None:
        self.mode = "text"  # text | raise | error | hang | never_read
        self.text = "turn on the kitchen lights"
        self.received = b""
        self.speakers: list[str] = []  # HA 2026.11+: speaker ids of partial results before the text

    @property
    def supported_languages(self) -> list[str]:
        return ["en", "de"]

    @property
    def supported_formats(self) -> list[stt.AudioFormats]:
        return [stt.AudioFormats.WAV, stt.AudioFormats.OGG]

    @property
    def supported_codecs(self) -> list[stt.AudioCodecs]:
        return [stt.AudioCodecs.PCM, stt.AudioCodecs.OPUS]

    @property
    def supported_bit_rates(self) -> list[stt.AudioBitRates]:
        return [stt.AudioBitRates.BITRATE_16]

    @property
    def supported_sample_rates(self) -> list[stt.AudioSampleRates]:
        return [stt.AudioSampleRates.SAMPLERATE_16000, stt.AudioSampleRates.SAMPLERATE_44100]

    @property
    def supported_channels(self) -> list[stt.AudioChannels]:
        return [stt.AudioChannels.CHANNEL_MONO]

    async def async_process_audio_stream(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> stt.SpeechResult:
        if self.mode == "never_read":
            await asyncio.Event().wait()
        async for chunk in stream:
            self.received += chunk
        if self.mode == "raise":
            raise ConnectionResetError("the STT server went away")
        if self.mode == "hang":
            await asyncio.Event().wait()
        if self.mode == "error":
            return stt.SpeechResult(None, stt.SpeechResultState.ERROR)
        return stt.SpeechResult(self.text, stt.SpeechResultState.SUCCESS)

    async def async_process_audio_stream_with_progress(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> AsyncGenerator[Any]:
        """HA 2026.11+ (never called before): a partial result per speaker, then the final one."""
        result = await self.async_process_audio_stream(metadata, stream)
        for speaker in self.speakers:
            yield stt.PartialSpeechResult(result.text or "", speaker_id=speaker)  # type: ignore[attr-defined]
        yield result


class _TargetFlow(ConfigFlow):
    VERSION = 1


@pytest.fixture
async def target(household: HomeAssistant) -> AsyncGenerator[TargetStt]:
    """A test integration with one STT entity (stt.test_stt)."""
    entity = TargetStt()

    async def setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool | None:
        await hass.config_entries.async_forward_entry_setups(entry, [Platform.STT])
        return ENTRY_SET_UP  # None where HA wants None (2026.11), True where it wants a bool

    async def setup_stt(hass: HomeAssistant, entry: ConfigEntry, add: AddConfigEntryEntitiesCallback) -> None:
        add([entity])

    mock_integration(household, MockModule("stt_test", async_setup_entry=setup_entry))
    mock_platform(household, "stt_test.stt", MockPlatform(async_setup_entry=setup_stt))
    mock_platform(household, "stt_test.config_flow")
    with mock_config_flow("stt_test", _TargetFlow):
        entry = MockConfigEntry(domain="stt_test")
        entry.add_to_hass(household)
        assert await household.config_entries.async_setup(entry.entry_id)
        await household.async_block_till_done()
        assert entity.entity_id == TARGET
        yield entity


@pytest.fixture
async def proxy(household: HomeAssistant, target: TargetStt) -> ConfigEntry:
    """Household Memory with its STT entity in proxy mode in front of `target`, in the pipeline."""
    entry = await setup_memory(household)
    await async_set_voice(household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: TARGET})
    await async_use_in_pipeline(household, stt_entity_id(household, entry))
    return entry


# --- in-process Whisper: real speech, real model ---


@pytest.mark.parametrize(
    ("sentence", "voice", "words"),
    [
        ("Remember that I like short answers", "en+m3", ("remember", "short answers")),
        ("Turn on the kitchen lights", "en+f2", ("turn on", "kitchen light")),
    ],
)
async def test_whisper_transcribes_speech_in_a_pipeline(
    household: HomeAssistant, whisper_entry: ConfigEntry, sentence: str, voice: str, words: tuple[str, ...]
) -> None:
    recognizer = whisper_entry.runtime_data.recognizer = Recognizer()
    pcm = speak(sentence, voice, speed=SPEED) + silence(1)

    run = await async_run_pipeline(household, pcm)

    assert run.error is None, run.events
    assert run.text is not None
    for word in words:
        assert word in run.text.lower()
    assert any(e.type is PipelineEventType.INTENT_END for e in run.events)  # the text went on
    (heard,) = recognizer.utterances  # the recognizer heard the same audio, then the text
    assert heard.finished == run.text and not heard.aborted
    heard_pcm = b"".join(heard.chunks)  # until the pipeline's VAD heard the silence after the words
    assert pcm.startswith(heard_pcm) and len(heard_pcm) > len(pcm) - len(silence(1))


async def test_whisper_silence_and_noise_give_no_text(
    household: HomeAssistant, whisper_entry: ConfigEntry
) -> None:
    """Nothing said: empty text, which the pipeline reports as "no text recognized"."""
    recognizer = whisper_entry.runtime_data.recognizer = Recognizer()
    noise = (np.random.default_rng(7).normal(0, 0.05, SAMPLE_RATE * 3) * 32767).astype("<i2").tobytes()
    for pcm in (silence(3), noise):
        run = await async_run_pipeline(household, pcm, vad=False)
        assert run.error == "stt-no-text-recognized", run.events
    assert [u.finished for u in recognizer.utterances] == ["", ""]  # "unknown" is published


async def test_whisper_stream_that_stops_mid_word(
    household: HomeAssistant, whisper_entry: ConfigEntry
) -> None:
    """Audio cut in the middle of a word (and of a sample) still gives the words said before it."""
    pcm = speak("Remember that the spare key is under the blue flower pot", "en+m3", speed=SPEED)
    cut = pcm[: len(pcm) * 3 // 5 + 1]  # odd length: the last sample is half there
    entity = stt.async_get_speech_to_text_entity(household, stt_entity_id(household, whisper_entry))
    assert entity is not None

    async with asyncio.timeout(120):
        result = await entity.async_process_audio_stream(metadata(), Stream(cut).chunks())

    assert result.result is stt.SpeechResultState.SUCCESS
    assert result.text is not None and "remember that" in result.text.lower()


async def test_whisper_long_stream_is_capped(household: HomeAssistant, whisper_entry: ConfigEntry) -> None:
    """A 60-second stream: only MAX_AUDIO_SECONDS of it is read and buffered, and the turn ends."""
    stream = Stream(silence(60))
    run = await async_run_pipeline(household, stream, vad=False)
    assert run.error == "stt-no-text-recognized"
    assert stream.read <= memory_stt.MAX_AUDIO_BYTES + CHUNK


async def test_whisper_refuses_unsupported_audio(
    household: HomeAssistant, whisper_entry: ConfigEntry
) -> None:
    entity_id = stt_entity_id(household, whisper_entry)
    entity = stt.async_get_speech_to_text_entity(household, entity_id)
    assert entity is not None
    assert entity.supported_sample_rates == [stt.AudioSampleRates.SAMPLERATE_16000]
    assert set(entity.supported_languages) == set(LANGUAGES)

    refused = await async_run_pipeline(  # the pipeline refuses it up front: the run's error event
        household, speak("Hello", speed=SPEED), stt_metadata=metadata(sample_rate=44100)
    )
    assert refused.error == "stt-provider-unsupported-metadata"
    assert (refused.text, refused.intent_output) == (None, None)  # nothing heard, nobody answered

    direct = await entity.async_process_audio_stream(metadata(sample_rate=44100), Stream(silence(1)).chunks())
    assert direct == stt.SpeechResult(None, stt.SpeechResultState.ERROR)  # arriving anyway


@pytest.mark.parametrize("cause", ["no_ctranslate2", "pip_fails"])
async def test_whisper_unavailable_raises_repair_and_set_up_succeeds(
    household: HomeAssistant, cause: str
) -> None:
    """musl (HA OS, Container): ctranslate2 has no wheel. Set-up succeeds, a repair issue points to
    the proxy, and each utterance gets the STT error result."""
    entry = await setup_memory(household)
    failing = (
        patch.dict(sys.modules, {"ctranslate2": None})  # import ctranslate2 -> ImportError
        if cause == "no_ctranslate2"
        else patch(
            "custom_components.memory.stt.async_process_requirements",
            side_effect=RequirementsNotFound(DOMAIN, ["faster-whisper==1.2.1"]),
        )
    )
    with failing:
        await async_set_voice(household, entry, **{CONF_STT_ENGINE: "whisper"})
    assert entry.state is ConfigEntryState.LOADED
    issue = ir.async_get(household).async_get_issue(DOMAIN, memory_stt.ISSUE_WHISPER)
    assert issue is not None and issue.translation_key == memory_stt.ISSUE_WHISPER
    assert issue.severity is ir.IssueSeverity.WARNING and not issue.is_fixable

    entry.runtime_data.recognizer = recognizer = Recognizer()
    await async_use_in_pipeline(household, stt_entity_id(household, entry))
    run = await async_run_pipeline(household, speak("Turn on the kitchen lights", speed=SPEED))
    assert run.error == "stt-stream-failed"
    assert recognizer.utterances[0].aborted and recognizer.utterances[0].finished is None

    await async_set_voice(household, entry, **{CONF_STT_ENGINE: "off"})
    assert ir.async_get(household).async_get_issue(DOMAIN, memory_stt.ISSUE_WHISPER) is None


# --- proxy mode ---


async def test_proxy_returns_the_target_text(
    household: HomeAssistant, proxy: ConfigEntry, target: TargetStt
) -> None:
    recognizer = proxy.runtime_data.recognizer = Recognizer()
    pcm = speak("Turn on the kitchen lights", speed=SPEED)

    run = await async_run_pipeline(household, pcm, vad=False)

    assert run.error is None and run.text == "turn on the kitchen lights"
    assert _is_the_audio(target.received, pcm)  # every chunk went on, in order
    (heard,) = recognizer.utterances
    assert b"".join(heard.chunks) == target.received and heard.finished == "turn on the kitchen lights"

    entity = stt.async_get_speech_to_text_entity(household, stt_entity_id(household, proxy))
    assert entity is not None
    assert entity.supported_languages == ["en", "de"]  # the target's
    assert entity.supported_formats == [stt.AudioFormats.WAV]  # ours that the target takes too
    assert entity.supported_sample_rates == [stt.AudioSampleRates.SAMPLERATE_16000]


@pytest.mark.parametrize("mode", ["raise", "error", "hang", "never_read"])
async def test_proxy_target_failing_ends_the_turn_with_the_stt_error(
    household: HomeAssistant, proxy: ConfigEntry, target: TargetStt, mode: str
) -> None:
    recognizer = proxy.runtime_data.recognizer = Recognizer()
    target.mode = mode
    with (  # the entity's own deadlines, shortened: a target that never answers is cut off
        patch.object(memory_stt, "PROXY_IDLE_TIMEOUT", 0.05),
        patch.object(memory_stt, "PROXY_RESULT_TIMEOUT", 0.05),
    ):
        run = await async_run_pipeline(household, speak("Turn on the kitchen lights", speed=SPEED), vad=False)
    assert run.error == "stt-stream-failed", run.events
    assert recognizer.utterances[0].aborted and recognizer.utterances[0].finished is None


async def test_proxy_target_missing(household: HomeAssistant, proxy: ConfigEntry, target: TargetStt) -> None:
    entity = stt.async_get_speech_to_text_entity(household, stt_entity_id(household, proxy))
    assert entity is not None
    await target.async_remove()
    assert entity.supported_languages == []  # a pipeline cannot pick it
    result = await entity.async_process_audio_stream(metadata(), Stream(silence(1)).chunks())
    assert result == stt.SpeechResult(None, stt.SpeechResultState.ERROR)


async def test_proxy_caps_a_long_stream(
    household: HomeAssistant, proxy: ConfigEntry, target: TargetStt
) -> None:
    stream = Stream(speak("Turn on the kitchen lights", speed=SPEED) * 30)  # about 60 s of talk
    assert len(stream.pcm) > 2 * memory_stt.MAX_AUDIO_BYTES - 4 * SAMPLE_RATE
    run = await async_run_pipeline(household, stream, vad=False)
    assert run.text == "turn on the kitchen lights"
    assert len(target.received) == memory_stt.MAX_AUDIO_BYTES
    assert stream.read <= memory_stt.MAX_AUDIO_BYTES + CHUNK


@pytest.mark.skipif(not STT_NAMES_SPEAKERS, reason="speech-to-text speakers came with HA 2026.11")
@pytest.mark.parametrize(
    ("trust", "speakers", "recognised"),
    [(True, ["Julian"], True), (True, ["Julian", "Anna"], False), (False, ["Julian"], False)],
)
async def test_proxy_takes_the_speaker_id_of_a_trusted_target(
    household: HomeAssistant,
    target: TargetStt,
    *,
    julian: Resident,
    anna: Resident,
    trust: bool,
    speakers: list[str],
    recognised: bool,
) -> None:
    """The target names the speaker in its partial results (HA 2026.11+): one speaker id, from a
    target the options trust, is that person, and our entity reports the person in turn; two
    speakers (two people talked) or an untrusted target name nobody. The real recognizer hears
    the audio too (nobody enrolled: it knows no one)."""
    entry = await setup_memory(household)
    await async_set_voice(
        household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: TARGET, CONF_STT_TRUST_SPEAKER: trust}
    )
    target.speakers = speakers
    entity = stt.async_get_speech_to_text_entity(household, stt_entity_id(household, entry))
    assert entity is not None

    results = [
        result
        async for result in entity.internal_async_process_audio_stream_with_progress(  # type: ignore[attr-defined]
            metadata(), Stream(speak("Turn on the kitchen lights", speed=SPEED)).chunks()
        )
    ]

    person = julian.person_id if recognised else None
    heard = heard_for(target.text)
    assert heard is not None and heard.who.person_id == person
    assert results[-1] == stt.SpeechResult(target.text, stt.SpeechResultState.SUCCESS)
    assert results[:-1] == ([stt.PartialSpeechResult(target.text, speaker_id=person)] if person else [])  # type: ignore[attr-defined]


# --- options ---


async def test_voice_options_are_validated(
    household: HomeAssistant, target: TargetStt, julian: Resident
) -> None:
    entry = await setup_memory(household)
    assert er.async_get(household).async_get_entity_id("stt", DOMAIN, f"{entry.entry_id}-stt") is None  # off

    result = await async_set_voice(household, entry, **{CONF_STT_ENGINE: "proxy"})
    assert result["errors"] == {CONF_STT_PROXY: "invalid_stt_proxy"}
    result = await async_set_voice(
        household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: "stt.nothing"}
    )
    assert result["errors"] == {CONF_STT_PROXY: "invalid_stt_proxy"}
    result = await async_set_voice(
        household, entry, **{CONF_STT_ENGINE: "whisper", CONF_WHISPER_MODEL: "no/such/folder"}
    )
    assert result["errors"] == {CONF_WHISPER_MODEL: "invalid_whisper_model"}
    result = await async_set_voice(household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: TARGET})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    # HA 2026.11+ shows (and submits) Whisper's fields only with the Whisper engine
    whisper = {} if FIELDS_CAN_HIDE else {CONF_WHISPER_MODEL: "base", CONF_WHISPER_LANGUAGE: "pipeline"}
    assert entry.options[CONF_VOICE] == {
        "voice_recognition": True,
        CONF_STT_ENGINE: "proxy",
        CONF_STT_PROXY: TARGET,
        CONF_STT_SPEAKERS: [],
        **whisper,
    }
    own = stt_entity_id(household, entry)
    assert own == "stt.household_memory_speech_to_text"  # on the Household Memory service device
    with pytest.raises(InvalidData):  # proxying to itself would loop: the selector leaves it out
        await async_set_voice(household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: own})

    proxy = {CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: TARGET}
    for speakers in (
        [{"name": "jx", "person": "person.nobody"}],
        [{"name": " ", "person": julian.person_id}],
        [{"name": "jx", "person": julian.person_id}, {"name": "JX", "person": julian.person_id}],
    ):
        result = await async_set_voice(household, entry, **proxy, **{CONF_STT_SPEAKERS: speakers})
        assert result["errors"] == {CONF_STT_SPEAKERS: "invalid_stt_speaker"}, speakers
    speakers = [{"name": " jx ", "person": julian.person_id}]
    result = await async_set_voice(
        household, entry, **proxy, **{CONF_STT_TRUST_SPEAKER: True, CONF_STT_SPEAKERS: speakers}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_VOICE][CONF_STT_TRUST_SPEAKER] is True
    assert entry.options[CONF_VOICE][CONF_STT_SPEAKERS] == [{"name": "jx", "person": julian.person_id}]
