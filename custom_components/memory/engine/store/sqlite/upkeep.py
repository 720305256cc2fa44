"""Re-embedding and diagnostics of the SQLite store: memories of another embedding identity
(stale), replacing a vector, row counts, the in-RAM index footprint."""

from __future__ import annotations

from ...embedding.base import Vectors, to_blob
from ...models import Scope, Status
from ..sql import tally, tally_tombstones
from .connection import SqliteConnection


class SqliteUpkeep(SqliteConnection):
    """stale, set_vector and counts of MemoryStore; footprint (SQLite only)."""

    def stale(self, limit: int) -> list[tuple[str, str]]:
        """(id, content) of memories whose vector is of another identity (or missing)."""
        provider, model, dim = self._identity_values()
        return [
            (r[0], r[1])
            for r in self._read(
                "SELECT id, content FROM memories WHERE embedding IS NULL OR emb_provider IS NOT ? "
                "OR emb_model IS NOT ? OR emb_dimension IS NOT ? LIMIT ?",
                (provider, model, dim, limit),
            )
        ]

    def set_vector(self, memory_id: str, vector: Vectors) -> None:
        """Replace a memory's vector with one of the active identity (re-embedding); committed."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE memories SET embedding = ?, emb_provider = ?, emb_model = ?, emb_dimension = ? "
                "WHERE id = ?",
                (to_blob(vector), *self._identity_values(), memory_id),
            )
            row = conn.execute(
                "SELECT scope, owner_id, area_id, status, language FROM memories WHERE id = ?", (memory_id,)
            ).fetchone()
            if row is not None:
                self._after_commit(lambda index: index.upsert(
                    memory_id, vector, scope=Scope(row[0]), owner_id=row[1], area_id=row[2],
                    status=Status(row[3]), language=row[4],
                ))  # fmt: skip

    def footprint(self) -> dict[str, int]:
        """In-RAM index size for diagnostics: rows, capacity (rows), index_bytes (allocated),
        dims (stored per row: the embedding dimension when exact, COMPACT_DIMS when compact)."""
        with self._state:
            index = self._idx()
            return {"rows": index.size, "capacity": len(index.vectors), "index_bytes": index.nbytes(),
                    "dims": int(index.vectors.shape[1])}  # fmt: skip

    def counts(self) -> dict[str, int]:
        """memories, active, tombstones, stale, and scope:/provenance:/status:/tombstone_scope:
        counts (no text; base.MemoryStore.counts)."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            "SELECT scope, status, provenance, count(*) FROM memories GROUP BY scope, status, provenance", ()
        )
        out = tally(rows)
        out |= tally_tombstones(
            self._read("SELECT scope, count(*) FROM tombstones WHERE lifted_at IS NULL GROUP BY scope", ())
        )
        out["stale"] = self._read(
            "SELECT count(*) FROM memories WHERE embedding IS NULL OR emb_provider IS NOT ? "
            "OR emb_model IS NOT ? OR emb_dimension IS NOT ?",
            (provider, model, dim),
        )[0][0]
        return out
