"""The search legs SQLite answers from the in-RAM vector index (half of SearchLegs; fulltext.py is
the other): semantic top-k under a Visibility, a dedup bucket's nearest, exact similarities,
stored vectors and languages. The index compiles the visibility rule itself
(VectorIndex.granted); "current" is its status column, or with Visibility.as_of the ids the SQL
compilation selects. In compact mode (index.py) a coarse pool is re-ranked by exact cosine."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...embedding.base import Vectors
from ...models import Memory, Scope, Status
from ..base import EVERYTHING, Bucket, Visibility
from ..vectors import SCOPE_CODES, STATUS_CODES, Mask, VectorIndex
from .connection import SqliteConnection
from .rows import memory_of, select_current, where_current

COARSE_POOL = 300  # coarse rows re-ranked exactly for the semantic top-k (measured: index.py)
COARSE_POOL_SMALL = 32  # for small k: the speaker's own memories, a dedup bucket's nearest


def _best(pool: list[tuple[str, float]], exact: dict[str, float], k: int) -> list[tuple[str, float]]:
    """The k pool ids with the highest exact cosine, best first (ties by id)."""
    ranked = sorted(((i, exact[i]) for i, _ in pool if i in exact), key=lambda t: (-t[1], t[0]))
    return ranked[:k]


class SqliteVectorSearch(SqliteConnection):
    """semantic, nearest_in_buckets, similarities, vectors and languages of SearchLegs.

    The index is read under the state lock (connection.py); rows it names are read from SQLite
    after the lock is released (an id forgotten meanwhile is simply not found)."""

    def _visibility_mask(self, index: VectorIndex, vis: Visibility, current_ids: list[str] | None) -> Mask:
        """The visibility rule (the index compiles vis.grants()) plus "current only" as a mask
        over index rows: status active, from the index; with vis.as_of the rows of
        `current_ids` (what where_current selects: the index keeps no times; looking back is rare)."""
        mask = index.granted(vis.grants())
        if current_ids is None:
            active: Mask = index.status[: index.size] == STATUS_CODES[Status.ACTIVE]
            return mask & active
        current: Mask = np.zeros(index.size, dtype=np.bool_)
        current[[row for mid in current_ids if (row := index.row_of.get(mid)) is not None]] = True
        return mask & current

    def _current_ids(self, vis: Visibility) -> list[str] | None:
        """The ids where_current selects when vis looks back (vis.as_of), else None."""
        if vis.as_of is None:
            return None
        current, at = where_current(vis)
        return [mid for (mid,) in self._read(f"SELECT m.id FROM memories m WHERE {current}", at)]

    @staticmethod
    def _bucket_mask(index: VectorIndex, bucket: Bucket) -> Mask:
        n = index.size
        mask: Mask = index.scope[:n] == SCOPE_CODES[bucket.scope]
        mask &= index.owner[:n] == index.code("owner", bucket.owner_id)
        mask &= index.area[:n] == index.code("area", bucket.area_id)
        mask &= index.status[:n] == STATUS_CODES[Status.ACTIVE]
        return mask

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """Top-k current memories visible under `vis` by cosine, best first: [(id, similarity)];
        and, in the same pass, the top `owned_k` PRIVATE ones owned by vis.owner_id (the
        speaker's own memories; empty for the admin view or an unknown speaker).
        Similarities are exact cosines in both index modes."""
        current_ids = self._current_ids(vis)
        with self._state:
            index = self._idx()
            scores = index.scores(vector)
            visible = self._visibility_mask(index, vis, current_ids)
            owned: list[tuple[str, float]] = []
            if owned_k > 0 and vis.owner_id is not None and not vis.everything:
                n = index.size
                mine = visible & (index.scope[:n] == SCOPE_CODES[Scope.PRIVATE])
                mine &= index.owner[:n] == index.code("owner", vis.owner_id)
                owned = index.top(scores, mine, owned_k if index.exact else max(owned_k, COARSE_POOL_SMALL))
            if index.exact:
                return index.top(scores, visible, k), owned
            pool = index.top(scores, visible, max(k, COARSE_POOL))
        exact = self.similarities(list(dict.fromkeys(i for i, _ in [*pool, *owned])), vector)
        return _best(pool, exact, k), _best(owned, exact, owned_k)

    def nearest_in_buckets(
        self, vector: Vectors, buckets: Sequence[Bucket], k: int
    ) -> list[list[tuple[Memory, float]]]:
        """For each bucket, its top-k current memories by exact cosine, best first, with their
        rows. The rows of all the buckets are scored in one pass (buckets are a fraction: no full
        pass); a memory retired after the index was read is left out."""
        with self._state:
            index = self._idx()
            masks = [self._bucket_mask(index, bucket) for bucket in buckets]
            rows = np.flatnonzero(np.logical_or.reduce(masks)) if masks else np.zeros(0, dtype=np.intp)
            if rows.size == 0:
                return [[] for _ in buckets]
            scores = np.zeros(index.size, dtype=np.float32)
            scores[rows] = index.scores_of(rows, vector)
            if index.exact:
                found = [index.top(scores, mask, k) for mask in masks]
            else:
                pools = [index.top(scores, mask, max(k, COARSE_POOL_SMALL)) for mask in masks]
        if not index.exact:
            exact = self.similarities(list(dict.fromkeys(i for pool in pools for i, _ in pool)), vector)
            found = [_best(pool, exact, k) for pool in pools]
        ids = list(dict.fromkeys(i for near in found for i, _ in near))
        if not ids:
            return [[] for _ in buckets]
        read = {m.id: m for m in map(memory_of, self._read(*select_current(ids, EVERYTHING)))}
        return [[(read[i], cosine) for i, cosine in near if i in read] for near in found]

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """Exact cosine of `vector` with each listed memory's vector (ids of another identity omitted)."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language of each listed memory in the index (from RAM, no query), by id."""
        with self._state:
            return self._idx().languages(ids)

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories that are in the index (order kept):
        from the matrix when exact, else read from SQLite (the index holds projections) unless
        read lately (VectorIndex.keep_exact)."""
        with self._state:
            index = self._idx()
            found = [i for i in ids if i in index.row_of]
            if index.exact or not found:
                return found, index.vectors[[index.row_of[i] for i in found]]  # a copy (fancy indexing)
            kept, writes = index.kept_exact(found), index.vector_writes
        missing = [i for i in found if i not in kept]
        if missing:
            rows = self._read(
                f"SELECT id, embedding FROM memories WHERE id IN ({', '.join('?' * len(missing))})", missing
            )
            read = {mid: np.frombuffer(blob, dtype="<f4").astype(np.float32) for mid, blob in rows}
            with self._state:
                index.keep_exact(read, writes)
            kept.update(read)
        found = [i for i in found if i in kept]
        if not found:
            return [], np.zeros((0, index.dimension), dtype=np.float32)
        return found, np.stack([kept[i] for i in found])
