"""The search legs PostgreSQL answers from full text (half of SearchLegs; vector_search.py is
the other): phrases over the content's tsvector (lexical, doc_frequency), stemmed terms from the
memory_terms postings (term_matches), the household's row count, and conversation neighbours.

The engine tokenises (fts_tokens: the tokens of SQLite FTS5's unicode61 tokenizer) and the store
keeps tsvectors of those tokens (positions kept) for the content and for terms.document_terms,
plus one postings row per (memory, term); both legs score with FTS5's bm25() formula over the
household's rows (counts kept in memory_stats by a trigger), so ranks equal SQLite's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ...language import spaced
from ...terms import document_terms
from ..base import LexicalRow, Visibility
from ..bm25 import BM25_B, BM25_K1, BM25_MIN_IDF, fts_tokens
from ..sql import current_sql, neighbour_windows, visibility_sql
from .connection import PostgresConnection
from .rows import mine

DOC_COUNT_SQL = f"SELECT docs FROM memory_stats WHERE {mine()}"  # the household's memory rows
DF_CACHE_MAX = 4096  # cached document frequencies (cleared on content writes, when full, or after TTL)
DF_CACHE_TTL = 60.0  # s: other instances of the household write too; their words count after this
POSITION_MAX = 16383  # tsvector positions (PostgreSQL's limit); later tokens share it
LEXEME_MAX_BYTES = 2046  # PostgreSQL's longest lexeme; a longer token (a CJK run) is cut


def cut(token: str) -> str:
    """The token as a lexeme: cut to LEXEME_MAX_BYTES (in documents and queries alike, so a
    longer token still finds itself)."""
    return token.encode()[:LEXEME_MAX_BYTES].decode(errors="ignore")


def lexeme(token: str) -> str:
    """tsvector/tsquery input of one token (cut)."""
    token = cut(token)
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector(tokens: list[str]) -> str:
    """tsvector input text of `tokens` with their 1-based positions."""
    positions: dict[str, list[str]] = {}
    for at, token in enumerate(tokens, 1):
        positions.setdefault(token, []).append(str(min(at, POSITION_MAX)))
    return " ".join(f"{lexeme(t)}:{','.join(p)}" for t, p in positions.items())


def tsquery(tokens: list[str]) -> str:
    """tsquery input text of one phrase (its tokens adjacent, in order)."""
    return " <-> ".join(lexeme(t) for t in tokens)


def fulltext_columns(content: str, language: str) -> tuple[str, int, str, str, int]:
    """The full-text columns of a memory (TEXT_COLUMNS order)."""
    words = fts_tokens(spaced(content))
    terms = document_terms(content, language)
    stems = fts_tokens(terms)
    return tsvector(words), len(words), terms, tsvector(stems), len(stems)


TEXT_COLUMNS = ("content_tsv", "content_len", "terms", "terms_tsv", "terms_len")


class PostgresFulltext(PostgresConnection):
    """lexical, containing, term_matches, doc_count, doc_frequencies and neighbours of SearchLegs."""

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current visible memories containing any phrase (lexical.fts_phrases: FTS5 phrase
        syntax, tokenised like FTS5), by BM25 over the content (higher = better)."""
        statement = self._bm25_sql("content", phrases, vis, limit, shown="m.content")
        return (
            [LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in self._read(*statement)]
            if statement
            else []
        )

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        """Of the listed memories, those vis allows whose content tsvector holds any phrase (as
        lexical), id -> content: looked up by id, nothing is ranked."""
        split = [tokens for p in phrases if (tokens := fts_tokens(p))]
        if not split or not ids:
            return {}
        where, params = visibility_sql(vis, mark="%s")
        rows = self._read(
            f"SELECT m.id, m.content FROM memories m WHERE {mine('m')} AND m.id = ANY(%s) "
            f"AND m.content_tsv @@ %s::tsquery AND {where}",
            [ids, " | ".join(f"({tsquery(t)})" for t in split), *params],
        )
        return {mid: content for mid, content in rows}

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        """Current visible memories sharing any search term (terms.query_terms), id -> (BM25, the
        terms of `terms` it holds): FTS5's bm25() over the household's rows, negated (higher =
        better, > 0); at most `limit`, best first."""
        statement = self._term_sql(terms, vis, limit)
        return self._term_answer(self._read(*statement, binary=True), terms) if statement else {}

    def _term_answer(self, rows: list[Any], terms: list[str]) -> dict[str, tuple[float, frozenset[str]]]:
        """term_matches' answer from _term_sql's rows; keeps their languages and vectors for the
        rest of the recall (vector_search.py, _known)."""
        self._keep_candidates({r[0]: (r[3], r[4]) for r in rows if r[4] is not None})
        return {r[0]: (float(r[1]), frozenset(terms).intersection(str(r[2]).split())) for r in rows}

    def _term_sql(self, terms: list[str], vis: Visibility, limit: int) -> tuple[str, list[Any]] | None:
        """The statement of term_matches (None for no terms), rows (id, BM25, terms, language,
        vector of the active identity or None, order): the current visible memories sharing any
        term, best first, at most `limit`: _bm25's formula over `terms`, read from the memory_terms
        postings.

        A one-token term's document frequency and per-memory frequencies are its postings (an
        index range, no tsvector is unnested); a term FTS5 splits into several tokens (a phrase)
        is matched on terms_tsv as _bm25 does."""
        split = [[cut(t) for t in tokens] for p in terms if (tokens := fts_tokens(p))]
        split = list({" ".join(t): t for t in split}.values())
        if not split:
            return None
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        household = "current_setting('memory.household')"
        sql = f"""
        WITH stats AS (
            SELECT docs::float8 AS n, terms_tokens::float8 / greatest(docs, 1) AS avgdl
            FROM memory_stats WHERE {mine()}
        ), df AS MATERIALIZED (
            SELECT p.lexemes, p.query, (CASE WHEN strpos(p.lexemes, ' ') = 0
                THEN (SELECT count(*) FROM memory_terms t WHERE t.household = {household}
                      AND t.term = p.lexemes)
                ELSE (SELECT count(*) FROM memories d WHERE {mine("d")} AND d.terms_tsv @@ p.query::tsquery)
                END)::float8 AS n
            FROM unnest(%s::text[], %s::text[]) AS p(lexemes, query)
        ), w AS MATERIALIZED (
            SELECT df.lexemes, string_to_array(df.lexemes, ' ') AS phrase, df.query,
                   CASE WHEN x.idf <= 0 THEN {BM25_MIN_IDF}::float8 ELSE x.idf END AS idf
            FROM df CROSS JOIN stats
            CROSS JOIN LATERAL (SELECT ln((stats.n - df.n + 0.5::float8) / (df.n + 0.5::float8)) AS idf) x
        ), f AS (
            SELECT t.id, t.seq, t.len, w.idf, t.tf::float8 AS tf FROM w JOIN memory_terms t
                ON t.household = {household} AND t.term = w.lexemes WHERE cardinality(w.phrase) = 1
            UNION ALL
            SELECT d.id, d.seq, d.terms_len, w.idf, memory_phrase_tf(d.terms_tsv, w.phrase)::float8
                FROM w JOIN memories d ON {mine("d")} AND d.terms_tsv @@ w.query::tsquery
                WHERE cardinality(w.phrase) > 1
        ), scored AS MATERIALIZED (
            SELECT f.id, f.seq, sum(f.idf * (f.tf * {BM25_K1 + 1}::float8) / (f.tf + {BM25_K1}::float8 *
                   ({1 - BM25_B}::float8 + {BM25_B}::float8 * f.len / stats.avgdl))) AS score
            FROM f CROSS JOIN stats WHERE f.tf > 0 GROUP BY f.id, f.seq
        )
        SELECT s.id, s.score, m.terms, m.language, m.embedding, s.seq FROM (SELECT * FROM scored
            ORDER BY score DESC, seq) s
        JOIN LATERAL (SELECT m.terms, m.language, CASE WHEN m.emb_provider = %s AND m.emb_model = %s
                      AND m.emb_dimension = %s THEN m.embedding END AS embedding
                      FROM memories m WHERE m.household = {household} AND m.id = s.id
                      AND {current} AND {where}) m ON true
        ORDER BY s.score DESC, s.seq LIMIT %s"""
        return sql, [[" ".join(t) for t in split], [tsquery(t) for t in split], *self._identity_values(),
                     *at, *params, limit]  # fmt: skip

    def _bm25_sql(
        self, column: str, phrases: list[str], vis: Visibility, limit: int, *, shown: str
    ) -> tuple[str, list[Any]] | None:
        """The statement (None for no phrases) of rows (id, BM25, shown, order) of the current
        visible memories matching any phrase on `column`'s tsvector, best first (ties in insertion
        order, as FTS5's rowid order), at most `limit`.

        BM25 as FTS5's bm25(): per phrase idf = ln((N - n + 0.5) / (n + 0.5)) (BM25_MIN_IDF when
        ≤ 0), N the household's rows, n those containing the phrase; tf the phrase's occurrences;
        |D| the row's tokens over their household mean."""
        split = [tokens for p in phrases if (tokens := fts_tokens(p))]
        split = list({" ".join(t): t for t in split}.values())
        if not split:
            return None
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        tsv, length = f"{column}_tsv", f"{column}_len"
        sql = f"""
        WITH stats AS (
            SELECT docs::float8 AS n, {column}_tokens::float8 / greatest(docs, 1) AS avgdl
            FROM memory_stats WHERE {mine()}
        ), w AS MATERIALIZED (
            SELECT string_to_array(p.lexemes, ' ') AS phrase,
                   CASE WHEN x.idf <= 0 THEN {BM25_MIN_IDF}::float8 ELSE x.idf END AS idf
            FROM unnest(%s::text[], %s::text[], %s::float8[]) AS p(lexemes, query, known)
            CROSS JOIN stats
            CROSS JOIN LATERAL (SELECT CASE WHEN p.known IS NOT NULL THEN p.known ELSE
                (SELECT count(*)::float8 FROM memories d WHERE {mine("d")} AND d.{tsv} @@ p.query::tsquery)
                END AS n) c
            CROSS JOIN LATERAL (SELECT ln((stats.n - c.n + 0.5::float8) / (c.n + 0.5::float8)) AS idf) x
        ), hit AS (
            SELECT m.id, m.seq, m.{tsv} AS tsv, m.{length} AS len FROM memories m
            WHERE {mine("m")} AND m.{tsv} @@ %s::tsquery AND {current} AND {where}
        ), scored AS (
            SELECT hit.id, hit.seq, sum(w.idf * (f.tf * {BM25_K1 + 1}::float8) / (f.tf + {BM25_K1}::float8 *
                   ({1 - BM25_B}::float8 + {BM25_B}::float8 * hit.len / stats.avgdl))) AS score
            FROM hit CROSS JOIN stats
            CROSS JOIN LATERAL (SELECT u.lexeme, u.positions
                                FROM unnest(hit.tsv) AS u(lexeme, positions, weights)
                                WHERE u.lexeme = ANY(%s::text[])) u
            JOIN w ON w.phrase[1] = u.lexeme
            CROSS JOIN LATERAL (SELECT (CASE WHEN cardinality(w.phrase) = 1 THEN cardinality(u.positions)
                                ELSE memory_phrase_tf(hit.tsv, w.phrase) END)::float8 AS tf) f
            WHERE f.tf > 0
            GROUP BY hit.id, hit.seq ORDER BY score DESC, hit.seq LIMIT %s
        )
        SELECT s.id, s.score, {shown}, s.seq FROM scored s JOIN memories m ON {mine("m")} AND m.id = s.id
        ORDER BY s.score DESC, s.seq"""
        queries = [tsquery(t) for t in split]
        lexemes = [" ".join(t) for t in split]
        known = [self._exact_df(p) for p in lexemes]
        return sql, [lexemes, queries, known, " | ".join(f"({q})" for q in queries),
                     *at, *params, sorted({t[0] for t in split}), limit]  # fmt: skip

    def _exact_df(self, phrase: str) -> float | None:
        """The phrase's document frequency when doc_frequency counted it whole (below its cap):
        recall has just asked for every rare word it searches (lexical.query_anchors)."""
        with self._lock:
            self._cache_fresh()
            cached = self._df_cache.get(phrase)
        return float(cached[0]) if cached is not None and cached[0] < cached[1] else None

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """Conversation context: for each given memory with a source_ref, the current, visible,
        non-sensitive memories of the same source_ref at most `window` places before or after it
        in (created_at, insertion) order, as [(id, distance ≥ 1)]. Memories without a source_ref
        (or unknown ids) have none."""
        if not ids or window <= 0:
            return {}
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        rows = self._read(
            f"SELECT m.id, m.source_ref, m.sensitive FROM memories m WHERE {mine('m')} AND m.source_ref IN "
            f"(SELECT s.source_ref FROM memories s WHERE {mine('s')} AND s.id = ANY(%s) "
            f"AND s.source_ref IS NOT NULL) AND {current} AND {where} "
            "ORDER BY m.source_ref, m.created_at, m.seq",
            [ids, *at, *params],
        )
        return neighbour_windows(rows, ids, window)

    def _cache_fresh(self) -> None:
        """Drop the cached counts when older than DF_CACHE_TTL (other instances write too)."""
        now = time.monotonic()
        if now - self._cached_at > DF_CACHE_TTL:
            self._df_cache.clear()
            self._doc_count = None
            self._cached_at = now

    def doc_count(self) -> int:
        """Number of the household's memory rows (all scopes and statuses); cached like doc_frequency."""
        with self._lock:
            self._cache_fresh()
            if self._doc_count is not None:
                return self._doc_count
        return self._counted(self._read(DOC_COUNT_SQL))

    def _counted(self, rows: list[Any]) -> int:
        """The row count read from memory_stats (`rows` of DOC_COUNT_SQL), cached."""
        count = int(rows[0][0]) if rows else 0
        with self._lock:
            self._doc_count = self._last_doc_count = count
        return count

    def _recent_doc_count(self) -> tuple[int | None, bool]:
        """(the row count as last counted, None before the first; whether to count it again: it
        is older than DF_CACHE_TTL or a write changed it) — recall_batch counts it again in its
        pipeline and takes the last count for its own rare-word bar meanwhile."""
        with self._lock:
            self._cache_fresh()
            return (self._doc_count, False) if self._doc_count is not None else (self._last_doc_count, True)

    def doc_frequency(self, term: str, cap: int) -> int:
        """How many memories contain the FTS phrase `term`, counted up to `cap` (doc_frequencies)."""
        return self.doc_frequencies([term], cap)[term]

    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        """How many memories contain each FTS phrase of `terms`, each counted up to `cap` (cheap
        when rare), by term: one statement for those not cached.

        Cached until the next content change (or DF_CACHE_TTL): a query asks for ~5 words, mostly
        the same ones."""
        out, statement = self._df_sql(terms, cap)
        return self._df_answer(self._read(*statement), cap, out) if statement else out

    def _df_sql(self, terms: Sequence[str], cap: int) -> tuple[dict[str, int], tuple[str, list[Any]] | None]:
        """The cached (or empty) terms' frequencies, and the statement counting the others (None
        when none is left): rows (term, count up to cap)."""
        out: dict[str, int] = {}
        todo: dict[str, str] = {}  # term -> its tsquery
        with self._lock:
            self._cache_fresh()
            for term in dict.fromkeys(terms):
                cached = self._df_cache.get(term)  # (count, the cap it was counted up to)
                # a count below its cap is exact, a capped one serves every cap up to its own
                if cached is not None and (cached[0] < cached[1] or cap <= cached[1]):
                    out[term] = min(cached[0], cap)
                elif tokens := fts_tokens(term):
                    todo[term] = tsquery(tokens)
                else:
                    out[term] = 0
        if not todo:
            return out, None
        return out, (
            f"SELECT t.term, (SELECT count(*) FROM (SELECT 1 FROM memories WHERE {mine()} AND content_tsv @@ "
            "t.query::tsquery LIMIT %s) s) FROM unnest(%s::text[], %s::text[]) AS t(term, query)",
            [cap, list(todo), list(todo.values())],
        )

    def _df_answer(self, rows: list[Any], cap: int, out: dict[str, int]) -> dict[str, int]:
        """doc_frequencies' answer: `out` and the counted `rows` (_df_sql), which are cached."""
        counted = {str(term): int(df) for term, df in rows}
        with self._lock:
            for term, df in counted.items():
                if len(self._df_cache) >= DF_CACHE_MAX:
                    self._df_cache.clear()
                self._df_cache[term] = (df, cap)
        return {**out, **counted}
