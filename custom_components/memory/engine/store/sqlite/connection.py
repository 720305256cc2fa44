"""The SQLite store's connections and its concurrency discipline: opening (migrations, the
vector index), closing, write transactions, reads, and access counts batched into the next write.

Concurrency (HA calls the store from many executor threads at once):
- Writes: one write connection; every write transaction enters the write gate (write_gate.py:
  one writer at a time, paused while a backup copies the file). Changes to the in-RAM indexes
  (vectors, both FTS5 tables' postings) and the row count are queued during the transaction
  (`_after_commit`) and applied after COMMIT inside the same gate, under the state lock; a
  transaction that fails changes none of them, and one whose change fails rebuilds the indexes
  from the committed rows. So they never disagree with the committed rows.
- Reads: their own connections (a small pool, `query_only`), never the gate: WAL lets them read
  the last committed state beside a writer, so a writer (ours, or another process holding the
  file's lock) delays writes only. A read of several statements that must agree (a page and its
  count) runs in one read transaction (`_snapshot`).
- The state lock guards the indexes and the counters only, for microseconds to a matrix product.

Durability (DESIGN §7.9): WAL + synchronous=FULL, so an acknowledged write survives a crash
(a bulk write, `bulk_writes`, commits without waiting for the disk and waits once at its end,
before it is acknowledged). The
file's identity (device, inode; and its WAL's) is checked before and after every write
transaction: a file deleted or replaced under the running store refuses every write
(StoreFileChanged) instead of acknowledging writes to a file nobody reads again. A file that
is not a readable database raises StoreCorrupt at open (quick_check) or when a read meets it.

Every part of SqliteStore (the modules beside this one) is a mixin of SqliteConnection and
shares this state.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ...api import EngineError, StoreCorrupt, StoreFileChanged, StoreUnavailable, StoreUnwritable
from ...models import EmbeddingIdentity
from ..migrations import SchemaTooNew, migrate
from ..vectors import VectorIndex
from ..write_gate import WriteGate
from .index import Postings, load_index, load_postings
from .rows import ts

_LOGGER = logging.getLogger(__name__)

TOUCH_FLUSH_EVERY = 256  # access counts are batched: written with the next write or at this many
WRITE_BUSY_TIMEOUT = 30.0  # s a write waits for another process's lock on the file
# s a forget's checkpoint waits for readers of older pages (another process's, a long read): the
# forget is committed already; a checkpoint that cannot finish is retried after the next write
CHECKPOINT_BUSY_TIMEOUT = 2.0
READ_BUSY_TIMEOUT = 5.0  # s a read waits (WAL readers wait only while the WAL is being recovered)
READERS_KEPT = 8  # idle read connections kept open (more are opened while more threads read)
CORRUPT_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
# primary result codes of a file that cannot be written (full disk, read-only, permissions, I/O)
UNWRITABLE_CODES = frozenset({sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM,
                              sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR})  # fmt: skip
RESTORE_HINT = "restore the file from a backup, or move it away to start with an empty store"

type FileId = tuple[int, int]
type IndexChange = Callable[[VectorIndex], None]
type PostingsChange = Callable[[Postings], None]


def _file_id(path: Path) -> FileId | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _sync(path: Path) -> None:
    """fsync a file (what SQLite does to the WAL at a synchronous=FULL commit); none: nothing to
    sync (a WAL checkpointed away was synced into the database file). Raises StoreUnavailable."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    except OSError as err:
        raise StoreUnavailable(f"memory store: cannot sync {path.name}: {err}", writing=True) from err
    try:
        os.fsync(fd)
    except OSError as err:
        raise StoreUnavailable(f"memory store: cannot sync {path.name}: {err}", writing=True) from err
    finally:
        os.close(fd)


class SqliteConnection:
    """The shared state and transaction rules of SqliteStore (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None  # the write connection
        self._gate = WriteGate()
        self._state = threading.Lock()  # the indexes, the row count, pending touches
        self._readers: list[sqlite3.Connection] = []  # idle read connections
        self._readers_lock = threading.Lock()
        self._generation = 0  # bumped by open/close: a reader of an older store is closed, not kept
        self._identity: EmbeddingIdentity | None = None
        self._index: VectorIndex | None = None
        self._postings: Postings | None = None  # both FTS5 tables in RAM (fulltext.py searches them)
        self._pending_touch: dict[str, tuple[int, str]] = {}
        self._doc_count = 0
        self._version = 0
        self._files: tuple[FileId, FileId | None] | None = None  # (file, WAL) identities at open
        self._changes: list[
            tuple[IndexChange, int, PostingsChange]
        ] = []  # queued by the transaction in progress
        self._checkpoint_owed = False  # a forget's checkpoint failed: retried after the next write
        self._bulk = threading.local()  # depth: this thread's bulk_writes blocks
        self._deferred = False  # the write connection commits with synchronous=NORMAL
        # why the last write could not be written to the file (StoreUnwritable), None once one commits
        self.write_fault: str | None = None

    # ------------------------------------------------------------------ lifecycle
    def open(self, identity: EmbeddingIdentity) -> None:
        """Open (creating) the file, migrate, check it, load the vectors of `identity`.

        Raises StoreCorrupt (not a readable database: nothing is opened, nothing replaced) or
        StoreUnavailable (cannot create/open/migrate: permissions, a full disk, a newer schema)."""
        with self._gate:
            if self._conn is not None:
                return
            conn: sqlite3.Connection | None = None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(
                    self.path, check_same_thread=False, isolation_level=None, timeout=WRITE_BUSY_TIMEOUT
                )
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables and "schema_version" not in tables:  # never change another program's file
                    raise StoreUnavailable(
                        f"{self.path} is another program's database, not a memory store; choose another file"
                    )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA secure_delete=ON")
                conn.execute("PRAGMA foreign_keys=ON")
                check = conn.execute("PRAGMA quick_check(1)").fetchone()
                if check is None or check[0] != "ok":
                    raise StoreCorrupt(f"the memory store {self.path} is damaged ({check and check[0]}); "
                                       f"{RESTORE_HINT}")  # fmt: skip
                version = migrate(conn)
                doc_count = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
                index = load_index(conn, identity)
                postings = load_postings(conn)
            except StoreUnavailable:
                _close_quietly(conn)
                raise
            except sqlite3.Error as err:
                _close_quietly(conn)
                if _primary(err) in CORRUPT_CODES:
                    raise StoreCorrupt(
                        f"the memory store {self.path} is not a readable database ({err}); {RESTORE_HINT}"
                    ) from err
                if _primary(err) in UNWRITABLE_CODES:
                    raise StoreUnwritable(
                        f"cannot open memory store {self.path}: {err}", writing=True
                    ) from err
                raise StoreUnavailable(f"cannot open memory store {self.path}: {err}") from err
            except (OSError, SchemaTooNew) as err:
                _close_quietly(conn)
                raise StoreUnavailable(f"cannot open memory store {self.path}: {err}") from err
            self._conn, self._identity, self._version = conn, identity, version
            self._files = (_file_id(self.path) or (0, 0), _file_id(_wal(self.path)))
            with self._state:
                self._doc_count, self._index, self._postings = doc_count, index, postings
            with self._readers_lock:
                self._generation += 1

    def close(self) -> None:
        """Flush batched access counts and close every connection; idempotent."""
        with self._gate:
            if self._conn is None:
                return
            with contextlib.suppress(sqlite3.Error, StoreUnavailable), self._tx():
                pass  # flushes pending touches
            # Also when the file was replaced (the flush refused): the WAL at the path is still
            # this file's, and one left behind would be applied to the file there now.
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            with self._readers_lock:
                readers, self._readers = self._readers, []
                self._generation += 1
            for reader in readers:
                _close_quietly(reader)
            _close_quietly(self._conn)
            self._conn = None
            with self._state:
                self._index, self._postings = None, None

    def schema_version(self) -> int:
        """The file's schema version (migrations.py), once open."""
        return self._version

    def pause_writes(self, timeout: float) -> None:
        """Before a backup copies the file (base.MemoryStore.pause_writes): write the batched
        access counts, hold new writes back, then move every committed page from the WAL into the
        main file and truncate the WAL, so the copy of the file alone is the whole store.

        Raises WritesPaused when the write in progress does not end within `timeout` s, and
        StoreUnavailable when the WAL cannot be truncated (a reader keeps it) while a forget's
        checkpoint is still owed: the WAL may hold the forgotten text, which no backup may keep.
        Either way nothing stays paused. A WAL that cannot be truncated otherwise is logged and
        copied by the backup beside the file (committed pages only; writes are held back)."""
        if self._gate.enter_now():  # never wait here (no `timeout`): if busy, the next write takes them
            try:
                with self._tx():
                    pass
            finally:
                self._gate.leave()
        self._gate.pause(timeout)
        try:
            owed = self._checkpoint_owed
            if not self._checkpoint() and owed:
                raise StoreUnavailable(
                    f"the memory store {self.path} could not be checkpointed for the backup and its "
                    "WAL may still hold a forgotten memory's text; try the backup again"
                )
        except BaseException:
            self._gate.resume()
            raise

    def resume_writes(self) -> bool:
        """After the backup (pause_writes); True when the pause held throughout."""
        return self._gate.resume()

    # ------------------------------------------------------------------ shared state
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreUnavailable("memory store is not open")
        return self._conn

    def _idx(self) -> VectorIndex:
        """The vector index; hold self._state while using it."""
        if self._index is None:
            raise StoreUnavailable("memory store is not open")
        return self._index

    def _fts_postings(self) -> Postings:
        """Both FTS5 tables' postings; hold self._state while using them."""
        if self._postings is None:
            raise StoreUnavailable("memory store is not open")
        return self._postings

    def _identity_values(self) -> tuple[str, str, int]:
        ident = self._identity
        if ident is None:
            raise StoreUnavailable("memory store is not open")
        return ident.provider, ident.model, ident.dimension

    def _check_file(self, *, writing: bool = True) -> None:
        """Raise StoreFileChanged when the file or its WAL is not the one opened any more."""
        opened = self._files
        if opened is None:
            raise StoreUnavailable("memory store is not open", writing=writing)
        file_id, wal_id = opened
        if _file_id(self.path) != file_id or (wal_id is not None and _file_id(_wal(self.path)) != wal_id):
            raise StoreFileChanged(
                f"the memory store file {self.path} was deleted or replaced while it was open; "
                "nothing more is written to it: reload the integration (or restart Home Assistant) "
                "to open the file that is there now",
                writing=writing,
            )

    # ------------------------------------------------------------------ writes
    def _after_commit(
        self, change: IndexChange | None = None, *, rows: int = 0, text: PostingsChange | None = None
    ) -> None:
        """Queue an index change (and a change of the memory row count, of the text's postings:
        fulltext.fts_put/fts_drop) for when the write transaction in progress has committed; call
        inside `with self._tx()`."""
        self._changes.append((change or _nothing, rows, text or _nothing))

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, durable on return), in the write gate.

        Raises StoreFileChanged (the file was replaced: nothing
        written, or nothing acknowledged), StoreUnavailable(writing=True) for another failure
        (nothing written; an EngineError raised inside the block, e.g. InvalidInput, as it is)."""
        with self._gate:
            conn = self._db()
            self._check_file()
            if (deferred := getattr(self._bulk, "depth", 0) > 0) != self._deferred:
                conn.execute(f"PRAGMA synchronous={'NORMAL' if deferred else 'FULL'}")
                self._deferred = deferred
            self._changes = []
            touched: dict[str, tuple[int, str]] = {}
            try:
                conn.execute("BEGIN IMMEDIATE")
                touched = self._flush_touches(conn)
                yield conn
                conn.execute("COMMIT")
            except BaseException as err:
                _rollback(conn)
                self._changes = []
                self._unflush(touched)
                if isinstance(err, sqlite3.Error):
                    self.write_fault = str(err) if _primary(err) in UNWRITABLE_CODES else None
                    kind = StoreUnwritable if self.write_fault else StoreUnavailable
                    raise kind(f"memory store write failed: {err}", writing=True) from err
                if isinstance(err, Exception) and not isinstance(err, EngineError):  # a row it cannot write
                    _LOGGER.exception("A memory store write failed")
                    raise StoreUnavailable(f"memory store write failed: {err!r}", writing=True) from err
                raise
            self._check_file()  # committed to a file that was replaced meanwhile: not acknowledged
            self.write_fault = None
            changes, self._changes = self._changes, []
            self._apply(changes)
            if self._checkpoint_owed:
                self._checkpoint()

    def _apply(self, changes: list[tuple[IndexChange, int, PostingsChange]]) -> None:
        """Apply committed changes to the indexes and counters; rebuild the indexes from the
        committed rows if one fails (the rows are the truth)."""
        with self._state:
            index, postings = self._idx(), self._fts_postings()
            try:
                for change, rows, text_change in changes:
                    change(index)
                    text_change(postings)
                    self._doc_count += rows
            except Exception:
                _LOGGER.exception("The memory store's in-RAM indexes fell out of step; rebuilding them")
                self._reload_index()

    def _reload_index(self) -> None:
        """Rebuild the indexes and the row count from the committed rows (hold the gate and self._state)."""
        conn, identity = self._db(), self._identity
        assert identity is not None
        try:
            self._doc_count = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
            self._index = load_index(conn, identity)
            self._postings = load_postings(conn)
        except sqlite3.Error as err:
            raise StoreUnavailable(f"memory store index rebuild failed: {err}") from err

    @contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """This thread's write transactions inside the block commit without waiting for the disk
        (synchronous=NORMAL: an application crash keeps them, a power cut may not); leaving the
        block waits for it once (the WAL fsynced), so they are durable when it returns. Other
        threads' writes meanwhile stay durable at their commit. Raises StoreUnavailable when
        the WAL cannot be synced (the writes stay committed)."""
        depth = getattr(self._bulk, "depth", 0)
        self._bulk.depth = depth + 1
        try:
            yield
        finally:
            self._bulk.depth = depth
            if depth == 0:
                with self._gate:
                    _sync(_wal(self.path))

    def _checkpoint(self) -> bool:
        """Move the WAL into the file and truncate it (after a forget: no copy of the forgotten
        text stays in the WAL). In the write gate. A failure is logged and retried after the next
        write (the forget itself is committed and done)."""
        conn = self._db()
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(CHECKPOINT_BUSY_TIMEOUT * 1000)}")
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as err:
            busy, reason = None, str(err)
        else:
            reason = "a reader kept the WAL"
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.execute(f"PRAGMA busy_timeout = {int(WRITE_BUSY_TIMEOUT * 1000)}")
        self._checkpoint_owed = busy is None or bool(busy[0])
        if self._checkpoint_owed:
            _LOGGER.warning(
                "The memory store %s could not be checkpointed (%s); retried after the next write",
                self.path,
                reason,
            )
        return not self._checkpoint_owed

    # ------------------------------------------------------------------ reads
    def _reader(self) -> tuple[sqlite3.Connection, int]:
        """An idle read connection (or a new one) and the store generation it belongs to."""
        with self._readers_lock:
            if self._conn is None:
                raise StoreUnavailable("memory store is not open")
            generation = self._generation
            if self._readers:
                return self._readers.pop(), generation
        self._check_file(writing=False)  # a new connection must open the same file, never a new one
        try:
            conn = sqlite3.connect(f"{self.path.as_uri()}?mode=rw", uri=True, check_same_thread=False,
                                   isolation_level=None, timeout=READ_BUSY_TIMEOUT)  # fmt: skip
            conn.execute("PRAGMA query_only=ON")
        except sqlite3.Error as err:
            raise StoreUnavailable(f"memory store read failed: {err}") from err
        return conn, generation

    def _release(self, conn: sqlite3.Connection, generation: int) -> None:
        with self._readers_lock:
            if generation == self._generation and len(self._readers) < READERS_KEPT:
                self._readers.append(conn)
                return
        _close_quietly(conn)

    @contextmanager
    def _reading(self, *, snapshot: bool = False) -> Iterator[sqlite3.Connection]:
        """A read connection for the block; snapshot: every statement of the block reads the
        same committed state (one read transaction). Errors -> StoreCorrupt / StoreUnavailable."""
        conn, generation = self._reader()
        reusable = False
        try:
            if snapshot:
                conn.execute("BEGIN")
            yield conn
            if conn.in_transaction:
                conn.execute("COMMIT")
            reusable = True
        except sqlite3.Error as err:
            if _primary(err) in CORRUPT_CODES:
                raise StoreCorrupt(
                    f"the memory store {self.path} is damaged ({err}); {RESTORE_HINT}"
                ) from err
            raise StoreUnavailable(f"memory store read failed: {err}") from err
        finally:
            if reusable:
                self._release(conn, generation)
            else:
                _close_quietly(conn)

    def _read(self, sql: str, params: list[Any] | tuple[Any, ...]) -> list[Any]:
        with self._reading() as conn:
            return conn.execute(sql, params).fetchall()

    # ------------------------------------------------------------------ access counts
    def touch(self, ids: list[str], at: datetime) -> None:
        """Count an access; batched and written with the next write (or every TOUCH_FLUSH_EVERY,
        when no other write is under way: a recall never waits for a writer)."""
        stamp = ts(at) or ""
        with self._state:
            for mid in ids:
                count, _ = self._pending_touch.get(mid, (0, stamp))
                self._pending_touch[mid] = (count + 1, stamp)
            due = len(self._pending_touch) >= TOUCH_FLUSH_EVERY
        if due and self._gate.enter_now():
            try:
                with self._tx():
                    pass
            finally:
                self._gate.leave()

    def _flush_touches(self, conn: sqlite3.Connection) -> dict[str, tuple[int, str]]:
        """Write the batched access counts in the transaction in progress; returns them (for
        _unflush when the transaction fails)."""
        with self._state:
            pending, self._pending_touch = self._pending_touch, {}
        if pending:
            conn.executemany(
                "UPDATE memories SET access_count = access_count + ?, last_accessed_at = ? WHERE id = ?",
                [(n, at, mid) for mid, (n, at) in pending.items()],
            )
        return pending

    def _unflush(self, touched: dict[str, tuple[int, str]]) -> None:
        """Access counts of a transaction that failed: batched again."""
        with self._state:
            for mid, (n, at) in touched.items():
                count, last = self._pending_touch.get(mid, (0, at))
                self._pending_touch[mid] = (count + n, max(at, last))


def _primary(err: sqlite3.Error) -> int | None:
    """The primary result code of a SQLite error (extended codes carry it in their low byte)."""
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _nothing(_index: VectorIndex | Postings) -> None:
    return None


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            _LOGGER.exception("The memory store could not roll back a failed write")


def _close_quietly(conn: sqlite3.Connection | None) -> None:
    if conn is not None:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
