"""Re-embedding (stale, set_vector) and diagnostics (counts) on PostgreSQL."""

from __future__ import annotations

from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ...models import Status
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
        """memories, active, tombstones, stale, and scope:<name> counts (no text)."""
        provider, model, dim = self._identity_values()
        out: dict[str, int] = {"memories": 0, "active": 0}
        rows = self._read(
            f"SELECT 'm', scope, status, count(*) FROM memories WHERE {mine()} GROUP BY scope, status "
            f"UNION ALL SELECT 't', NULL, NULL, count(*) FROM tombstones WHERE {mine()} "
            "AND lifted_at IS NULL "
            f"UNION ALL SELECT 's', NULL, NULL, count(*) FROM memories WHERE {mine()} "
            "AND (embedding IS NULL "
            "OR emb_provider IS DISTINCT FROM %s OR emb_model IS DISTINCT FROM %s "
            "OR emb_dimension IS DISTINCT FROM %s)",
            (provider, model, dim),
        )  # fmt: skip
        for kind, scope, status, n in rows:
            if kind == "t":
                out["tombstones"] = n
            elif kind == "s":
                out["stale"] = n
            else:
                out["memories"] += n
                if status == Status.ACTIVE.value:
                    out["active"] += n
                    out[f"scope:{scope}"] = out.get(f"scope:{scope}", 0) + n
        return out
