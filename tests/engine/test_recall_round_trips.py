"""Recall on PostgreSQL in two round trips (reads.py, store/postgres/recall_batch.py): the gather
step's reads in one pipeline, the conversation neighbours in one statement — and the same slates
as SQLite answers from the same memories (the batch changes where rows come from, not the
ranking); and RecallReads reads each memory and vector once on SQLite."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from custom_components.memory.engine.api import MemoryDraft, RecallOptions, StoreUnavailable, WriteAction
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker, Status
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.postgres import PostgresStore
from custom_components.memory.engine.store.sqlite import SqliteStore

from .conftest import JULIAN, KITCHEN

JULIAN_IN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
CHAT = [  # one conversation: what answers sits next to what matches (recall step 5)
    ("en", "Anna: Did the plumber call back about the boiler?"),
    ("en", "Julian: Yes, he comes on Thursday at eight."),
    ("en", "Anna: Good, the ticket number was HX-4471."),
    ("en", "Julian: He said to keep the cellar door open."),
]
FACTS = [
    ("en", Scope.SHARED, "The spare key is in the blue tin in the garage."),
    ("de", Scope.SHARED, "Der Ersatzschlüssel liegt in der blauen Dose in der Garage."),
    ("en", Scope.SHARED, "The wifi password for guests is on the fridge."),
    ("it", Scope.SHARED, "Il codice del cancello è 4711."),
    ("en", Scope.PRIVATE, "I take my vitamins after breakfast."),
    ("en", Scope.PRIVATE, "My dentist is Dr. Hoffmann on Lindenstraße."),
    ("en", Scope.ROOM, "The kitchen scale needs new batteries."),
    ("en", Scope.SHARED, "Ticket HX-4478 was about the dishwasher."),
    ("en", Scope.SHARED, "The zwirbel plant needs water every Sunday."),
]
QUESTIONS = [
    ("en", "Where is the spare key?"),
    ("de", "Wo ist der Ersatzschlüssel?"),
    ("en", "What was ticket HX-4471 about?"),
    ("en", "When does the plumber come?"),
    ("en", "What is the gate code?"),
    ("en", "Who is my dentist?"),
    ("en", "When do I water the zwirbel?"),
    ("en", "What does the kitchen scale need?"),
]


@contextlib.contextmanager
def counted_round_trips() -> Iterator[Callable[[], int]]:
    """Round trips psycopg makes while inside: each statement outside a pipeline, each pipeline,
    and a transaction's BEGIN and COMMIT outside a pipeline (two)."""
    sent = [0]
    execute, pipeline = psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline
    transaction = psycopg.AsyncConnection.transaction

    async def counted_execute(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self._conn._pipeline is None:
            sent[0] += 1
        return await execute(self, *args, **kwargs)

    def counted_pipeline(self):  # type: ignore[no-untyped-def]
        if self._pipeline is None:
            sent[0] += 1
        return pipeline(self)

    def counted_transaction(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self._pipeline is None:
            sent[0] += 2
        return transaction(self, *args, **kwargs)

    psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline = counted_execute, counted_pipeline  # type: ignore[method-assign]
    psycopg.AsyncConnection.transaction = counted_transaction  # type: ignore[method-assign]
    try:
        yield lambda: sent[0]
    finally:
        psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline = execute, pipeline  # type: ignore[method-assign]
        psycopg.AsyncConnection.transaction = transaction  # type: ignore[method-assign]


def _filled(engine: MemoryEngine) -> MemoryEngine:
    for language, text in CHAT:
        engine.remember(MemoryDraft(text, speaker=JULIAN_IN_KITCHEN, scope=Scope.SHARED, language=language,
                                    source_ref="conversation-1"))  # fmt: skip
    for language, scope, text in FACTS:
        engine.remember(MemoryDraft(text, speaker=JULIAN_IN_KITCHEN, scope=scope, language=language))
    return engine


@pytest.fixture
def engines(
    tmp_path: Path, encoder: BundledEmbedder, pg_url: str
) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    lite = MemoryEngine(SqliteStore(tmp_path / "m.db"), encoder)
    pg = MemoryEngine(PostgresStore(pg_url, household="trips"), encoder)
    lite.open()
    pg.open()
    try:
        yield _filled(lite), _filled(pg)
    finally:
        lite.close()
        pg.close()


def test_postgres_recall_is_two_round_trips_with_sqlites_slates(
    engines: tuple[MemoryEngine, MemoryEngine],
) -> None:
    lite, pg = engines
    speakers = [JULIAN_IN_KITCHEN, Speaker(area_id="hall"), Speaker.administrator()]
    pg.recall("warm up", JULIAN_IN_KITCHEN)  # the row count is counted once after open, then in the batch
    trips = []
    with counted_round_trips() as sent:
        for language, question in QUESTIONS:
            for speaker in speakers:
                vector = pg.embedder.embed([question])[0]
                options = RecallOptions(language=language)
                before = sent()
                got = pg.recall(question, speaker, options, vector=vector)
                trips.append(sent() - before)
                want = lite.recall(question, speaker, options, vector=vector)
                if speaker is speakers[0]:  # a write between recalls changes the row count: counted again
                    note = MemoryDraft(f"Note {len(trips)}: all is well.", speaker=Speaker(),
                                       scope=Scope.ROOM, area_id="attic")  # fmt: skip
                    pg.remember(note)
                    lite.remember(note)
                assert [h.memory.content for h in got] == [h.memory.content for h in want], (
                    question,
                    speaker,
                )
                for a, b in zip(got, want, strict=True):
                    assert a.score == pytest.approx(b.score, abs=1e-4)
                    assert a.factors.keys() == b.factors.keys()
    assert max(trips) <= 2 and 2 in trips  # a hit from a conversation: its neighbours, the second
    assert any(
        h.factors.get("conversation") for h in pg.recall("When does the plumber come?", JULIAN_IN_KITCHEN)
    )


def test_each_memory_and_vector_is_read_once_per_recall(
    engines: tuple[MemoryEngine, MemoryEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    lite, _ = engines
    store = lite.store
    asked: dict[str, list[str]] = {"get_many": [], "vectors": []}
    for name in asked:
        original = getattr(store, name)

        def counting(
            ids: list[str], *args: object, _name: str = name, _original: object = original
        ) -> object:
            asked[_name].extend(ids)
            return _original(ids, *args)  # type: ignore[operator]

        monkeypatch.setattr(store, name, counting)
    for language, question in QUESTIONS:
        for values in asked.values():
            values.clear()
        assert lite.recall(question, JULIAN_IN_KITCHEN, RecallOptions(language=language))
        for name, ids in asked.items():
            assert len(ids) == len(set(ids)), (question, name)  # none read twice


def test_postgres_remember_reads_twice_and_writes_with_its_commit(
    engines: tuple[MemoryEngine, MemoryEngine],
) -> None:
    """A new memory on PostgreSQL: one statement reads its neighbours in every bucket the teller
    sees with their rows, one the tombstones it may lift, and BEGIN, INSERT and COMMIT go in one
    pipeline — three round trips (were four statements, BEGIN and COMMIT)."""
    _, pg = engines
    pg.remember(MemoryDraft("Warm: the hall light is new.", speaker=JULIAN_IN_KITCHEN, scope=Scope.SHARED))
    draft = MemoryDraft("The bike pump hangs in the cellar.", speaker=JULIAN_IN_KITCHEN, scope=Scope.SHARED)
    with counted_round_trips() as sent:
        result = pg.remember(draft)
        trips = sent()
    assert result.action is WriteAction.CREATED
    assert pg.store.get(result.memory.id, Visibility.of(JULIAN_IN_KITCHEN)) == result.memory
    assert trips == 3
    with counted_round_trips() as sent:  # told again: merged into the memory the neighbours read
        again = pg.remember(draft)
        trips = sent()
    assert (again.action, again.memory.id) == (WriteAction.MERGED, result.memory.id)
    assert trips <= 2 + 4  # the reads, and an update's transaction (reads the row it rewrites)


def test_a_failed_pipelined_write_commits_nothing(engines: tuple[MemoryEngine, MemoryEngine]) -> None:
    """The pipelined add fails as a whole: a memory whose id is taken is refused
    (StoreUnavailable, writing) and the memory it was to supersede stays current."""
    _, pg = engines
    old = pg.remember(MemoryDraft("The boiler is serviced in May.", speaker=JULIAN_IN_KITCHEN,
                                  scope=Scope.SHARED)).memory  # fmt: skip
    taken = pg.remember(
        MemoryDraft("The gate squeaks.", speaker=JULIAN_IN_KITCHEN, scope=Scope.SHARED)
    ).memory
    vector = pg.embedder.embed(["The boiler is serviced in June."])[0]
    clash = dataclasses.replace(old, id=taken.id, content="The boiler is serviced in June.")
    with pytest.raises(StoreUnavailable) as refused:
        pg.store.add(clash, vector, supersedes=[old.id])
    assert refused.value.writing
    admin = Visibility.of(Speaker.administrator())
    assert pg.store.get(old.id, admin).status is Status.ACTIVE  # type: ignore[union-attr]
    assert pg.store.get(taken.id, admin) == taken
    later = MemoryDraft("The boiler is serviced in June.", speaker=JULIAN_IN_KITCHEN, scope=Scope.SHARED)
    for _ in range(4):  # every pooled connection is usable again
        assert pg.remember(later).memory.content == later.content
