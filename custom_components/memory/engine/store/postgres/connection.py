"""The PostgreSQL store's bridge and pool: one private event loop on one daemon thread
(LoopThread) that every blocking call submits its coroutine to, the psycopg_pool
AsyncConnectionPool (opened by open(), closed by close()), transactions, reads, and access
counts batched into the next write.

Every part of PostgresStore (the modules beside this one) is a mixin of PostgresConnection and
shares its state: the loop, the pool, the active embedding identity, the schema version, the
lock, the pending access counts and the document-frequency cache (cleared by every write that
may change a memory's text). Every connection, timeout or server error becomes
StoreUnavailable, with a message that never holds the URL or the password; a write's says it was
refused (writing=True).

Concurrency (HA calls the store from many executor threads at once): each call borrows its own
pooled connection (up to POOL_MAX at once; more wait for one), so reads never wait for a writer
and every write is one server transaction — what another caller sees is what PostgreSQL's MVCC
has committed; the vector index (HNSW) lives in the server and changes in the same transaction as
the rows, so it cannot fall out of step. Only the caches and the pending access counts are
shared in this process, under self._lock; the engine's write lock orders the operations that
read before they write (engine.py), as on SQLite.

A lost server (breaker.py): the first call that cannot reach it opens the breaker, every later
call fails at once, and a background task on the store's loop tries the server every
breaker.RECONNECT_EVERY; once it answers, a fresh pool replaces the old one (whose own attempts
back off for up to RECONNECT_TIMEOUT: after a long outage they come minutes apart) and calls go
through again, the store never reopened.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from ...api import StoreUnavailable
from ...models import EmbeddingIdentity
from .breaker import RECONNECT_EVERY, Breaker, unreachable
from .migrations import SchemaTooNew, ensure_vector_index, migrate
from .rows import mine

_LOGGER = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5  # s: connecting to the server (libpq connect_timeout) and waiting for a pooled connection
CALL_TIMEOUT = 30.0  # s: one store call (a query or a transaction) before StoreUnavailable
OPEN_TIMEOUT = 600.0  # s: open() migrates and may build the HNSW index of existing rows
RECONNECT_TIMEOUT = 3600.0  # s: the pool keeps retrying a lost server this long per attempt series
POOL_MIN, POOL_MAX = 1, 4  # connections: the HA executor runs a few store calls at a time
TOUCH_FLUSH_EVERY = 256  # access counts are batched: written with the next write or at this many
# HNSW candidates per scan step (pgvector default 40): at least the largest k the engine asks
# (recall.TRANSLATION_POOL, 200), so one step fills an unfiltered top-k; relaxed iterative scans
# fill a filtered one with further steps. Measured by bench/recall_latency.py (recall@10 against
# exact search) and tests/engine/test_postgres_store.py; tuning in docs/postgresql.md.
EF_SEARCH = 200
# Planner settings, transaction-local, for a nearest-neighbour ORDER BY … LIMIT k that must walk
# the HNSW index: for k in the hundreds the planner otherwise prefers an exact scan and sort of
# every visible row (68 ms at 10k rows instead of 16; pgvector's README, "Troubleshooting").
# A pooled connection returned less than this ago is handed out again without a ping (one round
# trip saved on each of a recall's reads); one idle longer is checked first, so a server restarted
# meanwhile costs no failed call.
CHECK_IDLE_AFTER = 2.0  # s
_RETURNED: weakref.WeakKeyDictionary[AsyncConnection, float] = weakref.WeakKeyDictionary()


async def _note_returned(conn: AsyncConnection) -> None:
    """The pool's reset: when `conn` came back (for _check_when_idle)."""
    _RETURNED[conn] = time.monotonic()


async def _check_when_idle(conn: AsyncConnection) -> None:
    """The pool's check: ping `conn` (psycopg_pool's check_connection) unless it was returned
    less than CHECK_IDLE_AFTER ago; a broken connection raises and is replaced."""
    if time.monotonic() - _RETURNED.get(conn, float("-inf")) > CHECK_IDLE_AFTER:
        await AsyncConnectionPool.check_connection(conn)


# The vector search's plan (transaction-local): the HNSW index, planned for the query's own values.
INDEX_ONLY = (
    "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true), "
    "set_config('plan_cache_mode', 'force_custom_plan', true)"
)
# Transaction-local, for exact statements only (full text, document frequencies, neighbours: no
# plan changes their answer): a prepared statement (psycopg prepares one on its fifth run on a
# connection) keeps one generic plan instead of being planned for each query's values, which
# cost more than running them. INDEX_ONLY returns to custom plans for the vector search.
GENERIC_PLANS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)"


def redact(text: str, secret: str | None) -> str:
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


class _ServerLost(Exception):
    """A call met a connection failure and opened the breaker; str(): why, password-free."""


class PostgresConnection:
    """The shared state and transaction rules of PostgresStore (see the module docstring).

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
        self._dsn = ""  # the conninfo, set by open(): the background reconnect's too
        self._breaker = Breaker()
        self._reconnecting: asyncio.Task[None] | None = None  # while the breaker is open
        self._connect_errors = 0  # the pool's failed connection attempts when last looked at
        self._identity: EmbeddingIdentity | None = None
        self._version = 0
        self._secret: str | None = None  # the URL's password: redacted from every message
        self.write_fault: str | None = None  # base.MemoryStore: never set for a server database
        self._lock = threading.Lock()  # guards the caches and the pending touches
        self._pending_touch: dict[str, tuple[int, datetime]] = {}
        self._df_cache: dict[str, tuple[int, int]] = {}  # fulltext.py: term -> (count, cap)
        self._doc_count: int | None = None
        self._last_doc_count: int | None = None  # the last count, also once _doc_count is dropped
        self._cached_at = 0.0
        self._candidates: dict[str, tuple[str, Any]] = {}  # vector_search.py: semantic's last rows
        self._candidates_at = 0.0

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
        self._dsn = conninfo
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
        self._pool = await self._new_pool(conninfo)

    async def _new_pool(self, conninfo: str) -> AsyncConnectionPool:
        """An open pool, its first connection made (psycopg errors, TimeoutError otherwise)."""
        pool = AsyncConnectionPool(
            conninfo,
            min_size=self._pool_size[0],
            max_size=self._pool_size[1],
            kwargs={"autocommit": True},
            configure=self._configure,
            check=_check_when_idle,
            reset=_note_returned,
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
        self._connect_errors = 0
        return pool

    def _lost(self, err: BaseException) -> _ServerLost:
        """On the loop: `err` says the server cannot be reached; open the breaker (and start the
        background reconnect when it was closed). The error for the call to raise."""
        why = redact(f"{type(err).__name__}: {err}".splitlines()[0], self._secret)
        if self._breaker.trip(why):
            self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())
        return _ServerLost(why)

    def _cannot_connect(self, pool: AsyncConnectionPool) -> bool:
        """On the loop, after a PoolTimeout: did the pool fail to connect since it was last
        asked? (Not: every connection was busy with calls to a server that is up.)"""
        errors = int(pool.get_stats().get("connections_errors", 0))
        failed, self._connect_errors = errors > self._connect_errors, errors
        return failed

    async def _reconnect(self) -> None:
        """While the breaker is open: try the server every RECONNECT_EVERY; once it answers, a
        fresh pool replaces the old one and the breaker closes (module docstring)."""
        while True:
            try:
                async with await AsyncConnection.connect(self._dsn, autocommit=True):
                    pass  # answers: the pool's first connection will be made at once
                fresh = await self._new_pool(self._dsn)
            except Exception as err:  # still down (or a bug: logged, and tried again all the same)
                if not isinstance(err, (psycopg.Error, OSError)):
                    _LOGGER.exception("The memory store's reconnect failed; trying again")
                await asyncio.sleep(RECONNECT_EVERY)
                continue
            old, self._pool = self._pool, fresh
            self._breaker.reset()
            self._reconnecting = None
            if old is not None:  # connections still lent out close when they come back
                with contextlib.suppress(psycopg.Error):
                    await old.close(timeout=self._connect_timeout)
            return

    async def _shut(self) -> None:
        """On the loop: stop the background reconnect, close the pool."""
        task, self._reconnecting = self._reconnecting, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close(timeout=self._connect_timeout)

    async def _configure(self, conn: AsyncConnection) -> None:
        """Per pooled connection: pgvector types, the household, UTC, the HNSW scan settings, and
        plans made for each query's own values: whether one person's memories or one bucket are
        best read by their index and compared exactly or found through the HNSW graph depends on
        how many there are (a generic plan, which psycopg's prepared statements get after five
        runs, once read all 10k shared memories of a 100k store exactly for every remember)."""
        from pgvector.psycopg import register_vector_async  # noqa: PLC0415 - typed loosely

        await register_vector_async(conn)
        await conn.execute(
            "SELECT set_config('memory.household', %s, false), set_config('TimeZone', 'UTC', false), "
            "set_config('hnsw.ef_search', %s, false), set_config('hnsw.iterative_scan', "
            "'relaxed_order', false), set_config('plan_cache_mode', 'force_custom_plan', false)",
            (self.household, str(EF_SEARCH)),
        )

    def close(self) -> None:
        """Flush batched access counts, close the pool, stop the loop thread; idempotent."""
        if self._pool is None:
            self._loop.stop()
            return
        with contextlib.suppress(StoreUnavailable):  # at once while the server is down (breaker)
            self._write(lambda conn: nothing(), memories=False)  # flushes pending touches
        with contextlib.suppress(TimeoutError, psycopg.Error):
            self._loop.run(self._shut(), 2 * self._connect_timeout + 1)
        self._pool = None
        self._loop.stop()

    def schema_version(self) -> int:
        return self._version

    def pause_writes(self, timeout: float) -> None:
        """Nothing to do: a PostgreSQL database is backed up with its server (docs/backups.md)."""

    def resume_writes(self) -> bool:
        """Nothing to do (pause_writes): True."""
        return True

    @contextlib.contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """Each write is durable at its commit (the server's synchronous_commit): nothing to
        defer. When the block ends, the planner's statistics of the memories, their terms and
        access counts are refreshed if never counted or grown past twice (analyze_when_grown);
        when that fails the writes stand and autovacuum refreshes them later (logged, not
        raised: the import's report is still true)."""
        yield

        async def analyze(conn: AsyncConnection) -> None:
            for table in ("memories", "memory_terms", "memory_access"):  # recall joins all three
                await analyze_when_grown(conn, table)

        try:
            self._run(analyze, "write", timeout=max(self._timeout, OPEN_TIMEOUT))
        except StoreUnavailable as err:
            _LOGGER.warning("The memory store's statistics were not refreshed after an import: %s", err)

    def _call[T](self, coro: Coroutine[Any, Any, T], what: str, *, timeout: float | None = None) -> T:
        """Run `coro` on the store's loop; driver, pool and timeout errors -> StoreUnavailable
        (what="write": a refused write, writing=True)."""
        writing = what == "write"
        try:
            return self._loop.run(coro, self._timeout if timeout is None else timeout)
        except _ServerLost as err:
            raise unreachable(str(err), writing=writing) from None
        except (psycopg.Error, OSError, TimeoutError, SchemaTooNew) as err:
            detail = redact(f"{type(err).__name__}: {err}".splitlines()[0], self._secret)
            raise StoreUnavailable(f"memory store {what} failed: {detail}", writing=writing) from None

    def _run[T](
        self,
        work: Callable[[AsyncConnection], Awaitable[T]],
        what: str = "read",
        *,
        timeout: float | None = None,
    ) -> T:
        """work(conn) on a pooled connection (autocommit: each statement its own transaction);
        at once StoreUnavailable while the server is known to be down (breaker.py)."""
        self._breaker.check(writing=what == "write")

        async def run() -> T:
            pool = self._pool
            if pool is None:
                raise StoreUnavailable("memory store is not open")
            try:
                async with pool.connection() as conn:
                    try:
                        return await work(conn)
                    except psycopg.OperationalError as err:
                        if conn.broken:  # the connection died, not the query (a statement timeout)
                            raise self._lost(err) from None
                        raise
            except PoolTimeout as err:
                if self._cannot_connect(pool):
                    raise self._lost(err) from None
                raise

        return self._call(run(), what, timeout=timeout)

    def _keep_candidates(self, rows: dict[str, tuple[str, Any]], *, fresh: bool = False) -> None:
        """Keep the language and vector of rows a search just read (id -> (language, the vector
        as read: rows.as_array decodes it when asked for)) for the rest of that recall
        (vector_search.py: CANDIDATES_TTL); fresh: a new recall's first search, replacing what
        was kept."""
        with self._lock:
            if fresh:
                self._candidates, self._candidates_at = dict(rows), time.monotonic()
            else:
                self._candidates.update(rows)

    def _read(self, sql: str, params: Sequence[Any] = (), *, binary: bool = False) -> list[Any]:
        """The rows of one query."""

        async def work(conn: AsyncConnection) -> list[Any]:
            cur = await conn.execute(sql, params, binary=binary)
            return await cur.fetchall()

        return self._run(work)

    def _write[T](
        self,
        work: Callable[[AsyncConnection], Awaitable[T]],
        *,
        memories: bool = True,
        pipelined: bool = False,
        timeout: float | None = None,
    ) -> T:
        """work(conn) in one transaction, committed on return, batched access counts first;
        StoreUnavailable after `timeout` s (default: the store's call timeout).

        memories=False for writes that change no memory's text (transcripts, access counts): the
        document-frequency cache stays valid. pipelined: for work that reads no result (not even
        a rowcount): BEGIN, its statements and COMMIT go to the server together, one round trip;
        a failed statement fails the commit and the call."""
        with self._lock:
            if memories:
                self._df_cache.clear()
                self._doc_count = None
                self._candidates = {}
            touches, self._pending_touch = self._pending_touch, {}

        async def run(conn: AsyncConnection) -> T:
            async with conn.pipeline() if pipelined else contextlib.nullcontext(), conn.transaction():
                if touches:
                    await conn.execute(
                        "INSERT INTO memory_access AS a (household, id, access_count, last_accessed_at) "
                        "SELECT m.household, m.id, t.n, t.at FROM unnest(%s::text[], %s::integer[], "
                        f"%s::timestamptz[]) AS t(id, n, at) JOIN memories m ON {mine('m')} AND m.id = t.id "
                        "ON CONFLICT (household, id) DO UPDATE SET access_count = a.access_count + "
                        "excluded.access_count, last_accessed_at = excluded.last_accessed_at",
                        [list(touches), [n for n, _ in touches.values()], [at for _, at in touches.values()]],
                    )
                return await work(conn)

        try:
            return self._run(run, "write", timeout=timeout)
        except StoreUnavailable:
            self._unflush(touches)
            raise

    def _unflush(self, touches: dict[str, tuple[int, datetime]]) -> None:
        """Access counts of a write that failed: batched again."""
        with self._lock:
            for mid, (n, at) in touches.items():
                count, last = self._pending_touch.get(mid, (0, at))
                self._pending_touch[mid] = (count + n, max(at, last))

    def _identity_values(self) -> tuple[str, str, int]:
        ident = self._identity
        if ident is None:
            raise StoreUnavailable("memory store is not open")
        return ident.provider, ident.model, ident.dimension

    def touch(self, ids: list[str], at: datetime) -> None:
        """Count an access; batched and written with the next write (or every TOUCH_FLUSH_EVERY)."""
        with self._lock:
            for mid in ids:
                count, _ = self._pending_touch.get(mid, (0, at))
                self._pending_touch[mid] = (count + 1, at)
            full = len(self._pending_touch) >= TOUCH_FLUSH_EVERY
        if full:
            self._write(lambda conn: nothing(), memories=False)


async def analyze_when_grown(conn: AsyncConnection, table: str) -> None:
    """ANALYZE `table` when it was never counted (-1: an empty table looks like ten pages of
    rows to the planner) or holds more than twice the rows the planner last counted. Without it
    the searches after a bulk import (a move, an import) are planned on an empty table's
    statistics until autovacuum comes by (a recall at 3k rows: 214 ms instead of 20); doubling
    keeps a move in 1000-row batches to a handful of ANALYZE runs."""
    cur = await conn.execute(
        f"SELECT c.reltuples, (SELECT count(*) FROM {table}) FROM pg_class c WHERE c.oid = %s::regclass",
        (table,),
    )
    row = await cur.fetchone()
    if row is not None and (row[0] < 0 or row[1] > 2 * row[0]):
        await conn.execute(f"ANALYZE {table}")


async def nothing() -> None:
    """An empty transaction's work (flushes the batched access counts)."""
