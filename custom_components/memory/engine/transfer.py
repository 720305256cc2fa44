"""A lossless move of everything a store holds into another, empty store (SQLite ↔ PostgreSQL).

`move(source, target)` copies every TRANSFER_TABLES table through store.base.StoreTransfer
(export_records → import_records, in batches), then reads both sides back and compares, per table,
the row count and a content checksum (`table_digest`: the same function on both sides). Only when
every table matches does it return a MoveReport; the caller then switches to the target. The source
is only read, so a move that fails anywhere (the target unreachable mid-copy, a mismatch) leaves it
intact and in use; the partly filled target is left for the caller to drop or retry into a fresh
database (a non-empty target is refused, so nothing is ever overwritten or merged silently).

Blocking and HA-free; the caller keeps writers away from the source while it runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .api import EngineError
from .store.base import TRANSFER_TABLES, StoreTransfer

Progress = Callable[[int, int], None]  # (rows handled, rows in all): copied, then read back twice

# Rows per export/import batch: one transaction per batch on the target, a few MB of vectors at most
# (1000 x 512 float32 = 2 MB), and few enough round trips to PostgreSQL.
MOVE_BATCH = 1000

# The columns that identify a row of each table (its primary key): checksums sort records by them.
TRANSFER_KEYS: dict[str, tuple[str, ...]] = {
    "memories": ("id",),
    "tombstones": ("id",),
    "transcript_turns": ("conversation_id", "turn"),
    "voiceprints": ("person_id",),
    "pair_verdicts": ("first_id", "second_id"),
}


class TargetNotEmpty(EngineError):
    """The target store already holds rows (of its household): a move never overwrites or merges."""


class MoveMismatch(EngineError):
    """After the copy, a table's row count or checksum differs between source and target."""

    def __init__(self, table: str, source: TableDigest, target: TableDigest) -> None:
        super().__init__(
            f"{table}: source has {source.rows} rows (sha256 {source.checksum[:12]}…), "
            f"target has {target.rows} rows (sha256 {target.checksum[:12]}…)"
        )
        self.table = table
        self.source = source
        self.target = target


@dataclass(frozen=True, slots=True)
class TableDigest:
    """A table's row count and content checksum (sha256 hex, `table_digest`)."""

    rows: int
    checksum: str


@dataclass(frozen=True, slots=True)
class MoveReport:
    """A verified move: per TRANSFER_TABLES table, the digest both stores agree on."""

    tables: dict[str, TableDigest]

    def as_dict(self) -> dict[str, dict[str, Any]]:
        """{table: {"rows": int, "checksum": sha256 hex}} (service responses, logs: no content)."""
        return {name: {"rows": d.rows, "checksum": d.checksum} for name, d in self.tables.items()}


def _canonical(value: Any) -> Any:
    """One JSON-able form per value whatever the backend returned: bytes as hex, every number as
    the repr of its float (an INTEGER 3 and a REAL 3.0 are the same value), text and None as is."""
    if isinstance(value, bytes | bytearray | memoryview):
        return {"b": bytes(value).hex()}
    if isinstance(value, bool | int | float):
        return repr(float(value))
    return value


def table_digest(
    store: StoreTransfer, table: str, batch: int = MOVE_BATCH, read: Callable[[int], None] | None = None
) -> TableDigest:
    """Row count and sha256 of `table` in `store`: each record (its TRANSFER_TABLES columns,
    canonically encoded as sorted-key JSON) hashed, the per-record hashes sorted by the record's key
    (TRANSFER_KEYS) and hashed together, so the export order of a backend does not matter.
    read(n): told after each batch of n rows. Raises StoreUnavailable."""
    columns, key_columns = TRANSFER_TABLES[table], TRANSFER_KEYS[table]
    keyed: list[tuple[str, bytes]] = []
    for rows in store.export_records(table, batch):
        if read is not None:
            read(len(rows))
        for record in rows:
            canon = {c: _canonical(record[c]) for c in columns}
            key = json.dumps([canon[c] for c in key_columns])
            keyed.append((key, hashlib.sha256(json.dumps(canon, sort_keys=True).encode()).digest()))
    keyed.sort()
    total = hashlib.sha256()
    for _, digest in keyed:
        total.update(digest)
    return TableDigest(rows=len(keyed), checksum=total.hexdigest())


def move(
    source: StoreTransfer, target: StoreTransfer, *, batch: int = MOVE_BATCH, progress: Progress | None = None
) -> MoveReport:
    """Copy every TRANSFER_TABLES table of `source` into the empty `target` and verify it.

    Both stores open. progress(done, total): told after each batch, in rows handled — each row
    once copied and twice read back (source and target), so total = 3 x the source's rows and a
    verified move's last call has done == total. Raises TargetNotEmpty before copying anything
    when the target holds rows, StoreUnavailable when either store fails (the source is only
    read: intact), MoveMismatch when a table's count or checksum differs after the copy. Returns
    the verified MoveReport.
    """
    if not target.is_empty():
        raise TargetNotEmpty("the target store already holds memories; a move needs an empty one")
    total = 3 * sum(source.count_records(table) for table in TRANSFER_TABLES)
    done = 0

    def handled(rows: int) -> None:
        nonlocal done
        done += rows
        if progress is not None:
            progress(min(done, total), total)

    for table in TRANSFER_TABLES:
        for rows in source.export_records(table, batch):
            target.import_records(table, rows)
            handled(len(rows))
    report: dict[str, TableDigest] = {}
    for table in TRANSFER_TABLES:
        expected = table_digest(source, table, batch, handled)
        copied = table_digest(target, table, batch, handled)
        if expected != copied:
            raise MoveMismatch(table, expected, copied)
        report[table] = expected
    return MoveReport(report)
