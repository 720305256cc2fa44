"""Forgetting: the text is gone from the file (C03), tombstones remain, forget_person (C16)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from custom_components.memory.engine.api import InvalidInput
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker

from .conftest import ANNA, HALL, JULIAN, KITCHEN

# every case in both vector index modes (exact matrix / compact projection + exact re-rank)
pytestmark = pytest.mark.usefixtures("index_mode")

GUEST = Speaker()
SECRETS = {
    "en": "The spare key for the cellar is in the blue tin Zwirbelquast.",
    "de": "Der Ersatzschlüssel für den Keller liegt in der Dose Zwirbelquast.",
    "it": "La chiave di riserva della cantina è nella scatola Zwirbelquast.",
}
QUESTIONS = {
    "en": "Where is the spare key?",
    "de": "Wo ist der Ersatzschlüssel?",
    "it": "Dov'è la chiave di riserva?",
}


def _file_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    for suffix in ("-wal", "-shm", "-journal"):
        extra = Path(str(path) + suffix)
        if extra.exists():
            data += extra.read_bytes()
    return data


@pytest.mark.parametrize("lang", list(SECRETS))
def test_c03_forgotten_text_is_gone_from_the_file(engine: MemoryEngine, lang: str) -> None:
    path: Path = engine.store.path  # type: ignore[attr-defined]
    for n in range(30):  # neighbours on the same pages, so deleting means more than freeing a page
        engine.remember(f"Filler memory number {n} about shelf {n * 7}.", speaker=GUEST, scope=Scope.SHARED)
    secret = SECRETS[lang]
    engine.remember(secret, speaker=GUEST, scope=Scope.SHARED, language=lang)
    engine.store._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"Zwirbelquast" in _file_bytes(path)

    candidates = engine.find_to_forget(QUESTIONS[lang], GUEST)
    assert candidates[0].memory.content == secret
    forgotten = engine.forget(candidates[0].memory.id, GUEST)
    assert forgotten.content == secret  # for the confirmation reply

    raw = _file_bytes(path)
    assert b"Zwirbelquast" not in raw and b"zwirbelquast" not in raw
    assert secret.encode() not in raw
    assert all(h.memory.content != secret for h in engine.recall(QUESTIONS[lang], GUEST))
    assert engine.stats().tombstones == 1
    conn = sqlite3.connect(path)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(tombstones)")]
    conn.close()
    assert "content" not in columns
    engine.close()
    assert b"Zwirbelquast" not in _file_bytes(path)


def test_forget_needs_visibility(engine: MemoryEngine) -> None:
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    private = engine.remember("I hide chocolate in the attic.", speaker=julian, scope=Scope.PRIVATE).memory
    room = engine.remember("The kitchen window sticks.", speaker=julian, scope=Scope.ROOM).memory
    for speaker, memory in [
        (Speaker(person_id=ANNA, area_id=KITCHEN), private),
        (GUEST, private),
        (Speaker(area_id=HALL), room),
    ]:
        assert engine.find_to_forget(memory.content, speaker) == [] or all(
            h.memory.id != memory.id for h in engine.find_to_forget(memory.content, speaker)
        )
        with pytest.raises(InvalidInput) as err:
            engine.forget(memory.id, speaker)
        assert (err.value.field, err.value.reason) == ("memory_id", "unknown_memory")
    assert engine.stats().memories == 2
    with pytest.raises(InvalidInput):
        engine.forget("no-such-id", Speaker.administrator())


def test_c16_forget_everything_about_me(engine: MemoryEngine) -> None:
    julian, anna = Speaker(person_id=JULIAN, area_id=KITCHEN), Speaker(person_id=ANNA, area_id=HALL)
    for text in ("I like short answers.", "My bike lock code is 9911.", "I am allergic to cats."):
        engine.remember(text, speaker=julian, scope=Scope.PRIVATE)
    engine.remember("I like long walks.", speaker=anna, scope=Scope.PRIVATE)
    engine.remember("The kitchen window sticks.", speaker=julian, scope=Scope.ROOM)
    engine.remember("The bins go out on Thursday.", speaker=julian, scope=Scope.SHARED)
    assert engine.forget_person(JULIAN) == 3
    assert engine.list_memories(julian) == [
        m for m in engine.list_memories(julian) if m.scope is not Scope.PRIVATE
    ]
    assert {m.content for m in engine.list_memories(Speaker.administrator())} == {
        "I like long walks.",
        "The kitchen window sticks.",
        "The bins go out on Thursday.",
    }
    assert engine.stats().tombstones == 3
    assert engine.is_tombstoned("I like short answers.", scope=Scope.PRIVATE, owner_id=JULIAN)
    assert not engine.is_tombstoned("I like short answers.", scope=Scope.PRIVATE, owner_id=ANNA)
    assert engine.forget_person(JULIAN) == 0
    with pytest.raises(InvalidInput):
        engine.forget_person("")


def test_tombstone_check_accepts_a_vector(engine: MemoryEngine) -> None:
    memory = engine.remember("The alarm code is 2580.", speaker=GUEST, scope=Scope.SHARED).memory
    engine.forget(memory.id, GUEST)
    vector = engine.embedder.embed(["The alarm code is 2580."])[0]
    assert engine.is_tombstoned(vector, scope=Scope.SHARED)
    assert not engine.is_tombstoned("The cat is called Luna.", scope=Scope.SHARED)
