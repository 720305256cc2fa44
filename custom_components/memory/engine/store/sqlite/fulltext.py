"""The search legs SQLite answers from full text (half of SearchLegs; vector_search.py is the
other): FTS5 phrases (memories_fts: the words, for anchors), stemmed terms (memories_terms, ranked
from their postings in RAM: bm25.TermPostings), document frequencies with their cache, and
conversation neighbours. Both FTS5 tables share the memory's rowid; `fts_put`/`fts_drop` are the
only writers of their rows, and hand back the change the postings take once the write commits."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...language import spaced
from ...models import Memory, Status
from ...terms import document_terms
from ..base import LexicalRow, Visibility
from ..bm25 import TermPostings, fts_tokens, phrase_counts
from ..sql import neighbour_windows
from ..vectors import STATUS_CODES
from .connection import SqliteConnection, TermChange
from .rows import where_current, where_visible

DF_CACHE_MAX = 4096  # cached document frequencies (cleared on every content change, or when full)
VISIBLE_BATCH = 64  # ranked term matches checked for visibility per read (at least; then doubling)


def fts_put(conn: sqlite3.Connection, rowid: int, memory: Memory) -> TermChange:
    """Index a memory's text: its words (anchors, memories_fts) and its terms (memories_terms).
    Returns the postings' change, for SqliteConnection._after_commit(terms=...)."""
    return fts_put_text(conn, rowid, memory.content, memory.language, memory.id)


def fts_put_text(
    conn: sqlite3.Connection, rowid: int, content: str, language: str, memory_id: str
) -> TermChange:
    """fts_put for a row's content, language and id: the words with scripts written without
    spaces set apart (language.spaced), and the terms (terms.document_terms)."""
    terms = document_terms(content, language)
    conn.execute("INSERT INTO memories_fts(rowid, content) VALUES (?, ?)", (rowid, spaced(content)))
    conn.execute("INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)", (rowid, terms))
    return lambda postings: postings.put(rowid, terms, memory_id)


def fts_drop(conn: sqlite3.Connection, rowid: int) -> TermChange:
    """Remove a memory's rows from both FTS5 tables. Returns the postings' change (as fts_put)."""
    row = conn.execute("SELECT terms FROM memories_terms WHERE rowid = ?", (rowid,)).fetchone()
    conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
    conn.execute("DELETE FROM memories_terms WHERE rowid = ?", (rowid,))
    if row is None:
        return lambda postings: None
    return lambda postings: postings.drop(rowid, row[0] or "")


class SqliteFulltext(SqliteConnection):
    """lexical, containing, term_matches, doc_count, doc_frequencies and neighbours of SearchLegs."""

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories matching any FTS5 phrase, by BM25 (higher = better)."""
        rows = self._fts("memories_fts", "m.content", phrases, vis, limit)
        return [LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in rows]

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        """Of the listed memories, those vis allows whose words (memories_fts) hold any phrase, id ->
        content: FTS5 walks the phrases' postings, nothing is ranked."""
        if not phrases or not ids:
            return {}
        where, params = where_visible(vis)
        rows = self._read(
            "SELECT m.id, m.content FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.id IN ({','.join('?' * len(ids))}) AND {where}",
            [_fts_query(phrases), *ids, *params],
        )
        return {mid: content for mid, content in rows}

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        terms of `terms` it holds): FTS5's bm25() of memories_terms negated (higher = better, > 0),
        computed from the postings in RAM (bm25.TermPostings: the same scores and order as FTS5,
        ties by rowid); at most `limit`, best first. The best rows are checked for visibility
        VISIBLE_BATCH (or 2 x limit) at a time until `limit` are found, nothing below them: by the
        vector index's compilation of the rule and its status column (as semantic), in SQL
        (where_visible, where_current) for a row the index lacks or a look back (vis.as_of)."""
        split = [(term, tokens) for term in terms if (tokens := fts_tokens(term))]
        if not split or limit <= 0:
            return {}
        texts = self._phrase_texts([tokens for _, tokens in split])
        with self._state:
            postings = self._term_postings()
            ranking = postings.bm25([_matching(postings, tokens, texts) for _, tokens in split])
        out: dict[str, tuple[float, frozenset[str]]] = {}
        start, size = 0, max(VISIBLE_BATCH, 2 * limit)
        while start < ranking.rows.size:
            with self._state:
                postings = self._term_postings()
                ids = [postings.id_of(r) for r in ranking.rows[start : start + size].tolist()]
            seen = self._visible([i for i in ids if i is not None], vis)
            for k, mid in enumerate(ids, start):
                if mid in seen:
                    out[mid] = (float(ranking.scores[k]), frozenset(split[i][0] for i in ranking.phrases(k)))
                    if len(out) == limit:
                        return out
            start, size = start + len(ids), 2 * size
        return out

    def _visible(self, ids: list[str], vis: Visibility) -> set[str]:
        """Which of `ids` vis allows and are current: by the vector index's rule and status for the
        rows it holds (as semantic), in SQL for the others and for every row when looking back."""
        unsure = ids
        visible: set[str] = set()
        if vis.as_of is None:
            with self._state:
                index = self._idx()
                held = [(i, r) for i in ids if (r := index.row_of.get(i)) is not None]
                rows = np.array([r for _, r in held], dtype=np.intp)
                ok = index.granted(vis.grants(), rows) & (index.status[rows] == STATUS_CODES[Status.ACTIVE])
                unsure = [i for i in ids if i not in index.row_of]
            visible = {i for (i, _), yes in zip(held, ok.tolist(), strict=True) if yes}
        if unsure:
            where, params = where_visible(vis)
            current, at = where_current(vis)
            visible |= {mid for (mid,) in self._read(
                f"SELECT m.id FROM memories m WHERE m.id IN ({','.join('?' * len(unsure))}) "
                f"AND {current} AND {where}",
                [*unsure, *at, *params],
            )}  # fmt: skip
        return visible

    def _phrase_texts(self, phrases: list[list[str]]) -> dict[int, list[str]]:
        """The tokens of the rows that hold every token of a phrase of several (a term FTS5 splits,
        e.g. "hx-4471"): where it occurs as a run is read from the row (rowid -> tokens)."""
        several = [p for p in phrases if len(p) > 1]
        if not several:
            return {}
        with self._state:
            postings = self._term_postings()
            rows = sorted({r for p in several for r in postings.rows_with(p).tolist()})
        if not rows:
            return {}
        found = self._read(
            f"SELECT rowid, terms FROM memories_terms WHERE rowid IN ({','.join('?' * len(rows))})", rows
        )
        return {int(rowid): fts_tokens(text or "") for rowid, text in found}

    def _fts(self, table: str, column: str, phrases: list[str], vis: Visibility, limit: int) -> list[Any]:
        """(id, BM25 negated, column) of the current visible memories matching any phrase in the
        FTS5 table, best first (ties in scan, rowid, order: test_term_postings pins it), at most
        limit. FTS5 scores every match; the anchors' rare words and identifiers have few."""
        if not phrases:
            return []
        where, params = where_visible(vis)
        current, at = where_current(vis)
        return self._read(
            f"SELECT m.id, -bm25({table}) AS score, {column} FROM {table} "
            f"JOIN memories m ON m.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {current} AND {where} ORDER BY score DESC LIMIT ?",
            [_fts_query(phrases), *at, *params, limit],
        )

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
        """How many memories contain the FTS phrase `term`, counted up to `cap` (cheap when rare).

        Cached until the next content change: a query asks for ~5 words, mostly the same ones."""
        with self._state:
            cached = self._df_cache.get((term, cap))
            version = self._content_version
        if cached is not None:
            return cached
        phrase = '"' + term.replace('"', '""') + '"'
        rows = self._read(
            "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
            (phrase, cap),
        )
        df = int(rows[0][0])
        with self._state:
            if version == self._content_version:  # else counted on content that has changed since
                if len(self._df_cache) >= DF_CACHE_MAX:
                    self._df_cache.clear()
                self._df_cache[(term, cap)] = df
        return df


def _fts_query(phrases: list[str]) -> str:
    """An FTS5 query matching any of the phrases."""
    return " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases)


def _matching(postings: TermPostings, phrase: list[str], texts: dict[int, list[str]]) -> tuple[Any, Any]:
    """(rowids, occurrences) of the rows holding `phrase`: a token's postings, or for a phrase of
    several tokens the rows `texts` holds it in as a run (rows changed since they were read: as read)."""
    if len(phrase) == 1:
        return postings.postings(phrase[0])
    counted = [(rowid, n) for rowid in postings.rows_with(phrase).tolist()
               if (n := phrase_counts(texts.get(rowid, []), phrase)) > 0]  # fmt: skip
    rows = np.array([r for r, _ in counted], dtype=np.int64)
    return rows, np.array([n for _, n in counted], dtype=np.float64)
