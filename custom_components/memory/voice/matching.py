"""Who spoke: an utterance's fused embedding (fusion.py) against the enrolled voiceprints.

A person is recognised only when their voiceprint scores at least the utterance's threshold and
beats the second best by MARGIN; otherwise the speaker is unknown. The threshold follows the
utterance (`threshold_for`): how much speech it holds and how far the speech stands above the room's
noise, because a 2-s command or a noisy kitchen scores every voice lower, its own included.
Destructive requests need a quiet room's bar (STRICT) whatever the utterance. The numbers are
chosen on half of a pool of voices recorded from real speakers and reported on the other half
(bench/voice_ident.py; docs/voice.md "Thresholds"). Recognition is a convenience, not authentication.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .fusion import dvector, normalised
from .stream import Utterance

# The fused score (fusion.py: 0.2 x the d-vectors' cosine + 0.8 x GE2E's) to accept a person, by the
# utterance: (quiet, noisy) x (long, short). Chosen on the tuning half of bench/voice_pool.py, every
# clip in a pipeline's stream and cut close (strangers <= 1 %, members as another member <= 0.1 %,
# espeak-ng's near-twins <= 4.5 %, then the fewest false rejects), reported on the held-out half
# (bench/voice_ident.py --choose, 2026-12-07; docs/voice.md "Thresholds").
QUIET_LONG, QUIET_SHORT = 0.88, 0.79
NOISY_LONG, NOISY_SHORT = 0.76, 0.75
LONG_SECONDS, SHORT_SECONDS = 3.0, 1.0  # detected speech; linear in between
# stream.level_over_floor's marks: at or above QUIET_DB a quiet room, at or below NOISY_DB a noisy
# one (linear in between). From the tuning half of bench/voice_pool.py, every clip trimmed, in a
# pipeline's stream and padded (bench/voice_ident.py --cut): QUIET_DB the quiet clips' 1st
# percentile (their 5th: 37.2 dB, median 60), NOISY_DB the 95th of the clips in 15 dB noise with
# reverb (median 20.9, 99th 26.7); held-out half: 29.4 and 25.3.
QUIET_DB, NOISY_DB = 28.9, 24.6
THRESHOLD = QUIET_LONG  # a whole clip in a quiet room (enrolment's own checks)
MARGIN = 0.05  # over the second-best voiceprint (chosen with the thresholds)
# Destructive requests ("forget everything about me") need a quiet room's bar for a whole sentence
# whatever the utterance, plus this: the lowest with strangers <= 0.1 % (tuning half).
STRICT_LIFT = 0.0
STRICT = QUIET_LONG + STRICT_LIFT
# Enrolment clips (check_clip). Speech is counted as Utterance.active_seconds (frames within 30 dB
# of the loud ones), not pymicro-vad's count, which hears only part of some voices (0.16 s of a
# 0.9-s command) and at 2.5 s refused a third of the pool's ordinary 2-4 s sentences. On
# bench/voice_pool.py (bench/voice_ident.py --enrolment; docs/voice.md "Enrolment"):
# MIN_CLIP_SPEECH sits at the enrolment sentences' 5th percentile (1.57 s; a 2-s sentence holds
# ~1.5 s) and above the ~2-s commands' median (1.18 s), so most commands are still too short.
MIN_CLIP_SPEECH = 1.5  # active seconds
# The two-halves check decides only when each half holds HALF_MIN_SPEECH active seconds (a clip of
# about 2 s): below it one voice's halves scored as low as two voices' (0.49 on a 1.9-s sentence).
HALF_MIN_SPEECH = 0.8
# An enrolment clip's speech must stand this far above its noise floor (stream.level_over_floor): a
# voiceprint made in 15 dB noise let 13 % of strangers in that same noise pass for the person
# (bench/voice_ident.py "noisy enrolment"). Between the tuning half's clips in 15 dB noise (99th
# percentile 26.7 dB) and its quiet clips (1st percentile 28.9), however cut (QUIET_DB's source).
ENROL_MIN_SNR_DB = 27.0
# An enrolment clip's two halves below this cosine hold two voices (bench/voice.py "enrolment";
# with HALF_MIN_SPEECH, two voices taking turns for 1.5 s each: 78-82 % caught, one voice's clips
# refused 0-1.3 %; a cosine of the d-vector, to be measured again for another embedder).
SAME_VOICE = 0.55
# A clip below this cosine to the mean of the other clips is another person's (same voice >= 0.857,
# other voices <= 0.865, 95 % below 0.774, measured on espeak-ng voices; tests/ha/test_voice_pipeline.py)
SAME_PERSON = 0.80
# Adaptation (`adapts`, `adapted`): an utterance of ADAPT_MIN_SPEECH seconds of detected speech,
# ENROL_MIN_SNR_DB over its floor (as enrolment asked when this was chosen), recognised strictly,
# this far ahead of the second best and at least ADAPT_SCORE against the person's *enrolled*
# print, joins their print; the last ADAPT_KEEP such
# utterances are kept and together weigh at most as much as the enrolment (chosen on the tuning
# half: bench/voice_adapt.py; docs/voice.md "Adaptation").
ADAPT_SCORE = 0.93
ADAPT_MIN_SPEECH = 2.5  # seconds of detected speech (pymicro-vad), as chosen in bench/voice_adapt.py
ADAPT_MARGIN = 0.10
ADAPT_KEEP = 5


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


# What to do about each reason a clip is refused (ClipRejected.advice; the enrolment report).
ADVICE = {
    "no_speech": "No speech was heard: speak a sentence close to the microphone, and check that it records.",
    "too_short": "Say a longer sentence, about 3 seconds of talking; a short command is not enough.",
    "noisy": "Too much noise around the voice: enrol in a quiet moment (no TV, music, fan or other talk).",
    "two_voices": "Two voices were heard: record the person alone, with nobody else talking.",
    "other_voice": "This clip sounds like another person than the others: record it again, that person only.",
}


class ClipRejected(ValueError):
    """An enrolment clip that cannot make a voiceprint; reason: "no_speech" | "too_short" | "noisy" |
    "two_voices" | "other_voice" (a different person from the other clips); advice: what to do
    about it (ADVICE, English)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.advice = ADVICE[reason]


def unit_mean(vectors: Sequence[np.ndarray]) -> np.ndarray:
    """The L2-normalised mean of `vectors` (float32): a print of one leg's vectors."""
    mean = np.mean(np.stack(vectors), axis=0)
    return np.asarray(mean / (np.linalg.norm(mean) + 1e-12), np.float32)


def voiceprint(vectors: Sequence[np.ndarray]) -> np.ndarray:
    """A fused vector (float32[fusion.DIM]): the mean of the clips' fused vectors, each leg
    L2-normalised on its own (fusion.normalised). Raises ValueError with no vectors."""
    if not vectors:
        raise ValueError("vectors: at least one clip is needed")
    return normalised(np.mean(np.stack(vectors), axis=0))


def adapts(match: VoiceMatch, utterance: Utterance, enrolled: np.ndarray) -> bool:
    """Whether `utterance` (just recognised as `match`) may refresh the voiceprint of
    match.person_id, whose enrolled print (float32[256], unit) is `enrolled`: a strict match with
    ADAPT_MARGIN over the second best, at least ADAPT_SCORE to the enrolled print (so
    adaptation never drifts away from the enrolment), and a long clear utterance (at least
    ADAPT_MIN_SPEECH seconds of detected speech, ENROL_MIN_SNR_DB over the noise floor). Never for
    an unknown speaker."""
    vector = utterance.vector
    return (
        match.person_id is not None
        and match.strict
        and match.margin >= ADAPT_MARGIN
        and vector is not None
        and utterance.speech_seconds >= ADAPT_MIN_SPEECH
        and utterance.snr_db >= ENROL_MIN_SNR_DB
        and float(np.dot(vector, enrolled)) >= ADAPT_SCORE
    )


def adapted(enrolled: np.ndarray, clips: int, recent: Sequence[np.ndarray]) -> np.ndarray:
    """The print to match against, a fused vector (float32[fusion.DIM]): `enrolled` (a voiceprint
    of `clips` enrolment clips) joined by the last ADAPT_KEEP of `recent` (fused vectors that passed
    `adapts`, oldest first), which together weigh at most the enrolment (max(clips, ADAPT_KEEP));
    each leg normalised on its own (fusion.normalised). With no `recent`: `enrolled` itself."""
    kept = list(recent)[-ADAPT_KEEP:]
    if not kept:
        return enrolled
    return normalised(enrolled * float(max(clips, ADAPT_KEEP)) + np.sum(np.stack(kept), axis=0))


def threshold_for(speech_seconds: float, snr_db: float) -> float:
    """The cosine an utterance with `speech_seconds` of detected speech, `snr_db` over its noise
    floor (stream.level_over_floor) needs: bilinear between the QUIET/NOISY x LONG/SHORT values."""
    short = float(np.clip((LONG_SECONDS - speech_seconds) / (LONG_SECONDS - SHORT_SECONDS), 0.0, 1.0))
    noisy = float(np.clip((QUIET_DB - snr_db) / (QUIET_DB - NOISY_DB), 0.0, 1.0))
    quiet = QUIET_LONG + (QUIET_SHORT - QUIET_LONG) * short
    loud = NOISY_LONG + (NOISY_SHORT - NOISY_LONG) * short
    return quiet + (loud - quiet) * noisy


def identify(
    vector: np.ndarray | None,
    prints: Mapping[str, np.ndarray],
    *,
    threshold: float = THRESHOLD,
    margin: float = MARGIN,
    strict_lift: float = STRICT_LIFT,
) -> VoiceMatch:
    """The person whose voiceprint `vector` (a fused vector, fusion.py) matches, or UNKNOWN-like
    (person None, with the best score) when none is at least `threshold` (threshold_for(...) for an
    utterance) and `margin` over the next; strict when also at least the higher of `threshold` and
    QUIET_LONG, plus `strict_lift`."""
    if vector is None or not prints:
        return UNKNOWN
    scores = sorted(((float(np.dot(vector, p)), person) for person, p in prints.items()), reverse=True)
    best, person = scores[0]
    lead = best - scores[1][0] if len(scores) > 1 else best
    if best >= threshold and lead >= margin:
        return VoiceMatch(person, best, lead, strict=best >= max(threshold, QUIET_LONG) + strict_lift)
    return VoiceMatch(None, best, lead)


def identify_utterance(
    utterance: Utterance | None, prints: Mapping[str, np.ndarray], **rule: float
) -> VoiceMatch:
    """identify() for an utterance (None or without a vector: UNKNOWN), at its own threshold_for."""
    if utterance is None or utterance.vector is None:
        return UNKNOWN
    return identify(
        utterance.vector, prints, threshold=threshold_for(utterance.speech_seconds, utterance.snr_db), **rule
    )


def check_clip(whole: Utterance, halves: tuple[Utterance, Utterance]) -> None:
    """Raises ClipRejected when an enrolment clip (`whole`, and its first and second half) has no
    speech, less than MIN_CLIP_SPEECH active seconds of it, speech less than ENROL_MIN_SNR_DB above
    the noise, or halves that sound like two people (cosine below SAME_VOICE; checked only when each
    half holds HALF_MIN_SPEECH active seconds, below which one voice's halves differ as much; the
    cosine of their d-vector legs, fusion.dvector, on which SAME_VOICE was measured)."""
    if whole.vector is None:
        raise ClipRejected("no_speech")
    if whole.active_seconds < MIN_CLIP_SPEECH:
        raise ClipRejected("too_short")
    if whole.snr_db < ENROL_MIN_SNR_DB:
        raise ClipRejected("noisy")
    first, second = (half.vector for half in halves)
    if (
        first is not None
        and second is not None
        and min(half.active_seconds for half in halves) >= HALF_MIN_SPEECH
        and float(np.dot(dvector(first), dvector(second))) < SAME_VOICE
    ):
        raise ClipRejected("two_voices")


def leave_one_out(
    vectors: Sequence[np.ndarray], print_of: Callable[[Sequence[np.ndarray]], np.ndarray] = voiceprint
) -> list[float]:
    """Per vector (fused vectors, at least two), its score against the voiceprint of the others
    (`print_of` the others: voiceprint; a unit mean for vectors of one leg)."""
    stacked = np.stack(vectors)
    return [
        float(stacked[index] @ print_of(list(np.delete(stacked, index, axis=0))))
        for index in range(len(vectors))
    ]


def odd_clip_out(vectors: Sequence[np.ndarray]) -> int | None:
    """The index of the enrolment clip least like the others when it is below SAME_PERSON to the
    mean of the others (another person's voice among them), else None; `vectors` fused vectors, one
    per clip (with two clips the later one is named). Compared by their d-vector legs
    (fusion.dvector), on which SAME_PERSON was measured."""
    if len(vectors) < 2:
        return None
    scores = [round(score, 6) for score in leave_one_out([dvector(v) for v in vectors], print_of=unit_mean)]
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


# How much lower than an enrolment clip's own score (against the other clips) a person's utterance
# scores, median over the tuning half of bench/voice_pool.py's voices (fused scores; stream and
# trimmed clips: sentence -0.006 / 0.001, command 0.056 / 0.060, noisy 0.170 / 0.159): a ~2-s
# command, a sentence in 15 dB noise with reverb (docs/voice.md "Thresholds"). With the median
# speech seconds and level over the noise floor each condition is heard at (the same clips).
CONDITIONS = {"sentence": (0.0, 2.9, 60.0), "command": (0.06, 1.3, 53.0), "noisy": (0.16, 3.0, 21.0)}


def expected_recognition(vectors: Sequence[np.ndarray]) -> Expected:
    """How often the voiceprint made of `vectors` (fused vectors, one per enrolment
    clip, at least two) is expected to recognise its person, per condition: the share of its
    clips that score (against the mean of the others, leave-one-out), less the condition's typical
    drop (CONDITIONS), at least the condition's threshold_for. Raises ValueError with fewer than
    two vectors."""
    if len(vectors) < 2:
        raise ValueError("vectors: at least two clips are needed")
    own = np.asarray(leave_one_out(vectors))
    shares = {
        name: float(np.mean(own - drop >= threshold_for(seconds, snr)))
        for name, (drop, seconds, snr) in CONDITIONS.items()
    }
    return Expected(**shares)
