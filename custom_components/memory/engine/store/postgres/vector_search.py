"""The vector legs of SearchLegs on pgvector: `embedding vector` without a fixed dimension, with
the embedding identity on each row; for the active identity's dimension d a partial HNSW index
on `embedding::vector(d)` (cosine, migrations.ensure_vector_index), searched with
`hnsw.iterative_scan = relaxed_order` (connection.py) so filtered searches (visibility, current,
household) still fill their top-k; the rows are re-sorted by their exact distance."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ...models import Memory, Scope, Status
from ..base import Bucket, Visibility
from ..sql import current_sql, visibility_sql
from .connection import INDEX_ONLY, PostgresConnection
from .rows import as_array, as_vector, memory_at, mine, row_select, with_access, with_rows

SEMANTIC_LEAD = ("id", "distance", "language", "embedding")  # a leg's own columns, before its memory's
CANDIDATES_TTL = 10.0  # s: semantic's rows serve the rest of that recall (vectors, languages)


class PostgresVectorSearch(PostgresConnection):
    """semantic, nearest_in_buckets, similarities, languages and vectors of SearchLegs.

    semantic() reads the language and vector of every row it returns in the same query and keeps
    them (the candidates) for CANDIDATES_TTL seconds or until this store's next write: recall
    asks for the vectors and languages of mostly those rows next, and gets them without another
    round trip to the server."""

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """Top-k current memories visible under `vis` by cosine, best first: [(id, similarity)];
        and the top `owned_k` PRIVATE ones owned by vis.owner_id (the speaker's own memories;
        empty for the admin view or an unknown speaker). One round trip (a pipeline).
        Similarities are exact cosines (1 - pgvector's cosine distance); the HNSW index (relaxed
        iterative scan) chooses the top-k rows, which are re-sorted by them; the owned leg is
        planned freely (one person's private rows are often few: an exact scan of them is both
        faster and exact)."""
        owned, top = self._semantic_sql(vector, vis, k, owned_k)

        async def work(conn: AsyncConnection) -> tuple[list[Any], list[Any]]:
            async with conn.pipeline(), conn.transaction():
                mine_cur = await conn.execute(*owned, binary=True) if owned else None
                await conn.execute(INDEX_ONLY)
                top_cur = await conn.execute(*top, binary=True)
                return await top_cur.fetchall(), (await mine_cur.fetchall() if mine_cur else [])

        return self._semantic_answer(*self._run(work), k, owned_k)

    def _semantic_sql(
        self, vector: Vectors, vis: Visibility, k: int, owned_k: int, *, rows: bool = False
    ) -> tuple[tuple[str, list[Any]] | None, tuple[str, list[Any]]]:
        """semantic's statements (the owned leg's, None without one; the top leg's, to run after
        INDEX_ONLY), each row (id, distance, language, vector); rows: and its memory's columns
        (with_rows' layout; read by the leg itself, with_access)."""
        provider, model, dim = self._identity_values()
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        q = as_vector(vector)
        distance = f"m.embedding::vector({dim}) <=> %s"
        columns = f"m.id, {distance} AS distance, m.language, m.embedding" + (
            f", {row_select()}" if rows else ""
        )
        leg = (
            f"SELECT {columns} FROM memories m "
            f"WHERE m.emb_dimension = {dim} AND {mine('m')} AND m.emb_provider = %s AND m.emb_model = %s "
            f"AND {current} AND {where} {{}}ORDER BY {distance} LIMIT %s"
        )
        args: list[Any] = [q, provider, model, *at, *params]
        owned = None
        if owned_k > 0 and vis.owner_id is not None and not vis.everything:
            owned = (leg.format("AND m.scope = %s AND m.owner_id = %s "),
                     [*args, Scope.PRIVATE.value, vis.owner_id, q, owned_k])  # fmt: skip
        top = (leg.format(""), [*args, q, k])
        if rows:
            return (with_access(*owned, SEMANTIC_LEAD) if owned else None), with_access(*top, SEMANTIC_LEAD)
        return owned, top

    def _semantic_answer(
        self, top_rows: list[Any], owned_rows: list[Any], k: int, owned_k: int
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """semantic's answer from its statements' rows; keeps their languages and vectors."""
        seen = {r[0]: (r[2], r[3]) for r in (*top_rows, *owned_rows)}
        self._keep_candidates(seen, fresh=True)
        top, mine_ = (sorted(((r[0], 1.0 - float(r[1])) for r in rows), key=lambda t: (-t[1], t[0]))
                      for rows in (top_rows, owned_rows))  # fmt: skip
        return top[:k], mine_[:owned_k]

    def _known(self, ids: list[str]) -> dict[str, tuple[str, Any]]:
        """The candidates of the last semantic() among `ids` (language, vector), while fresh."""
        with self._lock:
            if time.monotonic() - self._candidates_at > CANDIDATES_TTL:
                self._candidates = {}
            return {i: got for i in ids if (got := self._candidates.get(i)) is not None}

    def nearest_in_buckets(
        self, vector: Vectors, buckets: Sequence[Bucket], k: int
    ) -> list[list[tuple[Memory, float]]]:
        """For each bucket, its top-k current memories of exactly that scope/owner/area, best
        first, by exact cosine, with their rows: one statement (a UNION ALL of one ordered,
        limited query per bucket; with_rows joins the few rows found, the sort carries ids
        only). Each is planned freely: a small bucket is read by its index and compared
        exactly, a large one (the household's shared memories) walks the HNSW index with the
        bucket as filter (relaxed iterative scan); a near-duplicate, the one this looks for, is
        what HNSW finds first. The rows are re-sorted by their exact similarity."""
        if not buckets:
            return []
        provider, model, dim = self._identity_values()
        q = as_vector(vector)
        distance = f"m.embedding::vector({dim}) <=> %s"
        parts: list[str] = []
        params: list[Any] = []
        for n, bucket in enumerate(buckets):
            # "IS NULL" / "= value", not IS NOT DISTINCT FROM: the planner cannot estimate that,
            # took every bucket for one row and read all 10k shared memories of a 100k store exactly
            owner, area = (
                ("IS NULL", []) if v is None else ("= %s", [v]) for v in (bucket.owner_id, bucket.area_id)
            )
            parts.append(
                f"(SELECT m.id, {n} AS bucket, {distance} AS distance FROM memories m "
                f"WHERE m.emb_dimension = {dim} AND {mine('m')} AND m.scope = %s AND m.owner_id {owner[0]} "
                f"AND m.area_id {area[0]} AND m.status = %s AND m.emb_provider = %s AND m.emb_model = %s "
                f"ORDER BY {distance} LIMIT %s)"
            )
            params += [q, bucket.scope.value, *owner[1], *area[1], Status.ACTIVE.value, provider, model, q, k]
        found: list[list[tuple[Memory, float]]] = [[] for _ in buckets]
        for row in self._read(*with_rows(" UNION ALL ".join(parts), params)):
            found[row[1]].append((memory_at(row, 3), 1.0 - float(row[2])))
        return [sorted(rows, key=lambda t: (-t[1], t[0].id)) for rows in found]

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
        known = self._known(ids)
        out = {i: language for i, (language, _) in known.items()}
        rest = [i for i in dict.fromkeys(ids) if i not in known]
        if rest:
            provider, model, dim = self._identity_values()
            out.update(self._read(
                f"SELECT id, language FROM memories WHERE {mine()} AND id = ANY(%s) AND emb_provider = %s "
                "AND emb_model = %s AND emb_dimension = %s",
                [rest, provider, model, dim],
            ))  # fmt: skip
        return out

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories of the active identity (order kept)."""
        provider, model, dim = self._identity_values()
        known = {i: as_array(vec) for i, (_, vec) in self._known(ids).items()}
        rest = [i for i in dict.fromkeys(ids) if i not in known]
        if rest:
            rows = self._read(
                f"SELECT id, embedding FROM memories WHERE {mine()} AND id = ANY(%s) AND emb_provider = %s "
                "AND emb_model = %s AND emb_dimension = %s AND embedding IS NOT NULL",
                [rest, provider, model, dim],
                binary=True,
            )
            known.update((mid, as_array(emb)) for mid, emb in rows)
        found = [i for i in dict.fromkeys(ids) if i in known]
        if not found:
            return [], np.zeros((0, dim), dtype=np.float32)
        return found, np.stack([known[i] for i in found])
