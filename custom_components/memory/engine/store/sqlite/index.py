"""The in-RAM indexes of the SQLite store: the vector index — loading it from the file at open,
and keeping its rows (vector, scope, owner, area, status, language) in step with every memory
write — and the postings of both FTS5 tables (load_postings; fulltext.py keeps them in step).

The indexes themselves are store/vectors.py (VectorIndex) and store/bm25.py (TermPostings); this
module decides the vector index's mode and fills both.
"""

from __future__ import annotations

import ctypes
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...embedding.base import Vectors
from ...models import EmbeddingIdentity, Memory, Scope, Status
from ..bm25 import TermPostings
from ..vectors import STATUS_CODES, VectorIndex, fit_basis

# From this many vectors at open the index is compact (vectors.py): the rows are projections on
# COMPACT_DIMS principal directions and choose a coarse pool of COARSE_POOL rows (search.py),
# re-ranked by exact cosine from the float32 vectors in SQLite (one IN query: ~2.4 ms for 300 rows
# at 100k). Measured at 100k on the benchmark's sentences (docs/benchmarks.md): the exact visible
# top 50 of 300 real queries x 2 speakers is entirely inside the coarse top 300 at 256 dims (pool
# recall 1.0000; 0.9996 at 200 rows, 0.9992 at 192 dims). Below it the exact matrix is small
# (≤ 100 MB) and faster than the extra read.
COMPACT_MIN_ROWS = 50_000
COMPACT_DIMS = 256
LOAD_CHUNK = 4096  # rows per read while loading the index


def chunks(cur: sqlite3.Cursor, size: int = LOAD_CHUNK) -> Iterator[list[Any]]:
    """A cursor's rows, `size` at a time."""
    while rows := cur.fetchmany(size):
        yield rows


def _release_free_heap() -> None:
    """Give the C heap's free pages back to the OS after the bulk load (glibc's malloc_trim;
    a no-op elsewhere). The load's transient row buffers end up in the heap between long-lived
    id strings, which glibc does not return by itself: measured 20 MB at 100k rows."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except AttributeError, OSError:
        return
    trim(0)


def load_index(conn: sqlite3.Connection, identity: EmbeddingIdentity) -> VectorIndex:
    """The vectors of `identity` as an index: exact below COMPACT_MIN_ROWS rows, else compact (a
    fresh PCA basis: one extra read pass, ~0.3 s at 100k)."""
    where = "WHERE emb_provider = ? AND emb_model = ? AND emb_dimension = ?"
    ident = (identity.provider, identity.model, identity.dimension)
    count = int(conn.execute(f"SELECT count(*) FROM memories {where}", ident).fetchone()[0])
    basis = None
    if count >= COMPACT_MIN_ROWS and identity.dimension > COMPACT_DIMS:
        gram = np.zeros((identity.dimension, identity.dimension), dtype=np.float64)
        for chunk in chunks(conn.execute(f"SELECT embedding FROM memories {where}", ident)):
            block = np.frombuffer(b"".join(r[0] for r in chunk), dtype="<f4").reshape(len(chunk), -1)
            gram += block.T @ block
        basis = fit_basis(gram, COMPACT_DIMS)
    index = VectorIndex(identity.dimension, capacity=VectorIndex.capacity_for(count), basis=basis)
    cur = conn.execute(
        f"SELECT id, embedding, scope, owner_id, area_id, status, language FROM memories {where}", ident
    )
    for chunk in chunks(cur):
        block = np.frombuffer(b"".join(r[1] for r in chunk), dtype="<f4").reshape(len(chunk), -1)
        for (mid, _, scope, owner, area, status, lang), vector in zip(
            chunk, index.project(block), strict=True
        ):
            index.upsert(mid, vector, scope=Scope(scope), owner_id=owner, area_id=area,
                         status=Status(status), language=lang, projected=True)  # fmt: skip
    _release_free_heap()
    return index


@dataclass(frozen=True, slots=True)
class Postings:
    """Both FTS5 tables of the store held in RAM (bm25.TermPostings), by the memory's rowid."""

    words: TermPostings  # memories_fts: the words (language.spaced content), for anchors
    terms: TermPostings  # memories_terms: the stemmed terms (terms.document_terms), for full text


def load_postings(conn: sqlite3.Connection) -> Postings:
    """The postings of both FTS5 tables (every memory, whatever its status or identity)."""

    def rows(table: str, column: str) -> Iterator[tuple[int, str, str]]:
        cur = conn.execute(
            f"SELECT m.rowid, m.id, f.{column} FROM memories m JOIN {table} f ON f.rowid = m.rowid"
        )
        for chunk in chunks(cur):
            for rowid, read_id, text in chunk:
                yield int(rowid), text or "", sys.intern(read_id)

    postings = Postings(TermPostings.build(rows("memories_fts", "content")),
                        TermPostings.build(rows("memories_terms", "terms")))  # fmt: skip
    _release_free_heap()
    return postings


def index_memory(index: VectorIndex, memory: Memory, vector: Vectors | None) -> None:
    """Put a memory's row (its metadata; its vector when given) into the index."""
    index.upsert(
        memory.id,
        vector,
        scope=memory.scope,
        owner_id=memory.owner_id,
        area_id=memory.area_id,
        status=memory.status,
        language=memory.language,
    )


def index_status(index: VectorIndex, changes: Sequence[tuple[str, Status]]) -> None:
    """Give the listed memories' index rows their new status (memories not in the index: none)."""
    for mid, status in changes:
        if (row := index.row_of.get(mid)) is not None:
            index.status[row] = STATUS_CODES[status]
