"""Whole-table export and import of the SQLite store (StoreTransfer, for a move between stores).

Rows leave and enter with exactly the columns of base.TRANSFER_TABLES, as SQLite holds them
(moments as the fixed-width ISO text rows.ts writes, vectors as little-endian float32 bytes,
booleans as 0/1), so nothing is converted on the way. Import rebuilds what is derived from the
rows: both FTS5 rows of each memory (fulltext.fts_put) and the vector index rows of the memories
whose vector is of the active embedding identity.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ...api import StoreUnavailable
from ...embedding.base import from_blob
from ..base import TRANSFER_TABLES, Record, transfer_columns
from ..sql import MEMORY_COLUMNS
from ..vectors import VectorIndex
from .connection import SqliteConnection
from .fulltext import fts_put
from .index import index_memory
from .rows import memory_of

# The stable export order of each table: a unique key, read in keyset pages (no OFFSET rescans).
EXPORT_ORDER: dict[str, tuple[str, ...]] = {
    "memories": ("created_at", "id"),
    "tombstones": ("created_at", "id"),
    "transcript_turns": ("conversation_id", "turn"),
    "voiceprints": ("person_id",),
    "pair_verdicts": ("first_id", "second_id"),
}

EMBEDDING_IDENTITY = ("emb_provider", "emb_model", "emb_dimension")  # a memory row's vector identity


class SqliteTransfer(SqliteConnection):
    """StoreTransfer over the shared connection (store/base.py)."""

    def export_records(self, table: str, batch: int = 1000) -> Iterator[list[Record]]:
        """Every row of `table` (a TRANSFER_TABLES key) with exactly its columns, in batches of at
        most `batch`, in EXPORT_ORDER; batched access counts are flushed first. Raises InvalidInput
        for another table, StoreUnavailable when the store is closed or a read fails."""
        columns = transfer_columns(table)
        key = EXPORT_ORDER[table]
        with self._tx():
            pass  # flushes pending touches
        select = f"SELECT {', '.join(columns)} FROM {table}"
        order = f"ORDER BY {', '.join(key)} LIMIT ?"
        after = f"WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})"
        last: tuple[Any, ...] | None = None
        while True:
            if last is None:
                rows = self._read(f"{select} {order}", (batch,))
            else:
                rows = self._read(f"{select} {after} {order}", (*last, batch))
            if not rows:
                return
            records = [dict(zip(columns, row, strict=True)) for row in rows]
            last = tuple(records[-1][c] for c in key)
            yield records
            if len(rows) < batch:
                return

    def import_records(self, table: str, rows: Sequence[Record]) -> None:
        """Insert exported rows as they are, in one transaction (committed); memories get their
        FTS5 rows and, when their vector is of the active identity, their index rows. A row
        whose key is already stored (or a verdict on an unknown memory) raises StoreUnavailable
        and nothing of the batch is written; a missing column or another table raises
        InvalidInput."""
        columns = transfer_columns(table, rows)
        if not rows:
            return
        insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        values = [tuple(row[c] for c in columns) for row in rows]
        if table != "memories":
            with self._tx() as conn:
                conn.executemany(insert, values)
            return
        active = self._identity_values()
        indexed = []
        with self._tx() as conn:
            for row, value in zip(rows, values, strict=True):
                cur = conn.execute(insert, value)
                if cur.lastrowid is None:  # an INSERT into a rowid table always sets it
                    raise StoreUnavailable("memory store import lost a row id")
                memory = memory_of(tuple(row[c] for c in MEMORY_COLUMNS))
                self._after_commit(text=fts_put(conn, cur.lastrowid, memory))
                blob = row["embedding"]
                if isinstance(blob, bytes) and tuple(row[c] for c in EMBEDDING_IDENTITY) == active:
                    indexed.append((memory, from_blob(blob)))

            def added(index: VectorIndex) -> None:
                for memory, vector in indexed:
                    index_memory(index, memory, vector)

            self._after_commit(added, rows=len(rows))

    def is_empty(self) -> bool:
        """True when no TRANSFER_TABLES table holds a row."""
        return not any(self._read(f"SELECT 1 FROM {table} LIMIT 1", ()) for table in TRANSFER_TABLES)

    def count_records(self, table: str) -> int:
        """How many rows export_records(table) yields. Raises InvalidInput for another table."""
        transfer_columns(table)  # validates the name before it goes into SQL
        return int(self._read(f"SELECT count(*) FROM {table}", ())[0][0])
