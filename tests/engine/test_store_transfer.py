"""A move between stores (StoreTransfer, store/base.py): every TRANSFER_TABLES row exported from a
store and imported into a fresh one comes back out equal, and the copy behaves as the original —
recall, pending review, supersession history, tombstones (still blocking re-learning),
transcripts, voiceprints and consolidation verdicts. Runs on every backend (new_store)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from custom_components.memory.engine.api import MemoryDraft, StoreUnavailable
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.models import (
    Kind,
    Provenance,
    Role,
    Scope,
    Speaker,
    Status,
    TranscriptTurn,
)
from custom_components.memory.engine.store.base import TRANSFER_TABLES, Record, StoreTransfer, Visibility
from custom_components.memory.engine.terms import query_terms

from .conftest import ANNA, HALL, JULIAN, KITCHEN

ANCHOR_KEY = b"t" * 32
ADMIN = Speaker.administrator()
JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
ANNA_HALL = Speaker(person_id=ANNA, area_id=HALL)
GATE = "The gate code is 4711."  # and its paraphrase, as in test_forgetting (C04)
GATE_PARAPHRASE = "The garden gate opens with 4711."
DRINKS = [("I drink coffee in the morning.", "coffee"), ("I drink tea in the morning now.", "tea"),
          ("These days I drink water in the morning.", "water")]  # fmt: skip
QUESTIONS = ["What do I drink in the morning?", "Where is the spare key?", "When do the bins go out?",
             "Dov'è la chiave?", "Wann kommt der Schornsteinfeger?"]  # fmt: skip
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


class Clock:
    """One clock for the original and its copy, moved by the test only: recall's recency is
    the same on both."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def pair(make_engine: Callable[..., MemoryEngine]) -> tuple[MemoryEngine, MemoryEngine, dict[str, str]]:
    """(a store with something in every table, an empty one on the same clock, ids by role)."""
    clock = Clock()
    source = make_engine("source.db", anchor_key=ANCHOR_KEY, clock=clock)
    roles = _household(source, clock)
    return source, make_engine("copy.db", anchor_key=ANCHOR_KEY, clock=clock), roles


def _household(engine: MemoryEngine, clock: Clock) -> dict[str, str]:
    """A store with something in every table: memories of every scope in three languages, a
    superseded chain, a pending memory, a forgotten one (tombstone with anchors), access counts,
    a verdict, two conversations and two voiceprints. Returns a few ids by role."""
    tell = [
        ("The spare key is in the blue tin.", ADMIN, Scope.SHARED, "en"),
        ("The bins go out on Thursday.", ANNA_HALL, Scope.SHARED, "en"),
        ("La chiave della cantina è sotto il vaso.", JULIAN_KITCHEN, Scope.ROOM, "it"),
        ("Der Schornsteinfeger kommt im März.", ANNA_HALL, Scope.PRIVATE, "de"),
        ("My bike lock code is 9911.", JULIAN_KITCHEN, Scope.PRIVATE, "en"),
    ]
    ids = [
        engine.remember(MemoryDraft(text, speaker=who, scope=scope, language=lang)).memory.id
        for text, who, scope, lang in tell
    ]
    chain = []
    for text, value in DRINKS:  # a day apart: each is clearly newer than the last
        clock.now += 24 * HOUR
        chain.append(engine.remember(MemoryDraft(
            text, speaker=JULIAN_KITCHEN, scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me",
            predicate="drinks", value=value)).memory.id)  # fmt: skip
    clock.now += HOUR
    pending = engine.remember(
        MemoryDraft("Julian's bike is in the garage.", speaker=JULIAN_KITCHEN, scope=Scope.PRIVATE,
                    provenance=Provenance.EXTRACTED, status=Status.PENDING)
    ).memory.id  # fmt: skip
    gate = engine.remember(MemoryDraft(GATE, speaker=ADMIN, scope=Scope.SHARED)).memory.id
    engine.forget(gate, ADMIN)
    for question in QUESTIONS:  # access counts (batched: the export flushes them)
        engine.recall(question, JULIAN_KITCHEN)
    engine.store.record_verdict(ids[1], ids[0], "unrelated", T0)
    engine.record_turns([
        TranscriptTurn(conversation_id="c1", turn=n, role=role, text=text, language="en", created_at=T0,
                       speaker_id=JULIAN if role is Role.USER else None, area_id=KITCHEN)
        for n, (role, text) in enumerate([(Role.USER, "Where is the key?"), (Role.ASSISTANT, "In the tin.")])
    ])  # fmt: skip
    engine.append_turn(TranscriptTurn(conversation_id="c2", turn=0, role=Role.USER, text="Ciao!",
                                      language="it", created_at=T0))  # fmt: skip
    rng = np.random.default_rng(3)
    for person in (JULIAN, ANNA):
        engine.enroll_voice(person, rng.standard_normal(256).astype(np.float32), 3, "dvector-256")
    return {"current_drink": chain[-1], "pending": pending, "first": ids[0], "second": ids[1]}


def _export(store: StoreTransfer, batch: int = 3) -> dict[str, list[Record]]:
    """Every table, batches joined (small batches: the paging is part of what is tested)."""
    out: dict[str, list[Record]] = {}
    for table in TRANSFER_TABLES:
        out[table] = [row for rows in store.export_records(table, batch=batch) for row in rows]
        assert all(len(rows) <= batch for rows in store.export_records(table, batch=batch))
    return out


def _copy(source: MemoryEngine, target: MemoryEngine) -> dict[str, list[Record]]:
    assert target.store.is_empty()
    exported = _export(source.store)
    for table, rows in exported.items():
        for start in range(0, len(rows), 4):
            target.store.import_records(table, rows[start : start + 4])
    return exported


@pytest.mark.usefixtures("index_mode")
def test_export_import_export_gives_equal_records(
    pair: tuple[MemoryEngine, MemoryEngine, dict[str, str]],
) -> None:
    source, target, roles = pair
    exported = _copy(source, target)
    assert not target.store.is_empty()
    assert _export(target.store) == exported
    assert {t: len(r) for t, r in exported.items()} == {
        "memories": 9, "tombstones": 1, "transcript_turns": 3, "voiceprints": 2, "pair_verdicts": 1,
    }  # fmt: skip
    for table, rows in exported.items():
        assert all(tuple(row) == TRANSFER_TABLES[table] for row in rows)  # exactly its columns, in order
    memories = exported["memories"]
    assert [(r["created_at"], r["id"]) for r in memories] == sorted(
        (r["created_at"], r["id"]) for r in memories
    )
    assert all(isinstance(r["embedding"], bytes) for r in memories)
    assert all(isinstance(r["created_at"], str) and r["created_at"].endswith("+00:00") for r in memories)
    assert sum(int(r["access_count"] or 0) for r in memories) > 0  # batched touches were flushed
    assert roles["pending"] in {r["id"] for r in memories if r["status"] == Status.PENDING.value}


@pytest.mark.usefixtures("index_mode")
def test_the_copy_behaves_as_the_original(pair: tuple[MemoryEngine, MemoryEngine, dict[str, str]]) -> None:
    source, target, roles = pair
    _copy(source, target)

    for speaker in (JULIAN_KITCHEN, ANNA_HALL, Speaker(), ADMIN):
        for question in QUESTIONS:
            expected = [(h.memory.id, round(h.similarity, 5)) for h in source.recall(question, speaker)]
            assert [
                (h.memory.id, round(h.similarity, 5)) for h in target.recall(question, speaker)
            ] == expected
        assert target.list_memories(speaker, limit=100) == source.list_memories(speaker, limit=100)
    assert target.stats() == source.stats()
    for question, language in zip(QUESTIONS, ["en", "en", "en", "it", "de"], strict=True):  # full-text rows
        terms = query_terms(question, language)
        words = [w for w in question.rstrip("?").split() if len(w) > 3]
        for vis in (Visibility.of(ADMIN), Visibility.of(JULIAN_KITCHEN)):
            assert target.store.term_matches(terms, vis, 20) == source.store.term_matches(terms, vis, 20)
            assert target.store.lexical(words, vis, 20) == source.store.lexical(words, vis, 20)
        assert [target.store.doc_frequency(w, 10) for w in words] == [
            source.store.doc_frequency(w, 10) for w in words
        ]
    assert any(source.store.term_matches(query_terms(q, "en"), Visibility.of(ADMIN), 20) for q in QUESTIONS)

    history = [m.content for m in target.history(roles["current_drink"], JULIAN_KITCHEN)]
    assert history == [text for text, _ in reversed(DRINKS)]
    vis = Visibility.of(ADMIN)
    assert target.store.list_current(
        vis, limit=10, offset=0, status=Status.PENDING
    ) == source.store.list_current(vis, limit=10, offset=0, status=Status.PENDING)
    assert target.approve(roles["pending"], JULIAN_KITCHEN).status is Status.ACTIVE

    assert target.is_tombstoned(GATE_PARAPHRASE, scope=Scope.SHARED)  # by its anchors: they were kept
    learned = target.learn([ExtractedFact(GATE, confidence=0.9)], speaker=JULIAN_KITCHEN, language="en")
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)

    assert target.conversation("c1") == source.conversation("c1")
    assert target.conversation("c2") == source.conversation("c2")
    assert target.append_turn(
        TranscriptTurn(conversation_id="c2", turn=0, role=Role.ASSISTANT, text="Ciao!", language="it",
                       created_at=T0)
    ).turn == 1  # fmt: skip
    assert [(p.person_id, p.clips, p.embedding, p.created_at) for p in target.voiceprints()] == [
        (p.person_id, p.clips, p.embedding, p.created_at) for p in source.voiceprints()
    ]
    assert all(
        np.array_equal(a.vector, b.vector)
        for a, b in zip(target.voiceprints(), source.voiceprints(), strict=True)
    )
    assert target.store.judged_pairs() == {frozenset((roles["first"], roles["second"]))}


def test_importing_a_stored_key_writes_nothing_of_the_batch(
    pair: tuple[MemoryEngine, MemoryEngine, dict[str, str]],
) -> None:
    source, target, _ = pair
    exported = _copy(source, target)
    before = _export(target.store)
    for table, rows in exported.items():
        with pytest.raises(StoreUnavailable):
            target.store.import_records(table, rows[-1:])
    fresh = dict(exported["memories"][0], id="a-new-id")  # one new row, then one already stored
    with pytest.raises(StoreUnavailable):
        target.store.import_records("memories", [fresh, exported["memories"][1]])
    assert _export(target.store) == before
    assert target.get("a-new-id", ADMIN) is None
    assert target.stats() == source.stats()
