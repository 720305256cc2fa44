"""Re-embedding (stale, set_vector) and diagnostics (counts) on PostgreSQL."""

from __future__ import annotations

from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ..sql import tally, tally_tombstones
from .connection import PostgresConnection
from .rows import as_vector, mine


class PostgresUpkeep(PostgresConnection):
    """stale, set_vector and counts (see the module docstring)."""

    def stale(self, limit: int) -> list[tuple[str, str]]:
        """(id, content) of memories whose vector is of another identity (or missing)."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            f"SELECT id, content FROM memories WHERE {mine()} AND (embedding IS NULL "
            "OR emb_provider IS DISTINCT FROM %s OR emb_model IS DISTINCT FROM %s "
            "OR emb_dimension IS DISTINCT FROM %s) ORDER BY seq LIMIT %s",
            (provider, model, dim, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def set_vector(self, memory_id: str, vector: Vectors) -> None:
        """Replace a memory's vector with one of the active identity (re-embedding); committed."""
        ident = self._identity_values()

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                "UPDATE memories SET embedding = %s, emb_provider = %s, emb_model = %s, emb_dimension = %s "
                f"WHERE {mine()} AND id = %s",
                (as_vector(vector), *ident, memory_id),
            )

        self._write(work)

    def counts(self) -> dict[str, int]:
        """memories, active, tombstones, stale, and scope:/provenance:/status:/tombstone_scope:
        counts (no text; base.MemoryStore.counts), in one round trip."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            f"SELECT 'm', scope, status, provenance, count(*) FROM memories WHERE {mine()} "
            "GROUP BY scope, status, provenance "
            f"UNION ALL SELECT 't', scope, NULL, NULL, count(*) FROM tombstones WHERE {mine()} "
            "AND lifted_at IS NULL GROUP BY scope "
            f"UNION ALL SELECT 's', NULL, NULL, NULL, count(*) FROM memories WHERE {mine()} "
            "AND (embedding IS NULL "
            "OR emb_provider IS DISTINCT FROM %s OR emb_model IS DISTINCT FROM %s "
            "OR emb_dimension IS DISTINCT FROM %s)",
            (provider, model, dim),
        )  # fmt: skip
        out = tally([r[1:] for r in rows if r[0] == "m"])
        out |= tally_tombstones([(r[1], r[4]) for r in rows if r[0] == "t"])
        out["stale"] = next(r[4] for r in rows if r[0] == "s")
        return out
