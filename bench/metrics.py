"""Retrieval metrics shared by the quality benchmarks (bench/locomo.py, bench/xquad.py).

Pure functions, no I/O. Shapes:
- `ranked_ids`: a sequence of hashable ids, best first, as a retriever returned them. Duplicates
  count once, at their first (best) position.
- `relevant_ids`: a collection of the ids that answer the query (order and duplicates ignored).
- Every metric returns a float in [0, 1] for one query; `mean` averages per-query values.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence


def _first_positions(ranked_ids: Sequence[Hashable]) -> dict[Hashable, int]:
    """Id -> its 1-based rank, keeping the first occurrence of a repeated id."""
    positions: dict[Hashable, int] = {}
    for rank, item in enumerate(ranked_ids, start=1):
        positions.setdefault(item, rank)
    return positions


def recall_at_k(ranked_ids: Sequence[Hashable], relevant_ids: Collection[Hashable], k: int) -> float:
    """Evidence recall@k as LoCoMo scores it: the fraction of the distinct relevant ids found
    among the first k ranked ids. A query with no relevant ids scores 1.0 (LoCoMo's
    task_eval/evaluation.py counts empty evidence as recalled; see the dataset README).

    Raises ValueError when k < 1.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    relevant = set(relevant_ids)
    if not relevant:
        return 1.0
    top = set(ranked_ids[:k])
    return len(relevant & top) / len(relevant)


def average_precision(ranked_ids: Sequence[Hashable], relevant_ids: Collection[Hashable]) -> float:
    """Average precision over the whole ranking (no cutoff): the mean, over every relevant id,
    of precision at the rank where it appears; a relevant id that never appears contributes 0.
    A query with no relevant ids scores 0.0 (nothing to find; callers should leave it out).
    """
    relevant = set(relevant_ids)
    if not relevant:
        return 0.0
    hit_ranks = sorted(rank for item, rank in _first_positions(ranked_ids).items() if item in relevant)
    precision_sum = sum(found / rank for found, rank in enumerate(hit_ranks, start=1))
    return precision_sum / len(relevant)


def reciprocal_rank(ranked_ids: Sequence[Hashable], relevant_ids: Collection[Hashable]) -> float:
    """1 / rank of the first relevant id (1-based); 0.0 when none appears or none is relevant."""
    relevant = set(relevant_ids)
    for rank, item in enumerate(ranked_ids, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean of per-query values; 0.0 for no values (an empty bucket, e.g. a category
    absent from a conversation — report the count next to it)."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0
