"""The SQLite store's one connection and one lock: opening (migrations, the vector index),
closing, write transactions, reads, and access counts batched into the next write.

Every part of SqliteStore (the modules beside this one) is a mixin of SqliteConnection and
shares its state: the connection, the lock, the active embedding identity, the vector index, the
memory row count and the document-frequency cache (cleared by every write that may change a
memory's text).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ...api import StoreUnavailable
from ...models import EmbeddingIdentity
from ..migrations import SchemaTooNew, migrate
from ..vectors import VectorIndex
from .index import load_index
from .rows import ts

TOUCH_FLUSH_EVERY = 256  # access counts are batched: written with the next write or at this many


class SqliteConnection:
    """The shared state and transaction rules of SqliteStore (see the module docstring)."""

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
            self._doc_count = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
            self._index = load_index(conn, identity)

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
        """The file's schema version (migrations.py), once open."""
        return self._version

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreUnavailable("memory store is not open")
        return self._conn

    def _idx(self) -> VectorIndex:
        if self._index is None:
            raise StoreUnavailable("memory store is not open")
        return self._index

    def _identity_values(self) -> tuple[str, str, int]:
        ident = self._identity
        assert ident is not None
        return ident.provider, ident.model, ident.dimension

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

    def touch(self, ids: list[str], at: datetime) -> None:
        """Count an access; batched and written with the next write (or every TOUCH_FLUSH_EVERY)."""
        with self._lock:
            stamp = ts(at) or ""
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
