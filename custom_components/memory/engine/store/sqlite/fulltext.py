"""The search legs SQLite answers from full text (half of SearchLegs; vector_search.py is the
other): anchors' phrases in the words (memories_fts: lexical, containing, doc_frequencies) and
stemmed terms (memories_terms: term_matches), both searched in their postings in RAM
(index.Postings, bm25.TermPostings: FTS5's bm25() to the last bit), and conversation neighbours.
Both FTS5 tables share the memory's rowid and stay the durable copy the postings are loaded
from; `fts_put`/`fts_drop` are the only writers of their rows, and hand back the change the
postings take once the write commits."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...language import spaced
from ...models import Memory, Status
from ...terms import document_terms
from ..base import LexicalRow, Visibility
from ..bm25 import Floats, Rows, TermPostings, fts_tokens, phrase_counts
from ..sql import neighbour_windows
from ..vectors import STATUS_CODES
from .connection import PostingsChange, SqliteConnection
from .index import Postings
from .rows import where_current, where_visible

VISIBLE_BATCH = 64  # ranked rows checked for visibility per step (at least; then doubling)
# each postings' FTS5 table and column (phrases of several tokens are checked on the text)
TABLES = {"words": ("memories_fts", "content"), "terms": ("memories_terms", "terms")}


def fts_put(conn: sqlite3.Connection, rowid: int, memory: Memory) -> PostingsChange:
    """Index a memory's text: its words (anchors, memories_fts) and its terms (memories_terms).
    Returns the postings' change, for SqliteConnection._after_commit(text=...)."""
    return fts_put_text(conn, rowid, memory.content, memory.language, memory.id)


def fts_put_text(
    conn: sqlite3.Connection, rowid: int, content: str, language: str, memory_id: str
) -> PostingsChange:
    """fts_put for a row's content, language and id: the words with scripts written without
    spaces set apart (language.spaced), and the terms (terms.document_terms)."""
    words, terms = spaced(content), document_terms(content, language)
    conn.execute("INSERT INTO memories_fts(rowid, content) VALUES (?, ?)", (rowid, words))
    conn.execute("INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)", (rowid, terms))

    def change(postings: Postings) -> None:
        postings.words.put(rowid, words, memory_id)
        postings.terms.put(rowid, terms, memory_id)

    return change


def fts_drop(conn: sqlite3.Connection, rowid: int) -> PostingsChange:
    """Remove a memory's rows from both FTS5 tables. Returns the postings' change (as fts_put)."""
    words = conn.execute("SELECT content FROM memories_fts WHERE rowid = ?", (rowid,)).fetchone()
    terms = conn.execute("SELECT terms FROM memories_terms WHERE rowid = ?", (rowid,)).fetchone()
    conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
    conn.execute("DELETE FROM memories_terms WHERE rowid = ?", (rowid,))

    def change(postings: Postings) -> None:
        if words is not None:
            postings.words.drop(rowid, words[0] or "")
        if terms is not None:
            postings.terms.drop(rowid, terms[0] or "")

    return change


class SqliteFulltext(SqliteConnection):
    """lexical, containing, term_matches, doc_count, doc_frequencies and neighbours of SearchLegs."""

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories whose words hold any phrase (lexical.fts_phrases), by FTS5's
        bm25() over memories_fts (higher = better), at most `limit`, best first (_ranked)."""
        ranked = self._ranked("words", phrases, vis, limit)
        if not ranked:
            return []
        marks = ",".join("?" * len(ranked))
        content = dict(
            self._read(f"SELECT id, content FROM memories WHERE id IN ({marks})", [r[0] for r in ranked])
        )
        return [
            LexicalRow(id=mid, content=content[mid], bm25=score) for mid, score, _ in ranked if mid in content
        ]

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        """Of the listed memories, those vis allows (current) whose words hold any phrase, id ->
        content: the phrases' rows from the postings, nothing ranked."""
        split = [tokens for p in phrases if (tokens := fts_tokens(p))]
        if not split or not ids:
            return {}
        texts = self._phrase_texts("words", split)
        with self._state:
            words = self._fts_postings().words
            holding = {i for tokens in split for i in words.ids_of(_matching(words, tokens, texts)[0])}
        wanted = [i for i in dict.fromkeys(ids) if i in holding]
        found = [wanted[k] for k in np.flatnonzero(self._visible(wanted, vis)).tolist()]
        if not found:
            return {}
        marks = ",".join("?" * len(found))
        return dict(self._read(f"SELECT id, content FROM memories WHERE id IN ({marks})", list(found)))

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        terms of `terms` it holds): FTS5's bm25() of memories_terms negated (higher = better, > 0),
        at most `limit`, best first (_ranked)."""
        return {
            mid: (score, frozenset(held)) for mid, score, held in self._ranked("terms", terms, vis, limit)
        }

    def _ranked(
        self, column: str, phrases: list[str], vis: Visibility, limit: int
    ) -> list[tuple[str, float, list[str]]]:
        """(id, BM25, the phrases it holds) of the current visible memories holding any phrase
        in `column`'s postings (TABLES), best first, at most `limit`: FTS5's bm25() computed from
        the postings (bm25.TermPostings: the same scores and order as FTS5, ties by rowid). The
        best rows are checked for visibility VISIBLE_BATCH (or 2 x limit) at a time until `limit`
        are found, nothing below them (_visible)."""
        split = [(p, tokens) for p in phrases if (tokens := fts_tokens(p))]
        if not split or limit <= 0:
            return []
        texts = self._phrase_texts(column, [tokens for _, tokens in split])
        start, size = 0, max(VISIBLE_BATCH, 2 * limit)
        with self._state:
            postings: TermPostings = getattr(self._fts_postings(), column)
            ranking = postings.bm25([_matching(postings, tokens, texts) for _, tokens in split], size)
        out: list[tuple[str, float, list[str]]] = []
        while start < ranking.size:
            with self._state:
                postings = getattr(self._fts_postings(), column)
                ids = postings.ids_of(ranking.rows(start, start + size))
            seen = np.flatnonzero(self._visible(ids, vis))[: limit - len(out)].tolist()
            for k, (score, held) in zip(seen, ranking.details([start + k for k in seen]), strict=True):
                out.append((str(ids[k]), score, [split[i][0] for i in held]))
            if len(out) == limit:
                return out
            start, size = start + len(ids), 2 * size
        return out

    def _visible(self, ids: Sequence[str | None], vis: Visibility) -> npt.NDArray[np.bool_]:
        """Which of `ids` (None: no memory) vis allows and are current, as a mask: by the vector
        index's rule and status for the rows it holds (as semantic), in SQL for the others and
        for every row when looking back."""
        ok = np.zeros(len(ids), dtype=np.bool_)
        unsure = range(len(ids))
        if vis.as_of is None:
            with self._state:
                index = self._idx()
                row_of = index.row_of
                rows = np.fromiter((-1 if i is None else row_of.get(i, -1) for i in ids), np.intp, len(ids))
                held = rows >= 0
                at = rows[held]
                ok[held] = index.granted(vis.grants(), at) & (index.status[at] == STATUS_CODES[Status.ACTIVE])
            unsure = np.flatnonzero(~held).tolist()
        asked = {mid: k for k in unsure if (mid := ids[k]) is not None}
        if asked:
            where, params = where_visible(vis)
            current, at_time = where_current(vis)
            for (mid,) in self._read(
                f"SELECT m.id FROM memories m WHERE m.id IN ({','.join('?' * len(asked))}) "
                f"AND {current} AND {where}",
                [*asked, *at_time, *params],
            ):
                ok[asked[mid]] = True
        return ok

    def _phrase_texts(self, column: str, phrases: list[list[str]]) -> dict[int, list[str]]:
        """The tokens of the rows that hold every token of a phrase of several (a term FTS5 splits,
        e.g. "hx-4471"): where it occurs as a run is read from the row (rowid -> tokens)."""
        several = [p for p in phrases if len(p) > 1]
        if not several:
            return {}
        with self._state:
            postings: TermPostings = getattr(self._fts_postings(), column)
            rows = sorted({r for p in several for r in postings.rows_with(p).tolist()})
        if not rows:
            return {}
        table, text = TABLES[column]
        found = self._read(
            f"SELECT rowid, {text} FROM {table} WHERE rowid IN ({','.join('?' * len(rows))})", rows
        )
        return {int(rowid): fts_tokens(value or "") for rowid, value in found}

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """Conversation context: for each given memory with a source_ref, the current, visible,
        non-sensitive memories of the same source_ref at most `window` places before or after it
        in (created_at, rowid) order, as [(id, distance ≥ 1)]. Memories without a source_ref
        (or unknown ids) have none."""
        if not ids or window <= 0:
            return {}
        marks = ",".join("?" * len(ids))
        refs = [r[0] for r in self._read(
            f"SELECT DISTINCT source_ref FROM memories WHERE id IN ({marks}) AND source_ref IS NOT NULL", ids
        )]  # fmt: skip
        if not refs:
            return {}
        where, params = where_visible(vis)
        current, at = where_current(vis)
        rows = self._read(
            f"SELECT m.id, m.source_ref, m.sensitive FROM memories m WHERE m.source_ref IN "
            f"({','.join('?' * len(refs))}) AND {current} AND {where} "
            "ORDER BY m.source_ref, m.created_at, m.rowid",
            [*refs, *at, *params],
        )
        return neighbour_windows(rows, ids, window)

    def doc_count(self) -> int:
        """Number of memory rows (all scopes and statuses)."""
        return self._doc_count

    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        """doc_frequency of each of `terms`, by term (in process: nothing to batch)."""
        return {term: self.doc_frequency(term, cap) for term in dict.fromkeys(terms)}

    def doc_frequency(self, term: str, cap: int) -> int:
        """How many memories' words hold the phrase `term` (any status), counted up to `cap`: from
        the postings."""
        tokens = fts_tokens(term)
        if not tokens:
            return 0
        texts = self._phrase_texts("words", [tokens])
        with self._state:
            rows, _ = _matching(self._fts_postings().words, tokens, texts)
        return min(int(rows.size), cap)


def _matching(postings: TermPostings, phrase: list[str], texts: dict[int, list[str]]) -> tuple[Rows, Floats]:
    """(rowids, occurrences) of the rows holding `phrase`: a token's postings, or for a phrase of
    several tokens the rows `texts` holds it in as a run (rows changed since they were read: as read)."""
    if len(phrase) == 1:
        return postings.postings(phrase[0])
    counted = [(rowid, n) for rowid in postings.rows_with(phrase).tolist()
               if (n := phrase_counts(texts.get(rowid, []), phrase)) > 0]  # fmt: skip
    rows = np.array([r for r, _ in counted], dtype=np.int64)
    return rows, np.array([n for _, n in counted], dtype=np.float64)
