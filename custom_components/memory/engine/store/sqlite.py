"""The embedded SQLite store (the default backend).

One connection, one lock: every call is blocking and serialised (the HA side runs
them in an executor). WAL + synchronous=FULL so an acknowledged write survives a
crash; secure_delete so forgotten text is zeroed rather than left in free pages.
Vectors of the active embedding identity live in an in-memory VectorIndex; the
lexical leg uses FTS5 bm25().

The visibility rule is compiled in exactly two functions here: `_visibility_sql`
(for SQL) and `_visibility_mask` (for the vector index). Every read that returns
memories goes through one of them. "Current" (status active, or current at a past moment:
Visibility.as_of) is compiled once, by `_current_sql`; the mask takes it from there.
"""

from __future__ import annotations

import ctypes
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..api import StoreUnavailable
from ..embedding.base import Vectors, from_blob, to_blob
from ..models import (
    EmbeddingIdentity,
    Kind,
    Memory,
    Provenance,
    Role,
    Scope,
    Source,
    SpeakerSource,
    Status,
    Tombstone,
    TranscriptTurn,
    Voiceprint,
)
from ..terms import document_terms
from .base import Bucket, LexicalRow, Visibility
from .migrations import SchemaTooNew, migrate
from .sql import current_sql, visibility_sql
from .sqlite_transfer import SqliteTransfer
from .vectors import SCOPE_CODES, STATUS_CODES, Mask, VectorIndex, fit_basis

# From this many vectors at open the index is compact (vectors.py): the rows are projections on
# COMPACT_DIMS principal directions and choose a coarse pool of COARSE_POOL rows, re-ranked by
# exact cosine from the float32 vectors in SQLite (one IN query: ~2.4 ms for 300 rows at 100k).
# Measured at 100k on the benchmark's sentences (docs/benchmarks.md): the exact visible top 50
# of 300 real queries x 2 speakers is entirely inside the coarse top 300 at 256 dims (pool
# recall 1.0000; 0.9996 at 200 rows, 0.9992 at 192 dims). Below it the exact matrix is small
# (≤ 100 MB) and faster than the extra read.
COMPACT_MIN_ROWS = 50_000
COMPACT_DIMS = 256
COARSE_POOL = 300  # coarse rows re-ranked exactly for the semantic top-k
COARSE_POOL_SMALL = 32  # for small k: the speaker's own memories, a dedup bucket's nearest
LOAD_CHUNK = 4096  # rows per read while loading the index
DF_CACHE_MAX = 4096  # cached document frequencies (cleared on every content change, or when full)
TOUCH_FLUSH_EVERY = 256  # access counts are batched: written with the next write or at this many

_MEMORY_COLUMNS = (
    "id", "content", "kind", "language", "provenance", "scope", "owner_id", "area_id", "subject",
    "predicate", "confidence", "importance", "sensitive", "status", "superseded_by", "valid_from",
    "valid_to", "source", "source_ref", "access_count", "last_accessed_at", "created_at", "updated_at",
    "value", "speaker_id",
)  # fmt: skip
_SELECT = "SELECT " + ", ".join(f"m.{c}" for c in _MEMORY_COLUMNS) + " FROM memories m"


def _ts(value: datetime | None) -> str | None:
    """A UTC timestamp as fixed-width ISO text (sorts chronologically)."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def _chunks(cur: sqlite3.Cursor, size: int = LOAD_CHUNK) -> Iterator[list[Any]]:
    while rows := cur.fetchmany(size):
        yield rows


def _release_free_heap() -> None:
    """Give the C heap's free pages back to the OS after the bulk load (glibc's malloc_trim;
    a no-op elsewhere). The load's transient row buffers end up in the heap between long-lived
    id strings, which glibc does not return by itself: measured 20 MB at 100k rows."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return
    trim(0)


def _best(pool: list[tuple[str, float]], exact: dict[str, float], k: int) -> list[tuple[str, float]]:
    """The k pool ids with the highest exact cosine, best first (ties by id)."""
    ranked = sorted(((i, exact[i]) for i, _ in pool if i in exact), key=lambda t: (-t[1], t[0]))
    return ranked[:k]


def _dt(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _memory(row: sqlite3.Row | tuple[Any, ...]) -> Memory:
    r = dict(zip(_MEMORY_COLUMNS, row, strict=True))
    created = _dt(r["created_at"])
    updated = _dt(r["updated_at"])
    assert created is not None and updated is not None
    return Memory(
        id=r["id"],
        content=r["content"],
        kind=Kind(r["kind"]),
        language=r["language"],
        provenance=Provenance(r["provenance"]),
        scope=Scope(r["scope"]),
        owner_id=r["owner_id"],
        area_id=r["area_id"],
        created_at=created,
        updated_at=updated,
        subject=r["subject"],
        predicate=r["predicate"],
        confidence=float(r["confidence"]),
        importance=float(r["importance"]),
        sensitive=bool(r["sensitive"]),
        status=Status(r["status"]),
        superseded_by=r["superseded_by"],
        valid_from=_dt(r["valid_from"]),
        valid_to=_dt(r["valid_to"]),
        source=Source(r["source"]),
        source_ref=r["source_ref"],
        access_count=int(r["access_count"]),
        last_accessed_at=_dt(r["last_accessed_at"]),
        value=r["value"],
        speaker_id=r["speaker_id"],
    )


def _memory_values(m: Memory) -> tuple[Any, ...]:
    return (
        m.id, m.content, m.kind.value, m.language, m.provenance.value, m.scope.value, m.owner_id,
        m.area_id, m.subject, m.predicate, m.confidence, m.importance, int(m.sensitive), m.status.value,
        m.superseded_by, _ts(m.valid_from), _ts(m.valid_to), m.source.value, m.source_ref,
        m.access_count, _ts(m.last_accessed_at), _ts(m.created_at), _ts(m.updated_at), m.value,
        m.speaker_id,
    )  # fmt: skip


def _fts_put(conn: sqlite3.Connection, rowid: int, memory: Memory) -> None:
    """Index a memory's text: its words (anchors, memories_fts) and its terms (memories_terms)."""
    conn.execute("INSERT INTO memories_fts(rowid, content) VALUES (?, ?)", (rowid, memory.content))
    conn.execute(
        "INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)",
        (rowid, document_terms(memory.content, memory.language)),
    )


def _fts_drop(conn: sqlite3.Connection, rowid: int) -> None:
    conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
    conn.execute("DELETE FROM memories_terms WHERE rowid = ?", (rowid,))


def _visibility_sql(vis: Visibility, alias: str = "m") -> tuple[str, list[Any]]:
    """store/sql.py's compilation of the rule for this backend (columns opaque to the planner)."""
    return visibility_sql(vis, alias=alias, opaque=True)


def _current_sql(vis: Visibility) -> tuple[str, list[Any]]:
    """store/sql.py's compilation of "current" for this backend (moments as ISO text)."""
    return current_sql(vis, opaque=True, stamp=_ts)


_CURRENT_SQL = _current_sql(Visibility(everything=True, area_id=None, owner_id=None))[0]


class SqliteStore(SqliteTransfer):
    """MemoryStore over one SQLite file. See the module docstring for guarantees."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._identity: EmbeddingIdentity | None = None
        self._index: VectorIndex | None = None
        self._pending_touch: dict[str, tuple[int, str]] = {}
        self._doc_count = 0
        self._df_cache: dict[tuple[str, int], int] = {}  # valid for the current content only
        self._version = 0

    # ---------------------------------------------------------------- lifecycle
    def open(self, identity: EmbeddingIdentity) -> None:
        """Open (creating) the file, migrate, load the vectors of `identity`. Raises StoreUnavailable."""
        with self._lock:
            if self._conn is not None:
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA secure_delete=ON")
                conn.execute("PRAGMA foreign_keys=ON")
                self._version = migrate(conn)
            except (sqlite3.Error, OSError, SchemaTooNew) as err:
                raise StoreUnavailable(f"cannot open memory store {self.path}: {err}") from err
            self._conn = conn
            self._identity = identity
            self._load_index(identity)

    def _load_index(self, identity: EmbeddingIdentity) -> None:
        """Load the vectors of `identity` into the index: exact below COMPACT_MIN_ROWS rows,
        else compact (a fresh PCA basis: one extra read pass, ~0.3 s at 100k)."""
        conn = self._db()
        self._doc_count = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
        where = "WHERE emb_provider = ? AND emb_model = ? AND emb_dimension = ?"
        ident = (identity.provider, identity.model, identity.dimension)
        count = int(conn.execute(f"SELECT count(*) FROM memories {where}", ident).fetchone()[0])
        basis = None
        if count >= COMPACT_MIN_ROWS and identity.dimension > COMPACT_DIMS:
            gram = np.zeros((identity.dimension, identity.dimension), dtype=np.float64)
            for chunk in _chunks(conn.execute(f"SELECT embedding FROM memories {where}", ident)):
                block = np.frombuffer(b"".join(r[0] for r in chunk), dtype="<f4").reshape(len(chunk), -1)
                gram += block.T @ block
            basis = fit_basis(gram, COMPACT_DIMS)
        index = VectorIndex(identity.dimension, capacity=VectorIndex.capacity_for(count), basis=basis)
        cur = conn.execute(
            f"SELECT id, embedding, scope, owner_id, area_id, status, language FROM memories {where}", ident
        )
        for chunk in _chunks(cur):
            block = np.frombuffer(b"".join(r[1] for r in chunk), dtype="<f4").reshape(len(chunk), -1)
            for (mid, _, scope, owner, area, status, lang), vector in zip(
                chunk, index.project(block), strict=True
            ):
                index.upsert(mid, vector, scope=Scope(scope), owner_id=owner, area_id=area,
                             status=Status(status), language=lang, projected=True)  # fmt: skip
        self._index = index
        _release_free_heap()

    def close(self) -> None:
        """Flush batched access counts and close; idempotent."""
        with self._lock:
            if self._conn is None:
                return
            try:
                with self._tx():
                    pass  # flushes pending touches
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
            self._conn.close()
            self._conn = None
            self._index = None

    def schema_version(self) -> int:
        return self._version

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreUnavailable("memory store is not open")
        return self._conn

    def _idx(self) -> VectorIndex:
        if self._index is None:
            raise StoreUnavailable("memory store is not open")
        return self._index

    @contextmanager
    def _tx(self, *, memories: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, durable on return).

        memories=False for writes that change no memory's text (transcripts, access counts): the
        document-frequency cache of the recall path stays valid across every recorded turn and
        every batch of recall touches."""
        with self._lock:
            conn = self._db()
            try:
                conn.execute("BEGIN IMMEDIATE")
                if memories:
                    self._df_cache.clear()  # a memory write may change which memories hold a word
                self._flush_touches(conn)
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise StoreUnavailable(f"memory store write failed: {err}") from err
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: list[Any] | tuple[Any, ...]) -> list[Any]:
        with self._lock:
            try:
                return self._db().execute(sql, params).fetchall()
            except sqlite3.Error as err:
                raise StoreUnavailable(f"memory store read failed: {err}") from err

    # ---------------------------------------------------------------- memories
    def _identity_values(self) -> tuple[str, str, int]:
        ident = self._identity
        assert ident is not None
        return ident.provider, ident.model, ident.dimension

    def add(self, memory: Memory, vector: Vectors, *, supersedes: Sequence[str] = ()) -> None:
        """Insert a memory with its vector (of the active identity) and FTS row; committed.

        supersedes: ids of memories this one replaces, marked SUPERSEDED (superseded_by = its id,
        valid_to = its created_at) in the same transaction: a crash leaves the old fact current
        or the new one, never neither (C10)."""
        with self._tx() as conn:
            self._retire(conn, [(i, Status.SUPERSEDED) for i in supersedes], memory.id, memory.created_at)
            cols = ", ".join(_MEMORY_COLUMNS) + ", embedding, emb_provider, emb_model, emb_dimension"
            marks = ", ".join("?" * (len(_MEMORY_COLUMNS) + 4))
            cur = conn.execute(
                f"INSERT INTO memories ({cols}) VALUES ({marks})",
                (*_memory_values(memory), to_blob(vector), *self._identity_values()),
            )
            assert cur.lastrowid is not None  # an INSERT into a rowid table always sets it
            _fts_put(conn, cur.lastrowid, memory)
        self._doc_count += 1
        self._index_memory(memory, vector)
        self._index_status([(i, Status.SUPERSEDED) for i in supersedes])

    def update(self, memory: Memory, vector: Vectors | None) -> None:
        """Rewrite a memory's fields (and its vector/FTS row when given/changed); committed."""
        with self._tx() as conn:
            if not self._rewrite(conn, memory, vector):
                return
        self._index_memory(memory, vector)

    def _rewrite(self, conn: sqlite3.Connection, memory: Memory, vector: Vectors | None) -> bool:
        """UPDATE one memory's row (and FTS row when its content changed); False when it is gone."""
        row = conn.execute(
            "SELECT rowid, content, language FROM memories WHERE id = ?", (memory.id,)
        ).fetchone()
        if row is None:
            return False
        sets = ", ".join(f"{c} = ?" for c in _MEMORY_COLUMNS[1:])
        values = list(_memory_values(memory)[1:])
        if vector is not None:
            sets += ", embedding = ?, emb_provider = ?, emb_model = ?, emb_dimension = ?"
            values += [to_blob(vector), *self._identity_values()]
        conn.execute(f"UPDATE memories SET {sets} WHERE id = ?", (*values, memory.id))
        if (row[1], row[2]) != (memory.content, memory.language):
            _fts_drop(conn, row[0])
            _fts_put(conn, row[0], memory)
        return True

    def retire(self, changes: Sequence[tuple[str, Status]], by: Memory, at: datetime) -> None:
        """In one transaction: rewrite `by` (the memory that stays current, e.g. confirmed or
        approved) and give each listed memory its status (SUPERSEDED/ARCHIVED) with
        superseded_by = by.id and valid_to = at; committed."""
        with self._tx() as conn:
            if not self._rewrite(conn, by, None):
                return
            self._retire(conn, changes, by.id, at)
        self._index_memory(by, None)
        self._index_status(changes)

    @staticmethod
    def _retire(
        conn: sqlite3.Connection, changes: Sequence[tuple[str, Status]], by: str, at: datetime
    ) -> None:
        conn.executemany(
            "UPDATE memories SET status = ?, superseded_by = ?, valid_to = ? WHERE id = ?",
            [(status.value, by, _ts(at), mid) for mid, status in changes],
        )

    def _index_status(self, changes: Sequence[tuple[str, Status]]) -> None:
        index = self._idx()
        for mid, status in changes:
            if (row := index.row_of.get(mid)) is not None:
                index.status[row] = STATUS_CODES[status]

    def current_by_key(
        self, bucket: Bucket, subject: str, predicate: str, statuses: Sequence[Status]
    ) -> list[Memory]:
        """Memories of exactly this bucket and (normalised) subject/predicate with one of
        `statuses`, newest first (the memories_fact_key index)."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(
            f"{_SELECT} WHERE m.predicate = ? AND m.subject = ? AND m.scope = ? AND m.owner_id IS ? "
            f"AND m.area_id IS ? AND m.status IN ({marks}) ORDER BY m.created_at DESC, m.id",
            [predicate, subject, bucket.scope.value, bucket.owner_id, bucket.area_id,
             *(s.value for s in statuses)],
        )  # fmt: skip
        return [_memory(r) for r in rows]

    def keyed_current(self) -> list[Memory]:
        """Every ACTIVE memory with a subject and a predicate (any bucket): consolidation's input."""
        rows = self._read(
            f"{_SELECT} WHERE m.predicate IS NOT NULL AND m.subject IS NOT NULL AND {_CURRENT_SQL}", ()
        )
        return [_memory(r) for r in rows]

    def unkeyed_current(self) -> list[Memory]:
        """Every ACTIVE memory without a subject or a predicate, episodes left out (any bucket),
        oldest first: consolidation's input for facts.relation."""
        rows = self._read(
            f"{_SELECT} WHERE (m.predicate IS NULL OR m.subject IS NULL) AND m.kind != ? AND {_CURRENT_SQL} "
            "ORDER BY m.created_at, m.id",
            (Kind.EPISODE.value,),
        )
        return [_memory(r) for r in rows]

    def record_verdict(self, first_id: str, second_id: str, relation: str, at: datetime) -> None:
        """Keep the verdict on one pair (stored with the smaller id first); committed."""
        low, high = sorted((first_id, second_id))
        with self._tx(memories=False) as conn:
            conn.execute(
                "INSERT OR REPLACE INTO pair_verdicts (first_id, second_id, relation, judged_at) "
                "VALUES (?, ?, ?, ?)",
                (low, high, relation, _ts(at)),
            )

    def judged_pairs(self) -> set[frozenset[str]]:
        """The pairs with a verdict."""
        return {frozenset(r) for r in self._read("SELECT first_id, second_id FROM pair_verdicts", ())}

    def prune_inferred(self, created_before: datetime, *, dry_run: bool = False) -> list[str]:
        """Delete `inferred` memories never recalled (access_count 0, batched counts flushed
        first) created before `created_before`: row, FTS row and vector, no tombstone; committed.
        Returns their ids; dry_run: only finds them."""
        with self._tx(memories=not dry_run) as conn:
            rows = conn.execute(
                "SELECT rowid, id FROM memories WHERE provenance = ? AND access_count = 0 AND created_at < ?",
                (Provenance.INFERRED.value, _ts(created_before)),
            ).fetchall()
            if dry_run:
                return [mid for _, mid in rows]
            for rowid, _ in rows:
                _fts_drop(conn, rowid)
                conn.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
        index = self._idx()
        for _, mid in rows:
            index.remove(mid)
        self._doc_count -= len(rows)
        return [mid for _, mid in rows]

    def _index_memory(self, memory: Memory, vector: Vectors | None) -> None:
        self._idx().upsert(
            memory.id,
            vector,
            scope=memory.scope,
            owner_id=memory.owner_id,
            area_id=memory.area_id,
            status=memory.status,
            language=memory.language,
        )

    def set_status(self, memory_id: str, status: Status, superseded_by: str | None) -> None:
        """Change a memory's lifecycle status (e.g. SUPERSEDED with a reference); committed."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE memories SET status = ?, superseded_by = ? WHERE id = ?",
                (status.value, superseded_by, memory_id),
            )
        self._index_status([(memory_id, status)])

    def get(self, memory_id: str, vis: Visibility) -> Memory | None:
        """One memory (any status) if `vis` allows it."""
        where, params = _visibility_sql(vis)
        rows = self._read(f"{_SELECT} WHERE m.id = ? AND {where}", [memory_id, *params])
        return _memory(rows[0]) if rows else None

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """Current memories (active; current at vis.as_of when set) among `ids` that `vis` allows, by id."""
        if not ids:
            return {}
        where, params = _visibility_sql(vis)
        current, at = _current_sql(vis)
        marks = ", ".join("?" * len(ids))
        rows = self._read(
            f"{_SELECT} WHERE m.id IN ({marks}) AND {current} AND {where}", [*ids, *at, *params]
        )
        return {m.id: m for m in map(_memory, rows)}

    def list_current(
        self, vis: Visibility, *, limit: int, offset: int, status: Status = Status.ACTIVE
    ) -> list[Memory]:
        """Memories of `status` (default ACTIVE: current) `vis` allows, newest first."""
        where, params = _visibility_sql(vis)
        rows = self._read(
            f"{_SELECT} WHERE +m.status = ? AND {where} ORDER BY m.created_at DESC, m.id LIMIT ? OFFSET ?",
            [status.value, *params, limit, offset],
        )
        return [_memory(r) for r in rows]

    def ids_owned(self, person_id: str) -> list[str]:
        """Ids of every PRIVATE memory owned by person_id (any status)."""
        rows = self._read(
            "SELECT id FROM memories WHERE scope = ? AND owner_id = ?", (Scope.PRIVATE.value, person_id)
        )
        return [r[0] for r in rows]

    def unlink_speaker(self, person_id: str) -> int:
        """Drop person_id as the teller (speaker_id) of every memory; the memories stay.
        Returns how many; committed."""
        with self._tx() as conn:
            return conn.execute(
                "UPDATE memories SET speaker_id = NULL WHERE speaker_id = ?", (person_id,)
            ).rowcount

    def history_ids(self, memory_id: str, vis: Visibility) -> list[str]:
        """Ids of the memories memory_id replaced, recursively: SUPERSEDED/ARCHIVED ones whose
        superseded_by chain leads to it (not memory_id itself), oldest first, those `vis` allows.
        UNION (not UNION ALL) ends a cycle. A scan per chain step: no index on superseded_by,
        and forgetting and history lookups are rare."""
        return [m.id for m in self.history(memory_id, vis)]

    def history(self, memory_id: str, vis: Visibility) -> list[Memory]:
        """The memories history_ids names, whole (any status), oldest first."""
        where, params = _visibility_sql(vis)
        retired = ", ".join(f"'{s.value}'" for s in (Status.SUPERSEDED, Status.ARCHIVED))
        rows = self._read(
            "WITH RECURSIVE history(id) AS (SELECT ? UNION SELECT m.id FROM memories m "
            f"JOIN history h ON m.superseded_by = h.id WHERE m.status IN ({retired})) "
            f"{_SELECT} JOIN history h ON m.id = h.id WHERE m.id != ? AND {where} "
            "ORDER BY m.created_at, m.id",
            [memory_id, memory_id, *params],
        )
        return [_memory(r) for r in rows]

    # ---------------------------------------------------------------- vector search
    def _visibility_mask(self, vis: Visibility) -> Mask:
        """The visibility rule (the index compiles vis.grants()) plus "current only"
        (_current_mask) as a mask over index rows."""
        return self._idx().granted(vis.grants()) & self._current_mask(vis)

    def _current_mask(self, vis: Visibility) -> Mask:
        """The condition "current" over index rows: status active, from the index; with vis.as_of
        the rows of the memories _current_sql selects (the index keeps no times; looking back is
        rare)."""
        index = self._idx()
        mask: Mask
        if vis.as_of is None:
            mask = index.status[: index.size] == STATUS_CODES[Status.ACTIVE]
            return mask
        current, at = _current_sql(vis)
        ids = self._read(f"SELECT m.id FROM memories m WHERE {current}", at)
        mask = np.zeros(index.size, dtype=np.bool_)
        mask[[row for (mid,) in ids if (row := index.row_of.get(mid)) is not None]] = True
        return mask

    def _bucket_mask(self, bucket: Bucket) -> Mask:
        index = self._idx()
        n = index.size
        mask: Mask = index.scope[:n] == SCOPE_CODES[bucket.scope]
        mask &= index.owner[:n] == index.code("owner", bucket.owner_id)
        mask &= index.area[:n] == index.code("area", bucket.area_id)
        mask &= index.status[:n] == STATUS_CODES[Status.ACTIVE]
        return mask

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """Top-k current memories visible under `vis` by cosine, best first: [(id, similarity)];
        and, in the same pass, the top `owned_k` PRIVATE ones owned by vis.owner_id (the
        speaker's own memories; empty for the admin view or an unknown speaker).
        Similarities are exact cosines in both index modes."""
        with self._lock:
            index = self._idx()
            scores = index.scores(vector)
            visible = self._visibility_mask(vis)
            owned: list[tuple[str, float]] = []
            if owned_k > 0 and vis.owner_id is not None and not vis.everything:
                n = index.size
                mine = visible & (index.scope[:n] == SCOPE_CODES[Scope.PRIVATE])
                mine &= index.owner[:n] == index.code("owner", vis.owner_id)
                owned = index.top(scores, mine, owned_k if index.exact else max(owned_k, COARSE_POOL_SMALL))
            if index.exact:
                return index.top(scores, visible, k), owned
            pool = index.top(scores, visible, max(k, COARSE_POOL))
            exact = self.similarities(list(dict.fromkeys(i for i, _ in [*pool, *owned])), vector)
            return _best(pool, exact, k), _best(owned, exact, owned_k)

    def nearest_in_bucket(self, vector: Vectors, bucket: Bucket, k: int) -> list[tuple[str, float]]:
        """Top-k current memories of exactly this scope/owner/area (dedup), best first, by exact cosine."""
        with self._lock:
            index = self._idx()
            mask = self._bucket_mask(bucket)
            rows = np.flatnonzero(mask)
            if rows.size == 0:
                return []
            scores = np.zeros(index.size, dtype=np.float32)
            scores[rows] = index.scores_of(rows, vector)  # a bucket is a fraction: no full pass
            if index.exact:
                return index.top(scores, mask, k)
            pool = index.top(scores, mask, max(k, COARSE_POOL_SMALL))
            return _best(pool, self.similarities([i for i, _ in pool], vector), k)

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """Exact cosine of `vector` with each listed memory's vector (ids of another identity omitted)."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language of each listed memory in the index (from RAM, no query), by id."""
        with self._lock:
            return self._idx().languages(ids)

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories that are in the index (order kept):
        from the matrix when exact, else read from SQLite (the index holds projections)."""
        with self._lock:
            index = self._idx()
            found = [i for i in ids if i in index.row_of]
            if index.exact or not found:
                return found, index.vectors[[index.row_of[i] for i in found]]  # a copy (fancy indexing)
            blobs = dict(
                self._read(
                    f"SELECT id, embedding FROM memories WHERE id IN ({', '.join('?' * len(found))})", found
                )
            )
            found = [i for i in found if i in blobs]
            matrix = np.frombuffer(b"".join(blobs[i] for i in found), dtype="<f4")
            return found, matrix.reshape(len(found), index.dimension).astype(np.float32)

    # ---------------------------------------------------------------- lexical
    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories matching any FTS5 phrase, by BM25 (higher = better)."""
        rows = self._fts("memories_fts", "m.content", phrases, vis, limit, fts_sorts=False)
        return [LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in rows]

    def term_matches(self, terms: list[str], vis: Visibility, limit: int) -> dict[str, tuple[float, str]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        memory's terms): BM25 is FTS5 bm25() negated (higher = better, > 0); at most `limit`, best
        first."""
        rows = self._fts("memories_terms", "memories_terms.terms", terms, vis, limit, fts_sorts=True)
        return {r[0]: (float(r[1]), str(r[2])) for r in rows}

    def _fts(
        self, table: str, column: str, phrases: list[str], vis: Visibility, limit: int, *, fts_sorts: bool
    ) -> list[Any]:
        """(id, BM25 negated, column) of the current visible memories matching any phrase in the
        FTS5 table, best first, at most limit.

        fts_sorts: FTS5 sorts its matches (ORDER BY its `rank` column, bm25() by default), so the
        memories rows and `column` are read only until `limit` visible rows are found, not for
        every match; but FTS5 prepares a statement for that on every query (~0.09 ms). It pays
        off for many matches (full-text terms: ~370 at 10k, p50), not for few (rare-word anchors:
        ~45). Both give the same rows, scores and order, ties included: in scan (rowid) order, which
        SQL leaves open; test_store pins it."""
        if not phrases:
            return []
        query = " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases)
        where, params = _visibility_sql(vis)
        current, at = _current_sql(vis)
        score, order = (
            (f"-{table}.rank", f"{table}.rank") if fts_sorts else (f"-bm25({table}) AS score", "score DESC")
        )
        return self._read(
            f"SELECT m.id, {score}, {column} FROM {table} "
            f"JOIN memories m ON m.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {current} AND {where} ORDER BY {order} LIMIT ?",
            [query, *at, *params, limit],
        )

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """Conversation context: for each given memory with a source_ref, the current, visible,
        non-sensitive memories of the same source_ref at most `window` places before or after it
        in (created_at, rowid) order, as [(id, distance ≥ 1)]. Memories without a source_ref
        (or unknown ids) have none."""
        if not ids or window <= 0:
            return {}
        marks = ",".join("?" * len(ids))
        refs = [r[0] for r in self._read(
            f"SELECT DISTINCT source_ref FROM memories WHERE id IN ({marks}) AND source_ref IS NOT NULL", ids
        )]  # fmt: skip
        if not refs:
            return {}
        where, params = _visibility_sql(vis)
        current, at = _current_sql(vis)
        rows = self._read(
            f"SELECT m.id, m.source_ref, m.sensitive FROM memories m WHERE m.source_ref IN "
            f"({','.join('?' * len(refs))}) AND {current} AND {where} "
            "ORDER BY m.source_ref, m.created_at, m.rowid",
            [*refs, *at, *params],
        )
        by_ref: dict[str, list[tuple[str, bool]]] = {}
        for mid, ref, sensitive in rows:
            by_ref.setdefault(ref, []).append((mid, bool(sensitive)))
        wanted = set(ids)
        out: dict[str, list[tuple[str, int]]] = {}
        for members in by_ref.values():
            for pos, (mid, _) in enumerate(members):
                if mid not in wanted:
                    continue
                out[mid] = [
                    (members[p][0], abs(p - pos))
                    for p in range(max(0, pos - window), min(len(members), pos + window + 1))
                    if p != pos and not members[p][1]  # [1]: sensitive
                ]
        return out

    def doc_count(self) -> int:
        """Number of memory rows (all scopes and statuses)."""
        return self._doc_count

    def doc_frequency(self, term: str, cap: int) -> int:
        """How many memories contain the FTS phrase `term`, counted up to `cap` (cheap when rare).

        Cached until the next content change: a query asks for ~5 words, mostly the same ones."""
        with self._lock:
            cached = self._df_cache.get((term, cap))
            if cached is not None:
                return cached
            phrase = '"' + term.replace('"', '""') + '"'
            rows = self._read(
                "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
                (phrase, cap),
            )
            if len(self._df_cache) >= DF_CACHE_MAX:
                self._df_cache.clear()
            self._df_cache[(term, cap)] = df = int(rows[0][0])
            return df

    def touch(self, ids: list[str], at: datetime) -> None:
        """Count an access; batched and written with the next write (or every TOUCH_FLUSH_EVERY)."""
        with self._lock:
            stamp = _ts(at) or ""
            for mid in ids:
                count, _ = self._pending_touch.get(mid, (0, stamp))
                self._pending_touch[mid] = (count + 1, stamp)
            if len(self._pending_touch) >= TOUCH_FLUSH_EVERY:
                with self._tx(memories=False):
                    pass

    def _flush_touches(self, conn: sqlite3.Connection) -> None:
        if not self._pending_touch:
            return
        conn.executemany(
            "UPDATE memories SET access_count = access_count + ?, last_accessed_at = ? WHERE id = ?",
            [(n, at, mid) for mid, (n, at) in self._pending_touch.items()],
        )
        self._pending_touch.clear()

    # ---------------------------------------------------------------- forgetting
    def delete_to_tombstones(
        self, ids: list[str], at: datetime, anchors_of: Callable[[str], Collection[str]] | None = None
    ) -> list[tuple[Memory, Tombstone]]:
        """Delete memories (row and FTS entry) leaving tombstones (vector + scope + the digests
        anchors_of(content) gives, never the text).

        Afterwards the FTS index is optimised (deleted terms leave its segments) and the WAL
        checkpointed and truncated, so with secure_delete no copy of the text stays in the file.
        """
        done: list[tuple[Memory, Tombstone]] = []
        with self._tx() as conn:
            for mid in ids:
                row = conn.execute(
                    f"SELECT {', '.join('m.' + c for c in _MEMORY_COLUMNS)}, m.rowid, m.embedding, "
                    "m.emb_provider, m.emb_model, m.emb_dimension FROM memories m WHERE m.id = ?",
                    (mid,),
                ).fetchone()
                if row is None:
                    continue
                n = len(_MEMORY_COLUMNS)
                memory = _memory(row[:n])
                rowid, blob, provider, model, dim = row[n:]
                tomb = Tombstone(
                    id=memory.id,
                    scope=memory.scope,
                    owner_id=memory.owner_id,
                    area_id=memory.area_id,
                    created_at=at,
                )
                digests = " ".join(sorted(anchors_of(memory.content))) if anchors_of else ""
                conn.execute(
                    "INSERT OR REPLACE INTO tombstones (id, scope, owner_id, area_id, embedding, "
                    "emb_provider, emb_model, emb_dimension, created_at, lifted_at, anchors) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                    (tomb.id, tomb.scope.value, tomb.owner_id, tomb.area_id, blob, provider, model, dim,
                     _ts(at), digests or None),
                )  # fmt: skip
                _fts_drop(conn, rowid)
                conn.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
                self._pending_touch.pop(mid, None)
                done.append((memory, tomb))
            if done:
                conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
                conn.execute("INSERT INTO memories_terms(memories_terms) VALUES ('optimize')")
        if done:
            with self._lock:
                self._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")
            index = self._idx()
            for memory, _ in done:
                index.remove(memory.id)
            self._doc_count -= len(done)
        return done

    def tombstones_near(
        self,
        vector: Vectors,
        bucket: Bucket,
        threshold: float,
        *,
        anchors: Collection[str] = (),
        anchor_threshold: float | None = None,
    ) -> list[tuple[Tombstone, float]]:
        """Unlifted tombstones of this bucket and the active identity with cosine ≥ threshold, or
        ≥ anchor_threshold when their stored digests share one of `anchors`; best first."""
        provider, model, dim = self._identity_values()
        wanted = frozenset(anchors) if anchor_threshold is not None else frozenset()
        rows = self._read(
            "SELECT id, scope, owner_id, area_id, created_at, embedding, anchors FROM tombstones "
            "WHERE lifted_at IS NULL AND scope = ? AND owner_id IS ? AND area_id IS ? "
            "AND emb_provider = ? AND emb_model = ? AND emb_dimension = ?",
            (bucket.scope.value, bucket.owner_id, bucket.area_id, provider, model, dim),
        )
        if not rows:
            return []
        matrix = np.stack([from_blob(r[5]) for r in rows])
        sims = matrix @ vector
        out: list[tuple[Tombstone, float]] = []
        for r, sim in zip(rows, sims, strict=True):
            anchored = anchor_threshold is not None and sim >= anchor_threshold and bool(wanted)
            if sim >= threshold or (anchored and not wanted.isdisjoint((r[6] or "").split())):
                created = _dt(r[4])
                assert created is not None
                tomb = Tombstone(id=r[0], scope=Scope(r[1]), owner_id=r[2], area_id=r[3], created_at=created)
                out.append((tomb, float(sim)))
        out.sort(key=lambda t: -t[1])
        return out

    def lift_tombstones(self, ids: list[str], at: datetime) -> None:
        """Mark tombstones lifted (an explicit remember); committed."""
        if not ids:
            return
        with self._tx() as conn:
            conn.executemany("UPDATE tombstones SET lifted_at = ? WHERE id = ?", [(_ts(at), i) for i in ids])

    # ---------------------------------------------------------------- transcripts
    def add_turns(self, turns: list[TranscriptTurn]) -> None:
        """Insert verbatim turns; committed. A (conversation_id, turn) already stored raises
        StoreUnavailable (nothing of the batch written)."""
        if not turns:
            return
        with self._tx(memories=False) as conn:
            conn.executemany(_INSERT_TURN, [_turn_row(t) for t in turns])

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Append `said` after its conversation's last turn, numbering it in the same write
        transaction (concurrent callers never collide); committed. None, and nothing written,
        when it is a user turn repeating the last turn (one utterance seen through two doors)."""
        with self._tx(memories=False) as conn:
            last = conn.execute(
                "SELECT turn, role, text FROM transcript_turns WHERE conversation_id = ? "
                "ORDER BY turn DESC LIMIT 1",
                (said.conversation_id,),
            ).fetchone()
            repeated = last is not None and (last[1], last[2]) == (Role.USER.value, said.text)
            if repeated and said.role is Role.USER:
                return None
            numbered = replace(said, turn=0 if last is None else int(last[0]) + 1)
            conn.execute(_INSERT_TURN, _turn_row(numbered))
        return numbered

    def turns(self, conversation_id: str) -> list[TranscriptTurn]:
        """The conversation's turns in order ([] when unknown or purged)."""
        rows = self._read(
            "SELECT conversation_id, turn, role, text, speaker_id, area_id, language, created_at, "
            "speaker_source FROM transcript_turns WHERE conversation_id = ? ORDER BY turn",
            (conversation_id,),
        )
        return [
            TranscriptTurn(conversation_id=r[0], turn=int(r[1]), role=Role(r[2]), text=r[3],
                           speaker_id=r[4], area_id=r[5], language=r[6],
                           created_at=datetime.fromisoformat(r[7]),
                           speaker_source=SpeakerSource(r[8]) if r[8] else None)
            for r in rows
        ]  # fmt: skip

    def purge_turns(self, older_than: datetime) -> int:
        """Delete turns created before `older_than` (secure_delete zeroes them); returns how many."""
        with self._tx(memories=False) as conn:
            cur = conn.execute("DELETE FROM transcript_turns WHERE created_at < ?", (_ts(older_than),))
            return int(cur.rowcount)

    # ---------------------------------------------------------------- voiceprints (VoiceprintStore)
    def put_voiceprint(self, print_: Voiceprint) -> Voiceprint:
        """Insert or replace person_id's voiceprint (a replacement keeps the first created_at);
        committed. Returns the row as stored."""
        vector = np.ascontiguousarray(print_.vector, dtype="<f4").reshape(-1)
        with self._tx(memories=False) as conn:
            conn.execute(
                "INSERT INTO voiceprints (person_id, vector, clips, embedding, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(person_id) DO UPDATE SET vector = excluded.vector, "
                "clips = excluded.clips, embedding = excluded.embedding, updated_at = excluded.updated_at",
                (print_.person_id, vector.tobytes(), print_.clips, print_.embedding,
                 _ts(print_.created_at), _ts(print_.updated_at)),
            )  # fmt: skip
            row = conn.execute(_SELECT_PRINT + " WHERE person_id = ?", (print_.person_id,)).fetchone()
        return _voiceprint(row)

    def voiceprints(self) -> list[Voiceprint]:
        """Every stored voiceprint, by person_id."""
        return [_voiceprint(r) for r in self._read(_SELECT_PRINT + " ORDER BY person_id", ())]

    def delete_voiceprint(self, person_id: str) -> bool:
        """Delete person_id's voiceprint (secure_delete zeroes the page); True when there was one."""
        with self._tx(memories=False) as conn:
            return conn.execute("DELETE FROM voiceprints WHERE person_id = ?", (person_id,)).rowcount > 0

    # ---------------------------------------------------------------- re-embedding, stats
    def stale(self, limit: int) -> list[tuple[str, str]]:
        """(id, content) of memories whose vector is of another identity (or missing)."""
        provider, model, dim = self._identity_values()
        return [
            (r[0], r[1])
            for r in self._read(
                "SELECT id, content FROM memories WHERE embedding IS NULL OR emb_provider IS NOT ? "
                "OR emb_model IS NOT ? OR emb_dimension IS NOT ? LIMIT ?",
                (provider, model, dim, limit),
            )
        ]

    def set_vector(self, memory_id: str, vector: Vectors) -> None:
        """Replace a memory's vector with one of the active identity (re-embedding); committed."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE memories SET embedding = ?, emb_provider = ?, emb_model = ?, emb_dimension = ? "
                "WHERE id = ?",
                (to_blob(vector), *self._identity_values(), memory_id),
            )
            row = conn.execute(
                "SELECT scope, owner_id, area_id, status, language FROM memories WHERE id = ?", (memory_id,)
            ).fetchone()
        if row is not None:
            self._idx().upsert(memory_id, vector, scope=Scope(row[0]), owner_id=row[1], area_id=row[2],
                               status=Status(row[3]), language=row[4])  # fmt: skip

    def footprint(self) -> dict[str, int]:
        """In-RAM index size for diagnostics: rows, capacity (rows), index_bytes (allocated),
        dims (stored per row: the embedding dimension when exact, COMPACT_DIMS when compact)."""
        with self._lock:
            index = self._idx()
            return {"rows": index.size, "capacity": len(index.vectors), "index_bytes": index.nbytes(),
                    "dims": int(index.vectors.shape[1])}  # fmt: skip

    def counts(self) -> dict[str, int]:
        """memories, active, tombstones, stale, and scope:<name> counts (no text)."""
        provider, model, dim = self._identity_values()
        out: dict[str, int] = {"memories": 0, "active": 0}
        for scope, status, n in self._read(
            "SELECT scope, status, count(*) FROM memories GROUP BY scope, status", ()
        ):
            out["memories"] += n
            if status == Status.ACTIVE.value:
                out["active"] += n
                out[f"scope:{scope}"] = out.get(f"scope:{scope}", 0) + n
        out["tombstones"] = self._read("SELECT count(*) FROM tombstones WHERE lifted_at IS NULL", ())[0][0]
        out["stale"] = self._read(
            "SELECT count(*) FROM memories WHERE embedding IS NULL OR emb_provider IS NOT ? "
            "OR emb_model IS NOT ? OR emb_dimension IS NOT ?",
            (provider, model, dim),
        )[0][0]
        return out


_INSERT_TURN = (
    "INSERT INTO transcript_turns (conversation_id, turn, role, text, speaker_id, area_id, language, "
    "created_at, speaker_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _turn_row(t: TranscriptTurn) -> tuple[Any, ...]:
    return (t.conversation_id, t.turn, t.role.value, t.text, t.speaker_id, t.area_id, t.language,
            _ts(t.created_at), t.speaker_source.value if t.speaker_source else None)  # fmt: skip


_SELECT_PRINT = "SELECT person_id, vector, clips, embedding, created_at, updated_at FROM voiceprints"


def _voiceprint(row: tuple[Any, ...]) -> Voiceprint:
    return Voiceprint(person_id=row[0], vector=np.frombuffer(row[1], dtype="<f4").astype(np.float32),
                      clips=int(row[2]), embedding=row[3], created_at=datetime.fromisoformat(row[4]),
                      updated_at=datetime.fromisoformat(row[5]))  # fmt: skip
