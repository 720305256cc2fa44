"""Forgetting: the text is gone from the file (C03), tombstones remain, forget_person (C16)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from custom_components.memory.engine.api import InvalidInput, MemoryDraft
from custom_components.memory.engine.embedding.base import to_blob
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.forgetting import anchor_check, anchor_digests
from custom_components.memory.engine.models import Provenance, Scope, Source, Speaker, Status
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.writer import embedding_text

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
def test_c03_forgotten_text_is_gone_from_the_file(sqlite_engine: MemoryEngine, lang: str) -> None:
    engine = sqlite_engine
    path: Path = engine.store.path  # type: ignore[attr-defined]
    for n in range(30):  # neighbours on the same pages, so deleting means more than freeing a page
        engine.remember(
            MemoryDraft(f"Filler memory number {n} about shelf {n * 7}.", speaker=GUEST, scope=Scope.SHARED)
        )
    secret = SECRETS[lang]
    engine.remember(MemoryDraft(secret, speaker=GUEST, scope=Scope.SHARED, language=lang))
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
    private = engine.remember(
        MemoryDraft("I hide chocolate in the attic.", speaker=julian, scope=Scope.PRIVATE)
    ).memory
    room = engine.remember(MemoryDraft("The kitchen window sticks.", speaker=julian, scope=Scope.ROOM)).memory
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
        engine.remember(MemoryDraft(text, speaker=julian, scope=Scope.PRIVATE))
    engine.remember(MemoryDraft("I like long walks.", speaker=anna, scope=Scope.PRIVATE))
    engine.remember(MemoryDraft("The kitchen window sticks.", speaker=julian, scope=Scope.ROOM))
    engine.remember(MemoryDraft("The bins go out on Thursday.", speaker=julian, scope=Scope.SHARED))
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
    memory = engine.remember(MemoryDraft("The alarm code is 2580.", speaker=GUEST, scope=Scope.SHARED)).memory
    engine.forget(memory.id, GUEST)
    vector = engine.embedder.embed(["The alarm code is 2580."])[0]
    assert engine.is_tombstoned(vector, scope=Scope.SHARED)
    assert not engine.is_tombstoned("The cat is called Luna.", scope=Scope.SHARED)


# ---------------------------------------------------------------- identifiers in tombstones (C04)
ANCHOR_KEY = bytes(range(32))  # the HA side keeps a random one in the config entry
GATE = {
    "en": "The gate code is 4711.",
    "de": "Der Code für das Gartentor ist 4711.",
    "it": "Il codice del cancello del giardino è 4711.",
}
GATE_PARAPHRASE = {  # the same code in other words: below TOMBSTONE_SIMILARITY for USE-m3
    "en": "The garden gate opens with 4711.",
    "de": "Das Gartentor geht mit 4711 auf.",
    "it": "Il cancello del giardino si apre con 4711.",
}
GATE_IN_PASSING = {  # the code told again inside a longer sentence (the demo's C04): 0.41-0.49
    "en": "He can let himself in, the garden gate opens with 4711.",
    "de": "Der Paketbote kommt morgen, das Tor geht mit 4711 auf.",
    "it": "Il corriere viene domani, il cancello si apre con 4711.",
}


@pytest.fixture
def keyed(make_engine: Callable[..., MemoryEngine]) -> MemoryEngine:
    """An open engine with an anchor key (as built by the HA side), on every store."""
    return make_engine("keyed.db", anchor_key=ANCHOR_KEY)


@pytest.fixture
def sqlite_keyed(make_sqlite_engine: Callable[..., MemoryEngine]) -> MemoryEngine:
    """`keyed` on a SqliteStore file (tests that read the file)."""
    return make_sqlite_engine("keyed.db", anchor_key=ANCHOR_KEY)


def _forget_gate(engine: MemoryEngine, lang: str) -> None:
    memory = engine.remember(MemoryDraft(GATE[lang], speaker=GUEST, scope=Scope.SHARED, language=lang)).memory
    engine.forget(memory.id, GUEST)


@pytest.mark.parametrize("lang", list(GATE))
def test_c04_paraphrase_with_a_forgotten_code_is_blocked(keyed: MemoryEngine, lang: str) -> None:
    _forget_gate(keyed, lang)
    paraphrase = GATE_PARAPHRASE[lang]
    vector = keyed.embedder.embed([embedding_text(paraphrase)])[0]
    assert not keyed.is_tombstoned(vector, scope=Scope.SHARED)  # similarity alone lets it through
    assert keyed.is_tombstoned(paraphrase, scope=Scope.SHARED)
    assert keyed.is_tombstoned(vector, scope=Scope.SHARED, text=paraphrase)
    assert not keyed.is_tombstoned(paraphrase, scope=Scope.PRIVATE, owner_id=JULIAN)  # other bucket
    learned = keyed.learn([ExtractedFact(paraphrase, confidence=0.9)], speaker=GUEST, language=lang)
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)
    assert keyed.list_memories(Speaker.administrator()) == []


@pytest.mark.parametrize("lang", list(GATE))
def test_c04_forgotten_code_in_passing_is_blocked(keyed: MemoryEngine, lang: str) -> None:
    _forget_gate(keyed, lang)
    said = GATE_IN_PASSING[lang]
    learned = keyed.learn([ExtractedFact(said, confidence=0.9)], speaker=GUEST, language=lang)
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)


def test_c04_same_number_about_something_else_is_not_blocked(keyed: MemoryEngine) -> None:
    """Below TOMBSTONE_ANCHOR_SIMILARITY: a sentence about something else altogether may carry
    the same number (forgetting.py lists the pairs measured; most uses of the number are blocked,
    on purpose)."""
    _forget_gate(keyed, "en")
    assert not keyed.is_tombstoned("Grandma turned 4711 days old today.", scope=Scope.SHARED)
    assert not keyed.is_tombstoned("The garden gate is painted green.", scope=Scope.SHARED)  # no number


def test_anchor_digests_are_keyed_and_not_in_clear(sqlite_keyed: MemoryEngine) -> None:
    keyed = sqlite_keyed
    _forget_gate(keyed, "en")
    path: Path = keyed.store.path  # type: ignore[attr-defined]
    keyed.close()
    raw = _file_bytes(path)
    plain = hashlib.sha256(b"4711").hexdigest()
    assert b"4711" not in raw and plain.encode() not in raw and plain[:32].encode() not in raw
    conn = sqlite3.connect(path)
    (stored,) = conn.execute("SELECT anchors FROM tombstones").fetchone()
    conn.close()
    assert stored == " ".join(anchor_digests("4711", ANCHOR_KEY)) and len(stored) == 32
    assert anchor_digests("4711", bytes(32)) != anchor_digests("4711", ANCHOR_KEY)  # another home


def test_a_store_opened_with_another_anchor_key_says_so(make_engine: Callable[..., MemoryEngine]) -> None:
    """The first keyed engine claims the store (the household on PostgreSQL) for its key; one
    with another key — a second installation, or a config entry made anew over an old file —
    learns it does not hold the key the tombstones were made with (and cannot match their
    digests), one with the same key or with none is fine."""
    first = make_engine("shared.db", anchor_key=ANCHOR_KEY)
    assert first.anchor_key_matches
    _forget_gate(first, "en")
    first.close()
    other = make_engine("shared.db", anchor_key=bytes(32))
    assert not other.anchor_key_matches
    assert not other.is_tombstoned(GATE_PARAPHRASE["en"], scope=Scope.SHARED)  # digests of another key
    other.close()
    again = make_engine("shared.db", anchor_key=ANCHOR_KEY)
    assert again.anchor_key_matches  # the claim stays the first key's
    assert again.is_tombstoned(GATE_PARAPHRASE["en"], scope=Scope.SHARED)
    again.close()
    assert make_engine("shared.db").anchor_key_matches  # no key: nothing to compare
    assert anchor_check(ANCHOR_KEY) != anchor_check(bytes(32))
    assert anchor_check(ANCHOR_KEY) == anchor_check(bytes(range(32)))


def test_without_a_key_tombstones_keep_no_anchors(sqlite_engine: MemoryEngine) -> None:
    engine = sqlite_engine
    _forget_gate(engine, "en")
    assert engine.is_tombstoned(GATE["en"], scope=Scope.SHARED)
    assert not engine.is_tombstoned(GATE_PARAPHRASE["en"], scope=Scope.SHARED)  # similarity only
    conn = sqlite3.connect(engine.store.path)  # type: ignore[attr-defined]
    assert conn.execute("SELECT anchors FROM tombstones").fetchall() == [(None,)]
    conn.close()
    result = engine.remember(MemoryDraft(GATE_PARAPHRASE["en"], speaker=GUEST, scope=Scope.SHARED))
    assert result.lifted_tombstones == 0


def test_explicit_remember_lifts_the_anchored_block(keyed: MemoryEngine) -> None:
    _forget_gate(keyed, "en")
    paraphrase = GATE_PARAPHRASE["en"]
    with pytest.raises(InvalidInput, match="sensitive"):  # a learned memory never holds a code
        keyed.remember(
            MemoryDraft(paraphrase, speaker=GUEST, scope=Scope.SHARED, provenance=Provenance.EXTRACTED)
        )
    assert keyed.is_tombstoned(paraphrase, scope=Scope.SHARED)  # so it lifted nothing
    confirmed = keyed.remember(MemoryDraft(paraphrase, speaker=GUEST, scope=Scope.SHARED))
    assert confirmed.lifted_tombstones == 1
    assert not keyed.is_tombstoned(paraphrase, scope=Scope.SHARED)
    assert not keyed.is_tombstoned(GATE["en"], scope=Scope.SHARED)
    assert keyed.stats().tombstones == 0


def test_forget_person_keeps_anchors(keyed: MemoryEngine) -> None:
    julian = Speaker(person_id=JULIAN)
    keyed.remember(MemoryDraft("My bike lock code is 9911.", speaker=julian, scope=Scope.PRIVATE))
    assert keyed.forget_person(JULIAN) == 1
    assert keyed.is_tombstoned("The bike lock opens with 9911.", scope=Scope.PRIVATE, owner_id=JULIAN)


def test_v4_tombstones_survive_the_v5_upgrade(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = tmp_path / "v4.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, target=4)
    ident = encoder.identity
    conn.execute(
        "INSERT INTO tombstones (id, scope, owner_id, area_id, embedding, emb_provider, emb_model, "
        "emb_dimension, created_at) VALUES ('t1', 'shared', NULL, NULL, ?, ?, ?, ?, ?)",
        (to_blob(encoder.embed([GATE["en"]])[0]), ident.provider, ident.model, ident.dimension,
         "2026-01-01T00:00:00.000000+00:00"),
    )  # fmt: skip
    conn.close()
    engine = MemoryEngine(SqliteStore(path), encoder, anchor_key=ANCHOR_KEY)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        assert engine.stats().tombstones == 1
        assert engine.is_tombstoned(GATE["en"], scope=Scope.SHARED)
        # its text was gone before digests existed: only similarity can block for it
        assert not engine.is_tombstoned(GATE_PARAPHRASE["en"], scope=Scope.SHARED)
    finally:
        engine.close()


# ---------------------------------------------------------------- split numbers (C04)
LOCKER = "Julian's locker at the gym is number 4711."
LOCKER_SPLIT = {  # the forgotten number said or written in groups; USE-m3 similarity 0.63-0.79
    "en": "Julian uses locker 4-7-1-1 at the gym.",
    "de": "Julians Spind im Fitnessstudio hat die Nummer 47 11.",
    "it": "L'armadietto di Julian in palestra è il 4 7 1 1.",
}
ALARM_AT = {  # a time, joined to 830 like the forgotten code, about something else (≈ 0.25)
    "en": "The bus leaves at 8 30.",
    "de": "Der Bus fährt um 8 30.",
    "it": "L'autobus parte alle 8 30.",
}


@pytest.mark.parametrize("lang", list(LOCKER_SPLIT))
def test_c04_forgotten_number_in_groups_is_blocked(keyed: MemoryEngine, lang: str) -> None:
    memory = keyed.remember(MemoryDraft(LOCKER, speaker=GUEST, scope=Scope.SHARED)).memory
    keyed.forget(memory.id, GUEST)
    said = LOCKER_SPLIT[lang]
    learned = keyed.learn([ExtractedFact(said, confidence=0.9)], speaker=GUEST, language=lang)
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)
    assert keyed.list_memories(Speaker.administrator()) == []


def test_c04_forgotten_number_in_groups_blocks_it_written_whole(keyed: MemoryEngine) -> None:
    """The join happens on both sides: a tombstone of "47 11" knows 4711."""
    memory = keyed.remember(MemoryDraft("The gym locker is 47 11.", speaker=GUEST, scope=Scope.SHARED)).memory
    keyed.forget(memory.id, GUEST)
    vector = keyed.embedder.embed([embedding_text(LOCKER)])[0]
    assert not keyed.is_tombstoned(vector, scope=Scope.SHARED)  # 0.63: similarity alone lets it through
    assert keyed.is_tombstoned(vector, scope=Scope.SHARED, text=LOCKER)


@pytest.mark.parametrize("lang", list(ALARM_AT))
def test_c04_a_time_is_not_blocked_by_a_joined_code(keyed: MemoryEngine, lang: str) -> None:
    memory = keyed.remember(MemoryDraft("The alarm code is 830.", speaker=GUEST, scope=Scope.SHARED)).memory
    keyed.forget(memory.id, GUEST)
    assert not keyed.is_tombstoned(ALARM_AT[lang], scope=Scope.SHARED)
    dentist = keyed.remember(
        MemoryDraft("Julian's dentist appointment is on 29.11.2026.", speaker=GUEST, scope=Scope.SHARED)
    )
    keyed.forget(dentist.memory.id, GUEST)
    assert not keyed.is_tombstoned("The bins go out on 29.11.2026.", scope=Scope.SHARED)


# ---------------------------------------------------------------- history goes with the fact (C03)
WIFI = {  # oldest first: each value supersedes the one before (same fact key)
    "en": [
        "Our wifi guest network is called Graufuchs55.",
        "Our wifi guest network is called Blaufuchs77.",
        "Our wifi guest network is now called Rotfuchs88.",
    ],
    "de": [
        "Unser WLAN für Gäste heißt Graufuchs55.",
        "Unser WLAN für Gäste heißt Blaufuchs77.",
        "Unser WLAN für Gäste heißt jetzt Rotfuchs88.",
    ],
    "it": [
        "La rete wifi per gli ospiti si chiama Graufuchs55.",
        "La rete wifi per gli ospiti si chiama Blaufuchs77.",
        "La rete wifi per gli ospiti ora si chiama Rotfuchs88.",
    ],
}
OLD_VALUES = (b"Graufuchs", b"graufuchs", b"Blaufuchs", b"blaufuchs")


@pytest.mark.parametrize("lang", list(WIFI))
def test_c03_forgetting_a_fact_forgets_the_values_it_replaced(sqlite_keyed: MemoryEngine, lang: str) -> None:
    keyed = sqlite_keyed
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    ids = [
        keyed.remember(
            MemoryDraft(
                text,
                speaker=julian,
                scope=Scope.PRIVATE,
                language=lang,
                provenance=Provenance.EXTRACTED,
                source=Source.EXTRACTION,
                subject="wifi",
                predicate="guest_network_name",
                value=text.rstrip(".").split()[-1],
            )
        ).memory.id
        for text in WIFI[lang]
    ]
    other = keyed.remember(
        MemoryDraft("The bins go out on Thursday.", speaker=julian, scope=Scope.SHARED)
    ).memory
    old, older = keyed.get(ids[1], julian), keyed.get(ids[0], julian)
    assert old is not None and older is not None
    assert (old.status, old.superseded_by) == (Status.SUPERSEDED, ids[2])  # the chain forget follows
    assert (older.status, older.superseded_by) == (Status.SUPERSEDED, ids[1])
    path: Path = keyed.store.path  # type: ignore[attr-defined]
    keyed.store._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[attr-defined]
    assert b"Blaufuchs" in _file_bytes(path)

    keyed.forget(ids[2], julian)

    keyed.store._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[attr-defined]
    raw = _file_bytes(path)
    assert not [v for v in (*OLD_VALUES, b"Rotfuchs", b"rotfuchs") if v in raw]
    assert all(keyed.get(i, Speaker.administrator()) is None for i in ids)
    assert keyed.get(other.id, julian) == other  # not part of the history
    assert keyed.stats().tombstones == 3
    old_value = ExtractedFact(WIFI[lang][1], subject="wifi", predicate="guest_network_name", confidence=0.9)
    learned = keyed.learn([old_value], speaker=julian, language=lang)
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)
    keyed.close()
    assert not [v for v in OLD_VALUES if v in _file_bytes(path)]


def test_forgetting_history_keeps_visibility(keyed: MemoryEngine) -> None:
    """history_ids only returns what the caller may see (a chain stays in its bucket anyway)."""
    julian = Speaker(person_id=JULIAN)
    key = {"subject": "wifi", "predicate": "guest_network_name", "provenance": Provenance.EXTRACTED}
    first = keyed.remember(MemoryDraft(WIFI["en"][0], speaker=julian, scope=Scope.PRIVATE, **key)).memory  # type: ignore[arg-type]
    second = keyed.remember(MemoryDraft(WIFI["en"][1], speaker=julian, scope=Scope.PRIVATE, **key)).memory  # type: ignore[arg-type]
    assert keyed.store.history_ids(second.id, Visibility.of(julian)) == [first.id]
    assert keyed.store.history_ids(second.id, Visibility.of(Speaker(person_id=ANNA))) == []
    assert keyed.store.history_ids(first.id, Visibility.of(julian)) == []
