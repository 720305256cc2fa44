"""The GE2E leg (voice/ge2e.py) gives Resemblyzer's embeddings, from the weights in its wheel.

The reference is bench/embedder_compare.py's whole-clip numpy encoder, which was checked against the
package itself (torch and librosa) to cosine 0.9999999 (docs/voice.md). Tolerances: the integration's
float16 weights and streaming front end agree with it within cosine 0.99999 per partial at the same
gain; a stream fed in any chunk sizes agrees with the whole clip within cosine 0.999 (partials run at
a gain within ge2e.GAIN_STEP_DB of their own; measured >= 0.9995).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench import embedder_compare as reference
from custom_components.memory.voice import ge2e
from custom_components.memory.voice.features import pcm_to_float
from custom_components.memory.voice.network import Weights
from scripts import ge2e_weights
from tests.speech import HUMAN_MEN, HUMAN_WOMEN, MEN, WOMEN, say, silence, speak

CLIPS = (
    ("Remember that I like short answers.", MEN[0]),
    ("Turn off the kitchen light.", WOMEN[1]),
    ("Set a timer for ten minutes, please, and tell me when the pasta is done.", HUMAN_WOMEN[0]),
    ("What do you know about the boiler?", HUMAN_MEN[0]),
    ("Yes.", MEN[1]),  # shorter than one partial: one, zero-padded
)


def _pcm(text: str, voice: str) -> bytes:
    return say(text, voice) if voice in HUMAN_MEN + HUMAN_WOMEN else speak(text, voice)


def _quiet(pcm: bytes, db: float, seed: int = 0) -> np.ndarray:
    """`pcm` as float samples `db` quieter, with a faint noise floor (-80 dBFS) as a microphone has."""
    noise = np.random.default_rng(seed).normal(0.0, 1e-4, len(pcm) // 2)
    return (pcm_to_float(pcm) * 10 ** (db / 20) + noise).astype(np.float32)


def _mean(partials: ge2e.Partials) -> np.ndarray:
    mean = partials.vectors.mean(axis=0)
    return mean / np.linalg.norm(mean)


def _stream(weights: Weights, samples: np.ndarray, sizes: tuple[int, ...], seed: int = 7) -> ge2e.Partials:
    stream, at, rng = ge2e.Ge2eStream(weights), 0, random.Random(seed)
    while at < len(samples):
        size = rng.choice(sizes)
        stream.feed(samples[at : at + size])
        at += size
    return stream.finish()


@pytest.fixture(scope="module")
def weights() -> Weights:
    return ge2e.load_weights()


@pytest.fixture(scope="module")
def resemblyzer() -> reference.GE2E:
    """The wheel's float32 weights in bench/embedder_compare.py's reference encoder."""
    return reference.GE2E.from_wheel(ge2e_weights.resemblyzer_wheel())


def test_weights_file_matches_the_wheel() -> None:
    """ge2e.npz is exactly what scripts/ge2e_weights.py writes from Resemblyzer 0.1.4's wheel (fetched
    by pip into a cache; the wheel must have the sha256 the script pins)."""
    fresh = ge2e_weights.arrays(ge2e_weights.resemblyzer_wheel())
    with np.load(ge2e.WEIGHTS_FILE) as committed:
        assert set(committed.files) == set(fresh)
        for name, value in fresh.items():
            assert committed[name].dtype == value.dtype, name
            assert np.array_equal(committed[name], value), name


def test_weights_record_their_source(weights: Weights) -> None:
    assert f"Resemblyzer-0.1.4-py3-none-any.whl sha256={ge2e_weights.WHEEL_SHA256}" in weights.source
    assert "resemblyzer/pretrained.pt sha256=" in weights.source
    licence = ge2e.WEIGHTS_FILE.with_name("LICENSE.ge2e").read_text(encoding="utf-8")
    assert "Copyright 2019 Resemble.AI" in licence
    assert "Apache License" in licence


def test_front_end_is_librosas(weights: Weights) -> None:
    """The filterbank and window are librosa's for Resemblyzer's melspectrogram call."""
    librosa = pytest.importorskip("librosa")
    mel = librosa.filters.mel(sr=16000, n_fft=400, n_mels=40).T
    assert np.abs(weights.mel - mel).max() < 1e-6 * mel.max()
    assert np.abs(weights.window - librosa.filters.get_window("hann", 400, fftbins=True)).max() < 1e-6
    samples = pcm_to_float(_pcm(*CLIPS[0]))
    power = librosa.feature.melspectrogram(y=samples, sr=16000, n_fft=400, hop_length=160, n_mels=40).T
    mel_stream = ge2e.PowerMel(weights.window, weights.mel)
    chunks = [mel_stream.feed(samples[i : i + 333]) for i in range(0, len(samples), 333)]
    ours = np.concatenate([*chunks, mel_stream.feed(np.zeros(200, np.float32))])[: len(power)]
    assert np.abs(ours - power).max() < 1e-5 * power.max()


@pytest.mark.parametrize("samples", [1, 1000, 16000, 25599, 25600, 30000, 40000, 16000 * 7 + 13])
def test_partials_are_resemblyzers(samples: int) -> None:
    """The partials' positions (compute_partial_slices at 1.3 per second, coverage 0.75)."""
    assert ge2e.partial_starts(samples) == [a for a, _ in reference.ge2e_slices(samples)]


@pytest.mark.parametrize(("text", "voice"), CLIPS)
def test_equals_the_reference(weights: Weights, resemblyzer: reference.GE2E, text: str, voice: str) -> None:
    """At the reference's gain (the whole clip's level, here raised by 12-20 dB), every partial and
    the utterance equal Resemblyzer's."""
    samples = _quiet(_pcm(text, voice), -30.0)
    pcm = (samples * 32768).astype("<i2").tobytes()
    rms = float(np.sqrt(np.mean(pcm_to_float(pcm) ** 2)))
    gain = max(0.0, reference.R_TARGET_DBFS - 20 * np.log10(rms))
    assert gain > 10.0
    stream = ge2e.Ge2eStream(weights, gain_db=gain)
    stream.feed(pcm_to_float(pcm))
    ours = stream.finish()
    slices = reference.ge2e_slices(len(pcm) // 2)
    assert list(ours.starts) == [a for a, _ in slices]
    wav = pcm_to_float(pcm) * np.float32(10 ** (gain / 20))
    wav = np.pad(wav, (0, max(0, slices[-1][1] * 160 - len(wav))))
    mel = reference.ge2e_mel(resemblyzer, wav)
    expected = reference.ge2e_partials(resemblyzer, np.stack([mel[a:b] for a, b in slices]))
    assert np.min(np.sum(ours.vectors * expected, axis=1)) > 0.99999
    assert float(_mean(ours) @ reference.ge2e_embed(resemblyzer, pcm)) > 0.99999


def test_loud_speech_gets_no_gain_like_the_reference(weights: Weights, resemblyzer: reference.GE2E) -> None:
    """Speech louder than -30 dBFS is left as it is, by both rules."""
    pcm = _pcm(*CLIPS[0])
    stream = ge2e.Ge2eStream(weights)
    stream.feed(pcm_to_float(pcm))
    ours = stream.finish()
    assert stream.gain() == 0.0
    assert float(_mean(ours) @ reference.ge2e_embed(resemblyzer, pcm)) > 0.99999


def _at_own_gains(weights: Weights, samples: np.ndarray) -> np.ndarray:
    """Each partial computed whole at its own gain: the speech level of the audio up to its end."""
    starts = ge2e.partial_starts(len(samples))
    stop = (starts[-1] + ge2e.PARTIAL) * ge2e.HOP
    padded = np.pad(samples, (0, max(0, stop - len(samples)) + ge2e.N_FFT // 2))
    frames = ge2e.PowerMel(weights.window, weights.mel).feed(padded)
    blocks = np.mean(samples[: len(samples) // ge2e.HOP * ge2e.HOP].reshape(-1, ge2e.HOP) ** 2, axis=1)
    rows = []
    for start in starts:
        gain = ge2e.gain_for(ge2e.speech_level(blocks[: start + ge2e.PARTIAL]))
        rows.append(frames[start : start + ge2e.PARTIAL] * np.float32(10 ** (gain / 10)))
    return ge2e.embed_partials(weights, np.stack(rows))


@pytest.mark.parametrize(("text", "voice"), CLIPS[:4])
def test_streaming_equals_whole_clip(weights: Weights, text: str, voice: str) -> None:
    """A quiet clip (its gain rising while the speech arrives) with a pipeline's pauses around it,
    fed at once or in odd chunk sizes, gives each partial at its own gain."""
    samples = _quiet(silence(0.3) + _pcm(text, voice) + silence(0.7), -30.0)
    expected = _at_own_gains(weights, samples)
    whole = ge2e.Ge2eStream(weights)
    whole.feed(samples)
    at_once = whole.finish()
    assert whole.gain() > 10.0
    streamed = _stream(weights, samples, (1, 160, 333, 1024, 3200))
    for partials in (at_once, streamed):
        assert list(partials.starts) == ge2e.partial_starts(len(samples))
        assert np.min(np.sum(partials.vectors * expected, axis=1)) > 0.999
    assert float(_mean(streamed) @ _mean(at_once)) > 0.999


def test_gain_reads_the_speech_not_the_pauses(weights: Weights) -> None:
    """Silence around the words does not change the gain (the whole clip's RMS would: ~3 dB here)."""
    pcm = _pcm(*CLIPS[2])
    trimmed, padded = ge2e.Ge2eStream(weights), ge2e.Ge2eStream(weights)
    trimmed.feed(_quiet(pcm, -30.0))
    padded.feed(_quiet(silence(1.0) + pcm + silence(1.0), -30.0))
    assert abs(trimmed.gain() - padded.gain()) < 0.2
    assert trimmed.gain() > 5.0
