"""What one recall reads from the store, each thing once (recall.py).

Recall's steps ask for the same memories and vectors again (the gather step reads a candidate's
text for its anchors, ranking reads it for its factors; the translation step and step 8 compare
vectors of the same pool): RecallReads keeps what was read for the rest of that recall, so each
row and vector costs one read — on PostgreSQL one round trip fewer per repeat. It lives for one
recall only: a memory written meanwhile is seen by the next recall, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from .embedding.base import Vectors
from .models import Memory
from .store.base import Bucket, LexicalRow, SearchLegs, Visibility


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
        self._vectors: dict[str, Vectors | None] = {}  # memory id -> float32[dimension], None: none
        self._views: list[Visibility] = []  # keeps every vis alive while its id() keys the memo

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """store.get_many, each (vis, id) read once."""
        if not any(v is vis for v in self._views):
            self._views.append(vis)
        key = id(vis)
        missing = [i for i in dict.fromkeys(ids) if (key, i) not in self._memories]
        if missing:
            found = self._store.get_many(missing, vis)
            self._memories.update(((key, i), found.get(i)) for i in missing)
        return {i: m for i in ids if (m := self._memories[(key, i)]) is not None}

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """store.vectors, each id read once (order kept, ids without a vector left out)."""
        missing = [i for i in dict.fromkeys(ids) if i not in self._vectors]
        if missing:
            found, matrix = self._store.vectors(missing)
            read = dict(zip(found, matrix, strict=True))
            self._vectors.update((i, read.get(i)) for i in missing)
        kept = [(i, v) for i in ids if (v := self._vectors[i]) is not None]
        if not kept:
            return [], np.zeros((0, 0), dtype=np.float32)
        return [i for i, _ in kept], np.stack([v for _, v in kept])

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """store.similarities from the vectors read once."""
        found, matrix = self.vectors(ids)
        if not found:
            return {}
        return {i: float(s) for i, s in zip(found, matrix @ vector, strict=True)}

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        return self._store.semantic(vector, vis, k, owned_k=owned_k)

    def nearest_in_buckets(
        self, vector: Vectors, buckets: Sequence[Bucket], k: int
    ) -> list[list[tuple[str, float]]]:
        return self._store.nearest_in_buckets(vector, buckets, k)

    def languages(self, ids: list[str]) -> dict[str, str]:
        return self._store.languages(ids)

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        return self._store.lexical(phrases, vis, limit)

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        return self._store.containing(phrases, ids, vis)

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        return self._store.term_matches(terms, vis, limit)

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        return self._store.neighbours(ids, vis, window)

    def doc_count(self) -> int:
        return self._store.doc_count()

    def doc_frequency(self, term: str, cap: int) -> int:
        return self._store.doc_frequency(term, cap)

    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        return self._store.doc_frequencies(terms, cap)
