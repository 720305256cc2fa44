"""Concurrent callers on every store (DESIGN §7.8): HA runs engine calls on many executor threads
at once (two satellites, an automation, the panel). Whatever the interleaving: no error, every
acknowledged memory there, every forgotten one gone, no duplicate current memory, recall never
missing what the same caller just stored, and the SQLite vector index in step with the rows.

The assertions hold for every interleaving, so nothing here depends on timing; a hang fails by
the join timeouts (and pytest-timeout)."""

from __future__ import annotations

import random
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from custom_components.memory.engine.api import MemoryDraft, WriteAction
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker, Status
from custom_components.memory.engine.store.base import MemoryFilter, Visibility

from .conftest import HALL, JULIAN, KITCHEN, add_verbatim

ADMIN = Speaker.administrator()
THINGS = ["the ladder", "the drill", "the tent", "the kettle", "the red torch", "the bike pump",
          "the picnic rug", "the paint roller", "the spare fuse", "the garden hose"]  # fmt: skip
PLACES = ["the cellar", "the attic", "the garage", "the shed", "the hall cupboard", "the loft"]
WORKERS = 8
ROUNDS = 24  # per worker: 8 x 24 remember, recall, forget and list steps


@dataclass
class Ledger:
    """What the callers were told: acknowledged ids, forgotten ids, failures."""

    kept: dict[str, str] = field(default_factory=dict)  # id -> text
    forgotten: set[str] = field(default_factory=set)
    errors: list[BaseException] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _worker(engine: MemoryEngine, worker: int, ledger: Ledger, start: threading.Barrier) -> None:
    """One caller (a satellite or an automation): remembers its own facts, recalls each at once,
    forgets every third, lists the memories now and then; records what it was told."""
    rng = random.Random(worker)
    speaker = Speaker(person_id=JULIAN if worker % 2 else None, area_id=KITCHEN if worker % 3 else HALL)
    mine: list[str] = []
    start.wait(timeout=60)
    for step in range(ROUNDS):
        thing, place = rng.choice(THINGS), rng.choice(PLACES)
        text = f"Box {worker}-{step}: {thing} is in {place}, shelf {worker * 100 + step}."
        try:
            result = engine.remember(MemoryDraft(text, speaker=speaker, scope=Scope.SHARED))
            assert result.action is WriteAction.CREATED, (text, result.action)
            memory_id = result.memory.id
            with ledger.lock:
                ledger.kept[memory_id] = text
            hits = engine.recall(f"Where is box {worker}-{step}, shelf {worker * 100 + step}?", speaker)
            if memory_id not in {h.memory.id for h in hits}:
                with ledger.lock:
                    ledger.missed.append(text)
            mine.append(memory_id)
            if step % 3 == 2:
                gone = mine.pop(rng.randrange(len(mine)))
                engine.forget(gone, speaker)
                with ledger.lock:
                    ledger.forgotten.add(gone)
                    ledger.kept.pop(gone)
            if step % 5 == 4:
                engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=20)
                engine.list_memories(speaker, limit=10)
        except BaseException as err:  # every failure is a finding
            with ledger.lock:
                ledger.errors.append(err)


def _run(
    engine: MemoryEngine, worker: Callable[[MemoryEngine, int, Ledger, threading.Barrier], None]
) -> Ledger:
    ledger = Ledger()
    start = threading.Barrier(WORKERS)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = [pool.submit(worker, engine, n, ledger, start) for n in range(WORKERS)]
        for future in futures:
            future.result(timeout=600)
    return ledger


def _index_in_step(engine: MemoryEngine) -> None:
    """The store's vector search finds exactly the ACTIVE rows (SQLite: the in-RAM index)."""
    active, total = engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=10_000)
    assert len(active) == total
    vector = engine.embedder.embed(["where is it"])[0]
    found, _ = engine.store.semantic(vector, Visibility.of(ADMIN), k=10_000)
    assert {i for i, _ in found} == {m.id for m in active}
    ids, matrix = engine.store.vectors([m.id for m in active])
    assert sorted(ids) == sorted(m.id for m in active) and matrix.shape[0] == len(active)


def test_c32_concurrent_remember_recall_forget(engine: MemoryEngine, eager_switching: None) -> None:
    """C32 on the engine: eight callers at once, each remembering, recalling, forgetting, listing."""
    ledger = _run(engine, _worker)
    assert ledger.errors == []
    assert ledger.missed == []
    active, _ = engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=10_000)
    by_id = {m.id: m for m in active}
    assert set(ledger.kept) <= set(by_id), "an acknowledged memory is missing"
    assert not ledger.forgotten & set(by_id), "a forgotten memory is back"
    for gone in ledger.forgotten:
        assert engine.get(gone, ADMIN) is None
    duplicates = [t for t, n in Counter(m.content for m in active).items() if n > 1]
    assert duplicates == []
    assert len(ledger.kept) == WORKERS * ROUNDS - len(ledger.forgotten)
    _index_in_step(engine)


def test_c32_same_fact_told_at_once_is_one_memory(engine: MemoryEngine, eager_switching: None) -> None:
    """Two satellites and an automation tell the same facts at the same moment: one current
    memory per fact (the writer's dedup sees the other writes), all of them acknowledged."""
    facts = [f"The {thing} is in {place}." for thing in THINGS[:5] for place in PLACES[:2]]
    start = threading.Barrier(WORKERS)
    told: list[str] = []
    lock = threading.Lock()

    def tell(worker: int) -> None:
        start.wait(timeout=60)
        for text in random.Random(worker).sample(facts, len(facts)):
            memory = engine.remember(MemoryDraft(text, speaker=Speaker(), scope=Scope.SHARED)).memory
            with lock:
                told.append(memory.id)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for future in [pool.submit(tell, n) for n in range(WORKERS)]:
            future.result(timeout=600)
    active, _ = engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=1000)
    assert Counter(m.content for m in active) == Counter(dict.fromkeys(facts, 1))
    assert set(told) <= {m.id for m in active}
    _index_in_step(engine)


@pytest.fixture
def eager_switching() -> Iterator[None]:
    """Threads switch every microsecond instead of every 5 ms: interleavings a busy HA executor
    produces now and then happen on every run."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_concurrent_reads_beside_a_forget_storm(engine: MemoryEngine, eager_switching: None) -> None:
    """Vector search and recall while memories are forgotten from other threads: reads never fail
    or return a memory after its forget returned (the index moves rows on every delete)."""
    texts = [f"Jar {n} holds {PLACES[n % 6]} buttons, lot {n}." for n in range(120)]
    vectors = engine.embedder.embed(texts)
    ids = [add_verbatim(engine, t).id for t in texts]
    query = engine.embedder.embed(["Which jar holds the buttons?"])[0]
    errors: list[BaseException] = []
    gone: set[str] = set()
    forgetters = 4
    left = threading.Semaphore(0)

    def forget_share(share: int) -> None:
        try:
            for memory_id in ids[share::forgetters]:
                engine.forget(memory_id, Speaker())
                gone.add(memory_id)
        except BaseException as err:
            errors.append(err)
        finally:
            left.release()

    def read() -> None:
        try:
            for n in range(400):
                before = set(gone)
                found, _ = engine.store.semantic(vectors[n % len(vectors)], Visibility.of(ADMIN), k=50)
                assert not before & {i for i, _ in found}, "a forgotten memory was found"
                engine.store.vectors(ids[n % 60 : n % 60 + 30])
                engine.store.languages(ids[:40])
                if n % 20 == 0:
                    engine.recall("Which jar holds the buttons?", Speaker(), vector=query)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=forget_share, args=(n,)) for n in range(forgetters)]
    threads += [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive()
    assert errors == []
    assert engine.list_memories(ADMIN) == []
    _index_in_step(engine)
