"""Whole-table export and import of the SQLite store (store.base.StoreTransfer) for a move between
stores (engine/transfer.py). A mixin of SqliteStore: it uses the store's lock, transaction and
index loader, and nothing else of it.

The SQLite schema already holds what TRANSFER_TABLES describes (timestamps as fixed-width UTC ISO
text, vectors as little-endian float32 bytes, booleans as 0/1), so export reads the columns as they
are and import writes them back, then rebuilds what is derived from them: the full-text rows of
each imported memory (memories_fts, memories_terms) and its entry in the in-memory vector index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ..api import StoreUnavailable
from ..embedding.base import Vectors, from_blob
from ..terms import document_terms
from .base import TRANSFER_TABLES, Record

if TYPE_CHECKING:
    from ..models import EmbeddingIdentity, Memory

# The stable export order of each table (StoreTransfer.export_records): memories by created_at, id.
EXPORT_ORDER: dict[str, str] = {
    "memories": "created_at, id",
    "tombstones": "created_at, id",
    "transcript_turns": "conversation_id, turn",
    "voiceprints": "person_id",
    "pair_verdicts": "first_id, second_id",
}


def _table(table: str) -> tuple[str, ...]:
    """The exported columns of `table`; a name outside TRANSFER_TABLES is refused (it is
    interpolated into SQL)."""
    try:
        return TRANSFER_TABLES[table]
    except KeyError:
        raise StoreUnavailable(f"no such transfer table: {table}") from None


class SqliteTransfer:
    """StoreTransfer for SqliteStore (see the module docstring)."""

    if TYPE_CHECKING:  # provided by SqliteStore
        _identity: EmbeddingIdentity | None
        _tx: Callable[..., AbstractContextManager[sqlite3.Connection]]
        _read: Callable[[str, Any], list[Any]]
        _doc_count: int
        _index_memory: Callable[[Memory, Vectors | None], None]

    def export_records(self, table: str, batch: int = 1000) -> Iterator[list[Record]]:
        """Every row of `table` with exactly its TRANSFER_TABLES columns, in batches of at most
        `batch`, in EXPORT_ORDER; batched access counts are flushed first. Raises StoreUnavailable."""
        columns = _table(table)
        with self._tx(memories=False):
            pass  # flushes the batched access counts
        sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {EXPORT_ORDER[table]} LIMIT ? OFFSET ?"
        offset = 0
        while rows := self._read(sql, (batch, offset)):
            yield [dict(zip(columns, row, strict=True)) for row in rows]
            offset += len(rows)

    def import_records(self, table: str, rows: Sequence[Record]) -> None:
        """Insert exported rows as they are, in one transaction (a key already stored raises
        StoreUnavailable, nothing of the batch written); memories get their full-text rows, and
        those of the active embedding identity enter the vector index. Raises StoreUnavailable."""
        columns = _table(table)
        if not rows:
            return
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        with self._tx(memories=table == "memories") as conn:
            for row in rows:
                cur = conn.execute(sql, tuple(row[c] for c in columns))
                if table == "memories":
                    content, language = str(row["content"]), str(row["language"])
                    conn.execute(
                        "INSERT INTO memories_fts(rowid, content) VALUES (?, ?)", (cur.lastrowid, content)
                    )
                    conn.execute(
                        "INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)",
                        (cur.lastrowid, document_terms(content, language)),
                    )
        if table == "memories":
            self._index_imported(rows)

    def _index_imported(self, rows: Sequence[Record]) -> None:
        """Put imported memories of the active embedding identity into the vector index."""
        from .sqlite import _MEMORY_COLUMNS, _memory  # noqa: PLC0415 - sqlite.py imports this module

        ident = self._identity
        self._doc_count += len(rows)
        if ident is None:
            return
        for row in rows:
            same = (row["emb_provider"], row["emb_model"], row["emb_dimension"]) == (
                ident.provider, ident.model, ident.dimension,
            )  # fmt: skip
            if same and isinstance(row["embedding"], bytes):
                memory = _memory(tuple(row[c] for c in _MEMORY_COLUMNS))
                self._index_memory(memory, from_blob(row["embedding"]))

    def is_empty(self) -> bool:
        """True when no TRANSFER_TABLES table holds a row. Raises StoreUnavailable."""
        return not any(self._read(f"SELECT 1 FROM {table} LIMIT 1", ()) for table in TRANSFER_TABLES)
