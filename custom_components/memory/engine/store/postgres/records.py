"""Memories on PostgreSQL (MemoryRecords): writing (with their full-text columns, made here
from content and language), reading under a Visibility, lifecycle, consolidation's inputs and
verdicts, pruning."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ...models import Kind, Memory, Provenance, Scope, Status
from ..base import Bucket, MemoryFilter, Visibility
from ..sql import current_sql, filter_sql, visibility_sql
from .connection import PostgresConnection
from .fulltext import TEXT_COLUMNS, fulltext_columns
from .rows import ACTIVE, ROW_COLUMNS, SELECT_MEMORY, as_vector, memory_values, mine, to_memory


class PostgresRecords(PostgresConnection):
    """MemoryRecords (see the module docstring)."""

    def add(self, memory: Memory, vector: Vectors, *, supersedes: Sequence[str] = ()) -> None:
        """Insert a memory with its vector (of the active identity) and full-text columns;
        committed.

        supersedes: ids of memories this one replaces, marked SUPERSEDED (superseded_by = its id,
        valid_to = its created_at) in the same transaction: a crash leaves the old fact current
        or the new one, never neither."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await _retire(conn, [(i, Status.SUPERSEDED) for i in supersedes], memory.id, memory.created_at)
            await _insert_memory(conn, memory, [*memory_values(memory), as_vector(vector), *ident])

        self._write(work, pipelined=True)

    def update(self, memory: Memory, vector: Vectors | None) -> None:
        """Rewrite a memory's fields (and its vector/full-text columns when given/changed); committed."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await _rewrite(conn, memory, None if vector is None else (as_vector(vector), *ident))

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
                f"UPDATE memories SET status = %s, superseded_by = %s WHERE {mine()} AND id = %s",
                (status.value, superseded_by, memory_id),
            )

        self._write(work)

    def get(self, memory_id: str, vis: Visibility) -> Memory | None:
        """One memory (any status) if `vis` allows it."""
        where, params = visibility_sql(vis, mark="%s")
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND m.id = %s AND {where}", [memory_id, *params]
        )
        return to_memory(rows[0]) if rows else None

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """Current memories (active; current at vis.as_of when set) among `ids` that `vis` allows, by id."""
        if not ids:
            return {}
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND m.id = ANY(%s) AND {current} AND {where}",
            [ids, *at, *params],
        )
        return {m.id: m for m in map(to_memory, rows)}

    def list_current(
        self, vis: Visibility, *, limit: int, offset: int, status: Status = Status.ACTIVE
    ) -> list[Memory]:
        """Memories of `status` (default ACTIVE: current) `vis` allows, newest first."""
        where, params = visibility_sql(vis, mark="%s")
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND m.status = %s AND {where} "
            "ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s",
            [status.value, *params, limit, offset],
        )
        return [to_memory(r) for r in rows]

    def find_memories(
        self, vis: Visibility, where: MemoryFilter, *, limit: int, offset: int
    ) -> tuple[list[Memory], int]:
        """The page of memories `vis` allows matching `where`, newest first, and how many match."""
        visible, params = visibility_sql(vis, mark="%s")
        matching, more = filter_sql(where, mark="%s")
        condition = f"{mine('m')} AND {matching} AND {visible}"
        total = self._read(f"SELECT count(*) FROM memories m WHERE {condition}", [*more, *params])[0][0]
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {condition} ORDER BY m.created_at DESC, m.id LIMIT %s OFFSET %s",
            [*more, *params, limit, offset],
        )
        return [to_memory(r) for r in rows], int(total)

    def ids_owned(self, person_id: str) -> list[str]:
        """Ids of every PRIVATE memory owned by person_id (any status)."""
        rows = self._read(
            f"SELECT id FROM memories WHERE {mine()} AND scope = %s AND owner_id = %s",
            (Scope.PRIVATE.value, person_id),
        )
        return [r[0] for r in rows]

    def unlink_speaker(self, person_id: str) -> int:
        """Drop person_id as the teller (speaker_id) of every memory; the memories stay.
        Returns how many; committed."""

        async def work(conn: AsyncConnection) -> int:
            cur = await conn.execute(
                f"UPDATE memories SET speaker_id = NULL WHERE {mine()} AND speaker_id = %s", (person_id,)
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
            f"JOIN history h ON m.superseded_by = h.id WHERE {mine('m')} AND m.status IN ({retired})) "
            f"{SELECT_MEMORY} JOIN history h ON m.id = h.id WHERE {mine('m')} AND m.id != %s AND {where} "
            "ORDER BY m.created_at, m.id",
            [memory_id, memory_id, *params],
        )
        return [to_memory(r) for r in rows]

    def current_by_key(
        self, bucket: Bucket, subject: str, predicate: str, statuses: Sequence[Status]
    ) -> list[Memory]:
        """Memories of exactly this bucket and (normalised) subject/predicate with one of
        `statuses`, newest first (the memories_fact_key index)."""
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND m.predicate = %s AND m.subject = %s AND m.scope = %s "
            "AND m.owner_id IS NOT DISTINCT FROM %s AND m.area_id IS NOT DISTINCT FROM %s "
            "AND m.status = ANY(%s) ORDER BY m.created_at DESC, m.id",
            [predicate, subject, bucket.scope.value, bucket.owner_id, bucket.area_id,
             [s.value for s in statuses]],
        )  # fmt: skip
        return [to_memory(r) for r in rows]

    def keyed_current(self) -> list[Memory]:
        """Every ACTIVE memory with a subject and a predicate (any bucket): consolidation's input."""
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND m.predicate IS NOT NULL AND m.subject IS NOT NULL "
            f"AND {ACTIVE}"
        )
        return [to_memory(r) for r in rows]

    def unkeyed_current(self) -> list[Memory]:
        """Every ACTIVE memory without a subject or a predicate, episodes left out (any bucket),
        oldest first: consolidation's input for facts.relation."""
        rows = self._read(
            f"{SELECT_MEMORY} WHERE {mine('m')} AND (m.predicate IS NULL OR m.subject IS NULL) "
            "AND m.kind != %s "
            f"AND {ACTIVE} ORDER BY m.created_at, m.id",
            (Kind.EPISODE.value,),
        )
        return [to_memory(r) for r in rows]

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
            frozenset(r) for r in self._read(f"SELECT first_id, second_id FROM pair_verdicts WHERE {mine()}")
        }

    def prune_inferred(self, created_before: datetime, *, dry_run: bool = False) -> list[str]:
        """Delete `inferred` memories never recalled (access_count 0, batched counts flushed
        first) created before `created_before`: row, full text and vector, no tombstone;
        committed. Returns their ids; dry_run: only finds them."""
        verb = "SELECT id FROM" if dry_run else "DELETE FROM"

        async def work(conn: AsyncConnection) -> list[str]:
            cur = await conn.execute(
                f"{verb} memories m WHERE {mine('m')} AND m.provenance = %s AND m.created_at < %s "
                "AND NOT EXISTS (SELECT 1 FROM memory_access a WHERE a.household = m.household "
                "AND a.id = m.id AND a.access_count > 0)" + ("" if dry_run else " RETURNING m.id"),
                (Provenance.INFERRED.value, created_before),
            )
            return [r[0] for r in await cur.fetchall()]

        return self._write(work, memories=not dry_run)


async def _insert_memory(conn: AsyncConnection, memory: Memory, values: list[Any]) -> None:
    """INSERT one memory: its row (ROW_COLUMNS values, embedding, emb_provider, emb_model,
    emb_dimension; the full-text columns made here from content and language) and its access
    counts when it has any."""
    text = fulltext_columns(memory.content, memory.language)
    cols = [*ROW_COLUMNS, "embedding", "emb_provider", "emb_model", "emb_dimension", *TEXT_COLUMNS]
    await conn.execute(f"INSERT INTO memories ({', '.join(cols)}) VALUES ({_marks(cols)})", [*values, *text])
    if memory.access_count or memory.last_accessed_at is not None:
        await conn.execute(
            "INSERT INTO memory_access (id, access_count, last_accessed_at) VALUES (%s, %s, %s)",
            (memory.id, memory.access_count, memory.last_accessed_at),
        )


def _marks(columns: Sequence[str]) -> str:
    """The VALUES placeholders of `columns` (tsvector columns cast from their input text)."""
    return ", ".join("%s::tsvector" if c.endswith("_tsv") else "%s" for c in columns)


async def _rewrite(conn: AsyncConnection, memory: Memory, embedding: tuple[Any, ...] | None) -> bool:
    """UPDATE one memory's row (and full text when content or language changed, the vector and its
    identity when given; its access counts are recall's and stay); False when it is gone."""
    sets = [f"{c} = %s" for c in ROW_COLUMNS[1:]]
    values = memory_values(memory)[1:]
    if embedding is not None:
        sets += ["embedding = %s", "emb_provider = %s", "emb_model = %s", "emb_dimension = %s"]
        values += list(embedding)
    cur = await conn.execute(
        f"SELECT content, language FROM memories WHERE {mine()} AND id = %s FOR UPDATE", (memory.id,)
    )
    row = await cur.fetchone()
    if row is None:
        return False
    if (row[0], row[1]) != (memory.content, memory.language):
        sets += ["content_tsv = %s::tsvector", "content_len = %s", "terms = %s", "terms_tsv = %s::tsvector",
                 "terms_len = %s"]  # fmt: skip
        values += list(fulltext_columns(memory.content, memory.language))
    await conn.execute(
        f"UPDATE memories SET {', '.join(sets)} WHERE {mine()} AND id = %s", [*values, memory.id]
    )
    return True


async def _retire(
    conn: AsyncConnection, changes: Sequence[tuple[str, Status]], by: str, at: datetime
) -> None:
    if not changes:
        return
    async with conn.cursor() as cur:
        await cur.executemany(
            f"UPDATE memories SET status = %s, superseded_by = %s, valid_to = %s WHERE {mine()} AND id = %s",
            [(status.value, by, at, mid) for mid, status in changes],
        )
