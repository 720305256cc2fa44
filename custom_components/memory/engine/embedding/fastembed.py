"""The optional fastembed encoder (ONNX models via `fastembed.TextEmbedding`).

Installed on demand by the HA side; when the package is missing `build_engine` raises
EncoderUnavailable and the HA side falls back to the bundled encoder. Two ways to load:
a model name fetched into `cache_dir` (the production default is multilingual MiniLM),
or a local directory holding `model.onnx` plus its tokenizer files (offline installs, tests).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from ..api import EncoderUnavailable
from ..models import EmbeddingIdentity
from .base import Vectors, normalise

PROVIDER = "fastembed"
DEFAULT_FASTEMBED_MODEL = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
LOCAL_MODEL_FILE = "model.onnx"
_REGISTER_LOCK = threading.Lock()  # add_custom_model is process-global and raises on a 2nd call


def fastembed_importable() -> bool:
    """True when the fastembed package can be imported."""
    try:
        import fastembed  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def _local_dimension(model_dir: Path) -> int:
    """The hidden size from the directory's config.json (sentence-transformers layout)."""
    try:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        return int(config["hidden_size"])
    except (OSError, ValueError, KeyError) as err:
        raise EncoderUnavailable(f"no usable config.json in {model_dir}") from err


def _register_local(model_name: str, model_dir: Path, dim: int) -> None:
    """Register a local ONNX model with fastembed once per process (mean pooling, normalised)."""
    from fastembed import TextEmbedding  # noqa: PLC0415
    from fastembed.common.model_description import ModelSource, PoolingType  # noqa: PLC0415

    with _REGISTER_LOCK:
        known = {m["model"].lower() for m in TextEmbedding.list_supported_models()}
        if model_name.lower() in known:
            return
        TextEmbedding.add_custom_model(
            model=model_name,
            pooling=PoolingType.MEAN,
            normalization=True,
            sources=ModelSource(hf=model_name),
            dim=dim,
            model_file=LOCAL_MODEL_FILE,
        )


class FastEmbedEmbedder:
    """Embedder over `fastembed.TextEmbedding`, loaded on first use.

    model: a fastembed model name; with model_path, the name the local model is
    registered under (default "local/<directory name>").
    model_path: a directory with model.onnx, tokenizer.json, config.json, ...; loaded
    with local_files_only (no network).
    Raises EncoderUnavailable when fastembed is missing or the model cannot be loaded.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        model_path: str | None = None,
        cache_dir: str | None = None,
        threads: int = 1,
    ) -> None:
        if not fastembed_importable():
            raise EncoderUnavailable("fastembed is not installed")
        self._path = Path(model_path) if model_path else None
        if self._path is not None:
            self._name = model or f"local/{self._path.name}"
            self._dim = _local_dimension(self._path)
        else:
            self._name = model or DEFAULT_FASTEMBED_MODEL
            self._dim = self._catalogue_dimension(self._name)
        self._cache_dir = cache_dir
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @staticmethod
    def _catalogue_dimension(name: str) -> int:
        from fastembed import TextEmbedding  # noqa: PLC0415

        for desc in TextEmbedding.list_supported_models():
            if desc["model"].lower() == name.lower():
                return int(desc["dim"])
        raise EncoderUnavailable(f"fastembed does not know the model {name}")

    @property
    def identity(self) -> EmbeddingIdentity:
        return EmbeddingIdentity(provider=PROVIDER, model=self._name, dimension=self._dim)

    def load(self) -> None:
        """Load (downloading into cache_dir if needed) the model now; raises EncoderUnavailable."""
        with self._lock:
            self._load()

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        from fastembed import TextEmbedding  # noqa: PLC0415

        try:
            if self._path is not None:
                _register_local(self._name, self._path, self._dim)
                self._model = TextEmbedding(
                    self._name,
                    specific_model_path=str(self._path),
                    local_files_only=True,
                    threads=self._threads,
                )
            else:
                self._model = TextEmbedding(self._name, cache_dir=self._cache_dir, threads=self._threads)
        except Exception as err:  # fastembed raises plain Exceptions for missing/corrupt files
            raise EncoderUnavailable(f"fastembed model {self._name} cannot be loaded: {err}") from err
        return self._model

    def embed(self, texts: list[str]) -> Vectors:
        """float32[len(texts), dimension], rows L2-normalised."""
        if not texts:
            return normalise([[0.0] * self._dim])[:0]
        with self._lock:
            model = self._load()
            out = list(model.embed(list(texts)))
        return normalise(out)
