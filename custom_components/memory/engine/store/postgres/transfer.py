"""StoreTransfer on PostgreSQL (a move between stores): whole-table export and import of this
household's rows as TRANSFER_TABLES renders them; an import into an empty memories table builds
the HNSW index once after the copy instead of inserting row by row into it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from ...embedding.base import from_blob, to_blob
from ..base import TRANSFER_TABLES, Record, transfer_columns
from ..sql import MEMORY_TYPES
from .connection import OPEN_TIMEOUT, PostgresConnection, analyze_when_grown, nothing
from .fulltext import TEXT_COLUMNS, fulltext_columns
from .rows import ACCESS_COLUMNS, TIMES, WITH_ACCESS, as_array, mine, select_list, ts_text

# maintenance_work_mem of a bulk import's HNSW build: the graph of 100k x 512 fits (pgvector
# builds in memory and much slower once it spills); only for that transaction (SET LOCAL)
BULK_INDEX_MEMORY = "1GB"

VECTORS = frozenset({("memories", "embedding"), ("tombstones", "embedding")})
_TRANSFER_ORDER = {
    "tombstones": "created_at, id", "transcript_turns": "conversation_id, turn",
    "voiceprints": "person_id", "pair_verdicts": "first_id, second_id",
}  # fmt: skip


class PostgresTransfer(PostgresConnection):
    """StoreTransfer (see the module docstring)."""

    def export_records(self, table: str, batch: int = 1000) -> Iterator[list[Record]]:
        """Every row of `table` (a TRANSFER_TABLES key) of this household as records with exactly
        its columns (timestamps, vectors and booleans rendered as TRANSFER_TABLES says), in batches
        of at most `batch`, in a stable order (memories by created_at, id; ids bytewise). Batched
        access counts are flushed first."""
        columns = transfer_columns(table)
        self._write(lambda conn: nothing(), memories=False)
        vectors = [(table, c) in VECTORS for c in columns]
        if table == "memories":  # the row and its access counts (rows.py)
            sql = (f"SELECT {select_list(columns)} FROM {WITH_ACCESS} WHERE {mine('m')} "
                   "ORDER BY m.created_at, m.id LIMIT %s OFFSET %s")  # fmt: skip
        else:
            sql = (f"SELECT {', '.join(columns)} FROM {table} WHERE {mine()} "
                   f"ORDER BY {_TRANSFER_ORDER[table]} LIMIT %s OFFSET %s")  # fmt: skip
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
        columns = list(transfer_columns(table, rows))
        access: list[tuple[Any, ...]] = []
        if table == "memories":  # the access counts go to memory_access (rows.py)
            access = [
                (r["id"], r["access_count"], _imported(table, "last_accessed_at", r["last_accessed_at"]))
                for r in rows
                if r["access_count"] or r["last_accessed_at"] is not None
            ]
            columns = [c for c in columns if c not in ACCESS_COLUMNS]
        values = [[_imported(table, c, r[c]) for c in columns] for r in rows]
        if table == "memories":
            for record, row in zip(rows, values, strict=True):
                row.extend(fulltext_columns(str(record["content"]), str(record["language"])))
            columns += TEXT_COLUMNS
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
            if access:
                async with conn.cursor() as cur:
                    await cur.executemany(
                        "INSERT INTO memory_access (id, access_count, last_accessed_at) VALUES (%s, %s, %s)",
                        access,
                    )
            for grown in (table, "memory_terms") if table == "memories" else (table,):  # + its postings
                await analyze_when_grown(conn, grown)

        self._write(work, memories=table == "memories", timeout=max(self._timeout, OPEN_TIMEOUT))

    def is_empty(self) -> bool:
        """True when no TRANSFER_TABLES table holds a row of this household."""
        union = " UNION ALL ".join(f"(SELECT 1 FROM {t} WHERE {mine()} LIMIT 1)" for t in TRANSFER_TABLES)
        return not self._read(union)

    def count_records(self, table: str) -> int:
        """How many rows of this household export_records(table) yields. Raises InvalidInput for
        another table."""
        transfer_columns(table)  # validates the name before it goes into SQL
        return int(self._read(f"SELECT count(*) FROM {table} WHERE {mine()}")[0][0])


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


def _exported(value: Any, *, vector: bool) -> str | int | float | bytes | None:
    """One value as TRANSFER_TABLES renders it."""
    if value is None:
        return None
    if vector:
        return to_blob(as_array(value))
    if isinstance(value, datetime):
        return ts_text(value)
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
    if (table, column) in VECTORS:
        return from_blob(bytes(value))
    if column in TIMES:
        return datetime.fromisoformat(str(value))
    if table == "memories" and MEMORY_TYPES.get(column) is bool:
        return bool(value)
    return value
