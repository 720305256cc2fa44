"""SQLite FTS5's tokens and bm25() ranking, for the stores that rank memories' terms themselves.

fts_tokens is what FTS5's unicode61 tokenizer makes of a text (store/migrations.py FTS_TOKENIZER);
bm25 is FTS5's formula (sqlite ext/fts5/fts5_aux.c, fts5Bm25Function), step for step, so a
ranking computed here equals the one FTS5 computes bit for bit. PostgreSQL computes the same
formula in SQL (postgres/fulltext.py); SQLite ranks its memories' terms in RAM (TermPostings),
where the postings of a common word cost a few vector operations instead of a row each.
"""

from __future__ import annotations

import itertools
import math
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

BM25_K1, BM25_B = 1.2, 0.75  # SQLite FTS5 bm25() defaults
BM25_MIN_IDF = 1e-6  # FTS5: an idf ≤ 0 (a phrase in over half the rows) counts this much

# FTS5 unicode61 token characters: letters and numbers (Unicode L* and N*), everything else
# separates; lower-cased, diacritics kept (store/migrations.py FTS_TOKENIZER).
_FTS_TOKEN = re.compile(r"[^\W_]+")

REBUILD_MIN = 4096  # postings changed before TermPostings rebuilds its flat arrays (at least)
HELD_BLOCK = 52  # phrases whose presence one float64 sum of distinct powers of two holds exactly

type Rows = npt.NDArray[np.int64]
type Floats = npt.NDArray[np.float64]
type Ints = npt.NDArray[np.int64]


class Ranking:
    """Rows by FTS5's bm25() (positive: higher = better), best first, ties by rowid (FTS5's scan
    order): their rowids, scores and the phrases each holds. Sorted as read: the rows that reach
    the first `first` places at once, the next ones (read only when visibility turns the best
    away) as far as a read goes past them — sorting every match was a third of the ranking."""

    def __init__(self, rows: Rows, scores: Floats, held: list[Ints], first: int) -> None:
        # one entry per matching row, unsorted; held: per block of HELD_BLOCK phrases, bit i = phrase i
        self._rows, self._scores, self._held = rows, scores, held
        self.size = rows.size
        self._rest: Ints | None = None
        if rows.size > 2 * first > 0:
            bar = -np.partition(-scores, first - 1)[first - 1]  # the first-th best score
            head = np.flatnonzero(scores >= bar)  # ties with it included
            self._order: Ints = head[np.lexsort((rows[head], -scores[head]))]
            self._rest = np.flatnonzero(scores < bar)
        else:
            self._order = np.lexsort((rows, -scores))

    def rows(self, start: int, stop: int) -> Rows:
        """The rowids in places start..stop-1 (fewer at the end)."""
        return self._rows[self._placed(stop)[start:stop]]

    def details(self, places: list[int]) -> list[tuple[float, list[int]]]:
        """(score, the indexes of the phrases it holds, ascending) of the rows in `places`."""
        at = self._placed(max(places, default=-1) + 1)[places]
        blocks = [held[at].tolist() for held in self._held]
        out = []
        for k, score in enumerate(self._scores[at].tolist()):
            phrases = []
            for block, held in enumerate(blocks):
                bits = held[k]
                while bits:  # lowest set bit first
                    low = bits & -bits
                    phrases.append(block * HELD_BLOCK + low.bit_length() - 1)
                    bits ^= low
            out.append((score, phrases))
        return out

    def _placed(self, stop: int) -> Ints:
        """The order (entries, best first), sorted through place stop - 1 at least: of the rows
        not placed yet, only those that reach place stop - 1 are sorted (a few more than asked
        when scores tie), the rest stay for a later read."""
        if stop > self._order.size and (rest := self._rest) is not None:  # the partition reaches stop
            need, scores = stop - self._order.size, self._scores[rest]
            if rest.size > 2 * need:
                bar = -np.partition(-scores, need - 1)[need - 1]
                reach = scores >= bar
                below, self._rest = rest[reach], rest[~reach]
            else:
                below, self._rest = rest, None
            below = below[np.lexsort((self._rows[below], -self._scores[below]))]
            self._order = np.concatenate([self._order, below])
        return self._order


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

    Compact: the postings built at open (`build`) sit in three flat arrays sorted by token, then
    row (each token's rows one run: ~5 bytes a posting, ~3M postings at 100k memories); rows
    written since sit in small per-token arrays beside them, and a dropped row's postings in the
    flat arrays are only marked dead (`_live`) — until those changes reach a quarter of the flat
    arrays (at least REBUILD_MIN postings), which are then rebuilt with them.

    Not thread-safe: the store holds its state lock around every call (sqlite/connection.py), and
    no numpy view of a postings array outlives a call (an array exporting its buffer cannot grow).
    """

    def __init__(self) -> None:
        # the flat arrays: token t's postings are _rows/_counts[_start[_slot[t]] : _start[_slot[t] + 1]]
        self._slot: dict[str, int] = {}
        self._start: npt.NDArray[np.int64] = np.zeros(1, dtype=np.int64)
        self._rows: npt.NDArray[np.uint32] = np.zeros(0, dtype=np.uint32)
        self._counts: npt.NDArray[np.unsignedinteger] = np.zeros(0, dtype=np.uint8)
        self._live: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)  # by rowid: its flat postings count
        self._dead = 0  # flat postings of rows dropped since the build
        # rows put since the build: per token, their rowids and occurrences (uint32)
        self._added_rows: dict[str, array[int]] = {}
        self._added_counts: dict[str, array[int]] = {}
        self._added = 0
        # by rowid: the row's token count and its memory's id (None: no row)
        self._length: npt.NDArray[np.uint32] = np.zeros(0, dtype=np.uint32)
        self._ids: npt.NDArray[np.object_] = np.full(0, None, dtype=object)
        self.row_count = 0
        self.token_count = 0

    @classmethod
    def build(cls, rows: Iterable[tuple[int, str, str]]) -> TermPostings:
        """The postings of (rowid, text, memory id) rows (each rowid once), in the flat arrays."""
        postings = cls()
        vocab: defaultdict[str, int] = defaultdict(itertools.count().__next__)  # new tokens numbered
        slots, rowids, lengths = array("I"), array("I"), array("I")  # slots: one per token occurrence
        for rowid, text, memory_id in rows:
            tokens = fts_tokens(text)
            postings._note(rowid, len(tokens), memory_id)
            slots.extend(map(vocab.__getitem__, tokens))
            rowids.append(rowid)
            lengths.append(len(tokens))
        keys = np.frombuffer(slots, dtype=np.uint32).astype(np.uint64) << np.uint64(32)
        keys |= np.repeat(np.frombuffer(rowids, dtype=np.uint32), np.frombuffer(lengths, dtype=np.uint32))
        del slots
        keys, counts = np.unique(keys, return_counts=True)  # by token, then row: each pair once
        slots_of = (keys >> np.uint64(32)).astype(np.int64)
        postings._install(list(vocab), slots_of, (keys & np.uint64(0xFFFFFFFF)).astype(np.int64), counts)
        return postings

    def put(self, rowid: int, text: str, memory_id: str) -> None:
        """Index a row's text (a row already indexed: drop it first)."""
        tokens = fts_tokens(text)
        self._note(rowid, len(tokens), memory_id)
        for token, count in Counter(tokens).items():
            self._added_rows.setdefault(token, array("I")).append(rowid)
            self._added_counts.setdefault(token, array("I")).append(count)
            self._added += 1
        self._settle()

    def drop(self, rowid: int, text: str) -> None:
        """Remove a row indexed with `text` (what put() or build() was given for it)."""
        tokens = fts_tokens(text)
        self.row_count -= 1
        self.token_count -= len(tokens)
        self._length[rowid] = 0
        self._ids[rowid] = None
        distinct = set(tokens)
        if rowid < self._live.size and self._live[rowid]:  # in the flat arrays: mark it dead
            self._live[rowid] = False
            self._dead += len(distinct)
        else:
            for token in distinct:
                rows = self._added_rows[token]
                at = rows.index(rowid)
                del rows[at]
                del self._added_counts[token][at]
                self._added -= 1
                if not rows:
                    del self._added_rows[token], self._added_counts[token]
        self._settle()

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
            rows = self.postings(token)[0]
            found = rows if found is None else np.intersect1d(found, rows, assume_unique=True)
        return np.zeros(0, dtype=np.int64) if found is None else np.sort(found)

    def postings(self, token: str) -> tuple[Rows, Floats]:
        """(rowids, occurrences) of one token: the flat arrays' (ascending), then rows put since
        (in the order put); copies."""
        rows, counts = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        if (slot := self._slot.get(token)) is not None:
            at = slice(self._start[slot], self._start[slot + 1])
            flat, occurrences = self._rows[at], self._counts[at]
            if self._dead:
                live = self._live[flat]
                flat, occurrences = flat[live], occurrences[live]
            rows, counts = flat.astype(np.int64), occurrences.astype(np.float64)
        if (added := self._added_rows.get(token)) is not None:
            rows = np.concatenate([rows, np.array(added, dtype=np.int64)])
            counts = np.concatenate([counts, np.array(self._added_counts[token], dtype=np.float64)])
        return rows, counts

    def _note(self, rowid: int, length: int, memory_id: str) -> None:
        """Record a row's token count and memory id (growing the by-rowid arrays as needed)."""
        if rowid >= self._length.size:
            size = max(rowid + 1, int(self._length.size * 1.5) + 1024)
            grown, ids = np.zeros(size, dtype=np.uint32), np.full(size, None, dtype=object)
            grown[: self._length.size], ids[: self._ids.size] = self._length, self._ids
            self._length, self._ids = grown, ids
        self._length[rowid] = length
        self._ids[rowid] = memory_id
        self.row_count += 1
        self.token_count += length

    def _settle(self) -> None:
        """Rebuild the flat arrays once the changes since their build reach a quarter of them."""
        if self._added + self._dead > max(REBUILD_MIN, self._rows.size // 4):
            self._rebuild()

    def _rebuild(self) -> None:
        """The flat arrays from their live postings and the rows put since."""
        live = self._live[self._rows] if self._dead else np.ones(self._rows.size, dtype=bool)
        slots = [np.repeat(np.arange(len(self._slot), dtype=np.int64), np.diff(self._start))[live]]
        rows, counts = [self._rows[live].astype(np.int64)], [self._counts[live].astype(np.int64)]
        vocab = dict(self._slot)
        for token, added in self._added_rows.items():
            slots.append(np.full(len(added), vocab.setdefault(token, len(vocab)), dtype=np.int64))
            rows.append(np.array(added, dtype=np.int64))
            counts.append(np.array(self._added_counts[token], dtype=np.int64))
        self._added_rows, self._added_counts, self._added = {}, {}, 0
        slot, row, occurrences = np.concatenate(slots), np.concatenate(rows), np.concatenate(counts)
        order = np.lexsort((row, slot))
        self._install(list(vocab), slot[order], row[order], occurrences[order])

    def _install(self, tokens: list[str], slots: Ints, rows: Ints, counts: Ints) -> None:
        """Make (token slot, rowid, occurrences) postings — sorted by slot, then row, each pair
        once, slots indexing `tokens` — the flat arrays, dropping tokens without postings."""
        per_token = np.bincount(slots, minlength=len(tokens))
        used = per_token > 0
        kept = [token for token, keep in zip(tokens, used.tolist(), strict=True) if keep]
        self._slot = {token: at for at, token in enumerate(kept)}
        self._start = np.concatenate([[0], np.cumsum(per_token[used])]).astype(np.int64)
        self._rows = rows.astype(np.uint32)
        self._counts = counts.astype(np.min_scalar_type(int(counts.max(initial=0))))
        self._live = np.zeros(int(rows.max(initial=-1)) + 1, dtype=bool)
        self._live[rows] = True
        self._dead = 0

    def bm25(self, phrases: list[tuple[Rows, Floats]], first: int) -> Ranking:
        """FTS5's bm25() (positive: higher = better) of every row matching any phrase, given each
        phrase's matching (rowids, occurrences) in query order: best first, ties by rowid (FTS5's
        scan order), the best `first` sorted at once (Ranking). Sums in query order, as FTS5
        does, so the scores are FTS5's to the last bit."""
        if not any(rows.size for rows, _ in phrases) or self.row_count <= 0:
            return Ranking(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64), [], first)
        avgdl = float(self.token_count) / float(self.row_count)
        every = np.concatenate([rows for rows, _ in phrases])
        shares = []
        for rows, tf in phrases:
            weight = idf(self.row_count, rows.size)
            norm = tf + BM25_K1 * (1 - BM25_B + BM25_B * self._length[rows] / avgdl)
            shares.append(weight * ((tf * (BM25_K1 + 1.0)) / norm))
        found, slot = np.unique(every, return_inverse=True)
        summed = np.bincount(slot, weights=np.concatenate(shares), minlength=found.size)  # in query order
        scores = np.asarray(summed, dtype=np.float64)  # already float64: typed, not copied
        which = np.concatenate([np.full(rows.size, i, dtype=np.int64) for i, (rows, _) in enumerate(phrases)])
        held = []
        for start in range(0, len(phrases), HELD_BLOCK):  # each (row, phrase) once: the sum is an OR
            inside = (which >= start) & (which < start + HELD_BLOCK)
            bits = np.where(inside, np.ldexp(1.0, np.clip(which - start, 0, HELD_BLOCK - 1)), 0.0)
            held.append(np.bincount(slot, weights=bits, minlength=found.size).astype(np.int64))
        return Ranking(found, scores, held, first)
