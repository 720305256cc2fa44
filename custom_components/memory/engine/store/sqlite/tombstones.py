"""Forgetting in SQLite (TombstoneStore): a memory's row, FTS rows and index row go, a tombstone
(vector, bucket, keyed anchor digests; never the text) stays and blocks re-learning."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any

import numpy as np

from ...embedding.base import Vectors, from_blob
from ...models import Memory, Scope, Tombstone
from ..base import Bucket
from ..sql import MEMORY_COLUMNS
from ..tombstone_rule import blocking
from ..vectors import VectorIndex
from .connection import SqliteConnection
from .fulltext import fts_drop
from .rows import dt, memory_of, ts


class SqliteTombstones(SqliteConnection):
    """TombstoneStore over the shared connection (store/base.py)."""

    def delete_to_tombstones(
        self, ids: list[str], at: datetime, anchors_of: Callable[[str], Collection[str]] | None = None
    ) -> list[tuple[Memory, Tombstone]]:
        """Delete memories (row and FTS entry) leaving tombstones (vector + scope + the digests
        anchors_of(content) gives, never the text).

        Afterwards the FTS index is optimised (deleted terms leave its segments) and the WAL
        checkpointed and truncated, so with secure_delete no copy of the text stays in the file.
        """
        done: list[tuple[Memory, Tombstone]] = []
        with self._tx() as conn:
            for mid in ids:
                row = conn.execute(
                    f"SELECT {', '.join('m.' + c for c in MEMORY_COLUMNS)}, m.rowid, m.embedding, "
                    "m.emb_provider, m.emb_model, m.emb_dimension FROM memories m WHERE m.id = ?",
                    (mid,),
                ).fetchone()
                if row is None:
                    continue
                n = len(MEMORY_COLUMNS)
                memory = memory_of(row[:n])
                rowid, blob, provider, model, dim = row[n:]
                tomb = Tombstone(
                    id=memory.id,
                    scope=memory.scope,
                    owner_id=memory.owner_id,
                    area_id=memory.area_id,
                    created_at=at,
                )
                digests = " ".join(sorted(anchors_of(memory.content))) if anchors_of else ""
                conn.execute(
                    "INSERT OR REPLACE INTO tombstones (id, scope, owner_id, area_id, embedding, "
                    "emb_provider, emb_model, emb_dimension, created_at, lifted_at, anchors) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                    (tomb.id, tomb.scope.value, tomb.owner_id, tomb.area_id, blob, provider, model, dim,
                     ts(at), digests or None),
                )  # fmt: skip
                self._after_commit(text=fts_drop(conn, rowid))
                conn.execute("DELETE FROM memories WHERE rowid = ?", (rowid,))
                done.append((memory, tomb))
            if done:
                conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
                conn.execute("INSERT INTO memories_terms(memories_terms) VALUES ('optimize')")
                gone = [memory.id for memory, _ in done]

                def removed(index: VectorIndex) -> None:
                    for mid in gone:
                        index.remove(mid)

                self._after_commit(removed, rows=-len(gone))
                self._checkpoint_owed = True  # after the commit: no copy of the text stays in the WAL
        return done

    def tombstones_near(
        self,
        vector: Vectors,
        bucket: Bucket,
        threshold: float,
        *,
        anchors: Collection[str] = (),
        anchor_threshold: float | None = None,
    ) -> list[tuple[Tombstone, float]]:
        """Unlifted tombstones of this bucket and the active identity with cosine ≥ threshold, or
        ≥ anchor_threshold when their stored digests share one of `anchors`; best first."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            "SELECT id, scope, owner_id, area_id, created_at, embedding, anchors FROM tombstones "
            "WHERE lifted_at IS NULL AND scope = ? AND owner_id IS ? AND area_id IS ? "
            "AND emb_provider = ? AND emb_model = ? AND emb_dimension = ?",
            (bucket.scope.value, bucket.owner_id, bucket.area_id, provider, model, dim),
        )
        if not rows:
            return []
        sims = np.stack([from_blob(r[5]) for r in rows]) @ vector
        found = blocking(sims, [r[6] for r in rows], threshold, anchors, anchor_threshold)
        return [(_tombstone(rows[i]), sim) for i, sim in found]

    def lift_tombstones(self, ids: list[str], at: datetime) -> None:
        """Mark tombstones lifted (an explicit remember); committed."""
        if not ids:
            return
        with self._tx() as conn:
            conn.executemany("UPDATE tombstones SET lifted_at = ? WHERE id = ?", [(ts(at), i) for i in ids])

    def claim_anchor_check(self, check: str) -> str:
        """The file's anchor-key check, `check` when it had none (store/base.py); committed."""
        with self._tx() as conn:
            conn.execute("INSERT OR IGNORE INTO anchor_check (id, value) VALUES (1, ?)", (check,))
            return str(conn.execute("SELECT value FROM anchor_check WHERE id = 1").fetchone()[0])

    def list_tombstones(self, *, limit: int, offset: int) -> tuple[list[Tombstone], int]:
        """Every tombstone (lifted ones too), newest first: the page and the total."""
        with self._reading(snapshot=True) as conn:
            total = conn.execute("SELECT count(*) FROM tombstones").fetchone()[0]
            rows = conn.execute(
                f"{_SELECT_TOMBSTONE} ORDER BY created_at DESC, id LIMIT ? OFFSET ?", (limit, offset)
            ).fetchall()
        return [_tombstone(r, lifted=True) for r in rows], int(total)

    def get_tombstone(self, tombstone_id: str) -> Tombstone | None:
        """One tombstone (lifted or not), else None."""
        rows = self._read(f"{_SELECT_TOMBSTONE} WHERE id = ?", (tombstone_id,))
        return _tombstone(rows[0], lifted=True) if rows else None


_SELECT_TOMBSTONE = "SELECT id, scope, owner_id, area_id, created_at, lifted_at FROM tombstones"


def _tombstone(row: Any, *, lifted: bool = False) -> Tombstone:
    """A tombstone from (id, scope, owner_id, area_id, created_at ISO text, ...); lifted: row[5]
    is lifted_at."""
    created = dt(row[4])
    assert created is not None
    return Tombstone(id=row[0], scope=Scope(row[1]), owner_id=row[2], area_id=row[3], created_at=created,
                     lifted_at=dt(row[5]) if lifted else None)  # fmt: skip
