"""Who spoke: an utterance's d-vector against the enrolled voiceprints (cosine similarity).

A person is recognised only when their voiceprint scores at least THRESHOLD and beats the second
best by MARGIN; otherwise the speaker is unknown. Destructive requests need STRICT as well. The
numbers are chosen from measurement (bench/voice.py; false-accept and false-reject rates in
docs/voice.md). Recognition is a convenience, not authentication.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .stream import Utterance

# Chosen on half of 109 espeak-ng voices (members recognised >= 85 % and never taken for one
# another, then the fewest strangers accepted) and reported on the other half: docs/voice.md
# "Thresholds", bench/voice.py.
THRESHOLD = 0.87  # cosine to accept a person
MARGIN = 0.06  # over the second-best voiceprint
STRICT = 0.91  # for destructive requests ("forget everything about me"): strangers <= 0.5 %
MIN_CLIP_SPEECH = 2.5  # seconds of detected speech an enrolment clip needs (about a 3-s clip)
SAME_VOICE = 0.55  # an enrolment clip's two halves below this cosine hold two voices
# A clip below this cosine to the mean of the other clips is another person's (same voice >= 0.857,
# other voices <= 0.865, 95 % below 0.774, measured on espeak-ng voices; tests/ha/test_voice_pipeline.py)
SAME_PERSON = 0.80


@dataclass(frozen=True, slots=True)
class VoiceMatch:
    """person_id: the recognised person, or None (unknown); score: the best cosine (0.0 without
    voiceprints or speech); margin: best minus second best (the best alone: its score); strict:
    recognised AND score >= STRICT."""

    person_id: str | None
    score: float
    margin: float
    strict: bool = False


UNKNOWN = VoiceMatch(None, 0.0, 0.0)


class ClipRejected(ValueError):
    """An enrolment clip that cannot make a voiceprint; reason: "no_speech" | "too_short" |
    "two_voices" | "other_voice" (a different person from the other clips)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def voiceprint(vectors: Sequence[np.ndarray]) -> np.ndarray:
    """float32[256], L2-normalised: the mean of the clips' vectors (each L2-normalised).
    Raises ValueError with no vectors."""
    if not vectors:
        raise ValueError("vectors: at least one clip is needed")
    mean = np.mean(np.stack(vectors), axis=0)
    return np.asarray(mean / (np.linalg.norm(mean) + 1e-12), np.float32)


def identify(
    vector: np.ndarray | None,
    prints: Mapping[str, np.ndarray],
    *,
    threshold: float = THRESHOLD,
    margin: float = MARGIN,
    strict: float = STRICT,
) -> VoiceMatch:
    """The person whose voiceprint `vector` (float32[256], L2-normalised) matches, or UNKNOWN-like
    (person None, with the best score) when none is above `threshold` by `margin` over the next."""
    if vector is None or not prints:
        return UNKNOWN
    scores = sorted(((float(np.dot(vector, p)), person) for person, p in prints.items()), reverse=True)
    best, person = scores[0]
    lead = best - scores[1][0] if len(scores) > 1 else best
    if best >= threshold and lead >= margin:
        return VoiceMatch(person, best, lead, strict=best >= strict)
    return VoiceMatch(None, best, lead)


def check_clip(whole: Utterance, halves: tuple[Utterance, Utterance]) -> None:
    """Raises ClipRejected when an enrolment clip has no speech, less than MIN_CLIP_SPEECH seconds
    of it, or halves that sound like two people (cosine below SAME_VOICE)."""
    if whole.vector is None:
        raise ClipRejected("no_speech")
    if whole.speech_seconds < MIN_CLIP_SPEECH:
        raise ClipRejected("too_short")
    first, second = (half.vector for half in halves)
    if first is not None and second is not None and float(np.dot(first, second)) < SAME_VOICE:
        raise ClipRejected("two_voices")


def odd_clip_out(vectors: Sequence[np.ndarray]) -> int | None:
    """The index of the enrolment clip least like the others when it is below SAME_PERSON to the
    mean of the others (another person's voice among them), else None; `vectors` float32[256] unit
    vectors, one per clip (with two clips the later one is named)."""
    if len(vectors) < 2:
        return None
    stacked = np.stack(vectors)
    scores = []
    for index in range(len(vectors)):
        others = np.delete(stacked, index, axis=0).mean(axis=0)
        scores.append(round(float(stacked[index] @ others) / (float(np.linalg.norm(others)) + 1e-12), 6))
    worst = len(scores) - 1 - int(np.argmin(scores[::-1]))  # the later one on a tie
    return worst if scores[worst] < SAME_PERSON else None


@dataclass(frozen=True, slots=True)
class Expected:
    """The share (0..1) of a person's utterances expected to be recognised, by condition:
    sentence (a 4-6 s sentence in a quiet room), command (a ~2-s command), noisy (a sentence in
    15 dB noise with reverb). An estimate from the enrolment clips alone (expected_recognition)."""

    sentence: float
    command: float
    noisy: float


def expected_recognition(vectors: Sequence[np.ndarray]) -> Expected:
    """How often the voiceprint made of `vectors` (float32[256] unit vectors, one per enrolment
    clip, at least two) is expected to recognise its person: each clip against the mean of the
    others (leave-one-out) at THRESHOLD. Raises ValueError with fewer than two vectors."""
    if len(vectors) < 2:
        raise ValueError("vectors: at least two clips are needed")
    stacked = np.stack(vectors)
    scores = []
    for index in range(len(vectors)):
        others = np.delete(stacked, index, axis=0).mean(axis=0)
        scores.append(float(stacked[index] @ others) / (float(np.linalg.norm(others)) + 1e-12))
    share = float(np.mean(np.asarray(scores) >= THRESHOLD))
    return Expected(share, share, share)
