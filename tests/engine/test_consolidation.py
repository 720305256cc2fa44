"""Supersession and consolidation (engine/consolidation.py, writer._settle_key): one current memory
per fact key; older values kept as history, never recalled (cases C09, C10, C12, C15; invariant 4)."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from custom_components.memory.engine.api import (
    Change,
    ConsolidationReport,
    InvalidInput,
    MemoryDraft,
    PossibleConflict,
    StoreUnavailable,
)
from custom_components.memory.engine.consolidation import INFERRED_PRUNE_DAYS
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact, LearnResult
from custom_components.memory.engine.facts import Relation, fact_predicate, fact_subject, same_value
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker, Status
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.store.sqlite import records as sqlite_records
from custom_components.memory.engine.writer import embedding_text
from tests.case_texts import C09

from .conftest import ANNA, JULIAN, KITCHEN, add_verbatim, legacy_database

JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
PEOPLE = {"Julian": JULIAN, "Anna": ANNA}  # the household's person names, as the HA side passes them
ADMIN = Speaker.administrator()
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def learn(
    engine: MemoryEngine,
    content: str,
    predicate: str,
    value: str | None,
    *,
    subject: str = "me",
    language: str = "en",
    review: bool = False,
    people: dict[str, str] | None = None,
    speaker: Speaker = JULIAN_KITCHEN,
) -> LearnResult:
    """One conversation's candidate, as the AI Task proposes it."""
    candidate = ExtractedFact(content, Kind.PREFERENCE, subject, predicate, value, confidence=0.9)
    return engine.learn([candidate], speaker=speaker, language=language, review=review, people=people)


def stored(engine: MemoryEngine, memory_id: str) -> Memory:
    memory = engine.get(memory_id, ADMIN)
    assert memory is not None
    return memory


def current_texts(engine: MemoryEngine) -> list[str]:
    return [m.content for m in engine.list_memories(ADMIN)]


def put(
    engine: MemoryEngine,
    content: str,
    *,
    value: str | None,
    predicate: str = "drinks",
    provenance: Provenance = Provenance.EXTRACTED,
    age_days: float = 0,
    access_count: int = 0,
    subject: str | None = "me",
) -> Memory:
    """A row written straight to the store (as an older version, another door or a crash left it)."""
    created = NOW - timedelta(days=age_days)
    memory = Memory(
        id=uuid.uuid4().hex,
        content=content,
        kind=Kind.PREFERENCE,
        language="en",
        provenance=provenance,
        scope=Scope.PRIVATE,
        owner_id=JULIAN,
        area_id=None,
        created_at=created,
        updated_at=created,
        subject=subject,
        predicate=predicate,
        value=value,
        access_count=access_count,
    )
    engine.store.add(memory, engine.embedder.embed([embedding_text(content)])[0])
    return memory


# ------------------------------------------------------------------------------ the key


@pytest.mark.parametrize(
    ("said", "self_names", "key"),
    [
        ("Me", (), "me"),
        ("  The   User ", (), "me"),
        ("ich", (), "me"),
        ("io", (), "me"),
        ("Moi", (), "me"),
        ("yo", (), "me"),
        ("Julian", ("Julian",), "me"),
        ("julian", (), "julian"),
        ("Anna", ("Julian",), "anna"),
        ("   ", (), None),
        (None, (), None),
    ],
)
def test_subject_is_normalised(said: str | None, self_names: tuple[str, ...], key: str | None) -> None:
    assert fact_subject(said, self_names) == key


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("favourite_colour", "favourite_colour"),
        ("Favourite Colour", "favourite_colour"),
        ("drinks-in-the morning!", "drinks_in_the_morning"),
        ("__", None),
        (None, None),
    ],
)
def test_predicate_is_normalised(said: str | None, key: str | None) -> None:
    assert fact_predicate(said) == key


def _m(content: str, value: str | None) -> Memory:
    return Memory(
        id="x",
        content=content,
        kind=Kind.FACT,
        language="en",
        provenance=Provenance.EXTRACTED,
        scope=Scope.SHARED,
        owner_id=None,
        area_id=None,
        created_at=NOW,
        updated_at=NOW,
        value=value,
    )


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (_m("x", "Blue."), _m("y", " blue"), True),
        (_m("x", "Grüner Tee"), _m("y", "«grüner  TEE»"), True),
        (_m("x", "tea"), _m("y", "coffee"), False),
        (_m("x", "-18 °C"), _m("y", "18 °C"), False),  # signs, symbols and accents are meaning
        (_m("x", "C++"), _m("y", "C"), False),
        (_m("x", "año"), _m("y", "ano"), False),
        (_m("x", "light blue"), _m("y", "blue"), False),
        (_m("My favourite colour is blue.", None), _m("y", "Blue"), False),  # a value on one side only
        (_m("I don't drink coffee any more, I drink tea now.", None), _m("y", "coffee"), False),
        (_m("Blue, my colour", None), _m("blue my colour", None), True),  # neither: the wording
    ],
)
def test_values_are_compared_folded(a: Memory, b: Memory, same: bool) -> None:
    assert same_value(a, b) is same is same_value(b, a)


# ------------------------------------------------------------------------------ write time


@pytest.mark.parametrize("case", list(C09))
def test_c09_changed_preference_supersedes(engine: MemoryEngine, case: str) -> None:
    old_text, old_value, new_text, new_value, question = C09[case]
    language = case.split("-", maxsplit=1)[0]
    old = learn(engine, old_text, "drinks", old_value, language=language)
    new = learn(engine, new_text, "drinks", new_value, language=language)
    assert (new.stored, new.superseded, new.merged) == (1, 1, 0)
    coffee, tea = stored(engine, old.ids[0]), stored(engine, new.ids[0])
    assert (coffee.status, coffee.superseded_by, coffee.valid_to) == (
        Status.SUPERSEDED,
        tea.id,
        tea.created_at,
    )
    assert (tea.status, tea.value, tea.subject, tea.predicate) == (Status.ACTIVE, new_value, "me", "drinks")
    hits = [h.memory.content for h in engine.recall(question, JULIAN_KITCHEN)]
    assert new_text in hits and old_text not in hits  # invariant 4: history is never current
    assert current_texts(engine) == [new_text]


def test_c10_opposite_preference_never_leaves_neither(engine: MemoryEngine) -> None:
    old = learn(engine, "I love spicy food.", "likes_spicy_food", "love")
    new = learn(engine, "I can't stand spicy food any more.", "likes_spicy_food", "can't stand")
    assert (new.stored, new.superseded) == (1, 1)
    assert stored(engine, old.ids[0]).status is Status.SUPERSEDED
    assert current_texts(engine) == ["I can't stand spicy food any more."]


def test_c10_a_failed_write_leaves_the_old_fact_current(
    sqlite_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new row and the supersession are one transaction: a crash between them is impossible
    (a failure injected into SqliteStore's insert)."""
    engine = sqlite_engine
    old = learn(engine, "I love spicy food.", "likes_spicy_food", "love")

    def broken(vector: object) -> bytes:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite_records, "to_blob", broken)
    with pytest.raises(StoreUnavailable):
        learn(engine, "I can't stand spicy food any more.", "likes_spicy_food", "can't stand")
    monkeypatch.undo()
    assert stored(engine, old.ids[0]).status is Status.ACTIVE
    assert current_texts(engine) == ["I love spicy food."]
    assert [h.memory.id for h in engine.recall("Do I like spicy food?", JULIAN_KITCHEN)] == old.ids


C12 = [
    ("My favourite colour is blue.", "blue"),
    ("I like blue best.", "Blue"),
    ("Blue is my colour.", "blue."),
    ("Favourite colour: blue", "BLUE"),
]


def test_c12_paraphrases_become_one_memory(engine: MemoryEngine) -> None:
    results = [learn(engine, text, "favourite_colour", value) for text, value in C12]
    assert [(r.stored, r.merged) for r in results] == [(1, 0), (0, 1), (0, 1), (0, 1)]
    assert {r.ids[0] for r in results} == {results[0].ids[0]}
    assert current_texts(engine) == ["My favourite colour is blue."]
    assert engine.consolidate(NOW + timedelta(days=1)) == ConsolidationReport()


def test_c15_mention_is_not_a_contradiction(engine: MemoryEngine) -> None:
    learn(
        engine,
        "Anna works night shifts on Tuesdays.",
        "works_shift",
        "night shifts on Tuesdays",
        subject="Anna",
    )
    second = learn(engine, "Anna's bike is in the garage.", "location_of_bike", "garage", subject="Anna")
    assert (second.stored, second.superseded) == (1, 0)
    assert sorted(current_texts(engine)) == [
        "Anna works night shifts on Tuesdays.",
        "Anna's bike is in the garage.",
    ]


def test_the_speakers_own_name_is_me(engine: MemoryEngine) -> None:
    learn(engine, "I drink coffee.", "drinks", "coffee")
    new = learn(engine, "Julian drinks tea now.", "drinks", "tea", subject="Julian", people=PEOPLE)
    assert new.superseded == 1 and current_texts(engine) == ["Julian drinks tea now."]


def test_keys_do_not_cross_buckets(engine: MemoryEngine) -> None:
    """Anna's drink never supersedes Julian's: the key includes the owner."""
    learn(engine, "I drink coffee.", "drinks", "coffee")
    anna = learn(engine, "I drink tea.", "drinks", "tea", speaker=Speaker(person_id=ANNA))
    assert anna.superseded == 0 and len(current_texts(engine)) == 2


def test_guests_are_not_one_me(engine: MemoryEngine) -> None:
    """Two unknown speakers' "I drink …" land shared: neither supersedes the other, since "me"
    names nobody in particular there."""
    guest = Speaker(area_id=KITCHEN)
    learn(engine, "I drink coffee.", "drinks", "coffee", speaker=guest)
    other = learn(engine, "I drink tea.", "drinks", "tea", speaker=guest)
    assert (other.stored, other.superseded) == (1, 0)
    assert sorted(current_texts(engine)) == ["I drink coffee.", "I drink tea."]


def test_a_known_speakers_shared_fact_about_me_names_them(engine: MemoryEngine) -> None:
    """Julian's "me" hinted shared is keyed to person.julian, so his change still supersedes."""
    for said, value in (("I drink coffee.", "coffee"), ("I drink tea now.", "tea")):
        candidate = ExtractedFact(said, Kind.PREFERENCE, "me", "drinks", value, "shared", 0.9)
        result = engine.learn([candidate], speaker=JULIAN_KITCHEN, language="en")
    assert result.superseded == 1 and current_texts(engine) == ["I drink tea now."]
    assert stored(engine, result.ids[0]).subject == JULIAN


def test_a_person_named_by_someone_else_is_the_same_subject(engine: MemoryEngine) -> None:
    """Anna's shared "Julian drinks coffee" and Julian's own shared "I drink tea now" are one
    fact about person.julian: the newer supersedes."""
    anna = ExtractedFact(
        "Julian drinks coffee.", Kind.PREFERENCE, "Julian", "drinks", "coffee", "shared", 0.9
    )
    engine.learn([anna], speaker=Speaker(person_id=ANNA), language="en", people=PEOPLE)
    julian = ExtractedFact("I drink tea now.", Kind.PREFERENCE, "me", "drinks", "tea", "shared", 0.9)
    result = engine.learn([julian], speaker=JULIAN_KITCHEN, language="en", people=PEOPLE)
    assert result.superseded == 1 and current_texts(engine) == ["I drink tea now."]


def test_a_changed_fact_is_not_merged_into_a_similar_one_elsewhere(engine: MemoryEngine) -> None:
    """ "Anna works on Mondays." / "… Tuesdays." score 0.95: told in another bucket (shared, then
    Julian's private), the changed value must not be merged away as "the same fact" (C13 rule)."""
    shared = ExtractedFact("Anna works on Mondays.", Kind.FACT, "Anna", "works_on", "Mondays", "shared", 0.9)
    engine.learn([shared], speaker=JULIAN_KITCHEN, language="en")
    private = ExtractedFact("Anna works on Tuesdays.", Kind.FACT, "Anna", "works_on", "Tuesdays", None, 0.9)
    result = engine.learn([private], speaker=JULIAN_KITCHEN, language="en")
    assert (result.stored, result.merged) == (1, 0)
    echo = ExtractedFact("Anna works on Mondays!", Kind.FACT, "Anna", "works_on", "mondays", None, 0.9)
    assert engine.learn([echo], speaker=Speaker(person_id=ANNA), language="en").merged == 1  # C13


def test_inferred_never_supersedes_a_stated_fact(engine: MemoryEngine) -> None:
    said = engine.remember(
        MemoryDraft(
            "I drink coffee.",
            speaker=JULIAN_KITCHEN,
            scope=Scope.PRIVATE,
            subject="me",
            predicate="drinks",
            value="coffee",
        )
    )
    guess = engine.remember(
        MemoryDraft(
            "Julian probably drinks tea.",
            speaker=JULIAN_KITCHEN,
            scope=Scope.PRIVATE,
            provenance=Provenance.INFERRED,
            subject="me",
            predicate="drinks",
            value="tea",
        )
    )
    assert guess.superseded == ()
    assert (guess.memory.status, guess.memory.superseded_by) == (Status.SUPERSEDED, said.memory.id)
    assert stored(engine, said.memory.id).status is Status.ACTIVE
    assert current_texts(engine) == ["I drink coffee."]


def test_a_confirmed_paraphrase_raises_the_provenance(engine: MemoryEngine) -> None:
    first = learn(engine, "My favourite colour is blue.", "favourite_colour", "blue")
    again = engine.remember(
        MemoryDraft(
            "Remember: blue is my favourite colour",
            speaker=JULIAN_KITCHEN,
            scope=Scope.PRIVATE,
            subject="me",
            predicate="favourite_colour",
            value="blue",
        )
    )
    assert again.memory.id == first.ids[0]
    assert stored(engine, first.ids[0]).provenance is Provenance.CONFIRMED


def test_pending_supersedes_nothing_until_approved(engine: MemoryEngine) -> None:
    old = learn(engine, "I like coffee in the morning.", "drinks", "coffee")
    new = learn(engine, "I drink tea now.", "drinks", "tea", review=True)
    assert (new.stored, new.superseded, new.pending) == (1, 0, True)
    assert stored(engine, old.ids[0]).status is Status.ACTIVE
    assert stored(engine, new.ids[0]).status is Status.PENDING
    again = learn(engine, "Tea it is now.", "drinks", "tea", review=True)  # merged into the pending one
    assert (again.merged, again.ids) == (1, new.ids)
    engine.approve(new.ids[0], JULIAN_KITCHEN)
    coffee = stored(engine, old.ids[0])
    assert (coffee.status, coffee.superseded_by) == (Status.SUPERSEDED, new.ids[0])
    assert current_texts(engine) == ["I drink tea now."]


def test_approving_the_same_value_archives_the_paraphrase(engine: MemoryEngine) -> None:
    pending = learn(engine, "Blue is my colour.", "favourite_colour", "blue", review=True)
    active = put(engine, "My favourite colour is blue.", value="blue", predicate="favourite_colour")
    engine.approve(pending.ids[0], JULIAN_KITCHEN)
    archived = stored(engine, active.id)
    assert (archived.status, archived.superseded_by) == (Status.ARCHIVED, pending.ids[0])


# ------------------------------------------------------------------------------ consolidation


def test_consolidation_merges_supersedes_and_is_idempotent(engine: MemoryEngine) -> None:
    blue_old = put(
        engine, "My favourite colour is blue.", value="blue", predicate="favourite_colour", age_days=3
    )
    blue_new = put(engine, "Blue is my colour.", value="Blue", predicate="favourite_colour", age_days=1)
    coffee = put(engine, "I like coffee in the morning.", value="coffee", age_days=5)
    tea = put(engine, "I drink tea now.", value="tea", age_days=2)
    bike = put(engine, "The bike is in the garage.", value="garage", predicate="bike_location", age_days=4)
    report = engine.consolidate(NOW)
    assert report.counts() == {"merged": 1, "superseded": 1, "pruned": 0, "conflicts": 0}
    assert (stored(engine, blue_old.id).status, stored(engine, blue_old.id).superseded_by) == (
        Status.ARCHIVED,
        blue_new.id,
    )
    assert (stored(engine, coffee.id).status, stored(engine, coffee.id).superseded_by) == (
        Status.SUPERSEDED,
        tea.id,
    )
    assert stored(engine, coffee.id).valid_to == NOW
    assert {m.id for m in engine.list_memories(ADMIN)} == {blue_new.id, tea.id, bike.id}
    assert engine.consolidate(NOW) == ConsolidationReport()  # a second run changes nothing
    for old in (coffee, blue_old):  # invariant 4, even for the very words of the old memory
        assert old.id not in [h.memory.id for h in engine.recall(old.content, JULIAN_KITCHEN)]


def test_consolidation_keeps_the_stated_fact_over_a_newer_guess(engine: MemoryEngine) -> None:
    said = put(engine, "I drink coffee.", value="coffee", provenance=Provenance.CONFIRMED, age_days=10)
    guess = put(engine, "Julian seems to drink tea.", value="tea", provenance=Provenance.INFERRED, age_days=1)
    assert engine.consolidate(NOW).superseded == 1
    assert stored(engine, said.id).status is Status.ACTIVE
    assert (stored(engine, guess.id).status, stored(engine, guess.id).superseded_by) == (
        Status.SUPERSEDED,
        said.id,
    )


def test_consolidation_prefers_the_stronger_paraphrase(engine: MemoryEngine) -> None:
    confirmed = put(
        engine,
        "My favourite colour is blue.",
        value="blue",
        predicate="favourite_colour",
        provenance=Provenance.CONFIRMED,
        age_days=5,
    )
    extracted = put(engine, "Blue is my colour.", value="blue", predicate="favourite_colour", age_days=1)
    assert engine.consolidate(NOW).merged == 1
    assert stored(engine, extracted.id).superseded_by == confirmed.id
    assert stored(engine, confirmed.id).updated_at == NOW  # confirmed by the merge


def test_consolidation_prunes_stale_guesses_only(engine: MemoryEngine) -> None:
    days = INFERRED_PRUNE_DAYS
    stale = put(
        engine,
        "Julian might like jazz.",
        value=None,
        predicate="likes_music",
        provenance=Provenance.INFERRED,
        age_days=days + 1,
    )
    recalled = put(
        engine,
        "Julian might like golf.",
        value=None,
        predicate="likes_sport",
        provenance=Provenance.INFERRED,
        age_days=days + 1,
        access_count=1,
    )
    young = put(
        engine,
        "Julian might like tennis.",
        value=None,
        predicate="likes_tennis",
        provenance=Provenance.INFERRED,
        age_days=days - 1,
    )
    said = put(
        engine,
        "Julian likes opera.",
        value=None,
        predicate="likes_opera",
        provenance=Provenance.CONFIRMED,
        age_days=days * 3,
    )
    assert engine.consolidate(NOW).pruned == 1
    assert engine.get(stale.id, ADMIN) is None
    assert {m.id for m in engine.list_memories(ADMIN)} == {recalled.id, young.id, said.id}
    assert engine.stats().tombstones == 0  # never said: nothing to block
    assert engine.consolidate(NOW) == ConsolidationReport()


def test_recall_counts_protect_a_guess_from_pruning(engine: MemoryEngine) -> None:
    guess = put(
        engine,
        "Julian might like jazz.",
        value=None,
        predicate="likes_music",
        provenance=Provenance.INFERRED,
        age_days=INFERRED_PRUNE_DAYS + 1,
    )
    assert [h.memory.id for h in engine.recall("Does Julian like jazz?", JULIAN_KITCHEN)] == [guess.id]
    assert engine.consolidate(NOW).pruned == 0  # the batched access count is flushed first


def test_v3_database_upgrades_keeping_rows(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = legacy_database(
        tmp_path / "v3.db",
        3,
        "INSERT INTO memories (id, content, kind, language, provenance, scope, owner_id, subject, predicate,"
        " confidence, importance, sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', 'My favourite colour is blue.', 'preference', 'en', 'extracted', 'private',"
        " 'person.julian', 'The User', 'Favourite Colour', 0.9, 0.5, 0, 'active', 'extraction', 0,"
        " '2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00')",
    )
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        old = stored(engine, "old1")
        assert (old.subject, old.predicate, old.value, old.content) == (
            "me",
            "favourite_colour",
            None,
            "My favourite colour is blue.",
        )
        engine.reembed_pending()
        # the old row has no value: only a value on both sides can agree, so the newer one holds
        again = learn(engine, "I like blue best.", "favourite_colour", "blue")
        assert (again.stored, again.superseded) == (1, 1)
        assert stored(engine, "old1").superseded_by == again.ids[0]
        changed = learn(engine, "My favourite colour is green now.", "favourite_colour", "green")
        assert stored(engine, again.ids[0]).superseded_by == changed.ids[0]
    finally:
        engine.close()
    with sqlite3.connect(path) as check:
        indexes = {r[0] for r in check.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "memories_fact_key" in indexes


# ------------------------------------------------------------------------------ memories without a key
BINS = ("The bins are emptied on Tuesdays.", "Bin day is Tuesday.")
PUMP = ("The bike pump is in the garage.", "The bike pump is in the cellar.")


def said(
    engine: MemoryEngine,
    content: str,
    *,
    age_days: float,
    provenance: Provenance = Provenance.CONFIRMED,
    kind: Kind = Kind.FACT,
) -> Memory:
    """A memory without a fact key, told by Julian `age_days` before NOW, straight to the store
    (the writer has not read it against the others: an older version, a crash, two doors at once)."""
    return add_verbatim(
        engine,
        content,
        kind=kind,
        provenance=provenance,
        speaker_id=JULIAN,
        created_at=NOW - timedelta(days=age_days),
    )


def test_c12_unkeyed_paraphrases_are_merged_into_the_newest(engine: MemoryEngine) -> None:
    older = said(engine, BINS[0], age_days=3)
    newer = said(engine, BINS[1], age_days=1)
    report = engine.consolidate(NOW)
    assert report.changes == (Change(older.id, Status.ARCHIVED, newer.id),)
    assert report.counts() == {"merged": 1, "superseded": 0, "pruned": 0, "conflicts": 0}
    assert current_texts(engine) == [BINS[1]]
    assert stored(engine, newer.id).updated_at == NOW
    assert engine.consolidate(NOW) == ConsolidationReport()  # idempotent


def test_unkeyed_paraphrase_keeps_the_stated_one_over_a_newer_extraction(engine: MemoryEngine) -> None:
    stated = said(engine, BINS[0], age_days=3, provenance=Provenance.CONFIRMED)
    extracted = said(engine, BINS[1], age_days=1, provenance=Provenance.EXTRACTED)
    assert engine.consolidate(NOW).changes == (Change(extracted.id, Status.ARCHIVED, stated.id),)


def test_unkeyed_replacement_is_reported_never_retired(engine: MemoryEngine) -> None:
    garage = said(engine, PUMP[0], age_days=3)
    cellar = said(engine, PUMP[1], age_days=1)
    report = engine.consolidate(NOW)
    assert report.counts() == {"merged": 0, "superseded": 0, "pruned": 0, "conflicts": 1}
    (conflict,) = report.conflicts
    assert (conflict.older_id, conflict.newer_id) == (garage.id, cellar.id)
    assert sorted(current_texts(engine)) == sorted(PUMP)
    assert engine.consolidate(NOW).conflicts == report.conflicts  # still open: asked again


def test_settle_pair_replaces_supersedes_the_older_once(engine: MemoryEngine) -> None:
    garage = said(engine, PUMP[0], age_days=3)
    cellar = said(engine, PUMP[1], age_days=1)
    assert engine.settle_pair(garage.id, cellar.id, Relation.REPLACES) == (garage.id,)
    old = stored(engine, garage.id)
    assert (old.status, old.superseded_by) == (Status.SUPERSEDED, cellar.id)
    assert current_texts(engine) == [PUMP[1]]
    assert engine.consolidate(NOW) == ConsolidationReport()
    assert engine.settle_pair(garage.id, cellar.id, Relation.REPLACES) == ()  # no longer current


def test_settle_pair_unrelated_is_remembered(engine: MemoryEngine) -> None:
    garage = said(engine, PUMP[0], age_days=3)
    cellar = said(engine, PUMP[1], age_days=1)
    for verdict in (Relation.ADDS_DETAIL, Relation.UNRELATED):
        assert engine.settle_pair(cellar.id, garage.id, verdict) == ()
    assert sorted(current_texts(engine)) == sorted(PUMP)
    assert engine.consolidate(NOW).conflicts == ()  # judged: not reported again


def test_settle_pair_same_archives_the_weaker(engine: MemoryEngine) -> None:
    stated = said(engine, PUMP[0], age_days=3)
    guess = said(
        engine, "The pump for the bikes is kept in the garage.", age_days=1, provenance=Provenance.INFERRED
    )
    assert engine.settle_pair(stated.id, guess.id, Relation.SAME) == (guess.id,)
    assert (stored(engine, guess.id).status, stored(engine, guess.id).superseded_by) == (
        Status.ARCHIVED,
        stated.id,
    )


def test_settle_pair_a_guess_never_replaces_a_statement(engine: MemoryEngine) -> None:
    stated = said(engine, PUMP[0], age_days=3)
    guess = said(engine, PUMP[1], age_days=1, provenance=Provenance.INFERRED)
    assert engine.settle_pair(stated.id, guess.id, Relation.REPLACES) == ()
    assert {m.id for m in engine.list_memories(ADMIN)} == {stated.id, guess.id}


def test_settle_pair_unknown_memory(engine: MemoryEngine) -> None:
    garage = said(engine, PUMP[0], age_days=3)
    with pytest.raises(InvalidInput):
        engine.settle_pair(garage.id, "nope", Relation.REPLACES)


def test_dry_run_changes_nothing(engine: MemoryEngine) -> None:
    bins = [said(engine, text, age_days=days) for text, days in zip(BINS, (3, 1), strict=True)]
    pump = [said(engine, text, age_days=days) for text, days in zip(PUMP, (3, 1), strict=True)]
    guess = said(engine, "Someone seems to like opera.", age_days=200, provenance=Provenance.INFERRED)
    before = {m.id: m for m in engine.list_memories(ADMIN)}
    plan = engine.consolidate(NOW, dry_run=True)
    assert plan.dry_run
    assert plan.changes == (Change(bins[0].id, Status.ARCHIVED, bins[1].id),)
    assert plan.conflicts == (PossibleConflict(pump[0].id, pump[1].id, plan.conflicts[0].similarity),)
    assert plan.pruned_ids == (guess.id,)
    assert {m.id: m for m in engine.list_memories(ADMIN)} == before
    done = engine.consolidate(NOW)
    assert (done.changes, done.conflicts, done.pruned_ids) == (plan.changes, plan.conflicts, plan.pruned_ids)


def test_episodes_and_other_tellers_are_left_alone(engine: MemoryEngine) -> None:
    said(engine, BINS[0], age_days=3, kind=Kind.EPISODE)
    said(engine, BINS[1], age_days=1)
    assert engine.consolidate(NOW) == ConsolidationReport()


def test_a_verdict_goes_with_a_forgotten_memory(engine: MemoryEngine) -> None:
    garage = said(engine, PUMP[0], age_days=3)
    cellar = said(engine, PUMP[1], age_days=1)
    engine.settle_pair(garage.id, cellar.id, Relation.UNRELATED)
    engine.forget(garage.id, ADMIN)
    assert engine.store.judged_pairs() == set()


@pytest.mark.parametrize("verdict", [Relation.SAME, Relation.REPLACES])
def test_settle_pair_never_takes_the_households_fact_from_the_others(
    engine: MemoryEngine, verdict: Relation
) -> None:
    """A judge's verdict between Anna's shared telling and Julian's private one: the memory that
    holds is seen by everyone who saw the one it retires (as after a person's yes), so Anna and a
    guest still hear a value — never neither."""
    shared = add_verbatim(engine, "The bins go out on Tuesday evening.", speaker_id=ANNA,
                          created_at=NOW - timedelta(days=2))  # fmt: skip
    private = add_verbatim(engine, "I put the bins out on Tuesday evenings.", scope=Scope.PRIVATE,
                           owner_id=JULIAN, speaker_id=JULIAN,
                           created_at=NOW - timedelta(days=1))  # fmt: skip
    retired = engine.settle_pair(shared.id, private.id, verdict)
    assert retired == (shared.id,)  # the newer holds in both verdicts (same provenance)
    for reader in (Speaker(person_id=ANNA), Speaker()):
        texts = [h.memory.content for h in engine.recall("When do the bins go out?", reader)]
        assert "I put the bins out on Tuesday evenings." in texts, (reader, texts)
