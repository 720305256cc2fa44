"""SQLite searches both FTS5 tables from postings in RAM (store/bm25.py TermPostings): the same rows,
scores (to the last bit) and order as FTS5's own bm25() over memories_terms (term_matches) and
memories_fts (lexical), and FTS5's own phrase counts (doc_frequency), for every speaker and limit,
through every kind of write (add, content update, status change, forget, prune, import), after a
failed transaction and after reopening; and many threads writing while others rank."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from custom_components.memory.engine.api import StoreUnavailable
from custom_components.memory.engine.lexical import fts_phrases, query_anchors
from custom_components.memory.engine.models import (
    EmbeddingIdentity,
    Memory,
    Provenance,
    Scope,
    Speaker,
    Status,
)
from custom_components.memory.engine.store import bm25
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.bm25 import HELD_BLOCK, TermPostings, fts_tokens, idf
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.store.sqlite.fulltext import fts_put
from custom_components.memory.engine.store.sqlite.rows import where_current, where_visible
from custom_components.memory.engine.terms import query_terms

from .conftest import ANNA, HALL, JULIAN, KITCHEN, memory_row

IDENTITY = EmbeddingIdentity("test", "random", 8)
WORDS = ["garage", "ladder", "bike", "tent", "boiler", "ticket", "key", "blue", "tin", "cellar", "light",
         "door", "oil", "sticks", "hx-4471", "a12-b"]  # fmt: skip
BUCKETS: list[dict[str, object]] = [
    {"scope": Scope.SHARED},
    {"scope": Scope.ROOM, "area_id": KITCHEN},
    {"scope": Scope.ROOM, "area_id": HALL},
    {"scope": Scope.PRIVATE, "owner_id": JULIAN},
    {"scope": Scope.PRIVATE, "owner_id": ANNA},
]
SPEAKERS = [Speaker.administrator(), Speaker(person_id=JULIAN, area_id=KITCHEN), Speaker(area_id=HALL)]
QUERIES = ["Is the bike in the garage?", "garage", "blue tin key", "HX-4471 ticket", "a12-b", "oil the door"]


def _text(rng: random.Random) -> str:
    # words repeat within a text (term frequency > 1) and lengths vary (|D| / avgdl)
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9))) + "."


def _vector(rng: random.Random) -> np.ndarray:
    v = np.array([rng.gauss(0, 1) for _ in range(IDENTITY.dimension)], dtype=np.float32)
    return v / np.linalg.norm(v)


def _fts5(
    store: SqliteStore, terms: list[str], vis: Visibility, limit: int
) -> dict[str, tuple[float, frozenset[str]]]:
    """The ranking FTS5 computes itself (bm25() over memories_terms, sorted in SQL), with the
    query's terms each memory's terms hold."""
    rows = fts5_ranked(store, "memories_terms", "memories_terms.terms", terms, vis, limit=limit)
    return {r[0]: (float(r[1]), frozenset(terms).intersection(str(r[2]).split())) for r in rows}


def fts5_ranked(
    store: SqliteStore, table: str, column: str, phrases: list[str], vis: Visibility, *, limit: int
) -> list[tuple[str, float, str]]:
    """(id, bm25() negated, column) of the current visible memories matching any phrase in the
    FTS5 table, as FTS5 ranks them itself, sorted in SQL (equal scores in scan, rowid, order)."""
    where, params = where_visible(vis)
    current, at = where_current(vis)
    query = " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases)
    return [
        (str(mid), float(score), str(text))
        for mid, score, text in store._read(
            f"SELECT m.id, -bm25({table}) AS score, {column} FROM {table} "
            f"JOIN memories m ON m.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {current} AND {where} ORDER BY score DESC LIMIT ?",
            [query, *at, *params, limit],
        )
    ]


def _assert_equal_to_fts5(store: SqliteStore) -> int:
    compared = 0
    for query in QUERIES:
        terms = query_terms(query, "en")
        for speaker in SPEAKERS:
            vis = Visibility.of(speaker)
            phrases = fts_phrases(query_anchors(query, store)) + [
                w for w in query.lower().split() if w.isalpha()
            ]
            for limit in (1, 2, 5, 50):
                got, want = store.term_matches(terms, vis, limit), _fts5(store, terms, vis, limit)
                assert list(got.items()) == list(want.items()), (query, speaker, limit)
                compared += len(want)
                words = [(r.id, r.bm25, r.content) for r in store.lexical(phrases, vis, limit)]
                assert words == fts5_ranked(store, "memories_fts", "m.content", phrases, vis, limit=limit), (
                    query
                )
    for word in [*WORDS, "hx 4471", "a12 b", "nothing"]:
        for cap in (1, 3, 1000):
            count = store._read(
                "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
                ['"' + word + '"', cap],
            )[0][0]
            assert store.doc_frequency(word, cap) == count, word
    return compared


@pytest.mark.parametrize("rebuild_min", [4096, 8])
def test_term_matches_equal_fts5_through_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rebuild_min: int
) -> None:
    """4096: the writes stay beside the flat arrays until the reopen builds them; 8: the flat
    arrays are rebuilt every few writes, so rows are put, dropped and marked dead in both."""
    monkeypatch.setattr(bm25, "REBUILD_MIN", rebuild_min)
    rng = random.Random(5)
    store = SqliteStore(tmp_path / "m.db")
    store.open(IDENTITY)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    kept: list[Memory] = []
    try:
        for _ in range(120):
            memory = memory_row(_text(rng), created_at=now, **rng.choice(BUCKETS))  # type: ignore[arg-type]
            store.add(memory, _vector(rng))
            kept.append(memory)
        assert _assert_equal_to_fts5(store) > 100
        for memory in rng.sample(kept, 20):  # content changes
            store.update(memory_row(_text(rng), id=memory.id, **_bucket(memory)), _vector(rng))
        for memory in rng.sample(kept, 10):
            store.set_status(memory.id, Status.ARCHIVED, None)
        forgotten = rng.sample(kept, 15)
        store.delete_to_tombstones([m.id for m in forgotten], now)
        _assert_equal_to_fts5(store)
        guesses = [memory_row(_text(rng), created_at=now - timedelta(days=9), provenance=Provenance.INFERRED)
                   for _ in range(10)]  # fmt: skip
        for memory in guesses:
            store.add(memory, _vector(rng))
        assert len(store.prune_inferred(now)) == 10
        exported = {t: [r for batch in store.export_records(t) for r in batch] for t in ("memories",)}
        # a transaction that fails changes no postings
        with pytest.raises(StoreUnavailable), store._tx() as conn:
            store._after_commit(terms=fts_put(conn, 10_000, memory_row("garage garage garage")))
            raise RuntimeError("the write fails after indexing")
        _assert_equal_to_fts5(store)
    finally:
        store.close()
    copy = SqliteStore(tmp_path / "copy.db")  # import (the store move, a panel import)
    copy.open(IDENTITY)
    try:
        copy.import_records("memories", exported["memories"])
        _assert_equal_to_fts5(copy)
    finally:
        copy.close()
    store.open(IDENTITY)  # reopened: the postings are built from the file
    try:
        _assert_equal_to_fts5(store)
    finally:
        store.close()


def _bucket(memory: Memory) -> dict[str, object]:
    return {"scope": memory.scope, "owner_id": memory.owner_id, "area_id": memory.area_id}


def test_ranking_while_threads_write(tmp_path: Path) -> None:
    """Four threads add and forget while two rank: no error, and once they stop the ranking is
    FTS5's (the postings took every committed change and no failed one)."""
    store = SqliteStore(tmp_path / "m.db")
    store.open(IDENTITY)
    errors: list[BaseException] = []
    stop = threading.Event()

    def write(seed: int) -> None:
        rng = random.Random(seed)
        try:
            mine = []
            for _ in range(40):
                memory = memory_row(_text(rng), **rng.choice(BUCKETS))  # type: ignore[arg-type]
                store.add(memory, _vector(rng))
                mine.append(memory.id)
                if len(mine) > 5 and rng.random() < 0.3:
                    store.delete_to_tombstones([mine.pop(0)], datetime.now(UTC))
        except BaseException as err:  # reported by the test
            errors.append(err)

    def rank() -> None:
        try:
            while not stop.is_set():
                for query in QUERIES:
                    store.term_matches(query_terms(query, "en"), Visibility.of(SPEAKERS[1]), 10)
        except BaseException as err:  # reported by the test
            errors.append(err)

    try:
        writers = [threading.Thread(target=write, args=(seed,)) for seed in range(4)]
        readers = [threading.Thread(target=rank) for _ in range(2)]
        for thread in [*writers, *readers]:
            thread.start()
        for thread in writers:
            thread.join(timeout=120)
        stop.set()
        for thread in readers:
            thread.join(timeout=60)
        assert not any(t.is_alive() for t in [*writers, *readers]), "a thread hung"
        assert errors == []
        assert _assert_equal_to_fts5(store) > 0
    finally:
        store.close()


def test_postings_formula_pieces() -> None:
    """FTS5's pieces: its tokens, its idf floor, phrase counts across words, dropping a row."""
    assert fts_tokens("HX-4471 Straße, ÉTÉ") == ["hx", "4471", "straße", "été"]
    assert idf(10, 9) == 1e-6 and idf(10, 1) == pytest.approx(np.log(9.5 / 1.5))
    postings = TermPostings()
    postings.put(3, "hx 4471 hx", "a")
    postings.put(7, "4471 hx 4471", "b")
    assert postings.rows_with(["hx", "4471"]).tolist() == [3, 7]
    ranking = postings.bm25(
        [postings.postings("4471"), postings.postings("nope"), postings.postings("hx")], 1
    )
    (first, held_first), (second, held_second) = ranking.details([0, 1])
    assert ranking.rows(0, 9).tolist() == [3, 7] and first == second  # a tie: by rowid
    assert held_first == held_second == [0, 2]
    postings.drop(3, "hx 4471 hx")
    assert postings.postings("hx")[0].tolist() == [7] and postings.row_count == 1
    assert (postings.id_of(3), postings.id_of(7), postings.id_of(10**6)) == (None, "b", None)
    ranking = postings.bm25([postings.postings("hx")], 10)
    assert ranking.rows(0, 9).tolist() == [7] and ranking.details([0])[0][0] > 0


@pytest.mark.parametrize("rebuild_min", [4096, 2])
def test_built_postings_equal_put_ones(monkeypatch: pytest.MonkeyPatch, rebuild_min: int) -> None:
    """Postings built at open (flat arrays) hold what the same rows put one by one hold, and stay
    equal through drops and puts on either side (2: rebuilt every few changes)."""
    monkeypatch.setattr(bm25, "REBUILD_MIN", rebuild_min)
    rng = random.Random(3)
    texts = {rowid: _text(rng) for rowid in range(1, 60)}
    built = TermPostings.build((rowid, text, f"m{rowid}") for rowid, text in texts.items())
    put = TermPostings()
    for rowid, text in texts.items():
        put.put(rowid, text, f"m{rowid}")
    for step in range(80):
        rowid = rng.randint(1, 70)
        for postings in (built, put):
            if rowid in texts:
                postings.drop(rowid, texts[rowid])
            if step % 3:
                postings.put(rowid, texts.get(rowid, "") + " " + _text(random.Random(step)), f"m{rowid}")
        if step % 3:
            texts[rowid] = texts.get(rowid, "") + " " + _text(random.Random(step))
        else:
            texts.pop(rowid, None)
        tokens = {rowid: fts_tokens(text) for rowid, text in texts.items()}
        for token in ["a12", "nope", "hx", "4471", *WORDS[:14]]:
            want = sorted((r, float(held.count(token))) for r, held in tokens.items() if token in held)
            for postings in (built, put):
                assert sorted(zip(*(a.tolist() for a in postings.postings(token)), strict=True)) == want
        totals = (len(texts), sum(map(len, tokens.values())))
        assert (built.row_count, built.token_count) == (put.row_count, put.token_count) == totals
        assert [built.id_of(r) for r in range(72)] == [put.id_of(r) for r in range(72)]


def test_held_phrases_beyond_one_block() -> None:
    """Which phrases a row holds is exact for more phrases than one float holds bits for."""
    postings = TermPostings()
    words = [f"w{i}" for i in range(3 * HELD_BLOCK)]
    postings.put(1, " ".join(words[::3]), "a")  # every third word
    postings.put(2, " ".join(words), "b")
    ranking = postings.bm25([postings.postings(w) for w in words], 10)
    place = dict(zip(ranking.rows(0, 2).tolist(), range(2), strict=True))
    assert ranking.details([place[2]])[0][1] == list(range(len(words)))
    assert ranking.details([place[1]])[0][1] == list(range(0, len(words), 3))


def test_ranking_sorted_as_read() -> None:
    """The best `first` rows sorted at once and the next ones as far as a read goes past them give
    the order a full sort gives — by score, ties (also across each sorted place) by rowid."""
    rng = random.Random(11)
    postings = TermPostings()
    for rowid in rng.sample(range(1, 5000), 400):  # few distinct texts: many tied scores
        postings.put(rowid, " ".join(rng.choice(WORDS[:6]) for _ in range(rng.randint(1, 4))), f"m{rowid}")
    phrases = [postings.postings(w) for w in WORDS[:6]]
    full = postings.bm25(phrases, 10**6)
    everything = full.rows(0, full.size).tolist()
    details = full.details(list(range(full.size)))
    scores = [score for score, _ in details]
    assert len(everything) == full.size > 300
    assert all(
        (-scores[k], everything[k]) < (-scores[k + 1], everything[k + 1]) for k in range(full.size - 1)
    )
    for first in (1, 7, 64):
        ranking = postings.bm25(phrases, first)
        parts = [ranking.rows(start, start + first).tolist() for start in range(0, ranking.size, first)]
        assert [row for part in parts for row in part] == everything
        assert [ranking.details([k])[0] for k in range(ranking.size)] == details  # one place at a time
        doubling, start, size = postings.bm25(phrases, first), 0, first  # as term_matches reads
        while start < full.size:
            assert doubling.rows(start, start + size).tolist() == everything[start : start + size]
            start, size = start + size, 2 * size
    jump = postings.bm25(phrases, 5)
    assert jump.details([250, 3]) == [details[250], details[3]]  # far ahead first, then back
