"""PostgreSQL store specifics on a real server (tests/postgres.py): migrations, households sharing one
database, vector dimensions side by side, filtered HNSW search, reconnecting, the move's records,
threads, full-text ranks equal to SQLite's, and the config flow's server check."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import psycopg
import pytest

from custom_components.memory.engine.api import StoreUnavailable
from custom_components.memory.engine.embedding.base import from_blob
from custom_components.memory.engine.models import (
    EmbeddingIdentity,
    Kind,
    Memory,
    Provenance,
    Role,
    Scope,
    Status,
    TranscriptTurn,
    Voiceprint,
)
from custom_components.memory.engine.store.base import TRANSFER_TABLES, Bucket, Record, Visibility
from custom_components.memory.engine.store.postgres import PostgresStore
from custom_components.memory.engine.store.postgres import check as postgres_check
from custom_components.memory.engine.store.postgres import migrations as postgres_migrations
from custom_components.memory.engine.store.postgres.check import ServerProblem, check_server
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.terms import query_terms
from tests import postgres

pytestmark = pytest.mark.timeout(300)

ADMIN = Visibility(everything=True, area_id=None, owner_id=None)
JULIAN = "person.julian"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def identity(dim: int = 16) -> EmbeddingIdentity:
    return EmbeddingIdentity("test", f"random-{dim}", dim)


def unit(rng: np.random.Generator, dim: int) -> np.ndarray:
    v = rng.standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def memory(text: str, *, scope: Scope = Scope.SHARED, owner: str | None = None, at: datetime = NOW,
           language: str = "en", mid: str | None = None) -> Memory:  # fmt: skip
    return Memory(id=mid or uuid.uuid4().hex, content=text, kind=Kind.FACT, language=language,
                  provenance=Provenance.CONFIRMED, scope=scope, owner_id=owner, area_id=None,
                  created_at=at, updated_at=at)  # fmt: skip


def opened(url: str, household: str = "home", dim: int = 16, **kwargs: object) -> PostgresStore:
    store = PostgresStore(url, household=household, **kwargs)  # type: ignore[arg-type]
    store.open(identity(dim))
    return store


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresStore]:
    s = opened(pg_url)
    yield s
    s.close()


def _loop_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("memory-postgres")]


# ---------------------------------------------------------------- migrations


def _versions(url: str) -> list[tuple[int, datetime]]:
    with psycopg.connect(url) as conn:
        return [(int(v), at) for v, at in conn.execute("SELECT version, applied_at FROM schema_migrations")]


def _back_to(url: str, version: int) -> None:
    """Make a database of the latest version look as `version` left it (the later steps undone)."""
    with psycopg.connect(url, autocommit=True) as conn:
        if version < 7:
            conn.execute("DROP TABLE anchor_checks")
        if version < 6:
            conn.execute("ALTER TABLE memories ALTER COLUMN embedding SET STORAGE EXTENDED")
            conn.execute("UPDATE memories SET embedding = subvector(embedding, 1, vector_dims(embedding)) "
                         "WHERE embedding IS NOT NULL")  # fmt: skip
        if version < 5:
            conn.execute("ALTER TABLE memories ADD COLUMN access_count integer NOT NULL DEFAULT 0, "
                         "ADD COLUMN last_accessed_at timestamptz")  # fmt: skip
            conn.execute("UPDATE memories m SET access_count = a.access_count, "
                         "last_accessed_at = a.last_accessed_at FROM memory_access a "
                         "WHERE a.household = m.household AND a.id = m.id")  # fmt: skip
            conn.execute("DROP TABLE memory_access")
        if version < 2:
            conn.execute("DROP TABLE memory_terms")
            conn.execute("DROP FUNCTION memory_terms_keep CASCADE")
        conn.execute("DELETE FROM schema_migrations WHERE version > %s", (version,))


def test_fresh_database_reaches_the_latest_version_and_reopening_changes_nothing(pg_url: str) -> None:
    first = opened(pg_url)
    assert first.schema_version() == postgres_migrations.SCHEMA_VERSION
    first.close()
    before = _versions(pg_url)
    assert [v for v, _ in before] == list(range(1, postgres_migrations.SCHEMA_VERSION + 1))
    again = opened(pg_url)
    again.close()
    assert _versions(pg_url) == before


def test_two_instances_migrating_at_once_migrate_once(pg_url: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda h: opened(pg_url, household=h), ["a", "b", "c", "d"]))
    for s in stores:
        s.close()
    assert [v for v, _ in _versions(pg_url)] == list(range(1, postgres_migrations.SCHEMA_VERSION + 1))


def test_a_newer_schema_is_refused(pg_url: str) -> None:
    opened(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version) VALUES (%s)", (postgres_migrations.SCHEMA_VERSION + 1,)
        )
    with pytest.raises(StoreUnavailable, match="SchemaTooNew"):
        opened(pg_url)
    assert _loop_threads() == []


def _imported(
    url: str, rng: np.random.Generator, n: int, dim: int
) -> tuple[PostgresStore, list[np.ndarray], np.random.Generator]:
    """An open store of dimension `dim` holding n memories m000… (import_records) with random
    unit vectors: the store, the vectors by number, and the generator for more."""
    vectors = [unit(rng, dim) for _ in range(n)]
    store = opened(url, dim=dim)
    store.import_records(
        "memories", [_record(f"m{i:03d}", f"memory {i}", None, vectors[i], dim) for i in range(n)]
    )
    return store, vectors, rng


def test_a_version_3_database_gets_the_denser_vector_graph(pg_url: str) -> None:
    """Migration v4: the HNSW graph is built again with HNSW_EF_CONSTRUCTION (pgvector's default
    64 linked clustered memories poorly); the rows and their search are unchanged."""
    dim, n = 512, 40
    store, vectors, _ = _imported(pg_url, np.random.default_rng(11), n, dim)
    store.close()
    built_with = [
        f"m={postgres_migrations.HNSW_M}",
        f"ef_construction={postgres_migrations.HNSW_EF_CONSTRUCTION}",
    ]
    assert _graph_options(pg_url, dim) == built_with
    with psycopg.connect(pg_url, autocommit=True) as conn:  # back to version 3's graph
        conn.execute(f"DROP INDEX memories_embedding_{dim}")
        graph = (
            f"memories_embedding_{dim} ON memories USING hnsw ((embedding::vector({dim})) vector_cosine_ops)"
        )
        conn.execute(f"CREATE INDEX {graph} WHERE emb_dimension = {dim}")
    _back_to(pg_url, 3)
    assert _graph_options(pg_url, dim) is None
    store = opened(pg_url, dim=dim)
    try:
        assert store.schema_version() == postgres_migrations.SCHEMA_VERSION
        assert _graph_options(pg_url, dim) == built_with
        for i in (0, 25):
            top, _ = store.semantic(vectors[i], ADMIN, 3)
            assert top[0][0] == f"m{i:03d}"
            assert top[0][1] == pytest.approx(1.0, abs=1e-5)
    finally:
        store.close()


def _graph_options(url: str, dim: int) -> list[str] | None:
    """The HNSW index's build options (None: pgvector's defaults)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT reloptions FROM pg_class WHERE relname = %s", (f"memories_embedding_{dim}",)
        ).fetchone()
    assert row is not None
    return row[0]


def test_access_counts_live_apart_and_a_version_4_database_keeps_them(pg_url: str) -> None:
    """Migration v5: recall's access counts are rows of memory_access, so counting one writes no
    memories row; a database of version 4 (counts in the memories rows) keeps every count, and
    pruning still spares what was recalled."""
    rng = np.random.default_rng(13)
    made = NOW - timedelta(days=90)
    old_inferred = [replace(memory(f"Guess {i}.", at=made), provenance=Provenance.INFERRED) for i in range(3)]
    store = opened(pg_url)
    for m in old_inferred:
        store.add(m, unit(rng, 16))
    where = "SELECT id, ctid::text FROM memories ORDER BY id"  # a row written again moves (new ctid)
    with psycopg.connect(pg_url) as conn:
        before = conn.execute(where).fetchall()
    store.touch([old_inferred[0].id], NOW)
    store.touch([old_inferred[0].id, old_inferred[1].id], NOW + timedelta(hours=1))
    store.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute(where).fetchall() == before
        assert conn.execute("SELECT count(*) FROM memory_access").fetchone() == (2,)
    _back_to(pg_url, 4)
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT sum(access_count) FROM memories").fetchone() == (3,)
    store = opened(pg_url)
    try:
        got = store.get_many([m.id for m in old_inferred], ADMIN)
        assert [got[m.id].access_count for m in old_inferred] == [2, 1, 0]
        assert got[old_inferred[0].id].last_accessed_at == NOW + timedelta(hours=1)
        assert store.prune_inferred(NOW, dry_run=True) == [old_inferred[2].id]
        exported = [r for batch in store.export_records("memories") for r in batch]
        assert sorted(r["access_count"] for r in exported) == [0, 1, 2]
    finally:
        store.close()


def _out_of_line(url: str) -> list[str]:
    """Ids of the memories whose vector is stored in the TOAST table, not in the row."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id FROM memories WHERE pg_column_toast_chunk_id(embedding) IS NOT NULL")
        return sorted(r[0] for r in rows)


def test_vectors_live_in_the_row_and_a_version_5_database_moves_them_there(pg_url: str) -> None:
    """Migration v6: a 512-d vector (2 KB, over the TOAST threshold) is kept in its memories row;
    a database of version 5 has its vectors moved there, bit for bit, and still searched."""
    dim, n = 512, 12
    store, vectors, rng = _imported(pg_url, np.random.default_rng(14), n, dim)
    store.add(memory("The boiler ticket is HX-4471."), unit(rng, dim))
    store.close()
    assert _out_of_line(pg_url) == []
    _back_to(pg_url, 5)
    assert len(_out_of_line(pg_url)) == n + 1  # version 5 kept them out of line
    store = opened(pg_url, dim=dim)
    try:
        assert store.schema_version() == postgres_migrations.SCHEMA_VERSION
        assert _out_of_line(pg_url) == []
        ids, got = store.vectors([f"m{i:03d}" for i in range(n)])
        assert len(ids) == n
        assert np.array_equal(got, np.stack(vectors).astype(np.float32))
        top, _ = store.semantic(vectors[7], ADMIN, 1)
        assert top[0][0] == "m007"
    finally:
        store.close()


def test_a_version_7_database_gets_terms_of_every_language(pg_url: str) -> None:
    """Migration v8: a Chinese sentence indexed before (one token per run, identifier glued to the
    words around it) is indexed again: its identifier and its bigrams are found."""
    rng = np.random.default_rng(15)
    store = opened(pg_url)
    old = memory("维修工单HX-4471已经关闭了。")
    store.add(old, unit(rng, 16))
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:  # the columns as version 7 made them
        conn.execute(
            "UPDATE memories SET content_tsv = %s::tsvector, terms = %s, terms_tsv = %s::tsvector",
            (
                "'维修工单hx':1 '4471已经关闭了':2",
                "维修工单hx 4471已经关闭了",
                "'维修工单hx':1 '4471已经关闭了':2",
            ),
        )
    _back_to(pg_url, 7)
    store = opened(pg_url)
    try:
        assert store.schema_version() == postgres_migrations.SCHEMA_VERSION == 8
        assert [r.id for r in store.lexical(["hx 4471"], ADMIN, 5)] == [old.id]
        assert list(store.term_matches(query_terms("工单关闭"), ADMIN, 5)) == [old.id]
    finally:
        store.close()


def test_vectors_and_languages_after_a_search_follow_a_write(store: PostgresStore) -> None:
    """semantic() keeps its rows' vectors and languages for the rest of the recall; a write of
    this store drops them, so a changed memory is read again."""
    rng = np.random.default_rng(12)
    m, v = memory("The cat is called Luna."), unit(rng, 16)
    store.add(m, v)
    store.semantic(v, ADMIN, 5)
    assert store.languages([m.id]) == {m.id: "en"}
    w = unit(rng, 16)
    store.update(memory("Die Katze heißt Nala.", mid=m.id, language="de"), w)
    assert store.languages([m.id]) == {m.id: "de"}
    ids, got = store.vectors([m.id, "unknown"])
    assert ids == [m.id] and np.allclose(got[0], w, atol=1e-6)
    assert store.similarities([m.id], w)[m.id] == pytest.approx(1.0, abs=1e-5)


# ---------------------------------------------------------------- households


def _fill(store: PostgresStore, rng: np.random.Generator, dim: int = 16) -> tuple[Memory, Memory]:
    """A memory, a forgotten one, a transcript turn, a voiceprint and a verdict."""
    kept = memory("The boiler ticket is HX-4471.")
    gone = memory("The gate code is 4711.")
    other = memory("The cat is called Luna.")
    for m in (kept, gone, other):
        store.add(m, unit(rng, dim))
    store.record_verdict(kept.id, other.id, "unrelated", NOW)
    store.delete_to_tombstones([gone.id], NOW, lambda text: {"digest-4711"})
    store.append_turn(TranscriptTurn(conversation_id="conv", turn=0, role=Role.USER, text="hello",
                                     language="en", created_at=NOW))  # fmt: skip
    store.put_voiceprint(Voiceprint(person_id=JULIAN, vector=unit(rng, 8), clips=3, embedding="dv",
                                    created_at=NOW, updated_at=NOW))  # fmt: skip
    return kept, gone


def test_households_sharing_a_database_see_nothing_of_each_other(pg_url: str) -> None:
    rng = np.random.default_rng(1)
    home, holiday = opened(pg_url, "home"), opened(pg_url, "holiday")
    try:
        kept, gone = _fill(home, rng)
        probe = home.vectors([kept.id])[1][0]
        bucket = Bucket.of(Scope.SHARED, None, None)
        assert holiday.is_empty() and not home.is_empty()
        assert holiday.get(kept.id, ADMIN) is None and holiday.list_current(ADMIN, limit=10, offset=0) == []
        assert holiday.semantic(probe, ADMIN, 10) == ([], [])
        assert holiday.nearest_in_buckets(probe, [bucket], 5) == [[]]
        assert holiday.term_matches(query_terms("boiler ticket"), ADMIN, 10) == {}
        assert holiday.lexical(["hx 4471"], ADMIN, 10) == []
        assert (holiday.doc_count(), holiday.doc_frequency("boiler", 10)) == (0, 0)
        assert holiday.tombstones_near(probe, bucket, -1.0) == []
        assert holiday.turns("conv") == [] and holiday.voiceprints() == [] and holiday.judged_pairs() == set()
        assert holiday.counts() == {"memories": 0, "active": 0, "tombstones": 0, "stale": 0}
        assert all(not batch for t in TRANSFER_TABLES for batch in holiday.export_records(t))
        # the same ids may live in both; writes and deletes stay in their household
        holiday.add(memory("Holiday home: the key is under the mat.", mid=kept.id), probe)
        assert holiday.get(kept.id, ADMIN).content.startswith("Holiday")  # type: ignore[union-attr]
        assert home.get(kept.id, ADMIN).content == kept.content  # type: ignore[union-attr]
        assert holiday.append_turn(TranscriptTurn(conversation_id="conv", turn=0, role=Role.USER,
                                                  text="hi", language="en", created_at=NOW)).turn == 0  # type: ignore[union-attr]  # fmt: skip
        holiday.delete_to_tombstones([kept.id], NOW)
        assert home.get(kept.id, ADMIN) is not None
        assert home.counts() == {"memories": 2, "active": 2, "tombstones": 1, "stale": 0, "scope:shared": 2,
                                 "provenance:confirmed": 2, "status:active": 2,
                                 "tombstone_scope:shared": 1}  # fmt: skip
        assert home.doc_count() == 2 and len(home.turns("conv")) == 1 and len(home.voiceprints()) == 1
        assert [t.id for t, _ in home.tombstones_near(probe, bucket, -1.0)] == [gone.id]
    finally:
        home.close()
        holiday.close()


def test_every_table_has_a_household_key(store: PostgresStore, pg_url: str) -> None:
    with psycopg.connect(pg_url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_name != 'schema_migrations'")]  # fmt: skip
        keyed = {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'household'")}  # fmt: skip
    assert set(TRANSFER_TABLES) <= set(tables) and set(tables) <= keyed


# ---------------------------------------------------------------- vectors


def test_384_and_512_dimensions_side_by_side(pg_url: str) -> None:
    rng = np.random.default_rng(2)
    small, large = opened(pg_url, "small", dim=384), opened(pg_url, "large", dim=512)
    try:
        for s, dim in ((small, 384), (large, 512)):
            vectors = [unit(rng, dim) for _ in range(20)]
            ids = [memory(f"fact number {i}").id for i in range(20)]
            for mid, v in zip(ids, vectors, strict=True):
                s.add(memory(f"fact {mid}", mid=mid), v)
            top, _ = s.semantic(vectors[7], ADMIN, 3)
            assert top[0][0] == ids[7] and top[0][1] == pytest.approx(1.0, abs=1e-5)
        with psycopg.connect(pg_url) as conn:
            names = {
                r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'memories'")
            }
        assert {"memories_embedding_384", "memories_embedding_512"} <= names
    finally:
        small.close()
        large.close()


def test_filtered_search_keeps_its_top_k_on_a_selective_filter(pg_url: str) -> None:
    """5000 memories, 1 % private to Julian, the rest private to others: Julian's top 10 comes
    through the HNSW index (relaxed iterative scan) with recall ≥ 0.98 against exact search."""
    rng = np.random.default_rng(3)
    dim, n = 64, 5000
    centres = np.stack([unit(rng, dim) for _ in range(50)])
    vectors = centres[rng.integers(0, 50, n)] + 0.35 * rng.standard_normal((n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = [JULIAN if i % 100 == 0 else f"person.other{i % 7}" for i in range(n)]
    store = opened(pg_url, dim=dim)
    try:
        records = [_record(f"m{i:05d}", f"memory {i}", owners[i], vectors[i], dim) for i in range(n)]
        for start in range(0, n, 1000):  # in the batches a move imports
            store.import_records("memories", records[start : start + 1000])
        with psycopg.connect(pg_url) as conn:
            conn.execute("ANALYZE memories")
        vis = Visibility(everything=False, area_id=None, owner_id=JULIAN)
        mine = np.array([o == JULIAN for o in owners])
        hits = total = 0
        for q in range(20):
            query = unit(rng, dim) if q % 2 else vectors[q * 37]
            exact = {f"m{i:05d}" for i in np.flatnonzero(mine)[np.argsort(-(vectors[mine] @ query))[:10]]}
            top, owned = store.semantic(query, vis, 10, owned_k=10)
            assert len(top) == 10 and [s for _, s in top] == sorted((s for _, s in top), reverse=True)
            hits += len(exact & {i for i, _ in top})
            total += 10
            assert {i for i, _ in owned} == {i for i, _ in top}  # only Julian's memories are visible
        assert hits / total >= 0.98
        plan = _explain(pg_url, dim, vectors[0])
        assert "memories_embedding_64" in plan
    finally:
        store.close()


def test_recall_access_counts_leave_the_vector_index_alone(pg_url: str) -> None:
    """Recall counts every hit (touch). The counts are rows of their own (memory_access,
    migration v5): the HNSW graph gains no entry for them — no dead versions for its searches to
    wade through; its size stays the same."""
    rng = np.random.default_rng(4)
    dim, n = 512, 600  # the bundled encoder's rows: about three to a page
    store = opened(pg_url, dim=dim)
    try:
        vectors = [unit(rng, dim) for _ in range(n)]
        store.import_records(
            "memories", [_record(f"m{i:05d}", f"memory {i}", None, vectors[i], dim) for i in range(n)]
        )
        ids = [f"m{i:05d}" for i in range(n)]
        before = _index_size(pg_url, dim)
        for round_ in range(3):
            store.touch(ids, NOW + timedelta(minutes=round_))  # ≥ TOUCH_FLUSH_EVERY: written at once
        with psycopg.connect(pg_url) as conn:
            counts = conn.execute(
                "SELECT count(*), min(access_count), max(access_count) FROM memory_access"
            ).fetchone()
        assert counts == (n, 3, 3)
        assert _index_size(pg_url, dim) == before
        top, _ = store.semantic(vectors[5], ADMIN, 10)
        assert top[0][0] == "m00005"
    finally:
        store.close()


def _index_size(url: str, dim: int) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_relation_size(%s::regclass)", (f"memories_embedding_{dim}",)).fetchone()
    assert row is not None
    return int(row[0])


def _explain(url: str, dim: int, vector: np.ndarray) -> str:
    literal = "[" + ",".join(f"{x:.6f}" for x in vector) + "]"
    with psycopg.connect(url) as conn:
        conn.execute("SET enable_seqscan = off")
        rows = conn.execute(
            f"EXPLAIN SELECT id FROM memories WHERE emb_dimension = {dim} "
            f"ORDER BY embedding::vector({dim}) <=> %s::vector LIMIT 10", (literal,)
        ).fetchall()  # fmt: skip
    return "\n".join(r[0] for r in rows)


def _record(mid: str, text: str, owner: str | None, vector: np.ndarray, dim: int) -> dict[str, object]:
    at = NOW.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    return {
        "id": mid, "content": text, "kind": "fact", "language": "en", "provenance": "confirmed",
        "scope": "private" if owner else "shared", "owner_id": owner, "area_id": None, "subject": None,
        "predicate": None, "confidence": 1.0, "importance": 0.5, "sensitive": 0, "status": "active",
        "superseded_by": None, "valid_from": None, "valid_to": None, "source": "service", "source_ref": None,
        "access_count": 0, "last_accessed_at": None, "created_at": at, "updated_at": at, "value": None,
        "speaker_id": None, "embedding": np.asarray(vector, dtype="<f4").tobytes(), "emb_provider": "test",
        "emb_model": f"random-{dim}", "emb_dimension": dim,
    }  # fmt: skip


def _planner_rows(url: str) -> dict[str, float]:
    """pg_class.reltuples (-1: never counted) of the tables a recall reads."""
    with psycopg.connect(url) as conn:
        return dict(conn.execute(
            "SELECT relname::text, reltuples FROM pg_class "
            "WHERE relname IN ('memories', 'memory_terms', 'memory_access')"
        ).fetchall())  # fmt: skip


def test_a_bulk_write_leaves_the_planner_counting_what_it_wrote(store: PostgresStore, pg_url: str) -> None:
    """After an import (bulk_writes) the planner's statistics count the rows written — also the
    empty access counts, which autovacuum never counts — so the first recalls are not planned
    for an empty table; a small import on a counted table does not ANALYZE again."""
    rng = np.random.default_rng(5)
    assert _planner_rows(pg_url)["memory_access"] == -1
    with store.bulk_writes():
        for i in range(40):
            store.add(memory(f"Box {i} holds the winter tyres and spare bulbs."), unit(rng, 16))
    counted = _planner_rows(pg_url)
    assert counted["memories"] == 40 and counted["memory_terms"] > 40 and counted["memory_access"] == 0
    with store.bulk_writes():
        store.add(memory("One more box in the attic."), unit(rng, 16))
    assert _planner_rows(pg_url)["memories"] == 40  # 41 is not twice 40: not analyzed again


def test_a_failed_statistics_refresh_leaves_the_import_standing(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The ANALYZE after a bulk write fails (the server went away at the end): the block still
    returns, its writes stay committed, and the failure is logged."""
    from custom_components.memory.engine.store.postgres import connection  # noqa: PLC0415

    async def refused(conn: object, table: str) -> None:
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(connection, "analyze_when_grown", refused)
    written = memory("The spare fuses are in the hall cupboard.")
    with store.bulk_writes():
        store.add(written, unit(np.random.default_rng(6), 16))
    assert store.get(written.id, ADMIN) == written
    assert "statistics were not refreshed" in caplog.text


# ---------------------------------------------------------------- the move's records


def test_export_import_round_trip(pg_url: str) -> None:
    rng = np.random.default_rng(4)
    source, target = opened(pg_url, "source"), opened(pg_url, "target")
    try:
        kept, _ = _fill(source, rng)
        source.touch([kept.id], NOW + timedelta(hours=1))
        exported = {
            t: [r for batch in source.export_records(t, batch=2) for r in batch] for t in TRANSFER_TABLES
        }
        counts = {r["id"]: r["access_count"] for r in exported["memories"]}
        assert counts[kept.id] == 1  # batched counts flushed first
        assert all(set(r) == set(TRANSFER_TABLES[t]) for t, rows in exported.items() for r in rows)
        for table in TRANSFER_TABLES:
            target.import_records(table, exported[table])
        again = {t: [r for batch in target.export_records(t) for r in batch] for t in TRANSFER_TABLES}
        assert again == exported
        # the first batch into the empty table was copied with the HNSW index dropped and built again
        with psycopg.connect(pg_url) as conn:
            assert conn.execute(
                "SELECT count(*) FROM pg_indexes WHERE tablename = 'memories' AND indexdef LIKE '%hnsw%'"
            ).fetchone() == (1,)  # fmt: skip
        assert target.semantic(exported_vector(exported, kept.id), ADMIN, 1)[0][0][0] == kept.id
        assert target.term_matches(query_terms("boiler ticket"), ADMIN, 5).keys() == {kept.id}
        with pytest.raises(StoreUnavailable):
            target.import_records(
                "memories", [*exported["memories"], _record("new", "x", None, unit(rng, 16), 16)]
            )
        assert target.get("new", ADMIN) is None
    finally:
        source.close()
        target.close()


def test_exported_records_equal_sqlite_renderings(pg_url: str, tmp_path: Path) -> None:
    """Timestamps, booleans and vectors render as SQLite stores them (checksums compare)."""
    rng = np.random.default_rng(5)
    pg, lite = opened(pg_url), SqliteStore(tmp_path / "m.db")
    lite.open(identity())
    try:
        m = memory("Mia plays the violin.", at=datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC))
        v = unit(rng, 16)
        pg.add(m, v)
        lite.add(m, v)
        row = next(pg.export_records("memories"))[0]
        with lite._gate:
            stored = lite._db().execute(
                f"SELECT {', '.join(TRANSFER_TABLES['memories'])} FROM memories"
            ).fetchone()  # fmt: skip
        assert row == dict(zip(TRANSFER_TABLES["memories"], stored, strict=True))
    finally:
        pg.close()
        lite.close()


# ---------------------------------------------------------------- connection loss, threads


def _when_reconnected(store: PostgresStore, patience: float = 60.0) -> list[Memory]:
    """list_current once the pool has reconnected by itself (it retries with back-off; a loaded
    machine may need a few seconds); fails after `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return store.list_current(ADMIN, limit=5, offset=0)
        except StoreUnavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_the_pool_reconnects_after_a_server_restart(tmp_path: Path) -> None:
    datadir = tmp_path / "pg"
    with postgres.server(datadir) as admin:
        url = postgres.fresh_database(admin)
        store = opened(url, timeout=5, connect_timeout=2)
        store.add(memory("Before the restart."), unit(np.random.default_rng(6), 16))
    try:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable) as caught:
            store.list_current(ADMIN, limit=5, offset=0)
        assert time.monotonic() - started < 60  # a timeout (5 s), never a hang; generous for a busy CI
        assert "postgresql://" not in str(caught.value)
        with postgres.server(datadir) as admin_again:
            assert admin_again == admin  # the same socket: the store's URL is still right
            assert [m.content for m in _when_reconnected(store)] == ["Before the restart."]
    finally:
        store.close()
    assert _loop_threads() == []


def test_close_leaves_no_thread_and_is_idempotent(pg_url: str) -> None:
    before = set(threading.enumerate())
    s = opened(pg_url)
    assert len(_loop_threads()) == 1
    s.close()
    s.close()
    assert _loop_threads() == [] and set(threading.enumerate()) <= before


def test_an_unreachable_server_is_unavailable_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://alice:s3cret-pw@/memory?host={tmp_path}"
    with pytest.raises(StoreUnavailable) as caught:
        PostgresStore(url, household="home", connect_timeout=1).open(identity())
    assert "s3cret-pw" not in str(caught.value) and "alice:" not in str(caught.value)
    assert _loop_threads() == []


def test_concurrent_turns_are_numbered_without_collision(pg_url: str) -> None:
    one, two = opened(pg_url), opened(pg_url)
    try:

        def say(i: int) -> int:
            s = one if i % 2 else two
            got = s.append_turn(TranscriptTurn(conversation_id="c", turn=0, role=Role.ASSISTANT,
                                               text=f"turn {i}", language="en", created_at=NOW))  # fmt: skip
            assert got is not None
            return got.turn

        with ThreadPoolExecutor(6) as pool:
            numbers = sorted(pool.map(say, range(30)))
        assert numbers == list(range(30))
    finally:
        one.close()
        two.close()


# ---------------------------------------------------------------- full text equals SQLite's

CORPUS = [
    ("Caroline went hiking to the lake with her dog.", "en"),
    ("We hiked up to the lake last summer.", "en"),
    ("The boiler ticket is HX-4471, the plumber comes on Monday.", "en"),
    ("The ticket for the dentist is 4471.", "en"),
    ("Ticket hx4471 was closed.", "en"),
    ("Melanie paints landscapes of the lake and the mountains.", "en"),
    ("The lake house key is in the blue tin, the lake boat key in the red tin.", "en"),
    ("Der Ersatzschlüssel liegt in der blauen Dose.", "de"),
    ("Die Wanderung zum See war schön.", "de"),
    ("Il codice del cancello è 4711.", "it"),
    ("Le rendez-vous chez le dentiste est mardi à 10:30.", "fr"),
    ("La llave está en el cajón azul.", "es"),
    ("Mia plays the violin; Mia practises every day.", "en"),
    ("The meeting is at 12.5 past; bring the 12.5 kg box.", "en"),
    ("Lake lake lake: a word said three times.", "en"),
]
QUERIES = [
    "Where did Caroline go hiking?", "lake", "What is the boiler ticket?", "dentist", "Schlüssel Dose",
    "cancello codice", "12.5 box", "Mia violin", "key tin", "Wanderung See",
]  # fmt: skip


def test_full_text_ranks_equal_sqlite(pg_url: str, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    pg, lite = opened(pg_url), SqliteStore(tmp_path / "m.db")
    lite.open(identity())
    try:
        for i, (text, lang) in enumerate(CORPUS):
            m = memory(text, language=lang, at=NOW + timedelta(seconds=i))
            v = unit(rng, 16)
            pg.add(m, v)
            lite.add(m, v)
        _assert_terms_equal(pg, lite)
        for phrases in (["hx 4471", "hx4471"], ["4471"], ["lake"], ["12.5"], ["caroline", "melanie"]):
            got_rows, want_rows = pg.lexical(phrases, ADMIN, 10), lite.lexical(phrases, ADMIN, 10)
            assert [(r.id, r.content) for r in got_rows] == [(r.id, r.content) for r in want_rows], phrases
            assert [r.bm25 for r in got_rows] == pytest.approx([r.bm25 for r in want_rows], rel=1e-9)
            assert pg.doc_frequency(phrases[0], 50) == lite.doc_frequency(phrases[0], 50)
        # again, with document frequencies known (doc_frequency counted "lake" whole and "4471"
        # only up to a cap, which must not pass for its count): the same ranks
        assert pg.doc_frequency("4471", 1) == 1
        for phrases in (["hx 4471", "hx4471"], ["4471"], ["lake"], ["caroline", "melanie"]):
            got_rows, want_rows = pg.lexical(phrases, ADMIN, 10), lite.lexical(phrases, ADMIN, 10)
            assert [r.id for r in got_rows] == [r.id for r in want_rows], phrases
            assert [r.bm25 for r in got_rows] == pytest.approx([r.bm25 for r in want_rows], rel=1e-9)
        assert pg.doc_count() == lite.doc_count() == len(CORPUS)
        # the term postings follow content changes and deletes, and a database of schema 1 gets
        # them filled by the upgrade
        changed = memory("Die Wanderung zum See: der Boiler ist kaputt.", mid=pg.list_current(
            ADMIN, limit=1, offset=0)[0].id, language="de")  # fmt: skip
        for s in (pg, lite):
            s.update(changed, None)
            s.delete_to_tombstones([s.list_current(ADMIN, limit=1, offset=3)[0].id], NOW)
        _assert_terms_equal(pg, lite)
        _back_to(pg_url, 1)
        pg.close()
        pg = opened(pg_url)
        _assert_terms_equal(pg, lite)
    finally:
        pg.close()
        lite.close()


def exported_vector(exported: dict[str, list[Record]], mid: str) -> np.ndarray:
    """The vector of memory `mid` among exported records."""
    return from_blob(bytes(next(r["embedding"] for r in exported["memories"] if r["id"] == mid)))  # type: ignore[arg-type]


def _assert_terms_equal(pg: PostgresStore, lite: SqliteStore) -> None:
    for q in QUERIES:
        terms = query_terms(q)
        got, want = pg.term_matches(terms, ADMIN, 10), lite.term_matches(terms, ADMIN, 10)
        assert list(got) == list(want), q
        for mid in want:
            assert got[mid][0] == pytest.approx(want[mid][0], rel=1e-9) and got[mid][1] == want[mid][1]


def test_content_changes_follow_into_full_text_and_counts(store: PostgresStore) -> None:
    rng = np.random.default_rng(8)
    m = memory("The cat is called Luna.")
    store.add(m, unit(rng, 16))
    assert store.doc_frequency("luna", 10) == 1
    store.update(memory("The cat is called Nala.", mid=m.id), None)
    assert (store.doc_frequency("luna", 10), store.doc_frequency("nala", 10)) == (0, 1)
    assert store.term_matches(["nala"], ADMIN, 5).keys() == {m.id}
    store.set_status(m.id, Status.ARCHIVED, None)
    assert store.term_matches(["nala"], ADMIN, 5) == {} and store.doc_count() == 1


# ---------------------------------------------------------------- the config flow's check


def test_check_accepts_the_embedded_server(pg_url: str) -> None:
    check_server(pg_url)


def test_check_rejects_what_is_no_postgres_url() -> None:
    for url in ("mysql://u:p@host/db", "sqlite:///memory.db", "host=localhost dbname=x", ""):
        with pytest.raises(ServerProblem) as caught:
            check_server(url)
        assert caught.value.reason == "invalid_url"


def test_check_cannot_connect_to_a_socket_without_server(tmp_path: Path) -> None:
    with pytest.raises(ServerProblem) as caught:
        check_server(f"postgresql://postgres:pw-secret@/postgres?host={tmp_path}")
    assert caught.value.reason == "cannot_connect" and "pw-secret" not in str(caught.value)


def _admin(postgres_server: str) -> psycopg.Connection:
    return psycopg.connect(postgres_server, autocommit=True)


def test_check_reports_a_wrong_password(postgres_server: str) -> None:
    role = "r_" + uuid.uuid4().hex[:8]
    with _admin(postgres_server) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'right-password'")
        hba = Path(conn.execute("SHOW hba_file").fetchone()[0])  # type: ignore[index]
        hba.write_text(f"local all {role} scram-sha-256\n" + hba.read_text())
        conn.execute("SELECT pg_reload_conf()")
    base, _, query = postgres_server.partition("?")
    db = base.rsplit("/", 1)[1]
    with pytest.raises(ServerProblem) as caught:
        check_server(f"postgresql://{role}:wrong-password@/{db}?{query}")
    assert caught.value.reason == "invalid_auth" and "wrong-password" not in str(caught.value)
    check_server(
        postgres.database_url(f"postgresql://{role}:right-password@/{db}?{query}", postgres.TEMPLATE)
    )


def test_check_reports_a_missing_extension_this_role_cannot_create(postgres_server: str) -> None:
    role, db = "r_" + uuid.uuid4().hex[:8], "noext_" + uuid.uuid4().hex[:8]
    with _admin(postgres_server) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"CREATE DATABASE {db} TEMPLATE template0")
        conn.execute(f"REVOKE CREATE ON DATABASE {db} FROM PUBLIC")
    query = postgres_server.partition("?")[2]
    url = f"postgresql://{role}@/{db}?{query}"
    with pytest.raises(ServerProblem) as caught:
        check_server(url)
    assert caught.value.reason == "extension_missing"
    check_server(postgres.database_url(postgres_server, db))  # the superuser may create it
    with psycopg.connect(postgres.database_url(postgres_server, db)) as inside:  # and the check left nothing
        assert inside.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'").fetchone() == (0,)


def test_check_reports_a_server_too_old(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres_check, "_server_version", lambda conn: 120022)
    with pytest.raises(ServerProblem) as caught:
        check_server(pg_url)
    assert caught.value.reason == "server_too_old"
