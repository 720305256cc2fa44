"""What one recall reads from the store, each thing once (recall.py).

Recall's steps ask for the same memories and vectors again (ranking reads a candidate for its
factors, the translation step and step 8 compare vectors of the same pool): RecallReads keeps what
was read for the rest of that recall, so each row and vector costs one read. A store a round trip
costs on (BatchedReads: PostgreSQL) is asked for the gather step's reads at once, before recall
asks for them one by one (prefetch: the legs with their rows and vectors), and for the
conversation neighbours with theirs: a recall is two round trips. RecallReads lives for one
recall only: a memory written meanwhile is seen by the next recall, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from .embedding.base import Vectors
from .language import spaced
from .lexical import Anchor, anchor_candidates, fts_phrases, rare_cap
from .models import Memory
from .store.base import BatchedReads, Bucket, LexicalRow, RecallRequest, SearchLegs, Visibility
from .store.bm25 import fts_tokens, phrase_counts
from .terms import query_words, terms_of


class RecallStore(SearchLegs, Protocol):
    """The store reads recall is made of: the search legs and memories by id."""

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """The listed memories (any status) vis allows, by id; unknown or hidden ones left out."""
        ...


class RecallReads:
    """A RecallStore that reads each memory (per Visibility) and each vector once; every other
    read goes to the store as asked. Not shared between threads: one recall, one instance."""

    def __init__(self, store: RecallStore) -> None:
        self._store = store
        self._memories: dict[tuple[int, str], Memory | None] = {}  # (id(vis), memory id) -> read
        # the vectors read, as rows of one matrix (float32[n, dimension]), built from the blocks
        # read so far when asked for (stacking each step's 250 vectors again was ~1 ms a recall)
        self._row: dict[str, int | None] = {}  # memory id -> its row, None: it has no vector
        self._blocks: list[Vectors] = []
        self._matrix: Vectors | None = None
        # rows a batch brought (id(vis), memories, their vectors), decoded when first asked for
        self._batches: list[tuple[int, Mapping[str, Memory], Mapping[str, Vectors]]] = []
        self._views: list[Visibility] = []  # keeps every vis alive while its id() keys the memo
        # prefetched answers, by the call recall will make: (id(vector) or terms/phrases, id(vis), limits)
        self._semantic: dict[
            tuple[int, int, int, int], tuple[list[tuple[str, float]], list[tuple[str, float]]]
        ] = {}
        self._terms: dict[tuple[tuple[str, ...], int, int], dict[str, tuple[float, frozenset[str]]]] = {}
        self._lexical: dict[tuple[tuple[str, ...], int, int], list[LexicalRow]] = {}
        self._frequencies: dict[tuple[str, int], int] = {}  # prefetched (word, cap) -> count
        self._doc_count: int | None = None  # the prefetched frequencies' row count
        self._prefetched: object = None  # the request whose parts' id()s key the answers, kept alive

    def prefetch(
        self,
        vector: Vectors,
        vis: Visibility,
        *,
        query: str,
        language: str | None,
        k: int,
        owned_k: int,
        terms_limit: int,
        phrases_limit: int,
    ) -> None:
        """On a BatchedReads store, read at once what recall's first steps ask for with these
        arguments (semantic; term_matches of the query's terms; doc_frequencies of its words that
        may be rare; lexical of its identifiers and numbers: recall.gather), with every row and
        vector they name. Elsewhere nothing (each read is cheap)."""
        if not isinstance(self._store, BatchedReads):
            return
        terms = terms_of(query_words(query, language))
        found = anchor_candidates(query)
        words = [w for w in found if isinstance(w, str)]
        phrases = fts_phrases([a for a in found if isinstance(a, Anchor)])
        request = RecallRequest(vector, vis, k, owned_k, terms, terms_limit, words, phrases, phrases_limit)
        batch = self._store.recall_batch(request)
        self._doc_count = batch.doc_count
        cap = rare_cap(batch.doc_count) + 1
        self._keep(vis, batch.memories, batch.vectors)
        self._semantic[(id(vector), id(vis), k, owned_k)] = (batch.semantic, batch.owned)
        self._terms[(tuple(terms), id(vis), terms_limit)] = batch.term_matches
        if phrases:
            self._lexical[(tuple(phrases), id(vis), phrases_limit)] = batch.lexical
        self._frequencies.update(((w, cap), n) for w, n in batch.frequencies.items())
        self._prefetched = request

    def _keep(self, vis: Visibility, memories: Mapping[str, Memory], vectors: Mapping[str, Vectors]) -> None:
        """Memories a batch read under `vis` and their vectors (a memory without one: none)."""
        self._view(vis)
        self._batches.append((id(vis), memories, vectors))

    def _view(self, vis: Visibility) -> int:
        """The memo key of `vis` (kept alive while it keys)."""
        if not any(v is vis for v in self._views):
            self._views.append(vis)
        return id(vis)

    def _held(self, key: int, mid: str) -> bool:
        """The memory was read under the view `key` (found or not)."""
        return (key, mid) in self._memories or any(k == key and mid in rows for k, rows, _ in self._batches)

    def _memory(self, key: int, mid: str) -> Memory | None:
        """A memory _held under `key` (None: not found)."""
        if (key, mid) not in self._memories:
            rows = next(rows for k, rows, _ in self._batches if k == key and mid in rows)
            self._memories[(key, mid)] = rows[mid]
        return self._memories[(key, mid)]

    def _batch_vector(self, mid: str) -> tuple[bool, Vectors | None]:
        """(a batch read it, its vector there: None for none)."""
        for _, rows, vectors in self._batches:
            if mid in rows:
                return True, vectors.get(mid)
        return False, None

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """store.get_many, each (vis, id) read once."""
        key = self._view(vis)
        missing = [i for i in dict.fromkeys(ids) if not self._held(key, i)]
        if missing:
            found = self._store.get_many(missing, vis)
            self._memories.update(((key, i), found.get(i)) for i in missing)
        return {i: m for i in ids if (m := self._memory(key, i)) is not None}

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """store.vectors, each id read once (order kept, ids without a vector left out)."""
        missing, brought, from_batches = [], [], []
        for i in dict.fromkeys(ids):
            if i in self._row:
                continue
            held, vector = self._batch_vector(i)
            if not held:
                missing.append(i)
            elif vector is None:
                self._row[i] = None
            else:
                brought.append(i)
                from_batches.append(vector)
        if brought:
            self._add(brought, np.stack(from_batches))
        if missing:
            found, matrix = self._store.vectors(missing)
            self._row.update(dict.fromkeys(missing))
            self._add(found, matrix)
        rows = [(i, r) for i in ids if (r := self._row[i]) is not None]
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        if self._matrix is None or self._matrix.shape[0] < sum(len(b) for b in self._blocks):
            self._matrix = np.concatenate(self._blocks)
        return [i for i, _ in rows], self._matrix[[r for _, r in rows]]

    def _add(self, ids: list[str], matrix: Vectors) -> None:
        """Vectors read (matrix row k: ids[k]) as the next rows."""
        if not ids:
            return
        start = sum(len(b) for b in self._blocks)
        self._row.update((i, start + k) for k, i in enumerate(ids))
        self._blocks.append(matrix)

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """store.similarities from the vectors read once."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        got = self._semantic.get((id(vector), id(vis), k, owned_k))
        return got if got is not None else self._store.semantic(vector, vis, k, owned_k=owned_k)

    def nearest_in_buckets(
        self, vector: Vectors, buckets: Sequence[Bucket], k: int
    ) -> list[list[tuple[Memory, float]]]:
        return self._store.nearest_in_buckets(vector, buckets, k)

    def languages(self, ids: list[str]) -> dict[str, str]:
        return self._store.languages(ids)

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        got = self._lexical.get((tuple(phrases), id(vis), limit))
        return got if got is not None else self._store.lexical(phrases, vis, limit)

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        """store.containing; among memories all read under `vis` already, on their text as FTS5
        reads it (its tokens of language.spaced(content), a phrase as a run of them)."""
        key = self._view(vis)
        if not all(self._held(key, i) for i in ids):
            return self._store.containing(phrases, ids, vis)
        wanted = [tokens for p in phrases if (tokens := fts_tokens(p))]
        out = {}
        for i in ids:
            memory = self._memory(key, i)
            if memory is not None:
                have = fts_tokens(spaced(memory.content))
                if any(phrase_counts(have, p) for p in wanted):
                    out[i] = memory.content
        return out

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        got = self._terms.get((tuple(terms), id(vis), limit))
        return got if got is not None else self._store.term_matches(terms, vis, limit)

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """store.neighbours; a BatchedReads store reads the neighbours' rows and vectors with them.
        Nothing is asked when every seed was read under `vis` already, found, and is in no
        conversation (no source_ref): such a memory has no neighbours."""
        if self._unconversed(ids, vis):
            return {}
        if not isinstance(self._store, BatchedReads):
            return self._store.neighbours(ids, vis, window)
        near, memories, vectors = self._store.neighbour_rows(ids, vis, window)
        self._keep(vis, memories, vectors)
        return near

    def _unconversed(self, ids: list[str], vis: Visibility) -> bool:
        """Every one of `ids` was read under `vis`, found, and has no source_ref."""
        key = self._view(vis)
        return all(
            self._held(key, i) and (memory := self._memory(key, i)) is not None and memory.source_ref is None
            for i in ids
        )

    def doc_count(self) -> int:
        """store.doc_count; after a prefetch the count its frequencies were counted against."""
        return self._store.doc_count() if self._doc_count is None else self._doc_count

    def doc_frequency(self, term: str, cap: int) -> int:
        return self._store.doc_frequency(term, cap)

    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        if all((t, cap) in self._frequencies for t in terms):
            return {t: self._frequencies[(t, cap)] for t in terms}
        return self._store.doc_frequencies(terms, cap)
