"""Forgetting on PostgreSQL (TombstoneStore): deleting memories into tombstones (vector, scope,
anchor digests; never the text), the blocking check (store/tombstone_rule.py), lifting.

A deleted row leaves every query at once and the disk at the next (auto)vacuum; PostgreSQL has
no secure_delete (SqliteStore zeroes freed pages), its WAL and backups keep old pages as long as
the server's settings say."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ...models import Memory, Scope, Tombstone
from ..base import Bucket
from ..sql import MEMORY_COLUMNS
from ..tombstone_rule import blocking
from .connection import PostgresConnection
from .rows import as_array, mine, select_list, to_memory


class PostgresTombstones(PostgresConnection):
    """TombstoneStore (see the module docstring)."""

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
                f"DELETE FROM memories m WHERE {mine('m')} AND m.id = ANY(%s) RETURNING "
                + select_list(MEMORY_COLUMNS, access=False)
                + ", m.embedding, m.emb_provider, m.emb_model, m.emb_dimension",
                (ids,),
            )
            n = len(MEMORY_COLUMNS)
            gone = {row[0]: row for row in await cur.fetchall()}
            done = []
            for mid in ids:
                if (row := gone.pop(mid, None)) is None:
                    continue
                memory = to_memory(row[:n])
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
            f"WHERE {mine()} AND lifted_at IS NULL AND scope = %s AND owner_id IS NOT DISTINCT FROM %s "
            "AND area_id IS NOT DISTINCT FROM %s AND emb_provider = %s AND emb_model = %s "
            "AND emb_dimension = %s",
            (bucket.scope.value, bucket.owner_id, bucket.area_id, *self._identity_values()),
            binary=True,
        )
        if not rows:
            return []
        sims = np.stack([as_array(r[5]) for r in rows]) @ vector
        found = blocking(sims, [r[6] for r in rows], threshold, anchors, anchor_threshold)
        return [(_tombstone(rows[i]), sim) for i, sim in found]

    def lift_tombstones(self, ids: list[str], at: datetime) -> None:
        """Mark tombstones lifted (an explicit remember); committed."""
        if not ids:
            return

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                f"UPDATE tombstones SET lifted_at = %s WHERE {mine()} AND id = ANY(%s)", (at, ids)
            )

        self._write(work)

    def claim_anchor_check(self, check: str) -> str:
        """The household's anchor-key check, `check` when it had none (store/base.py); committed."""

        async def work(conn: AsyncConnection) -> str:
            await conn.execute(
                "INSERT INTO anchor_checks (value) VALUES (%s) ON CONFLICT DO NOTHING", (check,)
            )
            cur = await conn.execute(f"SELECT value FROM anchor_checks WHERE {mine()}")
            row = await cur.fetchone()
            return str(row[0]) if row else check

        return self._write(work, memories=False)

    def list_tombstones(self, *, limit: int, offset: int) -> tuple[list[Tombstone], int]:
        """Every tombstone of this household (lifted ones too), newest first, the page and the total."""
        total = self._read(f"SELECT count(*) FROM tombstones WHERE {mine()}")[0][0]
        rows = self._read(
            f"{_SELECT_TOMBSTONE} WHERE {mine()} ORDER BY created_at DESC, id LIMIT %s OFFSET %s",
            (limit, offset),
        )
        return [_tombstone(r, lifted=True) for r in rows], int(total)

    def get_tombstone(self, tombstone_id: str) -> Tombstone | None:
        """One tombstone (lifted or not), else None."""
        rows = self._read(f"{_SELECT_TOMBSTONE} WHERE {mine()} AND id = %s", (tombstone_id,))
        return _tombstone(rows[0], lifted=True) if rows else None


_SELECT_TOMBSTONE = "SELECT id, scope, owner_id, area_id, created_at, lifted_at FROM tombstones"


def _tombstone(row: Sequence[Any], *, lifted: bool = False) -> Tombstone:
    """A tombstone from (id, scope, owner_id, area_id, created_at, ...); lifted: row[5] is lifted_at."""
    lifted_at = row[5].astimezone(UTC) if lifted and row[5] is not None else None
    return Tombstone(id=row[0], scope=Scope(row[1]), owner_id=row[2], area_id=row[3],
                     created_at=row[4].astimezone(UTC), lifted_at=lifted_at)  # fmt: skip
