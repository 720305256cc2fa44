"""The vector legs of SearchLegs on pgvector: `embedding vector` without a fixed dimension, with
the embedding identity on each row; for the active identity's dimension d a partial HNSW index
on `embedding::vector(d)` (cosine, migrations.ensure_vector_index), searched with
`hnsw.iterative_scan = relaxed_order` (connection.py) so filtered searches (visibility, current,
household) still fill their top-k; the rows are re-sorted by their exact distance."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...embedding.base import Vectors
from ...models import Scope, Status
from ..base import Bucket, Visibility
from ..sql import current_sql, visibility_sql
from .connection import PostgresConnection
from .rows import as_array, as_vector, mine


class PostgresVectorSearch(PostgresConnection):
    """semantic, nearest_in_bucket, similarities, languages and vectors of SearchLegs."""

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """Top-k current memories visible under `vis` by cosine, best first: [(id, similarity)];
        and, in the same query, the top `owned_k` PRIVATE ones owned by vis.owner_id (the
        speaker's own memories; empty for the admin view or an unknown speaker).
        Similarities are exact cosines (1 - pgvector's cosine distance); the HNSW index (relaxed
        iterative scan) chooses the rows, which are re-sorted by them."""
        provider, model, dim = self._identity_values()
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        q = as_vector(vector)
        distance = f"m.embedding::vector({dim}) <=> %s"
        leg = (
            f"SELECT {{}} AS leg, m.id, {distance} AS distance FROM memories m WHERE m.emb_dimension = {dim} "
            f"AND {mine('m')} AND m.emb_provider = %s AND m.emb_model = %s AND {current} AND {where} {{}}"
            f"ORDER BY {distance} LIMIT %s"
        )
        sql = f"({leg.format(0, '')})"
        args: list[Any] = [q, provider, model, *at, *params, q, k]
        owned = owned_k > 0 and vis.owner_id is not None and not vis.everything
        if owned:
            sql += f" UNION ALL ({leg.format(1, 'AND m.scope = %s AND m.owner_id = %s ')})"
            args += [q, provider, model, *at, *params, Scope.PRIVATE.value, vis.owner_id, q, owned_k]
        legs: tuple[list[tuple[str, float]], list[tuple[str, float]]] = ([], [])
        for which, mid, dist in self._read(sql, args, by_index=True):
            legs[which].append((mid, 1.0 - float(dist)))
        top, owned_rows = (sorted(leg_, key=lambda t: (-t[1], t[0])) for leg_ in legs)
        return top[:k], owned_rows[:owned_k]

    def nearest_in_bucket(self, vector: Vectors, bucket: Bucket, k: int) -> list[tuple[str, float]]:
        """Top-k current memories of exactly this scope/owner/area (dedup), best first, by exact
        cosine: a plain filtered scan of the bucket (no approximate index)."""
        provider, model, dim = self._identity_values()
        rows = self._read(
            "SELECT m.id, 1 - (m.embedding <=> %s) AS sim FROM memories m "
            f"WHERE {mine('m')} AND m.scope = %s AND m.owner_id IS NOT DISTINCT FROM %s "
            "AND m.area_id IS NOT DISTINCT FROM %s AND m.status = %s AND m.emb_provider = %s "
            "AND m.emb_model = %s AND m.emb_dimension = %s ORDER BY sim DESC, m.id LIMIT %s",
            [as_vector(vector), bucket.scope.value, bucket.owner_id, bucket.area_id, Status.ACTIVE.value,
             provider, model, dim, k],
        )  # fmt: skip
        return [(mid, float(sim)) for mid, sim in rows]

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """Exact cosine of `vector` with each listed memory's vector (ids of another identity omitted)."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language of each listed memory with a vector of the active identity, by id."""
        if not ids:
            return {}
        provider, model, dim = self._identity_values()
        rows = self._read(
            f"SELECT id, language FROM memories WHERE {mine()} AND id = ANY(%s) AND emb_provider = %s "
            "AND emb_model = %s AND emb_dimension = %s",
            [ids, provider, model, dim],
        )
        return dict(rows)

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories of the active identity (order kept)."""
        provider, model, dim = self._identity_values()
        if not ids:
            return [], np.zeros((0, dim), dtype=np.float32)
        rows = self._read(
            f"SELECT id, embedding FROM memories WHERE {mine()} AND id = ANY(%s) AND emb_provider = %s "
            "AND emb_model = %s AND emb_dimension = %s AND embedding IS NOT NULL",
            [ids, provider, model, dim],
            binary=True,
        )
        got = dict(rows)
        found = [i for i in dict.fromkeys(ids) if i in got]
        if not found:
            return [], np.zeros((0, dim), dtype=np.float32)
        return found, np.stack([as_array(got[i]) for i in found])
