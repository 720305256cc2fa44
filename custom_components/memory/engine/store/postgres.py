"""The PostgreSQL + pgvector store: SqliteStore's behaviour on a server several households share.

Blocking API over psycopg 3 async: the store owns one private event loop on one daemon thread
(LoopThread: started by open(), stopped and joined by close()); every method submits a coroutine
to it and waits with a timeout. Connections come from a psycopg_pool.AsyncConnectionPool that
checks each connection before lending it, so after a server restart it reconnects by itself.
Every connection, timeout or server error becomes StoreUnavailable, with a message that never
holds the URL or the password.

Tenancy: every table has a `household` column, set from the connection's `memory.household`
(each pooled connection is configured with the store's household) and `_mine(alias)` is the one
condition every query carries. Visibility is store/sql.py's compilation (mark "%s"), nothing else.

Vectors: `embedding vector` without a fixed dimension, with the embedding identity on each row; for
the active identity's dimension d a partial HNSW index on `embedding::vector(d)` (cosine) is made
at open, searched with `hnsw.iterative_scan = relaxed_order`, so filtered searches (visibility,
current, household) still fill their top-k; the rows are re-sorted by their exact distance.

Full text: the engine tokenises (fts_tokens: the tokens of SQLite FTS5's unicode61 tokenizer) and
the store keeps tsvectors of those tokens (positions kept) for the content (anchors: lexical) and
for terms.document_terms (term_matches); both score with FTS5's bm25() formula over the
household's rows (counts kept in memory_stats by a trigger), so ranks equal SQLite's.

Deleting: a deleted row leaves every query at once and the disk at the next (auto)vacuum;
PostgreSQL has no secure_delete (SqliteStore zeroes freed pages), its WAL and backups keep old
pages as long as the server's settings say.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import re
import threading
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import numpy as np
import psycopg
from psycopg import AsyncConnection
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool

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
from .base import TRANSFER_TABLES, Bucket, LexicalRow, Record, Visibility
from .postgres_migrations import TRANSCRIPT_LOCK_CLASS, SchemaTooNew, ensure_vector_index, migrate
from .sql import current_sql, visibility_sql
from .tombstone_rule import blocking

CONNECT_TIMEOUT = 5  # s: connecting to the server (libpq connect_timeout) and waiting for a pooled connection
CALL_TIMEOUT = 30.0  # s: one store call (a query or a transaction) before StoreUnavailable
OPEN_TIMEOUT = 600.0  # s: open() migrates and may build the HNSW index of existing rows
RECONNECT_TIMEOUT = 3600.0  # s: the pool keeps retrying a lost server this long per attempt series
POOL_MIN, POOL_MAX = 1, 4  # connections: the HA executor runs a few store calls at a time
# HNSW candidates per scan step (pgvector default 40). With relaxed iterative scans the filtered
# top-k is filled by further steps; measured in tests/engine/test_postgres_store.py (recall@10
# of a 1 % filter over 5000 rows) and by bench/recall_latency.py.
EF_SEARCH = 100
DF_CACHE_MAX = 4096  # cached document frequencies (cleared on content writes, when full, or after TTL)
DF_CACHE_TTL = 60.0  # s: other instances of the household write too; their words count after this
TOUCH_FLUSH_EVERY = 256  # access counts are batched: written with the next write or at this many
BM25_K1, BM25_B = 1.2, 0.75  # SQLite FTS5 bm25() defaults
BM25_MIN_IDF = 1e-6  # FTS5: an idf ≤ 0 (a phrase in over half the rows) counts this much
POSITION_MAX = 16383  # tsvector positions (PostgreSQL's limit); later tokens share it
# maintenance_work_mem of a bulk import's HNSW build: the graph of 100k x 512 fits (pgvector
# builds in memory and much slower once it spills); only for that transaction (SET LOCAL)
BULK_INDEX_MEMORY = "1GB"
LEXEME_MAX_BYTES = 2046  # PostgreSQL's longest lexeme; a longer token (a CJK run) is cut

# FTS5 unicode61 token characters: letters and numbers (Unicode L* and N*), everything else
# separates; lower-cased, diacritics kept (store/migrations.py FTS_TOKENIZER).
_FTS_TOKEN = re.compile(r"[^\W_]+")

_MEMORY_COLUMNS = (
    "id", "content", "kind", "language", "provenance", "scope", "owner_id", "area_id", "subject",
    "predicate", "confidence", "importance", "sensitive", "status", "superseded_by", "valid_from",
    "valid_to", "source", "source_ref", "access_count", "last_accessed_at", "created_at", "updated_at",
    "value", "speaker_id",
)  # fmt: skip
_ENUMS: dict[str, type[Enum]] = {
    "kind": Kind, "provenance": Provenance, "scope": Scope, "status": Status, "source": Source,
}  # fmt: skip
_TEXT_COLUMNS = ("content_tsv", "content_len", "terms", "terms_tsv", "terms_len")
_TIMES = frozenset({"valid_from", "valid_to", "last_accessed_at", "created_at", "updated_at",
                    "lifted_at", "judged_at"})  # fmt: skip
_VECTORS = frozenset({("memories", "embedding"), ("tombstones", "embedding")})
_TRANSFER_ORDER = {
    "memories": "created_at, id", "tombstones": "created_at, id", "transcript_turns": "conversation_id, turn",
    "voiceprints": "person_id", "pair_verdicts": "first_id, second_id",
}  # fmt: skip


def _mine(alias: str = "") -> str:
    """THE tenancy condition: the row belongs to this connection's household."""
    return f"{alias + '.' if alias else ''}household = current_setting('memory.household')"


_SELECT = "SELECT " + ", ".join(f"m.{c}" for c in _MEMORY_COLUMNS) + " FROM memories m"
_ACTIVE = current_sql(Visibility(everything=True, area_id=None, owner_id=None), mark="%s")[0]


def fts_tokens(text: str) -> list[str]:
    """The tokens SQLite FTS5's unicode61 tokenizer (remove_diacritics 0) makes of `text`:
    lower-cased runs of letters and digits ("HX-4471" -> "hx", "4471")."""
    return _FTS_TOKEN.findall(text.lower())


def _cut(token: str) -> str:
    """The token as a lexeme: cut to LEXEME_MAX_BYTES (in documents and queries alike, so a
    longer token still finds itself)."""
    return token.encode()[:LEXEME_MAX_BYTES].decode(errors="ignore")


def _lexeme(token: str) -> str:
    """tsvector/tsquery input of one token (_cut)."""
    token = _cut(token)
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def _tsvector(tokens: list[str]) -> str:
    """tsvector input text of `tokens` with their 1-based positions."""
    positions: dict[str, list[str]] = {}
    for at, token in enumerate(tokens, 1):
        positions.setdefault(token, []).append(str(min(at, POSITION_MAX)))
    return " ".join(f"{_lexeme(t)}:{','.join(p)}" for t, p in positions.items())


def _tsquery(tokens: list[str]) -> str:
    """tsquery input text of one phrase (its tokens adjacent, in order)."""
    return " <-> ".join(_lexeme(t) for t in tokens)


def _fulltext(content: str, language: str) -> tuple[str, int, str, str, int]:
    """The full-text columns of a memory (_TEXT_COLUMNS order)."""
    words = fts_tokens(content)
    terms = document_terms(content, language)
    stems = fts_tokens(terms)
    return _tsvector(words), len(words), terms, _tsvector(stems), len(stems)


def _ts(value: datetime | None) -> str | None:
    """A moment as TRANSFER_TABLES renders it: fixed-width UTC ISO text, as SQLite stores it."""
    return None if value is None else value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _memory(row: Sequence[Any]) -> Memory:
    r = dict(zip(_MEMORY_COLUMNS, row, strict=True))
    for name, enum in _ENUMS.items():
        r[name] = enum(r[name])
    for name in _TIMES.intersection(r):
        r[name] = _utc(r[name])
    return Memory(**r)


def _memory_values(m: Memory) -> list[Any]:
    return [v.value if isinstance(v, Enum) else v for v in (getattr(m, c) for c in _MEMORY_COLUMNS)]


def _redact(text: str, secret: str | None) -> str:
    return text.replace(secret, "***") if secret else text


class LoopThread:
    """One private asyncio event loop on one daemon thread: the bridge from blocking callers
    (HA executor threads) to the async driver. run() may be called from any thread but this one."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=loop.run_forever, name=self._name, daemon=True)
        self._loop = loop
        self._thread.start()

    def run[T](self, coro: Coroutine[Any, Any, T], timeout: float) -> T:
        """The coroutine's result; TimeoutError (the coroutine cancelled) after `timeout` s."""
        if self._loop is None:
            coro.close()
            raise StoreUnavailable("memory store is not open")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"no answer within {timeout:g} s") from None

    def stop(self) -> None:
        """Stop the loop and join its thread; idempotent."""
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


class PostgresStore:
    """MemoryStore (with VoiceprintStore and StoreTransfer) on PostgreSQL with pgvector; see the
    module docstring.

    url: a postgresql:// URL (libpq conninfo works too); household: the tenancy key of every row
    this store reads or writes. timeout: seconds for one call; connect_timeout: seconds to connect.
    """

    def __init__(
        self,
        url: str,
        *,
        household: str,
        timeout: float = CALL_TIMEOUT,
        connect_timeout: int = CONNECT_TIMEOUT,
        pool_size: tuple[int, int] = (POOL_MIN, POOL_MAX),
    ) -> None:
        if not household:
            raise ValueError("household must not be empty")
        self.household = household
        self._url = url
        self._timeout = timeout
        self._connect_timeout = connect_timeout
        self._pool_size = pool_size
        self._loop = LoopThread(f"memory-postgres-{household}")
        self._pool: AsyncConnectionPool | None = None
        self._identity: EmbeddingIdentity | None = None
        self._version = 0
        self._secret: str | None = None  # the URL's password: redacted from every message
        self._lock = threading.Lock()  # guards the caches and the pending touches
        self._pending_touch: dict[str, tuple[int, datetime]] = {}
        self._df_cache: dict[tuple[str, int], int] = {}
        self._doc_count: int | None = None
        self._cached_at = 0.0

    # ---------------------------------------------------------------- lifecycle
    def _conninfo(self) -> tuple[str, str | None]:
        """(conninfo with timeouts, the password to redact); ValueError when `url` is no URL."""
        try:
            params = conninfo_to_dict(self._url)
        except psycopg.ProgrammingError as err:
            raise ValueError("not a PostgreSQL URL") from err
        password = params.get("password")
        conninfo = make_conninfo(
            self._url, connect_timeout=self._connect_timeout, application_name="home-assistant-memory"
        )
        return conninfo, None if password is None else str(password)

    def open(self, identity: EmbeddingIdentity) -> None:
        """Connect, migrate, make the vector index of `identity`'s dimension, open the pool.
        Raises StoreUnavailable (unreachable, refused, schema newer than this code)."""
        if self._pool is not None:
            return
        try:
            conninfo, self._secret = self._conninfo()
        except ValueError as err:
            raise StoreUnavailable(f"cannot open memory store: {err}") from None
        self._loop.start()
        try:
            self._call(self._open(conninfo, identity), "open", timeout=OPEN_TIMEOUT)
        except BaseException:
            self._loop.stop()
            raise
        self._identity = identity

    async def _open(self, conninfo: str, identity: EmbeddingIdentity) -> None:
        async with await AsyncConnection.connect(conninfo, autocommit=True) as conn:
            self._version = await migrate(conn)
            await ensure_vector_index(conn, identity.dimension)
        pool = AsyncConnectionPool(
            conninfo,
            min_size=self._pool_size[0],
            max_size=self._pool_size[1],
            kwargs={"autocommit": True},
            configure=self._configure,
            check=AsyncConnectionPool.check_connection,
            timeout=self._connect_timeout,
            reconnect_timeout=RECONNECT_TIMEOUT,
            name="memory",
            open=False,
        )
        try:
            await pool.open(wait=True, timeout=self._connect_timeout)
        except BaseException:
            await pool.close(timeout=0)  # its connecting workers end with it
            raise
        self._pool = pool

    async def _configure(self, conn: AsyncConnection) -> None:
        """Per pooled connection: pgvector types, the household, UTC, the HNSW scan settings."""
        from pgvector.psycopg import register_vector_async  # noqa: PLC0415 - typed loosely

        await register_vector_async(conn)
        await conn.execute(
            "SELECT set_config('memory.household', %s, false), set_config('TimeZone', 'UTC', false), "
            "set_config('hnsw.ef_search', %s, false), set_config('hnsw.iterative_scan', "
            "'relaxed_order', false)",
            (self.household, str(EF_SEARCH)),
        )

    def close(self) -> None:
        """Flush batched access counts, close the pool, stop the loop thread; idempotent."""
        if self._pool is None:
            self._loop.stop()
            return
        with contextlib.suppress(StoreUnavailable):
            self._write(lambda conn: _nothing(), memories=False)  # flushes pending touches
        pool, self._pool = self._pool, None
        with contextlib.suppress(TimeoutError, psycopg.Error):
            self._loop.run(pool.close(timeout=self._connect_timeout), self._connect_timeout + 1)
        self._loop.stop()

    def schema_version(self) -> int:
        return self._version

    # ---------------------------------------------------------------- the bridge
    def _call[T](self, coro: Coroutine[Any, Any, T], what: str, *, timeout: float | None = None) -> T:
        """Run `coro` on the store's loop; driver, pool and timeout errors -> StoreUnavailable."""
        try:
            return self._loop.run(coro, self._timeout if timeout is None else timeout)
        except (psycopg.Error, OSError, TimeoutError, SchemaTooNew) as err:
            detail = _redact(f"{type(err).__name__}: {err}".splitlines()[0], self._secret)
            raise StoreUnavailable(f"memory store {what} failed: {detail}") from None

    def _run[T](
        self,
        work: Callable[[AsyncConnection], Awaitable[T]],
        what: str = "read",
        *,
        timeout: float | None = None,
    ) -> T:
        """work(conn) on a pooled connection (autocommit: each statement its own transaction)."""

        async def run() -> T:
            pool = self._pool
            if pool is None:
                raise StoreUnavailable("memory store is not open")
            async with pool.connection() as conn:
                return await work(conn)

        return self._call(run(), what, timeout=timeout)

    def _read(
        self, sql: str, params: Sequence[Any] = (), *, binary: bool = False, by_index: bool = False
    ) -> list[Any]:
        """The rows of one query. by_index: planned without sequential scans and sorts (in a
        transaction of its own, SET LOCAL), so a nearest-neighbour ORDER BY … LIMIT k walks the
        HNSW index: for k in the hundreds the planner otherwise prefers an exact scan and sort of
        every visible row (68 ms at 10k rows instead of 16; pgvector's README, "Troubleshooting")."""

        async def work(conn: AsyncConnection) -> list[Any]:
            if not by_index:
                cur = await conn.execute(sql, params, binary=binary)
                return await cur.fetchall()
            async with conn.transaction():
                await conn.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off")
                cur = await conn.execute(sql, params, binary=binary)
                return await cur.fetchall()

        return self._run(work)

    def _write[T](
        self,
        work: Callable[[AsyncConnection], Awaitable[T]],
        *,
        memories: bool = True,
        timeout: float | None = None,
    ) -> T:
        """work(conn) in one transaction, committed on return, batched access counts first;
        StoreUnavailable after `timeout` s (default: the store's call timeout).

        memories=False for writes that change no memory's text (transcripts, access counts): the
        document-frequency cache stays valid."""
        with self._lock:
            if memories:
                self._df_cache.clear()
                self._doc_count = None
            touches, self._pending_touch = self._pending_touch, {}

        async def run(conn: AsyncConnection) -> T:
            async with conn.transaction():
                if touches:
                    async with conn.cursor() as cur:
                        await cur.executemany(
                            "UPDATE memories SET access_count = access_count + %s, last_accessed_at = %s "
                            f"WHERE {_mine()} AND id = %s",
                            [(n, at, mid) for mid, (n, at) in touches.items()],
                        )
                return await work(conn)

        return self._run(run, "write", timeout=timeout)

    def _identity_values(self) -> tuple[str, str, int]:
        ident = self._identity
        if ident is None:
            raise StoreUnavailable("memory store is not open")
        return ident.provider, ident.model, ident.dimension

    # ---------------------------------------------------------------- memories
    def add(self, memory: Memory, vector: Vectors, *, supersedes: Sequence[str] = ()) -> None:
        """Insert a memory with its vector (of the active identity) and full-text columns;
        committed.

        supersedes: ids of memories this one replaces, marked SUPERSEDED (superseded_by = its id,
        valid_to = its created_at) in the same transaction: a crash leaves the old fact current
        or the new one, never neither."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await _retire(conn, [(i, Status.SUPERSEDED) for i in supersedes], memory.id, memory.created_at)
            await _insert_memory(conn, [*_memory_values(memory), _vector(vector), *ident])

        self._write(work)

    def update(self, memory: Memory, vector: Vectors | None) -> None:
        """Rewrite a memory's fields (and its vector/full-text columns when given/changed); committed."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await _rewrite(conn, memory, None if vector is None else (_vector(vector), *ident))

        self._write(work)

    def retire(self, changes: Sequence[tuple[str, Status]], by: Memory, at: datetime) -> None:
        """In one transaction: rewrite `by` (the memory that stays current, e.g. confirmed or
        approved) and give each listed memory its status (SUPERSEDED/ARCHIVED) with
        superseded_by = by.id and valid_to = at; committed."""

        async def work(conn: AsyncConnection) -> None:
            if await _rewrite(conn, by, None):
                await _retire(conn, changes, by.id, at)

        self._write(work)

    def set_status(self, memory_id: str, status: Status, superseded_by: str | None) -> None:
        """Change a memory's lifecycle status (e.g. SUPERSEDED with a reference); committed."""

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                f"UPDATE memories SET status = %s, superseded_by = %s WHERE {_mine()} AND id = %s",
                (status.value, superseded_by, memory_id),
            )

        self._write(work)

    def get(self, memory_id: str, vis: Visibility) -> Memory | None:
        """One memory (any status) if `vis` allows it."""
        where, params = visibility_sql(vis, mark="%s")
        rows = self._read(f"{_SELECT} WHERE {_mine('m')} AND m.id = %s AND {where}", [memory_id, *params])
        return _memory(rows[0]) if rows else None

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """Current memories (active; current at vis.as_of when set) among `ids` that `vis` allows, by id."""
        if not ids:
            return {}
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        rows = self._read(
            f"{_SELECT} WHERE {_mine('m')} AND m.id = ANY(%s) AND {current} AND {where}", [ids, *at, *params]
        )
        return {m.id: m for m in map(_memory, rows)}

    def list_current(
        self, vis: Visibility, *, limit: int, offset: int, status: Status = Status.ACTIVE
    ) -> list[Memory]:
        """Memories of `status` (default ACTIVE: current) `vis` allows, newest first."""
        where, params = visibility_sql(vis, mark="%s")
        rows = self._read(
            f"{_SELECT} WHERE {_mine('m')} AND m.status = %s AND {where} "
            "ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s",
            [status.value, *params, limit, offset],
        )
        return [_memory(r) for r in rows]

    def ids_owned(self, person_id: str) -> list[str]:
        """Ids of every PRIVATE memory owned by person_id (any status)."""
        rows = self._read(
            f"SELECT id FROM memories WHERE {_mine()} AND scope = %s AND owner_id = %s",
            (Scope.PRIVATE.value, person_id),
        )
        return [r[0] for r in rows]

    def unlink_speaker(self, person_id: str) -> int:
        """Drop person_id as the teller (speaker_id) of every memory; the memories stay.
        Returns how many; committed."""

        async def work(conn: AsyncConnection) -> int:
            cur = await conn.execute(
                f"UPDATE memories SET speaker_id = NULL WHERE {_mine()} AND speaker_id = %s", (person_id,)
            )
            return cur.rowcount

        return self._write(work)

    def history_ids(self, memory_id: str, vis: Visibility) -> list[str]:
        """Ids of the memories memory_id replaced, recursively: SUPERSEDED/ARCHIVED ones whose
        superseded_by chain leads to it (not memory_id itself), oldest first, those `vis` allows.
        UNION (not UNION ALL) ends a cycle."""
        return [m.id for m in self.history(memory_id, vis)]

    def history(self, memory_id: str, vis: Visibility) -> list[Memory]:
        """The memories history_ids names, whole (any status), oldest first."""
        where, params = visibility_sql(vis, mark="%s")
        retired = ", ".join(f"'{s.value}'" for s in (Status.SUPERSEDED, Status.ARCHIVED))
        rows = self._read(
            'WITH RECURSIVE history(id) AS (SELECT %s::text COLLATE "C" UNION SELECT m.id FROM memories m '
            f"JOIN history h ON m.superseded_by = h.id WHERE {_mine('m')} AND m.status IN ({retired})) "
            f"{_SELECT} JOIN history h ON m.id = h.id WHERE {_mine('m')} AND m.id != %s AND {where} "
            "ORDER BY m.created_at, m.id",
            [memory_id, memory_id, *params],
        )
        return [_memory(r) for r in rows]

    # ---------------------------------------------------------------- supersession, consolidation
    def current_by_key(
        self, bucket: Bucket, subject: str, predicate: str, statuses: Sequence[Status]
    ) -> list[Memory]:
        """Memories of exactly this bucket and (normalised) subject/predicate with one of
        `statuses`, newest first (the memories_fact_key index)."""
        rows = self._read(
            f"{_SELECT} WHERE {_mine('m')} AND m.predicate = %s AND m.subject = %s AND m.scope = %s "
            "AND m.owner_id IS NOT DISTINCT FROM %s AND m.area_id IS NOT DISTINCT FROM %s "
            "AND m.status = ANY(%s) ORDER BY m.created_at DESC, m.id",
            [predicate, subject, bucket.scope.value, bucket.owner_id, bucket.area_id,
             [s.value for s in statuses]],
        )  # fmt: skip
        return [_memory(r) for r in rows]

    def keyed_current(self) -> list[Memory]:
        """Every ACTIVE memory with a subject and a predicate (any bucket): consolidation's input."""
        rows = self._read(
            f"{_SELECT} WHERE {_mine('m')} AND m.predicate IS NOT NULL AND m.subject IS NOT NULL "
            f"AND {_ACTIVE}"
        )
        return [_memory(r) for r in rows]

    def unkeyed_current(self) -> list[Memory]:
        """Every ACTIVE memory without a subject or a predicate, episodes left out (any bucket),
        oldest first: consolidation's input for facts.relation."""
        rows = self._read(
            f"{_SELECT} WHERE {_mine('m')} AND (m.predicate IS NULL OR m.subject IS NULL) AND m.kind != %s "
            f"AND {_ACTIVE} ORDER BY m.created_at, m.id",
            (Kind.EPISODE.value,),
        )
        return [_memory(r) for r in rows]

    def record_verdict(self, first_id: str, second_id: str, relation: str, at: datetime) -> None:
        """Keep the verdict on one pair (stored with the smaller id first); committed."""
        low, high = sorted((first_id, second_id))

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                "INSERT INTO pair_verdicts (first_id, second_id, relation, judged_at) VALUES (%s, "
                "%s, %s, %s) "
                "ON CONFLICT (household, first_id, second_id) DO UPDATE SET relation = excluded.relation, "
                "judged_at = excluded.judged_at",
                (low, high, relation, at),
            )

        self._write(work, memories=False)

    def judged_pairs(self) -> set[frozenset[str]]:
        """The pairs with a verdict."""
        return {
            frozenset(r) for r in self._read(f"SELECT first_id, second_id FROM pair_verdicts WHERE {_mine()}")
        }

    def prune_inferred(self, created_before: datetime, *, dry_run: bool = False) -> list[str]:
        """Delete `inferred` memories never recalled (access_count 0, batched counts flushed
        first) created before `created_before`: row, full text and vector, no tombstone;
        committed. Returns their ids; dry_run: only finds them."""
        verb = "SELECT id FROM" if dry_run else "DELETE FROM"

        async def work(conn: AsyncConnection) -> list[str]:
            cur = await conn.execute(
                f"{verb} memories WHERE {_mine()} AND provenance = %s AND access_count = 0 AND "
                "created_at < %s" + ("" if dry_run else " RETURNING id"),
                (Provenance.INFERRED.value, created_before),
            )
            return [r[0] for r in await cur.fetchall()]

        return self._write(work, memories=not dry_run)

    # ---------------------------------------------------------------- vector search
    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """Top-k current memories visible under `vis` by cosine, best first: [(id, similarity)];
        and, in the same query, the top `owned_k` PRIVATE ones owned by vis.owner_id (the
        speaker's own memories; empty for the admin view or an unknown speaker).
        Similarities are exact cosines (1 - pgvector's cosine distance); the HNSW index (relaxed
        iterative scan) chooses the rows, which are re-sorted by them."""
        provider, model, dim = self._identity_values()
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        q = _vector(vector)
        distance = f"m.embedding::vector({dim}) <=> %s"
        leg = (
            f"SELECT {{}} AS leg, m.id, {distance} AS distance FROM memories m WHERE m.emb_dimension = {dim} "
            f"AND {_mine('m')} AND m.emb_provider = %s AND m.emb_model = %s AND {current} AND {where} {{}}"
            f"ORDER BY {distance} LIMIT %s"
        )
        sql = f"({leg.format(0, '')})"
        args: list[Any] = [q, provider, model, *at, *params, q, k]
        owned = owned_k > 0 and vis.owner_id is not None and not vis.everything
        if owned:
            sql += f" UNION ALL ({leg.format(1, 'AND m.scope = %s AND m.owner_id = %s ')})"
            args += [q, provider, model, *at, *params, Scope.PRIVATE.value, vis.owner_id, q, owned_k]
        legs: tuple[list[tuple[str, float]], list[tuple[str, float]]] = ([], [])
        for which, mid, dist in self._read(sql, args, by_index=True):
            legs[which].append((mid, 1.0 - float(dist)))
        top, mine = (sorted(leg_, key=lambda t: (-t[1], t[0])) for leg_ in legs)
        return top[:k], mine[:owned_k]

    def nearest_in_bucket(self, vector: Vectors, bucket: Bucket, k: int) -> list[tuple[str, float]]:
        """Top-k current memories of exactly this scope/owner/area (dedup), best first, by exact
        cosine: a plain filtered scan of the bucket (no approximate index)."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            "SELECT m.id, 1 - (m.embedding <=> %s) AS sim FROM memories m "
            f"WHERE {_mine('m')} AND m.scope = %s AND m.owner_id IS NOT DISTINCT FROM %s "
            "AND m.area_id IS NOT DISTINCT FROM %s AND m.status = %s AND m.emb_provider = %s "
            "AND m.emb_model = %s AND m.emb_dimension = %s ORDER BY sim DESC, m.id LIMIT %s",
            [_vector(vector), bucket.scope.value, bucket.owner_id, bucket.area_id, Status.ACTIVE.value,
             provider, model, dim, k],
        )  # fmt: skip
        return [(mid, float(sim)) for mid, sim in rows]

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """Exact cosine of `vector` with each listed memory's vector (ids of another identity omitted)."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language of each listed memory with a vector of the active identity, by id."""
        if not ids:
            return {}
        provider, model, dim = self._identity_values()
        rows = self._read(
            f"SELECT id, language FROM memories WHERE {_mine()} AND id = ANY(%s) AND emb_provider = %s "
            "AND emb_model = %s AND emb_dimension = %s",
            [ids, provider, model, dim],
        )
        return dict(rows)

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories of the active identity (order kept)."""
        provider, model, dim = self._identity_values()
        if not ids:
            return [], np.zeros((0, dim), dtype=np.float32)
        rows = self._read(
            f"SELECT id, embedding FROM memories WHERE {_mine()} AND id = ANY(%s) AND emb_provider = %s "
            "AND emb_model = %s AND emb_dimension = %s AND embedding IS NOT NULL",
            [ids, provider, model, dim],
            binary=True,
        )
        got = dict(rows)
        found = [i for i in dict.fromkeys(ids) if i in got]
        if not found:
            return [], np.zeros((0, dim), dtype=np.float32)
        return found, np.stack([_array(got[i]) for i in found])

    # ---------------------------------------------------------------- lexical
    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories containing any phrase (lexical.fts_phrases: FTS5 phrase
        syntax, tokenised like FTS5), by BM25 over the content (higher = better)."""
        rows = self._bm25("content", phrases, vis, limit, shown="m.content")
        return [LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in rows]

    def term_matches(self, terms: list[str], vis: Visibility, limit: int) -> dict[str, tuple[float, str]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        memory's terms): FTS5's bm25() over the household's rows, negated (higher = better, > 0);
        at most `limit`, best first."""
        rows = self._term_bm25(terms, vis, limit)
        return {r[0]: (float(r[1]), str(r[2])) for r in rows}

    def _term_bm25(self, terms: list[str], vis: Visibility, limit: int) -> list[Any]:
        """(id, BM25, terms) of the current visible memories sharing any term, best first, at most
        `limit`: _bm25's formula over `terms`, read from the memory_terms postings.

        A one-token term's document frequency and per-memory frequencies are its postings (an
        index range, no tsvector is unnested); a term FTS5 splits into several tokens (a phrase)
        is matched on terms_tsv as _bm25 does."""
        split = [[_cut(t) for t in tokens] for p in terms if (tokens := fts_tokens(p))]
        split = list({" ".join(t): t for t in split}.values())
        if not split:
            return []
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        household = "current_setting('memory.household')"
        sql = f"""
        WITH stats AS (
            SELECT docs::float8 AS n, terms_tokens::float8 / greatest(docs, 1) AS avgdl
            FROM memory_stats WHERE {_mine()}
        ), df AS MATERIALIZED (
            SELECT p.lexemes, p.query, (CASE WHEN strpos(p.lexemes, ' ') = 0
                THEN (SELECT count(*) FROM memory_terms t WHERE t.household = {household}
                      AND t.term = p.lexemes)
                ELSE (SELECT count(*) FROM memories d WHERE {_mine("d")} AND d.terms_tsv @@ p.query::tsquery)
                END)::float8 AS n
            FROM unnest(%s::text[], %s::text[]) AS p(lexemes, query)
        ), w AS MATERIALIZED (
            SELECT df.lexemes, string_to_array(df.lexemes, ' ') AS phrase, df.query,
                   CASE WHEN x.idf <= 0 THEN {BM25_MIN_IDF}::float8 ELSE x.idf END AS idf
            FROM df CROSS JOIN stats
            CROSS JOIN LATERAL (SELECT ln((stats.n - df.n + 0.5::float8) / (df.n + 0.5::float8)) AS idf) x
        ), f AS (
            SELECT t.id, t.seq, t.len, w.idf, t.tf::float8 AS tf FROM w JOIN memory_terms t
                ON t.household = {household} AND t.term = w.lexemes WHERE cardinality(w.phrase) = 1
            UNION ALL
            SELECT d.id, d.seq, d.terms_len, w.idf, memory_phrase_tf(d.terms_tsv, w.phrase)::float8
                FROM w JOIN memories d ON {_mine("d")} AND d.terms_tsv @@ w.query::tsquery
                WHERE cardinality(w.phrase) > 1
        ), scored AS MATERIALIZED (
            SELECT f.id, f.seq, sum(f.idf * (f.tf * {BM25_K1 + 1}::float8) / (f.tf + {BM25_K1}::float8 *
                   ({1 - BM25_B}::float8 + {BM25_B}::float8 * f.len / stats.avgdl))) AS score
            FROM f CROSS JOIN stats WHERE f.tf > 0 GROUP BY f.id, f.seq
        )
        SELECT s.id, s.score, m.terms FROM (SELECT * FROM scored ORDER BY score DESC, seq) s
        JOIN LATERAL (SELECT m.terms FROM memories m WHERE m.household = {household} AND m.id = s.id
                      AND {current} AND {where}) m ON true
        ORDER BY s.score DESC, s.seq LIMIT %s"""
        return self._read(
            sql, [[" ".join(t) for t in split], [_tsquery(t) for t in split], *at, *params, limit]
        )

    def _bm25(self, column: str, phrases: list[str], vis: Visibility, limit: int, *, shown: str) -> list[Any]:
        """(id, BM25, shown) of the current visible memories matching any phrase on `column`'s
        tsvector, best first (ties in insertion order, as FTS5's rowid order), at most `limit`.

        BM25 as FTS5's bm25(): per phrase idf = ln((N - n + 0.5) / (n + 0.5)) (BM25_MIN_IDF when
        ≤ 0), N the household's rows, n those containing the phrase; tf the phrase's occurrences;
        |D| the row's tokens over their household mean."""
        split = [tokens for p in phrases if (tokens := fts_tokens(p))]
        split = list({" ".join(t): t for t in split}.values())
        if not split:
            return []
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        tsv, length = f"{column}_tsv", f"{column}_len"
        sql = f"""
        WITH stats AS (
            SELECT docs::float8 AS n, {column}_tokens::float8 / greatest(docs, 1) AS avgdl
            FROM memory_stats WHERE {_mine()}
        ), w AS (
            SELECT string_to_array(p.lexemes, ' ') AS phrase,
                   CASE WHEN x.idf <= 0 THEN {BM25_MIN_IDF}::float8 ELSE x.idf END AS idf
            FROM unnest(%s::text[], %s::text[]) AS p(lexemes, query)
            CROSS JOIN stats
            CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM memories d
                                WHERE {_mine("d")} AND d.{tsv} @@ p.query::tsquery) c
            CROSS JOIN LATERAL (SELECT ln((stats.n - c.n + 0.5::float8) / (c.n + 0.5::float8)) AS idf) x
        ), hit AS (
            SELECT m.id, m.seq, m.{tsv} AS tsv, m.{length} AS len, {shown} AS shown FROM memories m
            WHERE {_mine("m")} AND m.{tsv} @@ %s::tsquery AND {current} AND {where}
        )
        SELECT hit.id, sum(w.idf * (f.tf * {BM25_K1 + 1}::float8) / (f.tf + {BM25_K1}::float8 *
               ({1 - BM25_B}::float8 + {BM25_B}::float8 * hit.len / stats.avgdl))) AS score, hit.shown
        FROM hit CROSS JOIN stats
        CROSS JOIN LATERAL unnest(hit.tsv) AS u(lexeme, positions, weights)
        JOIN w ON w.phrase[1] = u.lexeme
        CROSS JOIN LATERAL (SELECT (CASE WHEN cardinality(w.phrase) = 1 THEN cardinality(u.positions)
                            ELSE memory_phrase_tf(hit.tsv, w.phrase) END)::float8 AS tf) f
        WHERE f.tf > 0
        GROUP BY hit.id, hit.seq, hit.shown ORDER BY score DESC, hit.seq LIMIT %s"""
        queries = [_tsquery(t) for t in split]
        return self._read(
            sql,
            [[" ".join(t) for t in split], queries, " | ".join(f"({q})" for q in queries),
             *at, *params, limit],
        )  # fmt: skip

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """Conversation context: for each given memory with a source_ref, the current, visible,
        non-sensitive memories of the same source_ref at most `window` places before or after it
        in (created_at, insertion) order, as [(id, distance ≥ 1)]. Memories without a source_ref
        (or unknown ids) have none."""
        if not ids or window <= 0:
            return {}
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        rows = self._read(
            f"SELECT m.id, m.source_ref, m.sensitive FROM memories m WHERE {_mine('m')} AND m.source_ref IN "
            f"(SELECT s.source_ref FROM memories s WHERE {_mine('s')} AND s.id = ANY(%s) "
            f"AND s.source_ref IS NOT NULL) AND {current} AND {where} "
            "ORDER BY m.source_ref, m.created_at, m.seq",
            [ids, *at, *params],
        )
        by_ref: dict[str, list[tuple[str, bool]]] = {}
        for mid, ref, sensitive in rows:
            by_ref.setdefault(ref, []).append((mid, bool(sensitive)))
        wanted = set(ids)
        out: dict[str, list[tuple[str, int]]] = {}
        for members in by_ref.values():
            for pos, (mid, _) in enumerate(members):
                if mid in wanted:
                    lo, hi = max(0, pos - window), min(len(members), pos + window + 1)
                    out[mid] = [(members[p][0], abs(p - pos)) for p in range(lo, hi)
                                if p != pos and not members[p][1]]  # fmt: skip
        return out

    def _cache_fresh(self) -> None:
        """Drop the cached counts when older than DF_CACHE_TTL (other instances write too)."""
        now = time.monotonic()
        if now - self._cached_at > DF_CACHE_TTL:
            self._df_cache.clear()
            self._doc_count = None
            self._cached_at = now

    def doc_count(self) -> int:
        """Number of the household's memory rows (all scopes and statuses); cached like doc_frequency."""
        with self._lock:
            self._cache_fresh()
            if self._doc_count is not None:
                return self._doc_count
        rows = self._read(f"SELECT docs FROM memory_stats WHERE {_mine()}")
        count = int(rows[0][0]) if rows else 0
        with self._lock:
            self._doc_count = count
        return count

    def doc_frequency(self, term: str, cap: int) -> int:
        """How many memories contain the FTS phrase `term`, counted up to `cap` (cheap when rare).

        Cached until the next content change (or DF_CACHE_TTL): a query asks for ~5 words, mostly
        the same ones."""
        with self._lock:
            self._cache_fresh()
            cached = self._df_cache.get((term, cap))
            if cached is not None:
                return cached
        tokens = fts_tokens(term)
        if not tokens:
            return 0
        rows = self._read(
            f"SELECT count(*) FROM (SELECT 1 FROM memories WHERE {_mine()} AND content_tsv @@ %s::tsquery "
            "LIMIT %s) s",
            (_tsquery(tokens), cap),
        )
        df = int(rows[0][0])
        with self._lock:
            if len(self._df_cache) >= DF_CACHE_MAX:
                self._df_cache.clear()
            self._df_cache[(term, cap)] = df
        return df

    def touch(self, ids: list[str], at: datetime) -> None:
        """Count an access; batched and written with the next write (or every TOUCH_FLUSH_EVERY)."""
        with self._lock:
            for mid in ids:
                count, _ = self._pending_touch.get(mid, (0, at))
                self._pending_touch[mid] = (count + 1, at)
            full = len(self._pending_touch) >= TOUCH_FLUSH_EVERY
        if full:
            self._write(lambda conn: _nothing(), memories=False)

    # ---------------------------------------------------------------- forgetting
    def delete_to_tombstones(
        self, ids: list[str], at: datetime, anchors_of: Callable[[str], Collection[str]] | None = None
    ) -> list[tuple[Memory, Tombstone]]:
        """Delete memories (row, full text, vector) leaving tombstones (vector + scope + the digests
        anchors_of(content) gives, never the text); committed.

        The rows leave every query at once and the disk at the next (auto)vacuum (PostgreSQL has
        no secure_delete; see the module docstring)."""
        with self._lock:
            for mid in ids:
                self._pending_touch.pop(mid, None)

        async def work(conn: AsyncConnection) -> list[tuple[Memory, Tombstone]]:
            cur = await conn.execute(
                f"DELETE FROM memories m WHERE {_mine('m')} AND m.id = ANY(%s) RETURNING "
                + ", ".join(f"m.{c}" for c in _MEMORY_COLUMNS)
                + ", m.embedding, m.emb_provider, m.emb_model, m.emb_dimension",
                (ids,),
            )
            n = len(_MEMORY_COLUMNS)
            gone = {row[0]: row for row in await cur.fetchall()}
            done = []
            for mid in ids:
                if (row := gone.pop(mid, None)) is None:
                    continue
                memory = _memory(row[:n])
                tomb = Tombstone(id=memory.id, scope=memory.scope, owner_id=memory.owner_id,
                                 area_id=memory.area_id, created_at=at)  # fmt: skip
                digests = " ".join(sorted(anchors_of(memory.content))) if anchors_of else ""
                await conn.execute(
                    "INSERT INTO tombstones (id, scope, owner_id, area_id, embedding, emb_provider, "
                    "emb_model, "
                    "emb_dimension, created_at, lifted_at, anchors) VALUES (%s, %s, %s, %s, %s, %s, "
                    "%s, %s, %s, "
                    "NULL, %s) ON CONFLICT (household, id) DO UPDATE SET scope = excluded.scope, "
                    "owner_id = excluded.owner_id, area_id = excluded.area_id, embedding = "
                    "excluded.embedding, "
                    "emb_provider = excluded.emb_provider, emb_model = excluded.emb_model, "
                    "emb_dimension = excluded.emb_dimension, created_at = excluded.created_at, "
                    "lifted_at = NULL, anchors = excluded.anchors",
                    (tomb.id, tomb.scope.value, tomb.owner_id, tomb.area_id, *row[n:], at, digests or None),
                )
                done.append((memory, tomb))
            return done

        return self._write(work)

    def tombstones_near(
        self,
        vector: Vectors,
        bucket: Bucket,
        threshold: float,
        *,
        anchors: Collection[str] = (),
        anchor_threshold: float | None = None,
    ) -> list[tuple[Tombstone, float]]:
        """Unlifted tombstones of this bucket and the active identity that block (store/
        tombstone_rule.py: cosine ≥ threshold, or ≥ anchor_threshold sharing one of `anchors`);
        best first. Cosines from the float32 vectors, as SqliteStore computes them."""
        rows = self._read(
            "SELECT id, scope, owner_id, area_id, created_at, embedding, anchors FROM tombstones "
            f"WHERE {_mine()} AND lifted_at IS NULL AND scope = %s AND owner_id IS NOT DISTINCT FROM %s "
            "AND area_id IS NOT DISTINCT FROM %s AND emb_provider = %s AND emb_model = %s "
            "AND emb_dimension = %s",
            (bucket.scope.value, bucket.owner_id, bucket.area_id, *self._identity_values()),
            binary=True,
        )
        if not rows:
            return []
        sims = np.stack([_array(r[5]) for r in rows]) @ vector
        found = blocking(sims, [r[6] for r in rows], threshold, anchors, anchor_threshold)
        return [(_tombstone(rows[i]), sim) for i, sim in found]

    def lift_tombstones(self, ids: list[str], at: datetime) -> None:
        """Mark tombstones lifted (an explicit remember); committed."""
        if not ids:
            return

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                f"UPDATE tombstones SET lifted_at = %s WHERE {_mine()} AND id = ANY(%s)", (at, ids)
            )

        self._write(work)

    # ---------------------------------------------------------------- transcripts
    def add_turns(self, turns: list[TranscriptTurn]) -> None:
        """Insert verbatim turns; committed. A (conversation_id, turn) already stored raises
        StoreUnavailable (nothing of the batch written)."""
        if not turns:
            return

        async def work(conn: AsyncConnection) -> None:
            async with conn.cursor() as cur:
                await cur.executemany(_INSERT_TURN, [_turn_row(t) for t in turns])

        self._write(work, memories=False)

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Append `said` after its conversation's last turn, numbering it in the same transaction
        under a lock on the conversation (concurrent callers, other instances too, never collide);
        committed. None, and nothing written, when it is a user turn repeating the last turn (one
        utterance seen through two doors)."""

        async def work(conn: AsyncConnection) -> TranscriptTurn | None:
            await conn.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(current_setting('memory.household') || "
                "'/' || %s))",
                (TRANSCRIPT_LOCK_CLASS, said.conversation_id),
            )
            cur = await conn.execute(
                f"SELECT turn, role, text FROM transcript_turns WHERE {_mine()} AND conversation_id = %s "
                "ORDER BY turn DESC LIMIT 1",
                (said.conversation_id,),
            )
            last = await cur.fetchone()
            repeated = last is not None and (last[1], last[2]) == (Role.USER.value, said.text)
            if repeated and said.role is Role.USER:
                return None
            numbered = replace(said, turn=0 if last is None else int(last[0]) + 1)
            await conn.execute(_INSERT_TURN, _turn_row(numbered))
            return numbered

        return self._write(work, memories=False)

    def turns(self, conversation_id: str) -> list[TranscriptTurn]:
        """The conversation's turns in order ([] when unknown or purged)."""
        rows = self._read(
            "SELECT conversation_id, turn, role, text, speaker_id, area_id, language, created_at, "
            f"speaker_source FROM transcript_turns WHERE {_mine()} AND conversation_id = %s ORDER BY turn",
            (conversation_id,),
        )
        return [
            TranscriptTurn(conversation_id=r[0], turn=int(r[1]), role=Role(r[2]), text=r[3],
                           speaker_id=r[4], area_id=r[5], language=r[6], created_at=r[7].astimezone(UTC),
                           speaker_source=SpeakerSource(r[8]) if r[8] else None)
            for r in rows
        ]  # fmt: skip

    def purge_turns(self, older_than: datetime) -> int:
        """Delete turns created before `older_than` (gone from queries at once, from disk at the
        next vacuum); returns how many."""

        async def work(conn: AsyncConnection) -> int:
            cur = await conn.execute(
                f"DELETE FROM transcript_turns WHERE {_mine()} AND created_at < %s", (older_than,)
            )
            return cur.rowcount

        return self._write(work, memories=False)

    # ---------------------------------------------------------------- voiceprints (VoiceprintStore)
    def put_voiceprint(self, print_: Voiceprint) -> Voiceprint:
        """Insert or replace person_id's voiceprint (a replacement keeps the first created_at);
        committed. Returns the row as stored."""
        vector = np.ascontiguousarray(print_.vector, dtype="<f4").reshape(-1).tobytes()

        async def work(conn: AsyncConnection) -> Voiceprint:
            cur = await conn.execute(
                "INSERT INTO voiceprints (person_id, vector, clips, embedding, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (household, person_id) DO UPDATE SET "
                "vector = excluded.vector, clips = excluded.clips, embedding = excluded.embedding, "
                "updated_at = excluded.updated_at RETURNING " + _PRINT_COLUMNS,
                (
                    print_.person_id,
                    vector,
                    print_.clips,
                    print_.embedding,
                    print_.created_at,
                    print_.updated_at,
                ),
            )
            row = await cur.fetchone()
            assert row is not None  # INSERT … RETURNING returns the row
            return _voiceprint(row)

        return self._write(work, memories=False)

    def voiceprints(self) -> list[Voiceprint]:
        """Every stored voiceprint, by person_id."""
        rows = self._read(f"SELECT {_PRINT_COLUMNS} FROM voiceprints WHERE {_mine()} ORDER BY person_id")
        return [_voiceprint(r) for r in rows]

    def delete_voiceprint(self, person_id: str) -> bool:
        """Delete person_id's voiceprint (gone from queries at once, from disk at the next vacuum);
        True when there was one."""

        async def work(conn: AsyncConnection) -> bool:
            cur = await conn.execute(
                f"DELETE FROM voiceprints WHERE {_mine()} AND person_id = %s", (person_id,)
            )
            return cur.rowcount > 0

        return self._write(work, memories=False)

    # ---------------------------------------------------------------- re-embedding, stats
    def stale(self, limit: int) -> list[tuple[str, str]]:
        """(id, content) of memories whose vector is of another identity (or missing)."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            f"SELECT id, content FROM memories WHERE {_mine()} AND (embedding IS NULL "
            "OR emb_provider IS DISTINCT FROM %s OR emb_model IS DISTINCT FROM %s "
            "OR emb_dimension IS DISTINCT FROM %s) ORDER BY seq LIMIT %s",
            (provider, model, dim, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def set_vector(self, memory_id: str, vector: Vectors) -> None:
        """Replace a memory's vector with one of the active identity (re-embedding); committed."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                "UPDATE memories SET embedding = %s, emb_provider = %s, emb_model = %s, emb_dimension = %s "
                f"WHERE {_mine()} AND id = %s",
                (_vector(vector), *ident, memory_id),
            )

        self._write(work)

    def counts(self) -> dict[str, int]:
        """memories, active, tombstones, stale, and scope:<name> counts (no text)."""
        provider, model, dim = self._identity_values()
        out: dict[str, int] = {"memories": 0, "active": 0}
        rows = self._read(
            f"SELECT 'm', scope, status, count(*) FROM memories WHERE {_mine()} GROUP BY scope, status "
            f"UNION ALL SELECT 't', NULL, NULL, count(*) FROM tombstones WHERE {_mine()} "
            "AND lifted_at IS NULL "
            f"UNION ALL SELECT 's', NULL, NULL, count(*) FROM memories WHERE {_mine()} "
            "AND (embedding IS NULL "
            "OR emb_provider IS DISTINCT FROM %s OR emb_model IS DISTINCT FROM %s "
            "OR emb_dimension IS DISTINCT FROM %s)",
            (provider, model, dim),
        )  # fmt: skip
        for kind, scope, status, n in rows:
            if kind == "t":
                out["tombstones"] = n
            elif kind == "s":
                out["stale"] = n
            else:
                out["memories"] += n
                if status == Status.ACTIVE.value:
                    out["active"] += n
                    out[f"scope:{scope}"] = out.get(f"scope:{scope}", 0) + n
        return out

    # ---------------------------------------------------------------- transfer (StoreTransfer)
    def export_records(self, table: str, batch: int = 1000) -> Iterator[list[Record]]:
        """Every row of `table` (a TRANSFER_TABLES key) of this household as records with exactly
        its columns (timestamps, vectors and booleans rendered as TRANSFER_TABLES says), in batches
        of at most `batch`, in a stable order (memories by created_at, id; ids bytewise). Batched
        access counts are flushed first."""
        columns = TRANSFER_TABLES[table]
        self._write(lambda conn: _nothing(), memories=False)
        vectors = [(table, c) in _VECTORS for c in columns]
        sql = (
            f"SELECT {', '.join(columns)} FROM {table} WHERE {_mine()} "
            f"ORDER BY {_TRANSFER_ORDER[table]} LIMIT %s OFFSET %s"
        )
        offset = 0
        while True:
            rows = self._read(sql, (batch, offset), binary=True)
            if not rows:
                return
            yield [
                {c: _exported(v, vector=isv) for c, v, isv in zip(columns, row, vectors, strict=True)}
                for row in rows
            ]
            offset += len(rows)

    def import_records(self, table: str, rows: Sequence[Record]) -> None:
        """Insert exported rows as they are into this household (ids, statuses, vectors and their
        identity kept; full-text columns built from them); committed. A row whose key is already
        stored raises StoreUnavailable and nothing of the batch is written."""
        columns = list(TRANSFER_TABLES[table])
        values = [[_imported(table, c, r[c]) for c in columns] for r in rows]
        if table == "memories":
            for record, row in zip(rows, values, strict=True):
                row.extend(_fulltext(str(record["content"]), str(record["language"])))
            columns += _TEXT_COLUMNS
        if not values:
            return

        async def copy_rows(conn: AsyncConnection) -> None:
            async with (
                conn.cursor() as cur,
                cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
            ):
                for row in values:
                    await copy.write_row(row)

        async def work(conn: AsyncConnection) -> None:
            if table == "memories" and await _no_memories(conn):
                await _without_vector_indexes(conn, copy_rows)
            else:
                await copy_rows(conn)

        self._write(work, memories=table == "memories", timeout=max(self._timeout, OPEN_TIMEOUT))

    def is_empty(self) -> bool:
        """True when no TRANSFER_TABLES table holds a row of this household."""
        union = " UNION ALL ".join(f"(SELECT 1 FROM {t} WHERE {_mine()} LIMIT 1)" for t in TRANSFER_TABLES)
        return not self._read(union)


async def _no_memories(conn: AsyncConnection) -> bool:
    """True when `memories` holds no row of any household; then it stays locked (ACCESS
    EXCLUSIVE) until the transaction ends, so no other instance writes in between."""
    cur = await conn.execute("SELECT EXISTS (SELECT 1 FROM memories)")
    if (row := await cur.fetchone()) is None or row[0]:
        return False
    await conn.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")
    cur = await conn.execute("SELECT EXISTS (SELECT 1 FROM memories)")
    return (row := await cur.fetchone()) is not None and not row[0]


async def _without_vector_indexes(
    conn: AsyncConnection, work: Callable[[AsyncConnection], Awaitable[None]]
) -> None:
    """work(conn) with the HNSW indexes of `memories` dropped, then built again over what it
    wrote, in the caller's transaction: building once over n rows takes a fraction of n inserts
    into the graph (bench: see BULK_INDEX_MEMORY). Only for an empty table (_no_memories), whose
    lock keeps every other writer out meanwhile."""
    cur = await conn.execute(
        "SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
        "JOIN pg_am a ON a.oid = i.relam WHERE x.indrelid = 'memories'::regclass AND a.amname = 'hnsw'"
    )
    indexes = await cur.fetchall()
    for name, _ in indexes:
        await conn.execute(f'DROP INDEX "{name}"')
    await work(conn)
    await conn.execute(f"SET LOCAL maintenance_work_mem = '{BULK_INDEX_MEMORY}'")
    for _, definition in indexes:
        await conn.execute(definition)


async def _nothing() -> None:
    """An empty transaction's work (flushes the batched access counts)."""


def _array(value: Any) -> Vectors:
    """A stored vector as float32[d] (pgvector loads binary results as its Vector type)."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def _vector(vector: Vectors) -> Any:
    """A vector as the driver sends it (pgvector's adapter of numpy float32 arrays)."""
    return np.asarray(vector, dtype=np.float32).reshape(-1)


async def _insert_memory(conn: AsyncConnection, values: list[Any]) -> None:
    """INSERT one memory: _MEMORY_COLUMNS values, embedding, emb_provider, emb_model,
    emb_dimension; the full-text columns are made here from its content and language."""
    text = _fulltext(values[1], values[3])
    cols = [*_MEMORY_COLUMNS, "embedding", "emb_provider", "emb_model", "emb_dimension", *_TEXT_COLUMNS]
    await conn.execute(f"INSERT INTO memories ({', '.join(cols)}) VALUES ({_marks(cols)})", [*values, *text])


def _marks(columns: Sequence[str]) -> str:
    """The VALUES placeholders of `columns` (tsvector columns cast from their input text)."""
    return ", ".join("%s::tsvector" if c.endswith("_tsv") else "%s" for c in columns)


async def _rewrite(conn: AsyncConnection, memory: Memory, embedding: tuple[Any, ...] | None) -> bool:
    """UPDATE one memory's row (and full text when content or language changed, the vector and its
    identity when given); False when it is gone."""
    sets = [f"{c} = %s" for c in _MEMORY_COLUMNS[1:]]
    values = _memory_values(memory)[1:]
    if embedding is not None:
        sets += ["embedding = %s", "emb_provider = %s", "emb_model = %s", "emb_dimension = %s"]
        values += list(embedding)
    cur = await conn.execute(
        f"SELECT content, language FROM memories WHERE {_mine()} AND id = %s FOR UPDATE", (memory.id,)
    )
    row = await cur.fetchone()
    if row is None:
        return False
    if (row[0], row[1]) != (memory.content, memory.language):
        sets += ["content_tsv = %s::tsvector", "content_len = %s", "terms = %s", "terms_tsv = %s::tsvector",
                 "terms_len = %s"]  # fmt: skip
        values += list(_fulltext(memory.content, memory.language))
    await conn.execute(
        f"UPDATE memories SET {', '.join(sets)} WHERE {_mine()} AND id = %s", [*values, memory.id]
    )
    return True


async def _retire(
    conn: AsyncConnection, changes: Sequence[tuple[str, Status]], by: str, at: datetime
) -> None:
    if not changes:
        return
    async with conn.cursor() as cur:
        await cur.executemany(
            f"UPDATE memories SET status = %s, superseded_by = %s, valid_to = %s WHERE {_mine()} AND id = %s",
            [(status.value, by, at, mid) for mid, status in changes],
        )


_INSERT_TURN = (
    "INSERT INTO transcript_turns (conversation_id, turn, role, text, speaker_id, area_id, language, "
    "created_at, speaker_source) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


def _turn_row(t: TranscriptTurn) -> tuple[Any, ...]:
    return (t.conversation_id, t.turn, t.role.value, t.text, t.speaker_id, t.area_id, t.language,
            t.created_at, t.speaker_source.value if t.speaker_source else None)  # fmt: skip


def _tombstone(row: Sequence[Any]) -> Tombstone:
    """A tombstone from (id, scope, owner_id, area_id, created_at, ...)."""
    return Tombstone(id=row[0], scope=Scope(row[1]), owner_id=row[2], area_id=row[3],
                     created_at=row[4].astimezone(UTC))  # fmt: skip


_PRINT_COLUMNS = "person_id, vector, clips, embedding, created_at, updated_at"


def _voiceprint(row: Sequence[Any]) -> Voiceprint:
    return Voiceprint(person_id=row[0], vector=np.frombuffer(bytes(row[1]), dtype="<f4").astype(np.float32),
                      clips=int(row[2]), embedding=row[3], created_at=row[4].astimezone(UTC),
                      updated_at=row[5].astimezone(UTC))  # fmt: skip


def _exported(value: Any, *, vector: bool) -> str | int | float | bytes | None:
    """One value as TRANSFER_TABLES renders it."""
    if value is None:
        return None
    if vector:
        return to_blob(_array(value))
    if isinstance(value, datetime):
        return _ts(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, memoryview | bytearray):
        return bytes(value)
    assert isinstance(value, str | int | float | bytes)
    return value


def _imported(table: str, column: str, value: Any) -> Any:
    """One exported value as this backend stores it."""
    if value is None:
        return None
    if (table, column) in _VECTORS:
        return from_blob(bytes(value))
    if column in _TIMES:
        return datetime.fromisoformat(str(value))
    if column == "sensitive":
        return bool(value)
    return value
