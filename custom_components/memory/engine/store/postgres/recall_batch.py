"""BatchedReads on PostgreSQL: a recall's reads in two round trips (reads.py asks for them).

recall_batch sends the gather step's statements as one pipeline — term matches, document
frequencies, the identifier/number leg, the speaker's own and the top of the vector search (after
INDEX_ONLY, which holds for the rest of the transaction) — each row with its memory's columns and
vector (rows.with_rows), so nothing a step reads after it costs another round trip;
neighbour_rows finds the conversation neighbours and reads them in one statement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from psycopg import AsyncConnection

from ...embedding.base import Vectors
from ...lexical import rare_cap
from ...models import Memory
from ..base import LexicalRow, RecallBatch, RecallRequest, Visibility
from ..sql import current_sql, visibility_sql
from .connection import GENERIC_PLANS, INDEX_ONLY
from .fulltext import DOC_COUNT_SQL, PostgresFulltext
from .rows import as_array, memory_at, mine, with_rows
from .vector_search import PostgresVectorSearch

SEMANTIC_COLUMNS = 4  # id, distance, language, vector (vector_search._semantic_sql)
TERM_COLUMNS = 6  # id, BM25, terms, language, vector, order (fulltext._term_sql)
LEXICAL_COLUMNS = 4  # id, BM25, content, order (fulltext._bm25_sql)
NEIGHBOUR_COLUMNS = 4  # seed, id, distance, place


class Decoded[T](Mapping[str, T]):
    """Rows by memory id, each decoded when first asked for: a recall reads few of the rows a
    batch brings (ranking stops once its slate is settled), and decoding a memory row costs more
    than reading it (measured: 26 µs a row, 6 ms for a batch's 250)."""

    def __init__(self, raw: dict[str, Any], decode: Callable[[Any], T]) -> None:
        self._raw, self._decode = raw, decode
        self._done: dict[str, T] = {}

    def __getitem__(self, mid: str) -> T:
        if mid not in self._done:
            self._done[mid] = self._decode(self._raw[mid])
        return self._done[mid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, mid: object) -> bool:
        return mid in self._raw


class PostgresRecallBatch(PostgresVectorSearch, PostgresFulltext):
    """recall_batch and neighbour_rows (store/base.py BatchedReads)."""

    def recall_batch(self, request: RecallRequest) -> RecallBatch:
        """Every read of `request` in one round trip (a pipeline of up to five statements)."""
        vis, identity = request.vis, self._identity_values()
        owned, top = self._semantic_sql(request.vector, vis, request.k, request.owned_k, rows=True)
        terms = self._term_sql(request.terms, vis, request.terms_limit)
        docs, recount = self._recent_doc_count()
        if docs is None:  # never counted since open: once
            docs, recount = self.doc_count(), False
        cap = rare_cap(docs) + 1
        counted, frequencies = self._df_sql(request.words, cap) if request.words else ({}, None)
        lexical = self._bm25_sql("content", request.phrases, vis, request.phrases_limit, shown="m.content")
        exact = {  # no plan changes their answers: GENERIC_PLANS
            "terms": terms and with_rows(*terms, order="x.score DESC, x.seq"),
            "frequencies": frequencies,
            "lexical": lexical and with_rows(*lexical, identity=identity, order="x.score DESC, x.seq"),
            "docs": (DOC_COUNT_SQL, []) if recount else None,
        }

        async def work(conn: AsyncConnection) -> dict[str, list[Any]]:
            async with conn.pipeline(), conn.transaction():
                cursors = {"owned": await conn.execute(*owned, binary=True)} if owned else {}
                await conn.execute(GENERIC_PLANS)
                cursors |= {name: await conn.execute(*st, binary=True) for name, st in exact.items() if st}
                await conn.execute(INDEX_ONLY)  # the vector search's plan: last, it holds to the end
                cursors["top"] = await conn.execute(*top, binary=True)
                return {name: await cursor.fetchall() for name, cursor in cursors.items()}

        rows = self._run(work)
        if recount:
            self._counted(rows["docs"])
        memories: dict[str, tuple[Any, int]] = {}  # id -> (row, where its memory's columns start)
        vectors: dict[str, Any] = {}
        for row in (*rows["top"], *rows.get("owned", [])):
            memories[row[0]], vectors[row[0]] = (row, SEMANTIC_COLUMNS), row[3]
        for row in rows.get("terms", []):
            memories[row[0]] = (row, TERM_COLUMNS)
            if row[4] is not None:
                vectors[row[0]] = row[4]
        for row in rows.get("lexical", []):
            memories[row[0]] = (row, LEXICAL_COLUMNS)
            if row[-1] is not None:
                vectors[row[0]] = row[-1]
        semantic, own = self._semantic_answer(rows["top"], rows.get("owned", []), request.k, request.owned_k)
        return RecallBatch(
            semantic=semantic,
            owned=own,
            term_matches=self._term_answer(rows.get("terms", []), request.terms),
            frequencies=self._df_answer(rows["frequencies"], cap, counted) if frequencies else counted,
            doc_count=docs,
            lexical=[LexicalRow(id=r[0], content=r[2], bm25=float(r[1])) for r in rows.get("lexical", [])],
            memories=Decoded(memories, lambda r: memory_at(*r)),
            vectors=Decoded(vectors, as_array),
        )

    def neighbour_rows(
        self, ids: list[str], vis: Visibility, window: int
    ) -> tuple[dict[str, list[tuple[str, int]]], Mapping[str, Memory], Mapping[str, Vectors]]:
        """neighbours(ids, vis, window) with the neighbours' memories and vectors, one statement:
        the places in each conversation are numbered in SQL, and only the rows at most `window`
        places from a given memory are read (a long conversation is not)."""
        if not ids or window <= 0:
            return {}, {}, {}
        where, params = visibility_sql(vis, mark="%s")
        current, at = current_sql(vis, mark="%s")
        inner = f"""
        WITH conv AS MATERIALIZED (
            SELECT m.id, m.source_ref, m.sensitive,
                   row_number() OVER (PARTITION BY m.source_ref ORDER BY m.created_at, m.seq) AS place
            FROM memories m WHERE {mine("m")} AND m.source_ref IN (SELECT s.source_ref FROM memories s
                WHERE {mine("s")} AND s.id = ANY(%s) AND s.source_ref IS NOT NULL) AND {current} AND {where}
        )
        SELECT s.id AS seed, c.id, abs(c.place - s.place) AS distance, c.place FROM conv s
        JOIN conv c ON c.source_ref = s.source_ref AND c.place BETWEEN s.place - %s AND s.place + %s
            AND c.id <> s.id AND NOT c.sensitive
        WHERE s.id = ANY(%s)"""
        sql, args = with_rows(inner, [ids, *at, *params, window, window, ids],
                              identity=self._identity_values(), order="x.seed, x.place")  # fmt: skip

        async def work(conn: AsyncConnection) -> list[Any]:
            async with conn.pipeline(), conn.transaction():
                await conn.execute(GENERIC_PLANS)  # exact: no plan changes the answer
                cursor = await conn.execute(sql, args, binary=True)
                return await cursor.fetchall()

        near: dict[str, list[tuple[str, int]]] = {}
        memories: dict[str, Any] = {}
        vectors: dict[str, Any] = {}
        for row in self._run(work):
            near.setdefault(row[0], []).append((row[1], int(row[2])))
            memories[row[1]] = row
            if row[-1] is not None:
                vectors[row[1]] = row[-1]
        return near, Decoded(memories, lambda r: memory_at(r, NEIGHBOUR_COLUMNS)), Decoded(vectors, as_array)
