"""Who said it (Memory.speaker_id) and the persons a query names (RecallOptions.named_persons):
"What did Julian start?" finds Julian's "I started the cello", although the memory never
says "Julian" — the household knows who told it."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.engine.api import MemoryDraft, RecallOptions
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.text import mentions, names_in

from .conftest import ANNA, JULIAN, legacy_database

LEO = "person.leo"
NAME_OF = {JULIAN: "Julian", ANNA: "Anna", LEO: "Leo"}
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
    return [
        engine.remember(MemoryDraft(t, speaker=speaker, scope=scope, language="en")).memory.id for t in texts
    ]


def _named(*persons: str) -> dict[str, str]:
    """named_persons as Home Assistant passes them: name as said -> person id."""
    return {NAME_OF[p]: p for p in persons}


def _ask(engine: MemoryEngine, question: str, *named: str, limit: int = 5) -> list[str]:
    options = RecallOptions(language="en", limit=limit, named_persons=_named(*named))
    return [h.memory.content for h in engine.recall(question, GUEST, options)]


def test_the_teller_is_recorded(engine: MemoryEngine) -> None:
    """A recognised speaker is kept as speaker_id, an unknown one as None. The same words again
    by the same person merge; by another recognised person they are another memory (their "I"
    is someone else); by an unknown speaker they merge and keep the teller."""
    (cello,) = _tell(engine, JULIAN, CELLO)
    guest = engine.remember(
        MemoryDraft("The bins go out on Tuesday.", speaker=GUEST, scope=Scope.SHARED)
    ).memory
    assert engine.get(cello, GUEST).speaker_id == JULIAN
    assert guest.speaker_id is None
    assert _tell(engine, JULIAN, CELLO) == [cello]
    (annas,) = _tell(engine, ANNA, CELLO)
    assert annas != cello
    assert engine.get(annas, GUEST).speaker_id == ANNA
    assert engine.remember(MemoryDraft(CELLO, speaker=GUEST, scope=Scope.SHARED)).memory.id in {cello, annas}
    assert {engine.get(i, GUEST).speaker_id for i in (cello, annas)} == {JULIAN, ANNA}


def test_the_speakers_own_memories_ride_along_without_the_named_share(engine: MemoryEngine) -> None:
    """Julian names himself: his private memories still come along (about_speaker), but gain
    nothing for being his — they must not outrank what answers the question."""
    _tell(engine, JULIAN, "I like green tea.", scope=Scope.PRIVATE)
    options = RecallOptions(language="en", named_persons=_named(JULIAN))
    hits = engine.recall("Which instrument did Julian start playing?", Speaker(person_id=JULIAN), options)
    tea = next(h for h in hits if h.memory.content == "I like green tea.")
    assert "about_speaker" in tea.factors
    assert "named" not in tea.factors


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
        RecallOptions(language="en", named_persons=_named(JULIAN)),
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
    leo = RecallOptions(language="en", limit=10, named_persons=_named(JULIAN))
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
        MemoryDraft(
            "Cello lessons are on Tuesdays.",
            speaker=Speaker(person_id=ANNA),
            scope=Scope.SHARED,
            subject=JULIAN,
            predicate="lesson_day",
        )
    ).memory
    assert recall_mod.concerns(memory, _named(JULIAN))
    assert recall_mod.concerns(memory, _named(ANNA))
    assert not recall_mod.concerns(memory, _named(LEO))
    assert not recall_mod.concerns(memory, {})


def test_forgetting_a_person_unlinks_them_as_teller(engine: MemoryEngine) -> None:
    """forget_person: Julian's private memories go; what he told the household stays, no longer
    attributed to him (and so no longer lifted by his name)."""
    (shared,) = _tell(engine, JULIAN, CELLO)
    _tell(engine, JULIAN, "My PIN hint is the cat's birthday.", scope=Scope.PRIVATE)
    assert engine.forget_person(JULIAN) == 1
    kept = engine.get(shared, GUEST)
    assert kept is not None and kept.speaker_id is None
    hits = engine.recall(
        "Which instrument did Julian start playing?", GUEST, RecallOptions(named_persons=_named(JULIAN))
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
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        old = engine.get("old1", GUEST)
        assert old is not None and old.speaker_id is None
        (new,) = _tell(engine, JULIAN, CELLO)
        assert engine.get(new, GUEST).speaker_id == JULIAN
    finally:
        engine.close()


NAMES = {"Julian": JULIAN, "Anna Weber": ANNA, "Anna": "person.anna2", "Leo": LEO, "Zoë": "person.zoe"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did Julian start?", {"Julian"}),
        ("What's Julian's favourite colour?", {"Julian"}),  # the possessive is a word of its own
        ("Wer ist Julians Zahnarzt?", {"Julian"}),  # the German genitive
        ("what did JULIAN say", {"Julian"}),
        ("Did Anna Weber call?", {"Anna Weber"}),  # the longest name only, not also "Anna"
        ("Did Anna call?", {"Anna"}),
        ("Did Anna-Lena call?", set()),  # another name
        ("Did Juliana call?", set()),  # a longer name is another name
        ("Is Leonardo coming?", set()),
        ("Did Zoe call?", {"Zoë"}),  # diacritics aside
        ("Did Leo and Julian go?", {"Julian", "Leo"}),
        ("", set()),
    ],
)
def test_names_in(text: str, expected: set[str]) -> None:
    assert names_in(text, NAMES) == {name: NAMES[name] for name in expected}


def test_a_memory_that_names_the_person_concerns_them(engine: MemoryEngine) -> None:
    """Anna told the answer about Julian; Julian told other things, Anna told more keyed on him:
    the answer names him, so it is lifted as much as his own memories and stays first."""
    _tell(engine, ANNA, "Julian's dentist is Dr. Hoffmann on Bahnhofstraße.")
    _tell(engine, JULIAN, "My dentist appointment is on Thursday at nine.", "I floss every evening now.")
    for predicate, text in (
        ("birthday", "Julian's birthday is on 3 May."),
        ("colour", "His favourite colour is green."),
    ):
        engine.remember(
            MemoryDraft(
                text, speaker=Speaker(person_id=ANNA), scope=Scope.SHARED, subject=JULIAN, predicate=predicate
            )
        )
    hits = engine.recall(
        "What is Julian's dentist's name?", GUEST, RecallOptions(language="en", named_persons=_named(JULIAN))
    )
    assert hits[0].memory.content == "Julian's dentist is Dr. Hoffmann on Bahnhofstraße."
    assert hits[0].factors["named"] == recall_mod.W_NAMED


def test_a_secret_is_never_lifted_by_a_name(engine: MemoryEngine) -> None:
    """Sensitive memories gain nothing from who told them (they come when asked for)."""
    (code,) = _tell(engine, JULIAN, "The garage door code is 8264.")
    _tell(engine, JULIAN, "I put the spare car key in the blue bowl.")
    options = RecallOptions(language="en", limit=10, named_persons=_named(JULIAN))
    hits = {h.memory.id: h for h in engine.recall("Where did Julian put the garage key?", GUEST, options)}
    assert code in hits
    assert "named" not in hits[code].factors
    assert any("named" in h.factors for h in hits.values())


def test_a_memory_that_only_addresses_the_person_is_not_about_them(engine: MemoryEngine) -> None:
    """Anna's "Thanks, Julian! …" speaks to Julian, not about him: no lift for naming him."""
    (thanks,) = _tell(engine, ANNA, "Thanks, Julian! The new cello case looks great.")
    (about,) = _tell(engine, ANNA, "Julian's new cello case is in the hall.")
    options = RecallOptions(language="en", limit=10, named_persons=_named(JULIAN))
    hits = {h.memory.id: h for h in engine.recall("Where is Julian's cello case?", GUEST, options)}
    assert "named" not in hits[thanks].factors
    assert hits[about].factors["named"] == recall_mod.W_NAMED


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("Julian's dentist is Dr. Hoffmann.", True),
        ("Der Zahnarzt von Julian ist Dr. Hoffmann.", True),
        ("Did you see Julian?", True),
        ("Hey Julian! Dinner is ready.", False),
        ("Thanks, Julian.", False),
        ("Julian, your dentist called.", False),
        ("Grazie Julian per la cena.", False),
        ("Juliana's bike is red.", False),
    ],
)
def test_mentions(text: str, about: bool) -> None:
    assert mentions(text, {"Julian": JULIAN}) is about
