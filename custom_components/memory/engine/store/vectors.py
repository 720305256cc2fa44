"""The in-memory vector index of one embedding identity, with per-row metadata as numpy arrays.

Rows hold float32 vectors in a preallocated matrix with headroom (capacity_for) that grows by
GROWTH_FACTOR; scope, owner, area and status are small integer codes (no per-row Python
objects besides the id list).

Two modes, chosen once when the store opens (store/sqlite/index.py, load_index):
- exact (basis None): the rows are the unit vectors themselves; scores are cosines.
- compact (a basis, float32[dimension, k]): the rows are the vectors projected on the top-k
  principal directions of the stored vectors (fit_basis); scores are approximate and only
  choose a coarse pool, which the store re-ranks with the exact vectors it keeps in SQLite.
  100k x 512-d: 205 MB exact, 102 MB compact at k = 256.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..embedding.base import Vectors
from ..models import Scope, Status

if TYPE_CHECKING:
    from .base import Grant

INITIAL_CAPACITY = 1024
# Capacity at open is rows x OPEN_HEADROOM. The unused rows cost no RSS: numpy's zeros come from
# calloc, whose fresh pages are mapped lazily (measured: a 150k x 512 zero matrix adds 0 MB until
# rows are written). So a session adds up to half the store again before any copy; growing then
# allocates GROWTH_FACTOR x capacity (again lazily) and copies the used rows once, a transient
# of one extra copy of the used rows instead of the old matrix living beside a doubled one.
OPEN_HEADROOM = 1.5
GROWTH_FACTOR = 1.5
# Rows compared per step by scores_of(): gathered into one reused ~1 MB buffer (L2-sized) rather
# than one fresh copy of all the rows (a 10k-row bucket at 100k memories was a 20 MB
# allocation, page-faulted on every remember).
GATHER_ROWS = 512
# Above this share of the rows, scores_of() scores every row in one pass instead of gathering them
# (measured on 10k x 512 and 100k x 256 float32: a pass wins from ~25 % of the rows).
FULL_PASS_SHARE = 0.25
# Compact mode: exact vectors kept after they were read from SQLite (the oldest go first), so a
# recall's later steps and the next recalls of the same pool do not read them again; one recall's
# pool is ~300 rows, 4096 of 512-d vectors are 8 MB.
EXACT_KEPT = 4096
SCOPE_CODES: dict[Scope, int] = {s: i for i, s in enumerate(Scope)}
STATUS_CODES: dict[Status, int] = {s: i for i, s in enumerate(Status)}
NO_CODE = -1  # no owner / no area
UNKNOWN_CODE = -2  # a person/area the index has never seen: matches nothing

type Mask = npt.NDArray[np.bool_]


def fit_basis(gram: npt.NDArray[np.float64], dims: int) -> Vectors:
    """The top-`dims` principal directions (uncentred: they best preserve dot products) of the
    vectors whose Gram matrix X^T X is `gram` (float64[d, d]) -> float32[d, dims]."""
    _, eigvecs = np.linalg.eigh(gram)  # ascending eigenvalues
    return np.ascontiguousarray(eigvecs[:, ::-1][:, :dims], dtype=np.float32)


class VectorIndex:
    """Vectors and metadata codes by row; `row_of` maps memory id -> row.

    dimension: of the embedding space; basis: None (exact rows) or float32[dimension, k]
    (compact rows; see the module docstring)."""

    def __init__(
        self, dimension: int, capacity: int = INITIAL_CAPACITY, basis: Vectors | None = None
    ) -> None:
        self.dimension = dimension
        self.basis = basis
        self.exact = basis is None
        stored = dimension if basis is None else basis.shape[1]
        self.size = 0
        self.ids: list[str] = []
        self.row_of: dict[str, int] = {}
        self._codes: dict[str, dict[str, int]] = {"owner": {}, "area": {}, "language": {}}
        capacity = max(capacity, 1)
        self.vectors: Vectors = np.zeros((capacity, stored), dtype=np.float32)
        self.scope: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.status: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.owner: npt.NDArray[np.int32] = np.zeros(capacity, dtype=np.int32)
        self.area: npt.NDArray[np.int32] = np.zeros(capacity, dtype=np.int32)
        self.language: npt.NDArray[np.int16] = np.zeros(capacity, dtype=np.int16)
        self._exact: OrderedDict[str, Vectors] = OrderedDict()  # compact mode: read lately (EXACT_KEPT)
        self.vector_writes = 0  # bumped by every vector written or row removed (see keep_exact)

    @staticmethod
    def capacity_for(rows: int) -> int:
        """Capacity to allocate at open for `rows` stored rows (headroom, see OPEN_HEADROOM)."""
        return max(INITIAL_CAPACITY, int(rows * OPEN_HEADROOM))

    def _grow(self) -> None:
        """Grow the capacity by GROWTH_FACTOR (at least one row), keeping the used rows."""
        capacity = max(len(self.vectors) + 1, int(len(self.vectors) * GROWTH_FACTOR))

        def grown[T: np.generic](old: npt.NDArray[T]) -> npt.NDArray[T]:
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            new[: self.size] = old[: self.size]
            return new

        self.vectors = grown(self.vectors)
        self.scope = grown(self.scope)
        self.status = grown(self.status)
        self.owner = grown(self.owner)
        self.area = grown(self.area)
        self.language = grown(self.language)

    def nbytes(self) -> int:
        """Bytes allocated by the arrays (capacity rows; unwritten pages are not resident)."""
        arrays = (self.vectors, self.scope, self.status, self.owner, self.area, self.language)
        return sum(a.nbytes for a in arrays) + (0 if self.basis is None else self.basis.nbytes)

    def project(self, vectors: Vectors) -> Vectors:
        """Vectors (float32[d] or [n, d]) as the index stores them (unchanged when exact)."""
        if self.basis is None:
            return vectors
        return np.asarray(vectors @ self.basis, dtype=np.float32)

    def code(self, kind: str, value: str | None, *, create: bool = False) -> int:
        """Integer code of an owner/area id or a language (NO_CODE for None, UNKNOWN_CODE if never
        seen)."""
        if value is None:
            return NO_CODE
        table = self._codes[kind]
        if value not in table:
            if not create:
                return UNKNOWN_CODE
            table[value] = len(table)
        return table[value]

    def upsert(
        self,
        memory_id: str,
        vector: Vectors | None,
        *,
        scope: Scope,
        owner_id: str | None,
        area_id: str | None,
        status: Status,
        language: str | None = None,
        projected: bool = False,
    ) -> None:
        """Add or replace a row; vector None keeps the stored one (metadata-only change).

        projected: `vector` is already project()ed (bulk loading projects whole chunks)."""
        row = self.row_of.get(memory_id)
        if row is None:
            if vector is None:
                return  # a memory of another identity: not in this index
            if self.size == len(self.vectors):
                self._grow()
            row = self.size
            self.size += 1
            memory_id = sys.intern(memory_id)  # one string for it here and in the text postings
            self.ids.append(memory_id)
            self.row_of[memory_id] = row
        if vector is not None:
            self.vectors[row] = vector if projected else self.project(vector)
            self._exact.pop(memory_id, None)
            self.vector_writes += 1
        self.scope[row] = SCOPE_CODES[scope]
        self.status[row] = STATUS_CODES[status]
        self.owner[row] = self.code("owner", owner_id, create=True)
        self.area[row] = self.code("area", area_id, create=True)
        self.language[row] = self.code("language", language, create=True)

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language of each listed memory that is in the index and has one, by id."""
        names = {code: name for name, code in self._codes["language"].items()}
        found = [i for i in ids if i in self.row_of]
        codes = self.language[[self.row_of[i] for i in found]].tolist()  # one gather, not a read per id
        return {i: names[c] for i, c in zip(found, codes, strict=True) if c in names}

    def remove(self, memory_id: str) -> None:
        """Drop a row by moving the last row into its place."""
        row = self.row_of.pop(memory_id, None)
        if row is None:
            return
        self._exact.pop(memory_id, None)
        self.vector_writes += 1
        last = self.size - 1
        if row != last:
            moved = self.ids[last]
            for arr in (self.vectors, self.scope, self.status, self.owner, self.area, self.language):
                arr[row] = arr[last]
            self.ids[row] = moved
            self.row_of[moved] = row
        self.ids.pop()
        self.size = last

    def kept_exact(self, ids: list[str]) -> dict[str, Vectors]:
        """The exact vectors (float32[dimension]) of the listed ids kept by keep_exact, by id."""
        return {i: v for i in ids if (v := self._exact.get(i)) is not None}

    def keep_exact(self, read: dict[str, Vectors], writes: int) -> None:
        """Keep exact vectors read from the file (compact mode) — unless a vector was written or a
        row removed since the read began (`writes`: vector_writes then): what was read may be old."""
        if writes != self.vector_writes:
            return
        kept = self._exact
        for mid, vector in read.items():
            if mid in self.row_of:
                kept[mid] = vector
                kept.move_to_end(mid)
        while len(kept) > EXACT_KEPT:  # the oldest first; O(1) each (a dict's first key is not)
            kept.popitem(last=False)

    def drop_exact(self) -> None:
        """Forget every exact vector keep_exact kept (the bench times searches cold with it)."""
        self._exact.clear()

    def scores(self, vector: Vectors) -> npt.NDArray[np.float32]:
        """Score of `vector` (float32[dimension]) with every row, float32[size]: the cosine when
        exact, its projection otherwise (one pass over the matrix: ~11 ms at 100k x 512)."""
        return np.asarray(self.vectors[: self.size] @ self.project(vector), dtype=np.float32)

    def scores_of(self, rows: npt.NDArray[np.intp], vector: Vectors) -> npt.NDArray[np.float32]:
        """scores() restricted to the listed rows (e.g. one dedup bucket), float32[len(rows)]: the
        rows gathered and compared, or one pass over the matrix when they are more than
        FULL_PASS_SHARE of it (cheaper then)."""
        if rows.size > FULL_PASS_SHARE * self.size:
            return self.scores(vector)[rows]
        vector = self.project(vector)
        out = np.empty(rows.size, dtype=np.float32)
        buf = np.empty((min(GATHER_ROWS, rows.size), self.vectors.shape[1]), dtype=np.float32)
        for start in range(0, rows.size, GATHER_ROWS):
            part = rows[start : start + GATHER_ROWS]
            chunk = buf[: part.size]
            np.take(self.vectors, part, axis=0, out=chunk, mode="clip")  # "raise" buffers: ~30x slower
            np.matmul(chunk, vector, out=out[start : start + part.size])
        return out

    def granted(self, grants: Sequence[Grant] | None, rows: npt.NDArray[np.intp] | None = None) -> Mask:
        """Visibility.grants() compiled to a mask over the rows, or over the listed `rows` only
        (THE numpy compilation; None: every row). An owner/area the index has never seen matches
        nothing."""
        at: slice | npt.NDArray[np.intp] = slice(0, self.size) if rows is None else rows
        scope = self.scope[at]
        if grants is None:
            return np.ones(scope.size, dtype=np.bool_)
        mask: Mask = np.zeros(scope.size, dtype=np.bool_)
        for grant in grants:  # not np.isin: ~90 µs at 10k rows, these ~5
            if grant.column is None:
                mask |= scope == SCOPE_CODES[grant.scope]
                continue
            kind, column = ("area", self.area) if grant.column == "area_id" else ("owner", self.owner)
            codes = [c for c in (self.code(kind, v) for v in grant.values) if c != UNKNOWN_CODE]
            if not codes:
                continue
            values = column[at]
            chosen = values == codes[0]
            for code in codes[1:]:
                chosen |= values == code
            mask |= (scope == SCOPE_CODES[grant.scope]) & chosen
        return mask

    def top(self, scores: npt.NDArray[np.float32], mask: Mask, k: int) -> list[tuple[str, float]]:
        """The k rows under mask with the highest `scores` (from scores()), best first."""
        if k <= 0 or scores.size == 0:
            return []
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return []
        sims = scores[rows]
        part = np.argpartition(-sims, k - 1)[:k] if sims.size > k else np.arange(sims.size)
        order = part[np.argsort(-sims[part], kind="stable")]
        best = zip(rows[order].tolist(), sims[order].tolist(), strict=True)  # not a numpy scalar per item
        return [(self.ids[r], s) for r, s in best]
