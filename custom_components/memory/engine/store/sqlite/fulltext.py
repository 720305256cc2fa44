"""The search legs SQLite answers in SQL (half of SearchLegs; vector_search.py is the other):
FTS5 phrases (memories_fts: the words, for anchors) and stemmed terms (memories_terms), document
frequencies with their cache, and conversation neighbours. Both FTS5 tables share the memory's
rowid; `fts_put`/`fts_drop` are the only writers of their rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ...language import spaced
from ...models import Memory
from ...terms import document_terms
from ..base import LexicalRow, Visibility
from ..sql import neighbour_windows
from .connection import SqliteConnection
from .rows import where_current, where_visible

DF_CACHE_MAX = 4096  # cached document frequencies (cleared on every content change, or when full)


def fts_put(conn: sqlite3.Connection, rowid: int, memory: Memory) -> None:
    """Index a memory's text: its words (anchors, memories_fts) and its terms (memories_terms)."""
    fts_put_text(conn, rowid, memory.content, memory.language)


def fts_put_text(conn: sqlite3.Connection, rowid: int, content: str, language: str) -> None:
    """fts_put for a row's content and language: the words with scripts written without spaces
    set apart (language.spaced), and the terms (terms.document_terms)."""
    conn.execute("INSERT INTO memories_fts(rowid, content) VALUES (?, ?)", (rowid, spaced(content)))
    conn.execute(
        "INSERT INTO memories_terms(rowid, terms) VALUES (?, ?)", (rowid, document_terms(content, language))
    )


def fts_drop(conn: sqlite3.Connection, rowid: int) -> None:
    """Remove a memory's rows from both FTS5 tables."""
    conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rowid,))
    conn.execute("DELETE FROM memories_terms WHERE rowid = ?", (rowid,))


class SqliteFulltext(SqliteConnection):
    """lexical, term_matches, doc_count, doc_frequencies and neighbours of SearchLegs."""

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories matching any FTS5 phrase, by BM25 (higher = better)."""
        rows = self._fts("memories_fts", "m.content", phrases, vis, limit, fts_sorts=False)
        return [LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in rows]

    def term_matches(self, terms: list[str], vis: Visibility, limit: int) -> dict[str, tuple[float, str]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        memory's terms): BM25 is FTS5 bm25() negated (higher = better, > 0); at most `limit`, best
        first."""
        rows = self._fts("memories_terms", "memories_terms.terms", terms, vis, limit, fts_sorts=True)
        return {r[0]: (float(r[1]), str(r[2])) for r in rows}

    def _fts(
        self, table: str, column: str, phrases: list[str], vis: Visibility, limit: int, *, fts_sorts: bool
    ) -> list[Any]:
        """(id, BM25 negated, column) of the current visible memories matching any phrase in the
        FTS5 table, best first, at most limit.

        fts_sorts: FTS5 sorts its matches (ORDER BY its `rank` column, bm25() by default), so the
        memories rows and `column` are read only until `limit` visible rows are found, not for
        every match; but FTS5 prepares a statement for that on every query (~0.09 ms). It pays
        off for many matches (full-text terms: ~370 at 10k, p50), not for few (rare-word anchors:
        ~45). Both give the same rows, scores and order, ties included: in scan (rowid) order, which
        SQL leaves open; test_store pins it."""
        if not phrases:
            return []
        query = " OR ".join('"' + p.replace('"', '""') + '"' for p in phrases)
        where, params = where_visible(vis)
        current, at = where_current(vis)
        score, order = (
            (f"-{table}.rank", f"{table}.rank") if fts_sorts else (f"-bm25({table}) AS score", "score DESC")
        )
        return self._read(
            f"SELECT m.id, {score}, {column} FROM {table} "
            f"JOIN memories m ON m.rowid = {table}.rowid "
            f"WHERE {table} MATCH ? AND {current} AND {where} ORDER BY {order} LIMIT ?",
            [query, *at, *params, limit],
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
