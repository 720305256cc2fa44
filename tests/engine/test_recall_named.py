"""Who said it (Memory.speaker_id) and the persons a query names (RecallOptions.named_persons):
"What did Julian start?" finds Julian's "I started the cello", although the memory never
says "Julian" — the household knows who told it."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.engine.api import RecallOptions
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.text import names_in

from .conftest import ANNA, JULIAN, legacy_database

LEO = "person.leo"
GUEST = Speaker()
CELLO = "I started the cello in September."
PIANO = "I started playing the piano last year."  # nearer to both questions (USE-m3 0.36)
# what Anna told besides: each nearer to "Which instrument did Julian start playing?" than CELLO
ANNA_MORE = [
    f"I started playing the {instrument} {when}."
    for instrument, when in [
        ("guitar", "at school"), ("violin", "in the autumn"), ("drums", "last winter"),
        ("flute", "this spring"), ("trumpet", "two years ago"), ("harp", "in March"),
        ("saxophone", "after the holidays"), ("ukulele", "on the trip"), ("clarinet", "in May"),
        ("accordion", "at Easter"), ("banjo", "in June"), ("organ", "at church"),
    ]
]  # fmt: skip


def _tell(engine: MemoryEngine, person: str, *texts: str, scope: Scope = Scope.SHARED) -> list[str]:
    speaker = Speaker(person_id=person)
    return [engine.remember(t, speaker=speaker, scope=scope, language="en").memory.id for t in texts]


def _ask(engine: MemoryEngine, question: str, *named: str, limit: int = 5) -> list[str]:
    options = RecallOptions(language="en", limit=limit, named_persons=frozenset(named))
    return [h.memory.content for h in engine.recall(question, GUEST, options)]


def test_the_teller_is_recorded(engine: MemoryEngine) -> None:
    """A recognised speaker is kept as speaker_id; an unknown one as None; telling the same again
    keeps the first teller."""
    (cello,) = _tell(engine, JULIAN, CELLO)
    guest = engine.remember("The bins go out on Tuesday.", speaker=GUEST, scope=Scope.SHARED).memory
    again = engine.remember(CELLO, speaker=Speaker(person_id=ANNA), scope=Scope.SHARED)
    assert engine.get(cello, GUEST).speaker_id == JULIAN
    assert guest.speaker_id is None
    assert again.memory.id == cello
    assert engine.get(cello, GUEST).speaker_id == JULIAN


def test_the_named_persons_memory_ranks_first(engine: MemoryEngine) -> None:
    """Neither memory says a name: only who told it tells them apart. Anna's piano is nearer to
    both questions in meaning and words (cosine 0.36 vs 0.32 for Julian's); named, Julian's
    cello comes first."""
    _tell(engine, JULIAN, CELLO)
    _tell(engine, ANNA, PIANO)
    assert _ask(engine, "Which instrument did Julian start playing?")[0] == PIANO
    assert _ask(engine, "Which instrument did Julian start playing?", JULIAN)[0] == CELLO
    assert _ask(engine, "Which instrument did Anna start playing?", ANNA)[0] == PIANO
    julian_first = engine.recall(
        "Which instrument did Julian start playing?",
        GUEST,
        RecallOptions(language="en", named_persons=frozenset({JULIAN})),
    )[0]
    assert julian_first.factors["named"] == recall_mod.W_NAMED


def test_naming_nobody_lifts_nobody(engine: MemoryEngine) -> None:
    _tell(engine, JULIAN, CELLO)
    _tell(engine, ANNA, PIANO)
    hits = engine.recall("Which instrument did someone start playing?", GUEST, RecallOptions(language="en"))
    assert hits
    assert all("named" not in h.factors for h in hits)


def test_a_named_memory_is_read_before_the_slate_settles(engine: MemoryEngine) -> None:
    """recall reads memories in bound order and stops once the slate is settled: the bound must
    count W_NAMED, or Julian's one memory, less similar than Anna's ten, is never read."""
    _tell(engine, ANNA, *ANNA_MORE)
    _tell(engine, JULIAN, CELLO)
    assert _ask(engine, "Which instrument did Julian start playing?", JULIAN, limit=1) == [CELLO]


def test_naming_someone_never_shows_their_private_memories(engine: MemoryEngine) -> None:
    """The visibility rule comes first: naming Julian lifts only what the asker may see."""
    _tell(engine, JULIAN, CELLO, scope=Scope.PRIVATE)
    _tell(engine, ANNA, PIANO)
    assert CELLO not in _ask(engine, "Which instrument did Julian start playing?", JULIAN, limit=10)
    leo = RecallOptions(language="en", limit=10, named_persons=frozenset({JULIAN}))
    assert CELLO not in [
        h.memory.content
        for h in engine.recall("Which instrument did Julian start playing?", Speaker(LEO), leo)
    ]
    julian = engine.recall("Which instrument did Julian start playing?", Speaker(JULIAN), leo)
    assert julian[0].memory.content == CELLO


def test_a_memory_keyed_on_a_person_is_about_them(engine: MemoryEngine) -> None:
    """Told by Anna, keyed on Julian (subject = his person id, as extraction stores it): naming
    Julian lifts it, naming Anna lifts it too (she told it)."""
    memory = engine.remember(
        "Cello lessons are on Tuesdays.",
        speaker=Speaker(person_id=ANNA),
        scope=Scope.SHARED,
        subject=JULIAN,
        predicate="lesson_day",
    ).memory
    assert recall_mod.concerns(memory, frozenset({JULIAN}))
    assert recall_mod.concerns(memory, frozenset({ANNA}))
    assert not recall_mod.concerns(memory, frozenset({LEO}))
    assert not recall_mod.concerns(memory, frozenset())


def test_forgetting_a_person_unlinks_them_as_teller(engine: MemoryEngine) -> None:
    """forget_person: Julian's private memories go; what he told the household stays, no longer
    attributed to him (and so no longer lifted by his name)."""
    (shared,) = _tell(engine, JULIAN, CELLO)
    _tell(engine, JULIAN, "My PIN hint is the cat's birthday.", scope=Scope.PRIVATE)
    assert engine.forget_person(JULIAN) == 1
    kept = engine.get(shared, GUEST)
    assert kept is not None and kept.speaker_id is None
    hits = engine.recall(
        "Which instrument did Julian start playing?", GUEST, RecallOptions(named_persons=frozenset({JULIAN}))
    )
    assert [h.memory.id for h in hits if "named" in h.factors] == []


def test_v6_database_upgrades_with_no_teller(tmp_path: Path, encoder: BundledEmbedder) -> None:
    """Rows written before schema 7 keep speaker_id None (who said them was never recorded)."""
    path = legacy_database(
        tmp_path / "v6.db",
        6,
        "INSERT INTO memories (id, content, kind, language, provenance, scope, confidence, importance,"
        " sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', 'The bins go out on Tuesday.', 'fact', 'en', 'confirmed', 'shared', 1.0, 0.5,"
        " 0, 'active', 'service', 0, '2026-01-01T00:00:00.000000+00:00',"
        " '2026-01-01T00:00:00.000000+00:00')",
    )
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 7
        old = engine.get("old1", GUEST)
        assert old is not None and old.speaker_id is None
        (new,) = _tell(engine, JULIAN, CELLO)
        assert engine.get(new, GUEST).speaker_id == JULIAN
    finally:
        engine.close()


NAMES = {"Julian": JULIAN, "Anna Weber": ANNA, "Leo": LEO}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which instrument did Julian start playing?", {JULIAN}),
        ("What's Julian's favourite colour?", {JULIAN}),  # the possessive is a word of its own
        ("what did JULIAN say", {JULIAN}),
        ("Did Anna Weber call?", {ANNA}),
        ("Did Anna call?", set()),  # only the full name given
        ("Did Juliana call?", set()),  # a longer name is another name
        ("Did Leo and Julian go?", {JULIAN, LEO}),
        ("", set()),
    ],
)
def test_names_in(text: str, expected: set[str]) -> None:
    assert names_in(text, NAMES) == expected
