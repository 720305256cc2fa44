"""Memories in SQLite (MemoryRecords): writes, reads under a Visibility, supersession chains,
consolidation's inputs and verdicts, pruning. Each write keeps the full-text rows (fulltext.py)
and the vector index rows (index.py) in step in the same call."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from ...embedding.base import Vectors, to_blob
from ...models import Kind, Memory, Provenance, Scope, Status
from ..base import Bucket, MemoryFilter, Visibility
from ..sql import MEMORY_COLUMNS, SELECT_MEMORY, filter_sql
from ..vectors import VectorIndex
from .connection import SqliteConnection
from .fulltext import fts_drop, fts_put
from .index import index_memory, index_status
from .rows import (
    WHERE_ACTIVE,
    memory_of,
    memory_values,
    select_current,
    ts,
    where_visible,
)


class SqliteRecords(SqliteConnection):
    """MemoryRecords over the shared connection (store/base.py)."""

    def add(self, memory: Memory, vector: Vectors, *, supersedes: Sequence[str] = ()) -> None:
        """Insert a memory with its vector (of the active identity) and FTS row; committed.

        supersedes: ids of memories this one replaces, marked SUPERSEDED (superseded_by = its id,
        valid_to = its created_at) in the same transaction: a crash leaves the old fact current
        or the new one, never neither."""
        with self._tx() as conn:
            self._retire(conn, [(i, Status.SUPERSEDED) for i in supersedes], memory.id, memory.created_at)
            cols = ", ".join(MEMORY_COLUMNS) + ", embedding, emb_provider, emb_model, emb_dimension"
            marks = ", ".join("?" * (len(MEMORY_COLUMNS) + 4))
            cur = conn.execute(
                f"INSERT INTO memories ({cols}) VALUES ({marks})",
                (*memory_values(memory), to_blob(vector), *self._identity_values()),
            )
            assert cur.lastrowid is not None  # an INSERT into a rowid table always sets it
            self._after_commit(text=fts_put(conn, cur.lastrowid, memory))
            retired = [(i, Status.SUPERSEDED) for i in supersedes]

            def indexed(index: VectorIndex) -> None:
                index_memory(index, memory, vector)
                index_status(index, retired)

            self._after_commit(indexed, rows=1)

    def update(self, memory: Memory, vector: Vectors | None) -> None:
        """Rewrite a memory's fields (and its vector/FTS row when given/changed); committed."""
        with self._tx() as conn:
            if self._rewrite(conn, memory, vector):
                self._after_commit(lambda index: index_memory(index, memory, vector))

    def _rewrite(self, conn: sqlite3.Connection, memory: Memory, vector: Vectors | None) -> bool:
        """UPDATE one memory's row (and FTS row when its content changed); False when it is gone."""
        row = conn.execute(
            "SELECT rowid, content, language FROM memories WHERE id = ?", (memory.id,)
        ).fetchone()
        if row is None:
            return False
        sets = ", ".join(f"{c} = ?" for c in MEMORY_COLUMNS[1:])
        values = list(memory_values(memory)[1:])
        if vector is not None:
            sets += ", embedding = ?, emb_provider = ?, emb_model = ?, emb_dimension = ?"
            values += [to_blob(vector), *self._identity_values()]
        conn.execute(f"UPDATE memories SET {sets} WHERE id = ?", (*values, memory.id))
        if (row[1], row[2]) != (memory.content, memory.language):
            self._after_commit(text=fts_drop(conn, row[0]))
            self._after_commit(text=fts_put(conn, row[0], memory))
        return True

    def retire(self, changes: Sequence[tuple[str, Status]], by: Memory, at: datetime) -> None:
        """In one transaction: rewrite `by` (the memory that stays current, e.g. confirmed or
        approved) and give each listed memory its status (SUPERSEDED/ARCHIVED) with
        superseded_by = by.id and valid_to = at; committed."""
        with self._tx() as conn:
            if not self._rewrite(conn, by, None):
                return
            self._retire(conn, changes, by.id, at)

            def indexed(index: VectorIndex) -> None:
                index_memory(index, by, None)
                index_status(index, changes)

            self._after_commit(indexed)

    @staticmethod
    def _retire(
        conn: sqlite3.Connection, changes: Sequence[tuple[str, Status]], by: str, at: datetime
    ) -> None:
        conn.executemany(
            "UPDATE memories SET status = ?, superseded_by = ?, valid_to = ? WHERE id = ?",
            [(status.value, by, ts(at), mid) for mid, status in changes],
        )

    def current_by_key(
        self, bucket: Bucket, subject: str, predicate: str, statuses: Sequence[Status]
    ) -> list[Memory]:
        """Memories of exactly this bucket and (normalised) subject/predicate with one of
        `statuses`, newest first (the memories_fact_key index)."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(
            f"{SELECT_MEMORY} WHERE m.predicate = ? AND m.subject = ? AND m.scope = ? AND m.owner_id IS ? "
            f"AND m.area_id IS ? AND m.status IN ({marks}) ORDER BY m.created_at DESC, m.id",
            [predicate, subject, bucket.scope.value, bucket.owner_id, bucket.area_id,
             *(s.value for s in statuses)],
        )  # fmt: skip
        return [memory_of(r) for r in rows]

    def keyed_current(self) -> list[Memory]:
        """Every ACTIVE memory with a subject and a predicate (any bucket): consolidation's input."""
        rows = self._read(
            f"{SELECT_MEMORY} WHERE m.predicate IS NOT NULL AND m.subject IS NOT NULL AND {WHERE_ACTIVE}",
            (),
        )
        return [memory_of(r) for r in rows]

    def unkeyed_current(self) -> list[Memory]:
        """Every ACTIVE memory without a subject or a predicate, episodes left out (any bucket),
        oldest first: consolidation's input for facts.relation."""
        rows = self._read(
            f"{SELECT_MEMORY} WHERE (m.predicate IS NULL OR m.subject IS NULL) AND m.kind != ? "
            f"AND {WHERE_ACTIVE} ORDER BY m.created_at, m.id",
            (Kind.EPISODE.value,),
        )
        return [memory_of(r) for r in rows]

    def record_verdict(self, first_id: str, second_id: str, relation: str, at: datetime) -> None:
        """Keep the verdict on one pair (stored with the smaller id first); committed."""
        low, high = sorted((first_id, second_id))
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO pair_verdicts (first_id, second_id, relation, judged_at) "
                "VALUES (?, ?, ?, ?)",
                (low, high, relation, ts(at)),
            )

    def judged_pairs(self) -> set[frozenset[str]]:
        """The pairs with a verdict."""
        return {frozenset(r) for r in self._read("SELECT first_id, second_id FROM pair_verdicts", ())}

    def prune_inferred(self, created_before: datetime, *, dry_run: bool = False) -> list[str]:
        """Delete `inferred` memories never recalled (access_count 0, batched counts flushed
        first) created before `created_before`: row, FTS row and vector, no tombstone; committed.
        Returns their ids; dry_run: only finds them."""
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT rowid, id FROM memories WHERE provenance = ? AND access_count = 0 AND created_at < ?",
                (Provenance.INFERRED.value, ts(created_before)),
            ).fetchall()
            if dry_run:
                return [mid for _, mid in rows]
            for rowid, _ in rows:
                self._after_commit(text=fts_drop(conn, rowid))
                conn.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
            pruned = [mid for _, mid in rows]

            def removed(index: VectorIndex) -> None:
                for mid in pruned:
                    index.remove(mid)

            self._after_commit(removed, rows=-len(pruned))
        return pruned

    def set_status(self, memory_id: str, status: Status, superseded_by: str | None) -> None:
        """Change a memory's lifecycle status (e.g. SUPERSEDED with a reference); committed."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE memories SET status = ?, superseded_by = ? WHERE id = ?",
                (status.value, superseded_by, memory_id),
            )
            self._after_commit(lambda index: index_status(index, [(memory_id, status)]))

    def get(self, memory_id: str, vis: Visibility) -> Memory | None:
        """One memory (any status) if `vis` allows it."""
        where, params = where_visible(vis)
        rows = self._read(f"{SELECT_MEMORY} WHERE m.id = ? AND {where}", [memory_id, *params])
        return memory_of(rows[0]) if rows else None

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """Current memories (active; current at vis.as_of when set) among `ids` that `vis` allows, by id."""
        if not ids:
            return {}
        return {m.id: m for m in map(memory_of, self._read(*select_current(ids, vis)))}

    def list_current(
        self, vis: Visibility, *, limit: int, offset: int, status: Status = Status.ACTIVE
    ) -> list[Memory]:
        """Memories of `status` (default ACTIVE: current) `vis` allows, newest first."""
        where, params = where_visible(vis)
        rows = self._read(
            f"{SELECT_MEMORY} WHERE +m.status = ? AND {where} ORDER BY m.created_at DESC, m.id "
            "LIMIT ? OFFSET ?",
            [status.value, *params, limit, offset],
        )
        return [memory_of(r) for r in rows]

    def find_memories(
        self, vis: Visibility, where: MemoryFilter, *, limit: int, offset: int
    ) -> tuple[list[Memory], int]:
        """The page of memories `vis` allows matching `where`, newest first, and how many match."""
        visible, params = where_visible(vis)
        matching, more = filter_sql(where)
        condition = f"{matching} AND {visible}"
        with self._reading(snapshot=True) as conn:  # the page and the count of one state
            total = conn.execute(
                f"SELECT count(*) FROM memories m WHERE {condition}", [*more, *params]
            ).fetchone()[0]
            rows = conn.execute(
                f"{SELECT_MEMORY} WHERE {condition} ORDER BY m.created_at DESC, m.id LIMIT ? OFFSET ?",
                [*more, *params, limit, offset],
            ).fetchall()
        return [memory_of(r) for r in rows], int(total)

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
        where, params = where_visible(vis)
        retired = ", ".join(f"'{s.value}'" for s in (Status.SUPERSEDED, Status.ARCHIVED))
        rows = self._read(
            "WITH RECURSIVE history(id) AS (SELECT ? UNION SELECT m.id FROM memories m "
            f"JOIN history h ON m.superseded_by = h.id WHERE m.status IN ({retired})) "
            f"{SELECT_MEMORY} JOIN history h ON m.id = h.id WHERE m.id != ? AND {where} "
            "ORDER BY m.created_at, m.id",
            [memory_id, memory_id, *params],
        )
        return [memory_of(r) for r in rows]
