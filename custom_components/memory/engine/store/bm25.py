"""SQLite FTS5's tokens and bm25() ranking, for the stores that rank memories' terms themselves.

fts_tokens is what FTS5's unicode61 tokenizer makes of a text (store/migrations.py FTS_TOKENIZER);
bm25 is FTS5's formula (sqlite ext/fts5/fts5_aux.c, fts5Bm25Function), step for step, so a
ranking computed here equals the one FTS5 computes bit for bit. PostgreSQL computes the same
formula in SQL (postgres/fulltext.py); SQLite ranks its memories' terms in RAM (TermPostings),
where the postings of a common word cost a few vector operations instead of a row each.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

BM25_K1, BM25_B = 1.2, 0.75  # SQLite FTS5 bm25() defaults
BM25_MIN_IDF = 1e-6  # FTS5: an idf ≤ 0 (a phrase in over half the rows) counts this much

# FTS5 unicode61 token characters: letters and numbers (Unicode L* and N*), everything else
# separates; lower-cased, diacritics kept (store/migrations.py FTS_TOKENIZER).
_FTS_TOKEN = re.compile(r"[^\W_]+")

HELD_BLOCK = 52  # phrases whose presence one float64 sum of distinct powers of two holds exactly

type Rows = npt.NDArray[np.int64]
type Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Ranking:
    """Rows by FTS5's bm25(), best first: rowids, their scores, and which phrases each holds."""

    rows: Rows
    scores: Floats
    held: list[npt.NDArray[np.int64]]  # per block of HELD_BLOCK phrases, per row: bit i = phrase i

    def phrases(self, k: int) -> list[int]:
        """The indexes of the phrases the k-th row holds, ascending."""
        out = []
        for block, held in enumerate(self.held):
            bits = int(held[k])
            while bits:  # lowest set bit first
                low = bits & -bits
                out.append(block * HELD_BLOCK + low.bit_length() - 1)
                bits ^= low
        return out


def fts_tokens(text: str) -> list[str]:
    """The tokens SQLite FTS5's unicode61 tokenizer (remove_diacritics 0) makes of `text`:
    lower-cased runs of letters and digits ("HX-4471" -> "hx", "4471")."""
    return _FTS_TOKEN.findall(text.lower())


def idf(rows: int, hits: int) -> float:
    """FTS5's idf of a phrase in `hits` of `rows` rows: ln((N - n + 0.5) / (n + 0.5)), BM25_MIN_IDF
    when that is ≤ 0."""
    value = math.log((0.5 + rows - hits) / (0.5 + hits))  # libm's log, as SQLite's
    return BM25_MIN_IDF if value <= 0.0 else value


def phrase_counts(tokens: list[str], phrase: list[str]) -> int:
    """How often `phrase` (tokens) occurs in `tokens` as a run (FTS5's phrase hits in one row)."""
    n = len(phrase)
    return sum(1 for at in range(len(tokens) - n + 1) if tokens[at : at + n] == phrase)


class TermPostings:
    """Postings of one FTS5 column kept in RAM: for each token the rows (rowids) holding it and how
    often, each row's token count, and the column's totals — what bm25() reads from FTS5's index.

    Not thread-safe: the store holds its state lock around every call (sqlite/connection.py), and
    no numpy view of a postings array outlives a call (an array exporting its buffer cannot grow).
    """

    def __init__(self) -> None:
        # per token: the rowids holding it (each once) and its occurrences there, as uint32 (4 bytes
        # a posting: ~800k postings at 100k memories)
        self._rows: dict[str, array[int]] = {}
        self._counts: dict[str, array[int]] = {}
        # by rowid: the row's token count and its memory's id (None: no row)
        self._length: npt.NDArray[np.uint32] = np.zeros(0, dtype=np.uint32)
        self._ids: npt.NDArray[np.object_] = np.full(0, None, dtype=object)
        self.row_count = 0
        self.token_count = 0

    def put(self, rowid: int, text: str, memory_id: str) -> None:
        """Index a row's text (a row already indexed: drop it first)."""
        tokens = fts_tokens(text)
        if rowid >= self._length.size:
            size = max(rowid + 1, int(self._length.size * 1.5) + 1024)
            length, ids = np.zeros(size, dtype=np.uint32), np.full(size, None, dtype=object)
            length[: self._length.size], ids[: self._ids.size] = self._length, self._ids
            self._length, self._ids = length, ids
        self._length[rowid] = len(tokens)
        self._ids[rowid] = memory_id
        self.row_count += 1
        self.token_count += len(tokens)
        for token, count in Counter(tokens).items():
            self._rows.setdefault(token, array("I")).append(rowid)
            self._counts.setdefault(token, array("I")).append(count)

    def drop(self, rowid: int, text: str) -> None:
        """Remove a row indexed with `text` (what put() was given for it)."""
        tokens = fts_tokens(text)
        self.row_count -= 1
        self.token_count -= len(tokens)
        self._length[rowid] = 0
        self._ids[rowid] = None
        for token in set(tokens):
            rows = self._rows[token]
            at = rows.index(rowid)
            del rows[at]
            del self._counts[token][at]
            if not rows:
                del self._rows[token], self._counts[token]

    def id_of(self, rowid: int) -> str | None:
        """The memory id of an indexed row, None for none."""
        return self._ids[rowid] if 0 <= rowid < self._ids.size else None

    def ids_of(self, rows: Rows) -> list[str | None]:
        """id_of for many rows at once (one gather)."""
        inside = rows[(rows >= 0) & (rows < self._ids.size)]
        if inside.size == rows.size:
            return self._ids[rows].tolist()  # type: ignore[no-any-return]
        return [self.id_of(int(r)) for r in rows.tolist()]

    def rows_with(self, tokens: Iterable[str]) -> Rows:
        """The rowids holding every one of `tokens` (ascending)."""
        found: Rows | None = None
        for token in tokens:
            rows = np.array(self._rows.get(token, ()), dtype=np.int64)
            found = rows if found is None else np.intersect1d(found, rows, assume_unique=True)
        return np.zeros(0, dtype=np.int64) if found is None else np.sort(found)

    def postings(self, token: str) -> tuple[Rows, Floats]:
        """(rowids, occurrences) of one token, copies (in insertion order)."""
        rows = self._rows.get(token)
        if rows is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        return np.array(rows, dtype=np.int64), np.array(self._counts[token], dtype=np.float64)

    def bm25(self, phrases: list[tuple[Rows, Floats]]) -> Ranking:
        """FTS5's bm25() (positive: higher = better) of every row matching any phrase, given each
        phrase's matching (rowids, occurrences) in query order: best first, ties by rowid (FTS5's
        scan order). Sums in query order, as FTS5 does, so the scores are FTS5's to the last bit."""
        if not any(rows.size for rows, _ in phrases) or self.row_count <= 0:
            return Ranking(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64), [])
        avgdl = float(self.token_count) / float(self.row_count)
        every = np.concatenate([rows for rows, _ in phrases])
        shares = []
        for rows, tf in phrases:
            weight = idf(self.row_count, rows.size)
            norm = tf + BM25_K1 * (1 - BM25_B + BM25_B * self._length[rows] / avgdl)
            shares.append(weight * ((tf * (BM25_K1 + 1.0)) / norm))
        found, slot = np.unique(every, return_inverse=True)
        scores = np.bincount(slot, weights=np.concatenate(shares), minlength=found.size)  # in query order
        order = np.lexsort((found, -scores))
        which = np.concatenate([np.full(rows.size, i, dtype=np.int64) for i, (rows, _) in enumerate(phrases)])
        held = []
        for start in range(0, len(phrases), HELD_BLOCK):  # each (row, phrase) once: the sum is an OR
            inside = (which >= start) & (which < start + HELD_BLOCK)
            bits = np.where(inside, np.ldexp(1.0, np.clip(which - start, 0, HELD_BLOCK - 1)), 0.0)
            held.append(np.bincount(slot, weights=bits, minlength=found.size).astype(np.int64)[order])
        return Ranking(found[order], scores[order], held)
