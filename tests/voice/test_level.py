"""The utterance's level over its noise floor does not depend on where the audio was cut (real
speech): the same words trimmed close, in a pipeline's stream, with silence or quiet room tone
around them read alike and get the same threshold, in a quiet room and in 15 dB noise."""

from __future__ import annotations

import numpy as np
import pytest

from custom_components.memory.voice import PortableEncoder, threshold_for
from custom_components.memory.voice.matching import QUIET_DB
from tests.speech import HUMAN_MEN, HUMAN_WOMEN, MEN, SAMPLE_RATE, in_room, say, silence, speak

SENTENCE = "The weather is nice today and I will go for a walk."
# What the cut may still move: pymicro-vad counts a little more or less speech with pause around
# it (up to 0.25 s here), which moves the threshold by up to 0.01 (bilinear in speech seconds);
# the level itself is measured over the speech's own span and moved by less than 0.1 dB.
LEVEL_ROOM = 1.0  # dB
THRESHOLD_ROOM = 0.015


def _cut_close(pcm: bytes) -> bytes:
    """`pcm` from its first to its last sample above 5 % of its peak: as a satellite's VAD may
    deliver it (a rule of this test's own, not the recogniser's)."""
    samples = np.abs(np.frombuffer(pcm, "<i2").astype(np.int32))
    loud = np.flatnonzero(samples > samples.max() * 0.05)
    return pcm[2 * int(loud[0]) : 2 * (int(loud[-1]) + 1)]


def _hiss(seconds: float, seed: int) -> bytes:
    """A quiet room's tone: white noise about 64 dB below full scale."""
    noise = np.random.default_rng(seed).standard_normal(int(SAMPLE_RATE * seconds)) * 20
    return noise.astype("<i2").tobytes()


def _at(seconds: float) -> int:
    return 2 * int(SAMPLE_RATE * seconds)


@pytest.mark.parametrize(
    "voice", [HUMAN_MEN[0], HUMAN_WOMEN[1], MEN[0]], ids=["mbrola-man", "cmu-arctic-woman", "espeak-man"]
)
def test_the_cut_does_not_move_the_level_or_the_threshold(portable: PortableEncoder, voice: str) -> None:
    """Quiet: trimmed, in a stream (0.3 s before, 0.7 s after), 1 s of silence, 1 s of room tone.
    Noisy: one recording in a room with 15 dB noise, cut close, as a stream, and whole (1 s of the
    room each side). Each reads within LEVEL_ROOM of the trimmed clip and needs the same threshold
    (THRESHOLD_ROOM); the quiet clips read as a quiet room, the noisy ones below it."""
    words = _cut_close(speak(SENTENCE, voice) if voice in MEN else say(SENTENCE, voice))
    quiet = {
        "trimmed": words,
        "stream": silence(0.3) + words + silence(0.7),
        "silence": silence(1) + words + silence(1),
        "room tone": _hiss(1, 1) + words + _hiss(1, 2),
    }
    room = in_room(silence(1) + words + silence(1), snr_db=15.0, seed=3)
    start, end = _at(1), _at(1) + len(words)
    noisy = {
        "trimmed": room[start:end],
        "stream": room[start - _at(0.3) : end + _at(0.7)],
        "padded": room,
    }
    for condition, cuts in (("quiet", quiet), ("noisy", noisy)):
        heard = {name: portable.embed(pcm) for name, pcm in cuts.items()}
        levels = {name: u.snr_db for name, u in heard.items()}
        bars = {name: threshold_for(u.speech_seconds, u.snr_db) for name, u in heard.items()}
        assert max(levels.values()) - min(levels.values()) <= LEVEL_ROOM, (condition, levels)
        assert max(bars.values()) - min(bars.values()) <= THRESHOLD_ROOM, (condition, bars)
        if condition == "quiet":
            assert min(levels.values()) >= QUIET_DB + LEVEL_ROOM, levels
        else:
            assert max(levels.values()) <= QUIET_DB - LEVEL_ROOM, levels
