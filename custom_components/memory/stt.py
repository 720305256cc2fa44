"""The speech-to-text entity (stt.*), picked as the speech-to-text engine of an Assist pipeline.

Two engines, chosen in the options' voice section (docs/voice.md):
- proxy: the audio is streamed on to another stt entity and its text returned; works everywhere;
- whisper: faster-whisper in process (whisper.py), installed on demand; where it cannot install or
  import (musl: no ctranslate2 wheel) a repair issue points to proxy mode and every utterance
  gets the STT error result.
Either way each chunk also goes to the speaker recognizer (entry.runtime_data.recognizer) while the
audio streams, and at most MAX_AUDIO_SECONDS of an utterance is read.

Who speaks, from outside (docs/voice.md "A stronger recogniser outside"): a transcript's leading
"[name] " tag is removed whatever the engine (recognition.split_tag), so nothing that reads the
text sees it; only when the options trust the proxy's target (CONF_STT_TRUST_SPEAKER) does the
tag, or the speaker id the target reports on HA 2026.11+, name the speaker (recognition.Named).
On HA 2026.11+ the entity itself reports the person it recognised as the speaker id of a partial
result (the person's entity id, "person.julian") before its final result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import abstractmethod
from collections.abc import AsyncGenerator, AsyncIterable, Mapping
from typing import Any

from homeassistant.components import stt
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.requirements import async_process_requirements

from . import whisper
from .const import (
    CONF_STT_ENGINE,
    CONF_STT_PROXY,
    CONF_STT_TRUST_SPEAKER,
    CONF_VOICE,
    CONF_WHISPER_LANGUAGE,
    CONF_WHISPER_MODEL,
    DEFAULT_STT_ENGINE,
    DEFAULT_STT_TRUST_SPEAKER,
    DEFAULT_WHISPER_LANGUAGE,
    DEFAULT_WHISPER_MODEL,
    DOMAIN,
    STT_PROXY,
    STT_WHISPER,
    WHISPER_LANGUAGE_AUTO,
    WHISPER_LANGUAGE_PIPELINE,
    WHISPER_REQUIREMENT,
)
from .engine_calls import async_run
from .entity import MemoryEntity
from .ha_compat import async_transcribe, partial_result
from .recognition import SPEAKER_ID, TAG, Heard, HeardUtterance, Named, split_tag, utterance
from .repair_issues import create_requirement_issue
from .runtime import MemoryConfigEntry
from .speaker import person_for_named
from .voice.features import SAMPLE_RATE, SAMPLE_WIDTH

_LOGGER = logging.getLogger(__name__)

ISSUE_WHISPER = "whisper_unavailable"  # repair issue: faster-whisper cannot install or import here
# At most this much audio of one utterance is read (buffered for Whisper, sent on by the proxy);
# the rest of the stream is not read, so a stream that never ends still gets its answer.
MAX_AUDIO_SECONDS = 30
MAX_AUDIO_BYTES = MAX_AUDIO_SECONDS * SAMPLE_RATE * SAMPLE_WIDTH
# Proxy: the target must take each next chunk within PROXY_IDLE_TIMEOUT seconds, and answer within
# PROXY_RESULT_TIMEOUT seconds after the audio ended; waiting for the microphone does not count.
PROXY_IDLE_TIMEOUT = 10.0
PROXY_RESULT_TIMEOUT = 30.0
# Whisper: an utterance waits at most this long (s) after its audio ended for an install in progress.
WHISPER_INSTALL_WAIT = 10.0

_PCM16_MONO_16K: dict[str, list[Any]] = {
    "formats": [stt.AudioFormats.WAV],
    "codecs": [stt.AudioCodecs.PCM],
    "bit_rates": [stt.AudioBitRates.BITRATE_16],
    "sample_rates": [stt.AudioSampleRates.SAMPLERATE_16000],
    "channels": [stt.AudioChannels.CHANNEL_MONO],
}


async def async_setup_entry(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the entry's speech-to-text entity, unless the voice engine is off (the default)."""
    voice: dict[str, Any] = entry.options.get(CONF_VOICE) or {}
    engine = voice.get(CONF_STT_ENGINE, DEFAULT_STT_ENGINE)
    if engine != STT_WHISPER:
        ir.async_delete_issue(hass, DOMAIN, ISSUE_WHISPER)
    if engine == STT_PROXY:
        async_add_entities([ProxySpeechToText(entry, voice.get(CONF_STT_PROXY), voice)])
    elif engine == STT_WHISPER:
        model = voice.get(CONF_WHISPER_MODEL) or DEFAULT_WHISPER_MODEL
        if model not in whisper.MODEL_SIZES:
            model = hass.config.path(model)  # a model folder, relative to the config dir or absolute
        downloads = hass.config.path(".storage", f"{DOMAIN}_models", "whisper")
        transcriber = whisper.WhisperTranscriber(model, downloads)
        language = voice.get(CONF_WHISPER_LANGUAGE) or DEFAULT_WHISPER_LANGUAGE
        async_add_entities([WhisperSpeechToText(entry, transcriber, language)])


class SttFailed(Exception):
    """The engine could not transcribe this utterance: the turn ends with the STT error result."""


class MemorySpeechToText(MemoryEntity, stt.SpeechToTextEntity):
    """What both engines share: metadata check, the audio cap, the recognizer, the error result."""

    _attr_translation_key = "speech_to_text"

    def __init__(self, entry: MemoryConfigEntry) -> None:
        super().__init__(entry, "-stt")

    def _supported(self, name: str) -> list[Any]:
        """The values of supported_<name> (16 kHz 16-bit mono WAV/PCM: what Assist pipelines send,
        and what the recognizer takes)."""
        return list(_PCM16_MONO_16K[name])

    @property
    def supported_formats(self) -> list[stt.AudioFormats]:
        return self._supported("formats")

    @property
    def supported_codecs(self) -> list[stt.AudioCodecs]:
        return self._supported("codecs")

    @property
    def supported_bit_rates(self) -> list[stt.AudioBitRates]:
        return self._supported("bit_rates")

    @property
    def supported_sample_rates(self) -> list[stt.AudioSampleRates]:
        return self._supported("sample_rates")

    @property
    def supported_channels(self) -> list[stt.AudioChannels]:
        return self._supported("channels")

    async def async_process_audio_stream(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> stt.SpeechResult:
        """The text of one utterance (SUCCESS, "" when nothing was said; a leading "[name] " tag
        removed), or (None, ERROR) when the audio format is not supported or the engine fails.
        `stream`: 16-bit LE mono PCM at 16 kHz; at most MAX_AUDIO_SECONDS of it is read. The
        recognizer, when there is one, hears the same chunks and finishes with the text (aborted
        on failure)."""
        result, _ = await self._async_process(metadata, stream)
        return result

    async def async_process_audio_stream_with_progress(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> AsyncGenerator[Any]:
        """HA 2026.11+: as async_process_audio_stream, and before the final SpeechResult a
        PartialSpeechResult(text, speaker_id=the recognised person's entity id) when this
        utterance's speaker was recognised (recognition.Heard.who); nothing partial otherwise."""
        result, person = await self._async_process(metadata, stream)
        if person is not None:
            yield partial_result(result.text or "", person)
        yield result

    async def _async_process(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> tuple[stt.SpeechResult, str | None]:
        """(the result, the person recognised for it or None): async_process_audio_stream's work."""
        recognizer = self._entry.runtime_data.recognizer
        heard: HeardUtterance | None = (
            recognizer.utterance()
            if recognizer is not None
            else utterance(None)
            if self._trusts_speaker
            else None
        )
        try:
            if not self.check_metadata(metadata):
                raise SttFailed(f"unsupported audio {metadata}")
            transcript, speakers = await self._async_transcribe(metadata, _heard_chunks(stream, heard))
        except SttFailed as err:
            _LOGGER.warning("Speech-to-text failed: %s", err)
            if heard is not None:
                heard.abort()
            return stt.SpeechResult(None, stt.SpeechResultState.ERROR), None
        except BaseException:  # cancelled, or a bug: nothing is published for this utterance
            if heard is not None:
                heard.abort()
            raise
        tags, text = split_tag(transcript)
        published: Heard | None = None
        if heard is not None:
            published = await heard.async_finish(text, self._named(tags, speakers))
        person = published.who.person_id if published is not None else None
        return stt.SpeechResult(text, stt.SpeechResultState.SUCCESS), person

    @property
    def _trusts_speaker(self) -> bool:
        """Whether the engine's own word on who speaks is taken (only a trusted proxy target's)."""
        return False

    def _named(self, tags: frozenset[str], speakers: frozenset[str]) -> Named | None:
        """What the engine named about the speaker, when it is trusted (None otherwise)."""
        return None

    @abstractmethod
    async def _async_transcribe(
        self, metadata: stt.SpeechMetadata, chunks: AsyncIterable[bytes]
    ) -> tuple[str, frozenset[str]]:
        """The engine: the text of `chunks` (already capped), "" when nothing was said, and the
        speaker ids the engine reported for it (HA 2026.11+). Raises SttFailed."""


async def _heard_chunks(stream: AsyncIterable[bytes], heard: HeardUtterance | None) -> AsyncGenerator[bytes]:
    """`stream` up to MAX_AUDIO_BYTES (the rest is not read), each chunk fed to `heard` first."""
    total = 0
    async for chunk in stream:
        part = chunk[: MAX_AUDIO_BYTES - total]
        total += len(part)
        if part:
            if heard is not None:
                await heard.async_feed(part)
            yield part
        if total >= MAX_AUDIO_BYTES:
            _LOGGER.debug("Utterance capped at %d s of audio", MAX_AUDIO_SECONDS)
            return


class ProxySpeechToText(MemorySpeechToText):
    """Streams the audio on to another stt entity (target) and returns its text.

    Languages are the target's, formats those of ours the target takes too; a missing target
    supports none, so a pipeline cannot pick it.
    """

    def __init__(self, entry: MemoryConfigEntry, target: str | None, voice: Mapping[str, Any]) -> None:
        super().__init__(entry)
        self._target_id = target
        self._voice = voice
        self._attr_extra_state_attributes = {"proxy_for": target}

    @property
    def _trusts_speaker(self) -> bool:
        return bool(self._voice.get(CONF_STT_TRUST_SPEAKER, DEFAULT_STT_TRUST_SPEAKER))

    def _named(self, tags: frozenset[str], speakers: frozenset[str]) -> Named | None:
        """The target's speaker ids (HA 2026.11+) before its tags; several ids or differently
        named tags name nobody (two people spoke). Mapped to a person by speaker.person_for_named."""
        if not self._trusts_speaker:
            if tags or speakers:
                _LOGGER.debug("The speaker named by %s is not trusted (options)", self._target_id)
            return None
        for how, names in ((SPEAKER_ID, speakers), (TAG, tags)):
            if names:
                name = ", ".join(sorted(names))
                person = person_for_named(self.hass, name, self._voice) if len(names) == 1 else None
                return Named(how, name, person)
        return None

    def _target(self) -> stt.SpeechToTextEntity | None:
        if not self._target_id or self.hass is None:
            return None
        target = stt.async_get_speech_to_text_entity(self.hass, self._target_id)
        return None if target is self or isinstance(target, ProxySpeechToText) else target

    @property
    def supported_languages(self) -> list[str]:
        return list(target.supported_languages) if (target := self._target()) is not None else []

    def _supported(self, name: str) -> list[Any]:
        theirs = getattr(target, f"supported_{name}") if (target := self._target()) is not None else []
        return [value for value in super()._supported(name) if value in theirs]

    async def _async_transcribe(
        self, metadata: stt.SpeechMetadata, chunks: AsyncIterable[bytes]
    ) -> tuple[str, frozenset[str]]:
        if (target := self._target()) is None:
            raise SttFailed(f"the proxy target {self._target_id} is not available")
        try:
            async with asyncio.timeout(PROXY_IDLE_TIMEOUT) as deadline:
                result, speakers = await async_transcribe(target, metadata, _paced(chunks, deadline))
        except TimeoutError as err:
            raise SttFailed(f"{target.entity_id} did not answer in time") from err
        except Exception as err:  # whatever the target raises ends the turn with the error result
            raise SttFailed(f"{target.entity_id} failed: {err!r}") from err
        if result.result is not stt.SpeechResultState.SUCCESS:
            raise SttFailed(f"{target.entity_id} returned an error")
        return result.text or "", speakers


async def _paced(chunks: AsyncIterable[bytes], deadline: asyncio.Timeout) -> AsyncGenerator[bytes]:
    """`chunks`, keeping `deadline` at PROXY_IDLE_TIMEOUT after each chunk handed on, off while
    waiting for the next one from the microphone, and at PROXY_RESULT_TIMEOUT after the last."""
    loop = asyncio.get_running_loop()

    def _move(seconds: float | None) -> None:
        with contextlib.suppress(RuntimeError):  # the deadline expired or was left: turn over
            deadline.reschedule(None if seconds is None else loop.time() + seconds)

    iterator = aiter(chunks)
    while True:
        _move(None)
        try:
            chunk = await anext(iterator)
        except StopAsyncIteration:
            break
        _move(PROXY_IDLE_TIMEOUT)
        yield chunk
    _move(PROXY_RESULT_TIMEOUT)


class WhisperSpeechToText(MemorySpeechToText):
    """faster-whisper in process: installed at set-up in the background, model loaded on the
    first utterance (whisper.WhisperTranscriber), inference in the executor."""

    def __init__(
        self, entry: MemoryConfigEntry, transcriber: whisper.WhisperTranscriber, language: str
    ) -> None:
        super().__init__(entry)
        self._transcriber = transcriber
        self._language = language
        self._ready: asyncio.Task[bool] | None = None

    @property
    def supported_languages(self) -> list[str]:
        return list(whisper.LANGUAGES)

    async def async_added_to_hass(self) -> None:
        await super().async_added_to_hass()
        self._ready = self._entry.async_create_background_task(
            self.hass, self._async_install(), f"{DOMAIN} install faster-whisper"
        )

    async def _async_install(self) -> bool:
        """Install faster-whisper (on demand) and import it; a repair issue when either fails."""
        try:
            await async_process_requirements(self.hass, DOMAIN, [WHISPER_REQUIREMENT])
            await async_run(self.hass, whisper.check_runtime)
        except (HomeAssistantError, whisper.WhisperUnavailable) as err:  # RequirementsNotFound is one
            _LOGGER.warning("faster-whisper is unavailable (%s); use the proxy engine instead", err)
            create_requirement_issue(
                self.hass, ISSUE_WHISPER, WHISPER_REQUIREMENT, config_entry_id=self._entry.entry_id
            )
            return False
        ir.async_delete_issue(self.hass, DOMAIN, ISSUE_WHISPER)
        return True

    async def _async_transcribe(
        self, metadata: stt.SpeechMetadata, chunks: AsyncIterable[bytes]
    ) -> tuple[str, frozenset[str]]:
        ready = self._ready
        if ready is None or (ready.done() and not ready.result()):
            raise SttFailed("faster-whisper is unavailable")
        pcm = bytearray()
        async for chunk in chunks:
            pcm += chunk
        try:
            async with asyncio.timeout(WHISPER_INSTALL_WAIT):
                if not await asyncio.shield(ready):
                    raise SttFailed("faster-whisper is unavailable")
        except TimeoutError as err:
            raise SttFailed("faster-whisper is still being installed") from err
        language = {WHISPER_LANGUAGE_PIPELINE: metadata.language, WHISPER_LANGUAGE_AUTO: None}.get(
            self._language, self._language
        )
        try:
            text = await async_run(self.hass, self._transcriber.transcribe, bytes(pcm), language)
        except Exception as err:  # a model that cannot download or load, ctranslate2 failing
            _LOGGER.exception("Whisper could not transcribe")
            raise SttFailed(f"whisper failed: {err!r}") from err
        return text, frozenset()  # Whisper names no speaker
