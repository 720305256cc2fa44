"""Transcripts in the engine: schema upgrade, verbatim turns, retention purge, forgetting."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from custom_components.memory.engine.api import InvalidInput, MemoryDraft, StoreUnavailable
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Role, Scope, Speaker, TranscriptTurn
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore

from .conftest import JULIAN, KITCHEN

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _turn(conversation_id: str, turn: int, text: str, *, role: Role = Role.USER, at: datetime = NOW,
          language: str = "en") -> TranscriptTurn:  # fmt: skip
    return TranscriptTurn(
        conversation_id=conversation_id, turn=turn, role=role, text=text, language=language,
        created_at=at, speaker_id=JULIAN if role is Role.USER else None, area_id=KITCHEN,
    )  # fmt: skip


@pytest.mark.parametrize("version", [1, 2])
def test_older_database_upgrades_and_keeps_memories(
    tmp_path: Path, encoder: BundledEmbedder, version: int
) -> None:
    path = tmp_path / f"v{version}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, target=version)
    conn.execute(
        "INSERT INTO memories (id, content, kind, language, provenance, scope, confidence, importance,"
        " sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', 'The spare key is under the blue pot.', 'fact', 'en', 'confirmed', 'shared',"
        " 1.0, 0.5, 0, 'active', 'service', 0, '2026-01-01T00:00:00.000000+00:00',"
        " '2026-01-01T00:00:00.000000+00:00')"
    )
    conn.close()
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        assert engine.get("old1", Speaker.administrator()) is not None
        engine.record_turns([_turn("c1", 0, "Where is the spare key?")])
        assert [t.text for t in engine.conversation("c1")] == ["Where is the spare key?"]
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "  Where's the key?? "), ("de", "Wo ist der Schlüssel, im Flur?"), ("it", "Dov'è la chiave?")],
)
def test_turns_are_stored_verbatim_in_order(engine: MemoryEngine, language: str, text: str) -> None:
    engine.record_turns(
        [
            _turn("c1", 1, "ok", role=Role.ASSISTANT, language=language),
            _turn("c1", 0, text, language=language),
        ]
    )
    engine.record_turns([_turn("other", 0, "unrelated")])
    turns = engine.conversation("c1")
    assert [(t.turn, t.role, t.text, t.language) for t in turns] == [
        (0, Role.USER, text, language),
        (1, Role.ASSISTANT, "ok", language),
    ]
    assert turns[0] == _turn("c1", 0, text, language=language)  # speaker, area, time round-trip
    assert engine.conversation("unknown") == []


def test_a_turn_index_is_stored_once(engine: MemoryEngine) -> None:
    engine.record_turns([_turn("c1", 0, "first")])
    with pytest.raises(StoreUnavailable):
        engine.record_turns([_turn("c1", 1, "second"), _turn("c1", 0, "again")])
    assert [t.text for t in engine.conversation("c1")] == ["first"]  # the failing batch wrote nothing
    with pytest.raises(InvalidInput):
        engine.record_turns([_turn("c1", -1, "bad")])


def test_purge_removes_old_turns_and_keeps_new_ones(engine: MemoryEngine) -> None:
    engine.record_turns([
        _turn("old", 0, "a year and a day ago", at=NOW - timedelta(days=366)),
        _turn("edge", 0, "just inside", at=NOW - timedelta(days=365) + timedelta(seconds=1)),
        _turn("new", 0, "today", at=NOW),
    ])  # fmt: skip
    assert engine.purge_transcripts(NOW, 365) == 1
    assert engine.conversation("old") == []
    assert [t.text for t in engine.conversation("edge")] == ["just inside"]
    assert engine.purge_transcripts(NOW, 365) == 0
    assert engine.purge_transcripts(NOW + timedelta(days=2), 1) == 2
    with pytest.raises(InvalidInput):
        engine.purge_transcripts(NOW, 0)


def test_forgetting_a_memory_leaves_transcripts(engine: MemoryEngine) -> None:
    """Documented in docs/learning.md and docs/privacy.md: transcripts go only by retention."""
    speaker = Speaker(person_id=JULIAN, area_id=KITCHEN)
    said = "Remember that my PIN hint is the blue bike"
    engine.record_turns([_turn("c1", 0, said)])
    memory = engine.remember(
        MemoryDraft("My PIN hint is the blue bike", speaker=speaker, scope=Scope.PRIVATE)
    ).memory
    engine.forget(memory.id, speaker)
    assert engine.forget_person(JULIAN) == 0
    assert engine.get(memory.id, Speaker.administrator()) is None
    assert [t.text for t in engine.conversation("c1")] == [said]


def test_append_turn_numbers_in_order_and_records_one_utterance_once(
    engine: MemoryEngine, julian_kitchen: Speaker
) -> None:
    """append_turn numbers turns itself (threads never collide) and drops a user turn that
    repeats the last one (the same utterance through the memory agent and the Memory LLM API)."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    first = engine.append_turn(_turn("c1", 0, "Wo ist der Schlüssel?"))
    again = engine.append_turn(_turn("c1", 0, "Wo ist der Schlüssel?"))
    reply = engine.append_turn(_turn("c1", 0, "In der Dose.", role=Role.ASSISTANT))
    assert (first and first.turn, again, reply and reply.turn) == (0, None, 1)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda i: engine.append_turn(_turn("c2", 0, f"turn {i}")), range(12)))
    assert [t.turn for t in engine.conversation("c2")] == list(range(12))


def test_recording_a_turn_keeps_the_recall_word_counts(
    sqlite_engine: MemoryEngine, julian_kitchen: Speaker
) -> None:
    """Transcript writes touch no memory: the words recall counts stay as they were (a turn is no
    memory's text)."""
    engine = sqlite_engine
    engine.remember(
        MemoryDraft("Ticket HX-4471 is waiting for a part.", speaker=julian_kitchen, scope=Scope.SHARED)
    )
    before = (engine.store.doc_count(), engine.store.doc_frequencies(["part", "status", "hx"], 10))
    assert before == (1, {"part": 1, "status": 0, "hx": 1})
    engine.append_turn(_turn("c3", 0, "status of HX-4471 part"))
    assert (engine.store.doc_count(), engine.store.doc_frequencies(["part", "status", "hx"], 10)) == before
