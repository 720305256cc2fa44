"""Speaker recognition on the Home Assistant side: who spoke the utterance this pipeline run heard.

The voice core (voice/: features, d-vector network, streaming, matching) is HA-free; this module
runs it for HA:

- `VoiceRecognizer` (entry.runtime_data.recognizer; None when the "voice recognition" option is
  off) holds the speaker encoder (loaded in the executor on first use) and the enrolled
  voiceprints, cached in RAM and refreshed on every enrolment and forgetting.
- `HeardUtterance` is one utterance as the STT entity streams it: every chunk is queued to a
  background consumer that feeds the embedding stream in the executor, in order, while the audio
  still arrives; `async_finish(text)` waits for the little that is left, matches the voice against
  the voiceprints and publishes a `Heard` in a context variable. An Assist pipeline run is one
  asyncio task (STT stage, then the conversation agent), so the memory agent and the Memory LLM
  API of the same run read it (speaker.resolve_identity) and nothing else does: another
  satellite's run is another task. The start of every utterance clears what an earlier one left
  in the task, a `Heard` only counts for a turn whose text is its transcript (`heard_for`),
  and the memory agent's turn claims it (`claim_heard`), so no identity is carried over from an
  earlier turn, another device or an announcement.
- The audio of the last RECENT_UTTERANCES utterances per satellite is kept in RAM only
  (never stored, dropped after RECENT_MAX_AGE) for enrolment from "the last utterances heard at
  the kitchen satellite"; the memory agent files each turn's utterance under its satellite
  (turn.start_turn -> `file_heard`), the only place the satellite is known.

Audio everywhere: 16-bit little-endian mono PCM at 16 kHz (voice.SAMPLE_RATE).
"""

from __future__ import annotations

import asyncio
import logging
import time
import wave
from collections import deque
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .engine.models import Voiceprint
from .voice import (
    MODEL_IDENTITY,
    STRICT,
    UNKNOWN,
    ClipRejected,
    EmbeddingStream,
    Encoder,
    Utterance,
    VoiceMatch,
    check_clip,
    final_backlog,
    identify,
    load_encoder,
    next_batch,
    odd_clip_out,
    voiceprint,
)
from .voice.features import SAMPLE_RATE, SAMPLE_WIDTH

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

_LOGGER = logging.getLogger(__name__)

BYTES_PER_SECOND = SAMPLE_WIDTH * SAMPLE_RATE  # mono
MAX_UTTERANCE_SECONDS = 15  # audio kept and embedded per utterance; a voice is known well before
MAX_UTTERANCE_BYTES = MAX_UTTERANCE_SECONDS * BYTES_PER_SECOND
RECENT_UTTERANCES = 5  # utterances kept per satellite for enrolment
RECENT_MAX_AGE = 15 * 60.0  # seconds an utterance's audio stays in RAM for enrolment
FINISH_TIMEOUT = 10.0  # seconds async_finish waits for the embedding backlog (then: unknown)
LOAD_TIMEOUT = 120.0  # seconds the encoder may take to load (48 MB of weights on a slow disk)
MIN_ENROL_CLIPS = 2  # a voiceprint averages at least this many clips
MAX_ENROL_CLIPS = 10  # and at most this many (each is read, then embedded three times)


@dataclass(frozen=True, slots=True)
class Heard:
    """What one pipeline run heard: the voice match of the utterance, its transcript, its audio.

    match: voice.VoiceMatch (person_id None: someone spoke and no enrolled voice matched, or no
    speech); text: the transcript the STT step returned (may be ""); pcm: the utterance's first
    MAX_UTTERANCE_SECONDS of audio (RAM only, for enrolment); heard_at: time.monotonic() seconds.
    """

    match: VoiceMatch
    text: str
    pcm: bytes = field(repr=False)
    heard_at: float = field(default_factory=time.monotonic)


_HEARD: ContextVar[Heard | None] = ContextVar("memory_heard", default=None)


def _said(text: str) -> str:
    """Text compared between the STT transcript and a turn: case and whitespace aside."""
    return " ".join(text.casefold().split())


def heard_for(text: str | None) -> Heard | None:
    """The utterance this pipeline run heard, when `text` (a turn's text) is its transcript up to
    case and whitespace and no turn has claimed it yet; None otherwise (no voice in this run,
    another text: typed, or a turn this identity does not belong to)."""
    heard = _HEARD.get()
    if heard is None or text is None or _said(heard.text) != _said(text):
        return None
    return heard


def claim_heard(heard: Heard) -> None:
    """`heard` belongs to the turn that resolved it (the memory agent's turn.start_turn): no later
    turn of this task may take it, even with the same words and no new utterance."""
    if _HEARD.get() is heard:
        _HEARD.set(None)


class VoiceRecognizer:
    """The speaker encoder, the enrolled voiceprints (cached) and the recent utterances per
    satellite of one config entry. Every method runs on the event loop; blocking work goes to
    the executor."""

    def __init__(self, hass: HomeAssistant, engine: MemoryEngine, *, prefer_onnx: bool = True) -> None:
        self.hass = hass
        self._engine = engine
        self._prefer_onnx = prefer_onnx
        self.strict = STRICT  # cosine a match needs for destructive requests (VoiceMatch.strict)
        self._encoder: Encoder | None = None
        self._loading: asyncio.Future[Encoder] | None = None
        self._prints: dict[str, np.ndarray] = {}
        self._generation: int | None = None  # engine.voice_generation the cache was read at
        self._recent: dict[str, deque[Heard]] = {}

    # ------------------------------------------------------------------ encoder, voiceprints
    async def async_encoder(self) -> Encoder:
        """The speaker encoder, loaded once in the executor (concurrent callers share the load).
        Raises what voice.load_encoder raises (OSError for missing weights) or TimeoutError."""
        if self._encoder is not None:
            return self._encoder
        if self._loading is None:
            self._loading = self.hass.async_add_executor_job(self._load)
        try:
            async with asyncio.timeout(LOAD_TIMEOUT):
                encoder = await asyncio.shield(self._loading)
        except Exception:
            self._loading = None  # the next utterance tries again
            raise
        self._encoder = encoder
        return encoder

    @property
    def encoder_name(self) -> str | None:
        """The loaded encoder's path ("portable" | "onnxruntime"), None until first use."""
        return self._encoder.name if self._encoder is not None else None

    def _load(self) -> Encoder:
        encoder = load_encoder(prefer_onnx=self._prefer_onnx)
        _LOGGER.debug("Speaker encoder loaded: %s", encoder.name)
        return encoder

    async def async_refresh(self) -> None:
        """Re-read the enrolled voiceprints of this voice model when any changed since the last
        read (engine.voice_generation: enrolment, forget_voice, a person forgotten by any door)."""
        generation = self._engine.voice_generation
        if generation == self._generation:
            return
        prints = await self.hass.async_add_executor_job(self._engine.voiceprints)
        self._prints = {p.person_id: p.vector for p in prints if p.embedding == MODEL_IDENTITY}
        self._generation = generation

    async def async_identify(self, vector: np.ndarray | None) -> VoiceMatch:
        """Who `vector` (float32[256], unit; None: no speech) is among the enrolled voices.
        Raises the engine's StoreUnavailable when the voiceprints cannot be read."""
        await self.async_refresh()
        return identify(vector, self._prints, strict=self.strict)

    async def async_identify_safely(self, utterance: Utterance | None) -> VoiceMatch:
        """async_identify for an utterance (None: embedding failed); unknown on any error."""
        if utterance is None or utterance.vector is None:
            return UNKNOWN
        try:
            return await self.async_identify(utterance.vector)
        except Exception:
            _LOGGER.warning("Could not read the voiceprints; the speaker is unknown", exc_info=True)
            return UNKNOWN

    # ------------------------------------------------------------------ utterances
    def utterance(self) -> HeardUtterance:
        """A new utterance of the running pipeline. Clears what an earlier utterance of this
        task left published first, so nothing is carried over to this one."""
        _HEARD.set(None)
        return HeardUtterance(self)

    @callback
    def file_heard(self, key: str, heard: Heard) -> None:
        """Keep `heard` among the last RECENT_UTTERANCES of satellite `key` (satellite_key) for
        enrolment; utterances without audio and ones filed already are skipped; older than
        RECENT_MAX_AGE are dropped."""
        if not heard.pcm:
            return
        recent = self._recent.setdefault(key, deque(maxlen=RECENT_UTTERANCES))
        if not any(kept is heard for kept in recent):
            recent.append(heard)
        self._expire()

    @callback
    def recent(self, key: str) -> list[Heard]:
        """The utterances kept for satellite `key`, oldest first."""
        self._expire()
        return list(self._recent.get(key, ()))

    def _expire(self) -> None:
        oldest = time.monotonic() - RECENT_MAX_AGE
        for key, recent in list(self._recent.items()):
            while recent and recent[0].heard_at < oldest:
                recent.popleft()
            if not recent:
                del self._recent[key]

    # ------------------------------------------------------------------ enrolment
    async def async_enroll(self, person_id: str, clips: Sequence[tuple[str, bytes]]) -> Voiceprint:
        """Enrol person_id from `clips` ((name, PCM) pairs, at least MIN_ENROL_CLIPS): each clip is
        embedded whole and by halves and checked (voice.check_clip); the voiceprint is their mean.
        Re-enrolment replaces. Raises ClipProblem (the clip's name and the reason) or VoiceTaken
        (the clips are another enrolled person's voice) with nothing stored, or the engine's errors."""
        encoder = await self.async_encoder()
        vectors = await self.hass.async_add_executor_job(_clip_vectors, encoder, clips)
        print_ = voiceprint(vectors)
        await self.async_refresh()
        others = {person: p for person, p in self._prints.items() if person != person_id}
        if (taken := identify(print_, others).person_id) is not None:
            raise VoiceTaken(taken)
        stored = await self.hass.async_add_executor_job(
            self._engine.enroll_voice, person_id, print_, len(vectors), MODEL_IDENTITY
        )
        await self.async_refresh()
        return stored


class VoiceTaken(ValueError):
    """Enrolment clips whose voiceprint is recognised as another enrolled person's (`person_id`):
    nobody can take over someone else's voice by enrolling it as their own."""

    def __init__(self, person_id: str) -> None:
        super().__init__(person_id)
        self.person_id = person_id


class ClipProblem(ValueError):
    """An enrolment clip was rejected: `clip` names it (a media id, or "utterance 2"), `reason`
    is voice.ClipRejected's ("too_short" | "no_speech" | "two_voices" | "other_voice")."""

    def __init__(self, clip: str, reason: str) -> None:
        super().__init__(f"{clip}: {reason}")
        self.clip = clip
        self.reason = reason


def _clip_vectors(encoder: Encoder, clips: Sequence[tuple[str, bytes]]) -> list[np.ndarray]:
    """Each clip's d-vector (float32[256], unit), every clip checked first (blocking)."""
    vectors: list[np.ndarray] = []
    for name, pcm in clips:
        whole = encoder.embed(pcm)
        middle = len(pcm) // 4 * 2  # a sample boundary
        halves = (encoder.embed(pcm[:middle]), encoder.embed(pcm[middle:]))
        try:
            check_clip(whole, halves)
        except ClipRejected as err:
            raise ClipProblem(name, err.reason) from err
        assert whole.vector is not None  # check_clip rejects a clip without speech
        vectors.append(whole.vector)
    if (odd := odd_clip_out(vectors)) is not None:
        raise ClipProblem(clips[odd][0], "other_voice")
    return vectors


class HeardUtterance:
    """One utterance while it streams (made by VoiceRecognizer.utterance()).

    async_feed queues chunks; a background task feeds them to the embedding stream in the
    executor, in order, up to 0.2 s of waiting audio at a time (voice.next_batch); at the end of
    live audio only the first 0.1 s still waiting is embedded (voice.final_backlog), so finishing
    waits for little more than one batch. async_finish ends it and publishes the
    Heard; abort ends it and publishes nothing. Audio past MAX_UTTERANCE_SECONDS is neither kept
    nor embedded.
    """

    def __init__(self, recognizer: VoiceRecognizer) -> None:
        self._recognizer = recognizer
        self._waiting: list[bytes] = []  # audio not yet fed (voice.next_batch takes from it)
        self._arrived = asyncio.Event()  # new audio or the end
        self._pcm = bytearray()
        self._consumer: asyncio.Task[Utterance | None] | None = None
        self._ended = False

    async def async_feed(self, chunk: bytes) -> None:
        """Add 16-bit LE mono 16 kHz audio. Never raises, never blocks the event loop."""
        room = MAX_UTTERANCE_BYTES - len(self._pcm)
        if self._ended or room <= 0 or not chunk:
            return
        chunk = bytes(chunk[:room])
        self._pcm += chunk
        if self._consumer is None:
            self._consumer = self._recognizer.hass.async_create_background_task(
                self._async_consume(), "memory speaker embedding"
            )
        self._waiting.append(chunk)
        self._arrived.set()

    async def _async_consume(self) -> Utterance | None:
        """Feed the queued audio to an embedding stream in the executor until the end marker;
        None (logged) when the encoder cannot load or the stream fails."""
        hass = self._recognizer.hass
        try:
            stream: EmbeddingStream = (await self._recognizer.async_encoder()).stream()
            while True:
                if self._waiting:
                    await hass.async_add_executor_job(stream.feed, next_batch(self._waiting))
                elif self._ended:
                    return await hass.async_add_executor_job(stream.finish)
                else:
                    self._arrived.clear()
                    await self._arrived.wait()
        except Exception:
            _LOGGER.warning("Speaker recognition failed for an utterance", exc_info=True)
            return None

    async def async_finish(self, text: str) -> None:
        """End the utterance: wait for the embedding (at most FINISH_TIMEOUT), match the voice and
        publish Heard(match, text, audio) for this pipeline run. Empty text, no audio, no speech,
        an encoder that cannot load or a timeout publish an unknown voice. Never raises (but a
        cancellation of the caller propagates, after the embedding is stopped)."""
        if self._ended:
            return
        self._ended = True
        match = UNKNOWN
        if self._consumer is not None:
            self._waiting[:] = [tail] if (tail := final_backlog(self._waiting)) else []
            self._arrived.set()
            try:
                async with asyncio.timeout(FINISH_TIMEOUT):
                    utterance = await self._consumer
            except asyncio.CancelledError:
                self._consumer.cancel()
                raise
            except TimeoutError:
                _LOGGER.warning("Speaker recognition took over %s s; the speaker is unknown", FINISH_TIMEOUT)
                self._consumer.cancel()
            else:
                match = await self._recognizer.async_identify_safely(utterance)
        _HEARD.set(Heard(match, text, bytes(self._pcm)))
        self._pcm = bytearray()

    def abort(self) -> None:
        """The stream failed: stop embedding, publish nothing, keep no audio."""
        self._ended = True
        self._pcm = bytearray()
        if self._consumer is not None:
            self._consumer.cancel()


@callback
def satellite_key(hass: HomeAssistant, *, satellite_id: str | None, device_id: str | None) -> str | None:
    """The key recent utterances are kept under: the satellite's device id (an assist_satellite
    entity's device, else the turn's device), else the satellite entity id; None for neither."""
    if satellite_id and (entity := er.async_get(hass).async_get(satellite_id)) and entity.device_id:
        return entity.device_id
    return device_id or satellite_id or None


class ClipFormatError(ValueError):
    """An enrolment file that is not a WAV of 16-bit mono PCM at 16 kHz (or cannot be read)."""


MAX_CLIP_SECONDS = 30  # of an enrolment file read; a voiceprint needs a few seconds per clip


def read_wav(path: str | Path) -> bytes:
    """The PCM of a WAV file (16-bit LE mono at SAMPLE_RATE, uncompressed), at most its first
    MAX_CLIP_SECONDS; blocking. Raises ClipFormatError for another format, OSError when unreadable."""
    try:
        with wave.open(str(path), "rb") as wav:
            if (wav.getnchannels(), wav.getsampwidth(), wav.getframerate(), wav.getcomptype()) != (
                1,
                2,
                SAMPLE_RATE,
                "NONE",
            ):
                raise ClipFormatError(
                    f"{wav.getnchannels()} channels, {8 * wav.getsampwidth()} bit, {wav.getframerate()} Hz"
                )
            return wav.readframes(MAX_CLIP_SECONDS * SAMPLE_RATE)
    except (wave.Error, EOFError) as err:
        raise ClipFormatError(str(err)) from err


async def async_voice_status(hass: HomeAssistant, engine: MemoryEngine) -> list[dict[str, Any]]:
    """Per person (every person entity, and any person id with a voiceprint left): enrolled, clips
    and when (ISO 8601 UTC; None when not enrolled) — never a vector."""
    prints = {p.person_id: p for p in await hass.async_add_executor_job(engine.voiceprints)}
    persons = sorted({state.entity_id for state in hass.states.async_all("person")} | set(prints))
    return [
        {
            "person": person_id,
            "enrolled": (held := prints.get(person_id)) is not None and held.embedding == MODEL_IDENTITY,
            "clips": held.clips if held else 0,
            "enrolled_at": held.updated_at.isoformat() if held else None,
        }
        for person_id in persons
    ]
