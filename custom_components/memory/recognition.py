"""Speaker recognition on the Home Assistant side: who spoke the utterance this pipeline run heard.

The voice core (voice/: features, the d-vector and GE2E networks fused, streaming, matching) is
HA-free; this module runs it for HA:

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
- A stronger recogniser outside (docs/voice.md "A stronger recogniser outside"): the speech-to-text
  engine the household trusts in the options (the proxy's target) may name the speaker, by a
  "[name] " tag in front of its transcript (wyoming-voice-match's TAG_SPEAKER; `split_tag`, which
  the STT entity applies to every transcript, trusted or not, so the tag never reaches anything
  that reads the text) or by HA 2026.11's speaker id. What it named (`Named`, mapped to a person
  by speaker.person_for_named) travels in the utterance's `Heard`, and `decide` is the one rule
  that puts it together with our own match (`Heard.who`): the engine's person when ours does not
  name someone else; strict only when our own recogniser also heard that person strictly.
- The last RECENT_RECOGNITIONS recognitions per satellite (time, person, recogniser, score,
  threshold, speech, level over noise, strict; never audio or text) are kept in RAM for the
  administrator (`VoiceRecognizer.recognitions`, the panel's Voices view).
- Adaptation (voice.matching.adapts / adapted): an utterance recognised strictly, well ahead of
  everyone else and close to the person's enrolled print, long and clear (ADAPT_MIN_SPEECH of
  detected speech, ENROL_MIN_SNR_DB over the noise), joins that person's print (the last few,
  never outweighing the enrolment). Kept in RAM only: a restart, a re-enrolment or forgetting
  the voice returns to the enrolled print.
- Enrolment is assessed in one place, `VoiceRecognizer.async_assess` -> `EnrolmentReport` (per
  clip: speech, level, clipping, noise, same voice, the problem and what to do about it; the
  expected recognition rate):
  memory.enroll_voice and the panel's memory/voice/* commands both go through it.

Audio everywhere: 16-bit little-endian mono PCM at 16 kHz (voice.SAMPLE_RATE).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
import wave
from collections import deque
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util

from .engine.models import Voiceprint
from .repair_issues import update_voices_to_enrol
from .voice import (
    MODEL_IDENTITY,
    STRICT_LIFT,
    UNKNOWN,
    ClipRejected,
    EmbeddingStream,
    Encoder,
    Utterance,
    VoiceMatch,
    check_clip,
    final_backlog,
    identify,
    identify_utterance,
    load_encoder,
    next_batch,
    odd_clip_out,
    threshold_for,
    voiceprint,
)
from .voice.features import SAMPLE_RATE, SAMPLE_WIDTH, pcm_to_float
from .voice.fusion import dvector
from .voice.matching import (
    ADAPT_KEEP,
    ADVICE,
    SAME_PERSON,
    Expected,
    adapted,
    adapts,
    expected_recognition,
    unit_mean,
)

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

_LOGGER = logging.getLogger(__name__)

BYTES_PER_SECOND = SAMPLE_WIDTH * SAMPLE_RATE  # mono
MAX_UTTERANCE_SECONDS = 15  # audio kept and embedded per utterance; a voice is known well before
MAX_UTTERANCE_BYTES = MAX_UTTERANCE_SECONDS * BYTES_PER_SECOND
RECENT_UTTERANCES = 5  # utterances kept per satellite for enrolment
RECENT_MAX_AGE = 15 * 60.0  # seconds an utterance's audio stays in RAM for enrolment
RECENT_RECOGNITIONS = 20  # recognitions kept per satellite for the administrator (no audio, no text)
FINISH_TIMEOUT = 10.0  # seconds async_finish waits for the embedding backlog (then: unknown)
LOAD_TIMEOUT = 120.0  # seconds the encoder may take to load (48 MB of weights on a slow disk)
MIN_ENROL_CLIPS = 2  # a voiceprint averages at least this many clips
MAX_ENROL_CLIPS = 10  # and at most this many (each is read, then embedded three times)


# Which recogniser named the speaker (Who.recogniser, the Voices view).
OURS = "voice"  # our own, on the enrolled voiceprints
TAG = "tag"  # the trusted engine's "[name] " tag in front of its transcript
SPEAKER_ID = "speaker_id"  # the trusted engine's speaker id (HA 2026.11's PartialSpeechResult)

# A speaker tag in front of a transcript: "[name] " (wyoming-voice-match writes f"[{name}] {text}",
# the name being its voiceprint file's stem). Only one, only at the start; 64 characters at most.
_TAG = re.compile(r"\s*\[([^\[\]\r\n]{1,64})\]\s*")


def split_tag(text: str) -> tuple[frozenset[str], str]:
    """(the names of the leading "[name] " tags, stripped and compared without case; empty
    without one, the text after them): "[julian] What do I like?" -> ({"julian"}, "What do I
    like?"). Every leading tag is removed, so none reaches what reads the text; two different
    names are two speakers, like several speaker ids (stt: nobody is named)."""
    names: dict[str, str] = {}
    rest = text
    while (tag := _TAG.match(rest)) is not None and (name := tag.group(1).strip()):
        names.setdefault(name.casefold(), name)
        rest = rest[tag.end() :]
    return frozenset(names.values()), rest


@dataclass(frozen=True, slots=True)
class Named:
    """The speaker as the trusted speech-to-text engine named them for one utterance: `how`
    (TAG | SPEAKER_ID), `name` as the engine wrote it, and the person it maps to
    (speaker.person_for_named; None: no person of this household)."""

    how: str
    name: str
    person_id: str | None


@dataclass(frozen=True, slots=True)
class Who:
    """Who spoke one utterance, all recognisers put together (`decide`): person_id (None:
    unknown), recogniser (OURS | TAG | SPEAKER_ID; None when nobody was recognised), strict (sure
    enough for a destructive request), conflict (the engine and our recogniser named different
    persons, or the engine named no person of ours: nobody is taken)."""

    person_id: str | None
    recogniser: str | None
    strict: bool
    conflict: bool = False


def decide(match: VoiceMatch, named: Named | None) -> Who:
    """The one rule for who spoke: without a trusted engine's name, our own match; with one, the
    person it maps to unless our recogniser recognised someone else (then nobody), never someone
    the household has no person for. An identity from outside is strict only when our own
    recogniser heard the same person strictly: the engine's confidence is not ours to read."""
    if named is None:
        return Who(match.person_id, OURS if match.person_id is not None else None, match.strict)
    if named.person_id is None or match.person_id not in (None, named.person_id):
        return Who(None, None, strict=False, conflict=True)
    return Who(named.person_id, named.how, strict=match.strict and match.person_id == named.person_id)


@dataclass(frozen=True, slots=True)
class Heard:
    """What one pipeline run heard: the voice match of the utterance, its transcript, its audio.

    match: our own recogniser's voice.VoiceMatch (person_id None: someone spoke and no enrolled
    voice matched, no speech, or recognition is off); text: the transcript the STT step returned,
    tag removed (may be ""); pcm: the utterance's first MAX_UTTERANCE_SECONDS of audio (RAM only,
    for enrolment; b"" without our recogniser); named: what the trusted engine said about the
    speaker (None: no trusted engine, or it named nobody); speech_seconds, snr_db: the speech our
    detector heard (s) and its level over the noise floor (dB; 0.0 without speech or recogniser);
    threshold: the cosine our recogniser needed for this utterance (None: no speech);
    heard_at: time.monotonic() seconds; heard_on: when (UTC).
    """

    match: VoiceMatch
    text: str
    pcm: bytes = field(repr=False)
    heard_at: float = field(default_factory=time.monotonic)
    named: Named | None = None
    speech_seconds: float = 0.0
    snr_db: float = 0.0
    threshold: float | None = None
    heard_on: datetime = field(default_factory=dt_util.utcnow)

    @property
    def who(self) -> Who:
        """Who spoke (`decide`): what speaker.resolve_identity takes for the turn."""
        return decide(self.match, self.named)

    def report(self) -> dict[str, Any]:
        """The recognition as the administrator sees it (the Voices view): never audio or text."""
        who, named = self.who, self.named
        return {
            "at": self.heard_on.isoformat(),
            "person": who.person_id,
            "recogniser": who.recogniser,
            "strict": who.strict,
            "conflict": who.conflict,
            "named": None
            if named is None
            else {"how": named.how, "name": named.name, "person": named.person_id},
            "voice_person": self.match.person_id,
            "score": round(self.match.score, 3) if self.threshold is not None else None,
            "threshold": None if self.threshold is None else round(self.threshold, 3),
            "speech_seconds": round(self.speech_seconds, 2),
            "snr_db": round(self.snr_db, 1),
        }


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
        self.strict_lift = STRICT_LIFT  # over the threshold, for destructive requests (VoiceMatch.strict)
        self._encoder: Encoder | None = None
        self._loading: asyncio.Future[Encoder] | None = None
        self._enrolled: dict[str, Voiceprint] = {}  # as stored, this voice model's only
        self._adaptation: dict[str, deque[np.ndarray]] = {}  # per person: utterances that adapted
        self._prints: dict[str, np.ndarray] = {}  # what utterances are matched against
        self._generation: int | None = None  # engine.voice_generation the cache was read at
        self._recent: dict[str, deque[Heard]] = {}
        self._recognitions: dict[str, deque[dict[str, Any]]] = {}  # per satellite: Heard.report()s
        self._reported: tuple[int, float] | None = None  # the last Heard reported (id, heard_at)

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
        update_voices_to_enrol(self.hass, prints)
        enrolled = {p.person_id: p for p in prints if p.embedding == MODEL_IDENTITY}
        for person in list(self._adaptation):
            before, now = self._enrolled.get(person), enrolled.get(person)
            if (
                now is None
                or before is None
                or now.updated_at != before.updated_at
                or not np.array_equal(now.vector, before.vector)
            ):
                del self._adaptation[person]  # forgotten or re-enrolled: back to the enrolment
        self._enrolled = enrolled
        self._prints = {person: self._print_of(person) for person in enrolled}
        self._generation = generation

    def _print_of(self, person: str) -> np.ndarray:
        stored = self._enrolled[person]
        return adapted(stored.vector, stored.clips, self._adaptation.get(person, ()))

    @property
    def adaptations(self) -> dict[str, int]:
        """How many utterances currently adapt each person's print (persons with none left out)."""
        return {person: len(kept) for person, kept in self._adaptation.items() if kept}

    async def async_identify(self, utterance: Utterance) -> VoiceMatch:
        """Who spoke `utterance` among the enrolled voices, at its own threshold (voice.threshold_for:
        its speech seconds and noise); a strong match adapts the person's print (module docstring).
        Raises the engine's StoreUnavailable when the voiceprints
        cannot be read."""
        await self.async_refresh()
        match = identify_utterance(utterance, self._prints, strict_lift=self.strict_lift)
        person = match.person_id
        if (
            person is not None
            and utterance.vector is not None
            and adapts(match, utterance, self._enrolled[person].vector)
        ):
            kept = self._adaptation.setdefault(person, deque(maxlen=ADAPT_KEEP))
            kept.append(utterance.vector)
            self._prints[person] = self._print_of(person)
        return match

    async def async_identify_safely(self, utterance: Utterance | None) -> VoiceMatch:
        """async_identify for an utterance (None: embedding failed); unknown on any error."""
        if utterance is None or utterance.vector is None:
            return UNKNOWN
        try:
            return await self.async_identify(utterance)
        except Exception:
            _LOGGER.warning("Could not read the voiceprints; the speaker is unknown", exc_info=True)
            return UNKNOWN

    # ------------------------------------------------------------------ utterances
    def utterance(self) -> HeardUtterance:
        """A new utterance of the running pipeline (module function `utterance`)."""
        return utterance(self)

    @callback
    def file_heard(self, key: str, heard: Heard) -> None:
        """Report `heard` among the last RECENT_RECOGNITIONS recognitions of satellite `key`
        (satellite_key), and keep it among the last RECENT_UTTERANCES for enrolment: utterances
        without audio and ones filed already are not kept; older than RECENT_MAX_AGE are dropped."""
        if (reported := (id(heard), heard.heard_at)) != self._reported:
            self._reported = reported
            self._recognitions.setdefault(key, deque(maxlen=RECENT_RECOGNITIONS)).appendleft(heard.report())
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

    @callback
    def recognitions(self) -> dict[str, list[dict[str, Any]]]:
        """Per satellite key, its last RECENT_RECOGNITIONS recognitions, newest first (Heard.report;
        RAM only: a restart or reload starts empty)."""
        return {key: list(kept) for key, kept in self._recognitions.items()}

    @callback
    def satellites(self) -> dict[str, int]:
        """How many utterances are kept per satellite key (only satellites with some)."""
        self._expire()
        return {key: len(recent) for key, recent in self._recent.items()}

    def _expire(self) -> None:
        oldest = time.monotonic() - RECENT_MAX_AGE
        for key, recent in list(self._recent.items()):
            while recent and recent[0].heard_at < oldest:
                recent.popleft()
            if not recent:
                del self._recent[key]

    # ------------------------------------------------------------------ enrolment
    async def async_assess(
        self, person_id: str | None, clips: Sequence[tuple[str, bytes]]
    ) -> EnrolmentReport:
        """What enrolling person_id (None: nobody yet) from `clips` ((name, PCM) pairs, any number)
        would find, clip by clip, without storing anything: the checks async_enroll applies
        (module docstring of voice.matching), each clip's signal and the expected recognition.
        Raises what async_encoder raises, or the engine's StoreUnavailable."""
        report, _ = await self._async_assess(person_id, clips)
        return report

    async def _async_assess(
        self, person_id: str | None, clips: Sequence[tuple[str, bytes]]
    ) -> tuple[EnrolmentReport, list[np.ndarray]]:
        encoder = await self.async_encoder()
        reports, good = await self.hass.async_add_executor_job(_assess_clips, encoder, clips)
        expected = expected_recognition(good) if len(good) >= MIN_ENROL_CLIPS else None
        taken = None
        if good:
            await self.async_refresh()
            others = {person: p for person, p in self._prints.items() if person != person_id}
            taken = identify(voiceprint(good), others).person_id
        return EnrolmentReport(tuple(reports), expected, taken), good

    async def async_enroll(
        self, person_id: str, clips: Sequence[tuple[str, bytes]]
    ) -> tuple[Voiceprint, EnrolmentReport]:
        """Enrol person_id from `clips` ((name, PCM) pairs, at least MIN_ENROL_CLIPS) when every
        clip passes async_assess's checks; the voiceprint is the clips' mean. Re-enrolment
        replaces. Returns the stored voiceprint and the report. Raises ClipProblem (the first
        rejected clip's name and reason) or VoiceTaken (the clips are another enrolled person's
        voice) with nothing stored, or the engine's errors."""
        report, vectors = await self._async_assess(person_id, clips)
        if (rejected := report.rejected) is not None:
            raise ClipProblem(rejected.name, rejected.problem or "")
        if report.other_person is not None:
            raise VoiceTaken(report.other_person)
        stored = await self.hass.async_add_executor_job(
            self._engine.enroll_voice, person_id, voiceprint(vectors), len(vectors), MODEL_IDENTITY
        )
        await self.async_refresh()
        return stored, report


class VoiceTaken(ValueError):
    """Enrolment clips whose voiceprint is recognised as another enrolled person's (`person_id`):
    nobody can take over someone else's voice by enrolling it as their own."""

    def __init__(self, person_id: str) -> None:
        super().__init__(person_id)
        self.person_id = person_id


class ClipProblem(ValueError):
    """An enrolment clip was rejected: `clip` names it (a media id, or "utterance 2"), `reason`
    is voice.ClipRejected's ("no_speech" | "too_short" | "noisy" | "two_voices" | "other_voice";
    what to do about each: voice.matching.ADVICE)."""

    def __init__(self, clip: str, reason: str) -> None:
        super().__init__(f"{clip}: {reason}")
        self.clip = clip
        self.reason = reason


# A clip's signal, measured in 20-ms frames: its level is the loud frames' (SPEECH_PERCENTILE),
# the noise between words the quiet frames' (NOISE_PERCENTILE); the difference estimates the SNR.
LEVEL_FRAME = SAMPLE_RATE // 50  # samples (20 ms)
SPEECH_PERCENTILE = 90
FLOOR_DBFS = -100.0  # the level of digital silence (16-bit audio's own floor is about -96 dBFS)
CLIPPED_SAMPLE = 32700  # |sample| at or above: at full scale (32767), i.e. clipped
# Warnings shown with a clip (they reject nothing; a noisy clip is rejected: voice.check_clip).
# Both are rules of thumb for recording speech.
QUIET_DBFS = -35.0  # speech level below this: speak closer or raise the microphone's gain
CLIPPING_SHARE = 0.001  # more samples clipped than this share: distorted, lower the gain


@dataclass(frozen=True, slots=True)
class ClipReport:
    """One enrolment clip as assessed (VoiceRecognizer.async_assess).

    name: the clip's name as given; seconds: audio (s); speech_seconds: speech pymicro-vad heard
    (s; what recognition's threshold reads, voice.threshold_for); active_seconds: how long the
    voice was heard (s; Utterance.active_seconds: pauses left out, counted without pymicro-vad; a clip
    below voice.MIN_CLIP_SPEECH is rejected as "too_short"); level_dbfs: the speech level (RMS of
    the loud 20-ms frames, dB below full scale); peak_dbfs: the loudest sample; clipped: the share
    (0..1) of samples at full scale; snr_db: the speech's level over its noise floor
    (Utterance.snr_db, 0-60 dB; a clip below voice.ENROL_MIN_SNR_DB is rejected as "noisy");
    similarity: cosine of the clip's voice to the mean of the other accepted clips (None: no voice
    or no other clip); same_voice: similarity >= SAME_PERSON (None with no similarity); problem:
    why the clip is rejected (voice.ClipRejected's reasons) or None; advice (property): what to
    do about the problem (English, voice.matching.ADVICE; None without one); warnings: "quiet" |
    "clipping" (QUIET_DBFS, CLIPPING_SHARE)."""

    name: str
    seconds: float
    speech_seconds: float
    active_seconds: float
    level_dbfs: float
    peak_dbfs: float
    clipped: float
    snr_db: float
    similarity: float | None
    same_voice: bool | None
    problem: str | None
    warnings: tuple[str, ...]

    @property
    def advice(self) -> str | None:
        """What to do about `problem` (voice.matching.ADVICE; None for an accepted clip)."""
        return None if self.problem is None else ADVICE[self.problem]


@dataclass(frozen=True, slots=True)
class EnrolmentReport:
    """What enrolling from a set of clips finds (VoiceRecognizer.async_assess): `clips` in the
    order given; `expected`: voice.matching.expected_recognition of the accepted clips (None with
    fewer than MIN_ENROL_CLIPS of them); `other_person`: the enrolled person whose voice the
    accepted clips are recognised as (None: nobody else's)."""

    clips: tuple[ClipReport, ...]
    expected: Expected | None
    other_person: str | None

    @property
    def rejected(self) -> ClipReport | None:
        """The first clip with a problem, None when every clip passed."""
        return next((clip for clip in self.clips if clip.problem is not None), None)

    @property
    def accepted(self) -> bool:
        """Enrolment from these clips would store a voiceprint."""
        return (
            MIN_ENROL_CLIPS <= len(self.clips) <= MAX_ENROL_CLIPS
            and self.rejected is None
            and self.other_person is None
        )

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON (numbers rounded as the panel shows them; never a vector)."""
        expected = self.expected
        return {
            "accepted": self.accepted,
            "clips": [
                {
                    "name": c.name,
                    "seconds": round(c.seconds, 2),
                    "speech_seconds": round(c.speech_seconds, 2),
                    "active_seconds": round(c.active_seconds, 2),
                    "level_dbfs": round(c.level_dbfs, 1),
                    "peak_dbfs": round(c.peak_dbfs, 1),
                    "clipped": round(c.clipped, 4),
                    "snr_db": round(c.snr_db, 1),
                    "similarity": None if c.similarity is None else round(c.similarity, 3),
                    "same_voice": c.same_voice,
                    "problem": c.problem,
                    "advice": c.advice,
                    "warnings": list(c.warnings),
                }
                for c in self.clips
            ],
            "expected": None
            if expected is None
            else {
                "sentence": round(expected.sentence, 3),
                "command": round(expected.command, 3),
                "noisy": round(expected.noisy, 3),
            },
            "other_person": self.other_person,
        }


def _dbfs(power: float) -> float:
    """A mean square (of samples scaled to [-1, 1)) in dB below full scale, at least FLOOR_DBFS."""
    return max(FLOOR_DBFS, 10.0 * float(np.log10(power + 1e-30)))


def _signal(pcm: bytes) -> tuple[float, float, float]:
    """(level dBFS, peak dBFS, clipped share) of 16-bit PCM (ClipReport)."""
    samples = pcm_to_float(pcm)
    if not len(samples):
        return FLOOR_DBFS, FLOOR_DBFS, 0.0
    count = max(1, len(samples) // LEVEL_FRAME)
    frames = np.resize(samples, count * LEVEL_FRAME).reshape(count, LEVEL_FRAME)
    power = np.mean(frames.astype(np.float64) ** 2, axis=1)
    level = _dbfs(float(np.percentile(power, SPEECH_PERCENTILE)))
    peak = float(np.max(np.abs(samples)))
    clipped = float(np.mean(np.abs(samples) >= CLIPPED_SAMPLE / 32768.0))
    return level, _dbfs(peak * peak), clipped


def _similarities(
    vectors: Sequence[np.ndarray | None], accepted: Mapping[int, np.ndarray]
) -> list[float | None]:
    """Per clip, the cosine of its d-vector leg to the mean of the accepted clips' (index -> fused
    vector) other than itself, as odd_clip_out compares them with SAME_PERSON (None: no vector, or
    no other accepted clip)."""
    out: list[float | None] = []
    for index, vector in enumerate(vectors):
        others = [v for i, v in accepted.items() if i != index]
        if vector is None or not others:
            out.append(None)
            continue
        out.append(float(dvector(vector) @ unit_mean([dvector(v) for v in others])))
    return out


def _assess_clips(
    encoder: Encoder, clips: Sequence[tuple[str, bytes]]
) -> tuple[list[ClipReport], list[np.ndarray]]:
    """Every clip embedded whole and by halves and checked (voice.check_clip), the clip least like
    the others among those that passed named (voice.odd_clip_out), each one's signal measured
    (blocking). Returns the reports and the vectors of the accepted clips, in order."""
    utterances: list[Utterance] = []
    problems: list[str | None] = []
    for _, pcm in clips:
        whole = encoder.embed(pcm)
        middle = len(pcm) // 4 * 2  # a sample boundary
        halves = (encoder.embed(pcm[:middle]), encoder.embed(pcm[middle:]))
        try:
            check_clip(whole, halves)
        except ClipRejected as err:
            problems.append(err.reason)
        else:
            problems.append(None)
        utterances.append(whole)
    vectors = [u.vector for u in utterances]
    # check_clip passes only clips with a vector
    passed = {
        i: v
        for i, (v, problem) in enumerate(zip(vectors, problems, strict=True))
        if v is not None and problem is None
    }
    if (odd := odd_clip_out(list(passed.values()))) is not None:
        problems[list(passed)[odd]] = "other_voice"
    similarities = _similarities(vectors, passed)
    reports = []
    for (name, pcm), utterance, problem, similarity in zip(
        clips, utterances, problems, similarities, strict=True
    ):
        level, peak, clipped = _signal(pcm)
        warnings = (
            *(("quiet",) if level < QUIET_DBFS else ()),
            *(("clipping",) if clipped > CLIPPING_SHARE else ()),
        )
        reports.append(
            ClipReport(
                name=name,
                seconds=len(pcm) / BYTES_PER_SECOND,
                speech_seconds=utterance.speech_seconds,
                active_seconds=utterance.active_seconds,
                level_dbfs=level,
                peak_dbfs=peak,
                clipped=clipped,
                snr_db=utterance.snr_db,
                similarity=similarity,
                same_voice=None if similarity is None else similarity >= SAME_PERSON,
                problem=problem,
                warnings=warnings,
            )
        )
    return reports, [v for i, v in passed.items() if problems[i] is None]


def utterance(recognizer: VoiceRecognizer | None) -> HeardUtterance:
    """A new utterance of the running pipeline, heard by `recognizer` (None: our recognition is
    off; only a trusted engine can name the speaker). Clears what an earlier utterance of this
    task left published first, so nothing is carried over to this one."""
    _HEARD.set(None)
    return HeardUtterance(recognizer)


class HeardUtterance:
    """One utterance while it streams (made by `utterance`).

    async_feed queues chunks; a background task feeds them to the embedding stream in the
    executor, in order, up to 0.2 s of waiting audio at a time (voice.next_batch); at the end of
    live audio only the first 0.1 s still waiting is embedded (voice.final_backlog), so finishing
    waits for little more than one batch. async_finish ends it and publishes the
    Heard; abort ends it and publishes nothing. Audio past MAX_UTTERANCE_SECONDS is neither kept
    nor embedded. Without a recognizer nothing is kept or embedded: the Heard carries only what
    the trusted engine named.
    """

    def __init__(self, recognizer: VoiceRecognizer | None) -> None:
        self._recognizer = recognizer
        self._waiting: list[bytes] = []  # audio not yet fed (voice.next_batch takes from it)
        self._arrived = asyncio.Event()  # new audio or the end
        self._pcm = bytearray()
        self._consumer: asyncio.Task[Utterance | None] | None = None
        self._ended = False

    async def async_feed(self, chunk: bytes) -> None:
        """Add 16-bit LE mono 16 kHz audio. Never raises, never blocks the event loop."""
        room = MAX_UTTERANCE_BYTES - len(self._pcm)
        if self._recognizer is None or self._ended or room <= 0 or not chunk:
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
        assert self._recognizer is not None  # async_feed starts this only with one
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

    async def async_finish(self, text: str, named: Named | None = None) -> Heard | None:
        """End the utterance: wait for the embedding (at most FINISH_TIMEOUT), match the voice and
        publish Heard(match, text, audio, named) for this pipeline run; `text` is the transcript
        without its tag, `named` what the trusted engine named (None: nothing trusted). Empty
        text, no audio, no speech, an encoder that cannot load or a timeout publish an unknown
        voice. Returns the Heard published (None when the utterance had ended already). Never
        raises (but a cancellation of the caller propagates, after the embedding is stopped)."""
        if self._ended:
            return None
        self._ended = True
        match = UNKNOWN
        utterance: Utterance | None = None
        if self._consumer is not None and self._recognizer is not None:
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
        speech = utterance if utterance is not None and utterance.vector is not None else None
        heard = Heard(
            match,
            text,
            bytes(self._pcm),
            named=named,
            speech_seconds=speech.speech_seconds if speech else 0.0,
            snr_db=speech.snr_db if speech else 0.0,
            threshold=threshold_for(speech.speech_seconds, speech.snr_db) if speech else None,
        )
        _HEARD.set(heard)
        self._pcm = bytearray()
        return heard

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


class ClipTooLong(ValueError):
    """An uploaded enrolment clip longer than MAX_CLIP_SECONDS (read_wav with refuse_longer)."""


MAX_CLIP_SECONDS = 30  # of an enrolment file read; a voiceprint needs a few seconds per clip


def read_wav(source: str | Path | BinaryIO, *, refuse_longer: bool = False) -> bytes:
    """The PCM of a WAV file (a path or an open binary file; 16-bit LE mono at SAMPLE_RATE,
    uncompressed), at most its first MAX_CLIP_SECONDS; blocking. Raises ClipFormatError for another
    format, ClipTooLong for a longer file when `refuse_longer`, OSError when unreadable."""
    try:
        with wave.open(source if isinstance(source, BinaryIO | io.IOBase) else str(source), "rb") as wav:
            if (wav.getnchannels(), wav.getsampwidth(), wav.getframerate(), wav.getcomptype()) != (
                1,
                2,
                SAMPLE_RATE,
                "NONE",
            ):
                raise ClipFormatError(
                    f"{wav.getnchannels()} channels, {8 * wav.getsampwidth()} bit, {wav.getframerate()} Hz"
                )
            if refuse_longer and wav.getnframes() > MAX_CLIP_SECONDS * SAMPLE_RATE:
                raise ClipTooLong(f"{wav.getnframes() / SAMPLE_RATE:.1f} s")
            return wav.readframes(MAX_CLIP_SECONDS * SAMPLE_RATE)
    except (wave.Error, EOFError) as err:
        raise ClipFormatError(str(err)) from err


async def async_voice_status(hass: HomeAssistant, engine: MemoryEngine) -> list[dict[str, Any]]:
    """Per person (every person entity, and any person id with a voiceprint left): enrolled, clips
    and when (ISO 8601 UTC; None when not enrolled) — never a vector."""
    stored = await hass.async_add_executor_job(engine.voiceprints)
    update_voices_to_enrol(hass, stored)
    prints = {p.person_id: p for p in stored}
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
