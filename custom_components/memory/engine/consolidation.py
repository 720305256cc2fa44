"""Supersession and consolidation: one current memory per fact (docs/consolidation.md), by
the fact rules of facts.py.

Memories with a fact key (bucket, subject, predicate) are settled per key (`facts.settle`): the
same value merges (ARCHIVED), another value is SUPERSEDED by the newest stated one; memories of
different keys never touch. Memories without a key are compared with their bucket's
neighbours (writer.conflicts_of, facts.relation), each unordered pair once: a restatement (SAME)
is merged into the memory that holds (facts.settle_pair); a likely replacement (REPLACES) is
never retired here, only reported for a judge (an AI Task, a person: MemoryEngine.settle_pair).
Pairs already judged are left alone. The writer applies the write-time form of the same rules.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from .api import Change, ConsolidationReport, PossibleConflict
from .embedding.base import Embedder
from .facts import Reading, Relation, Settlement, key_of, relation, settle, settle_pair
from .models import Memory, Status
from .store.base import Bucket, MemoryStore
from .writer import conflicts_of

INFERRED_PRUNE_DAYS = 90  # inferred memories never recalled for this long are deleted (docs/design.md §6)


@dataclass(frozen=True, slots=True)
class _Pairs:
    """The unkeyed pairs of one pass: restatements (older, newer) and likely replacements."""

    same: list[tuple[Memory, Memory]]
    replaces: list[PossibleConflict]


def consolidate(
    store: MemoryStore, embedder: Embedder, now: datetime, *, dry_run: bool = False
) -> ConsolidationReport:
    """One pass over the store (any bucket), each settlement in one transaction: every key with
    more than one ACTIVE memory is settled (`settle`); unkeyed restatements are merged, unkeyed
    likely replacements reported (`report.conflicts`); `inferred` memories never recalled and
    created more than INFERRED_PRUNE_DAYS days before `now` are deleted without a tombstone (they
    were never said). dry_run: the report of what would be done, nothing changed. Idempotent for
    what it acts on: a second run changes nothing (a chain of three restatements may take two).
    Raises StoreUnavailable."""
    changes: list[Change] = []
    groups: dict[tuple[Bucket, str, str], list[Memory]] = defaultdict(list)
    for memory in store.keyed_current():
        if (key := key_of(memory)) is not None:
            groups[key].append(memory)
    for group in groups.values():
        if len(group) > 1:
            changes += _apply(store, settle(group), now, dry_run)
    pairs = _unkeyed_pairs(store, embedder)
    retired: set[str] = set()
    for older, newer in pairs.same:
        if older.id in retired or newer.id in retired:
            continue  # one of them was merged into a third memory already: the next run sees the pair
        outcome = settle_pair(older, newer, Relation.SAME)
        assert outcome is not None  # SAME always settles
        done = _apply(store, outcome, now, dry_run)
        retired.update(c.memory_id for c in done)
        changes += done
    conflicts = tuple(c for c in pairs.replaces if not {c.older_id, c.newer_id} & retired)
    pruned = store.prune_inferred(now - timedelta(days=INFERRED_PRUNE_DAYS), dry_run=dry_run)
    return ConsolidationReport(
        merged=sum(c.status is Status.ARCHIVED for c in changes),
        superseded=sum(c.status is Status.SUPERSEDED for c in changes),
        pruned=len(pruned),
        changes=tuple(changes),
        pruned_ids=tuple(pruned),
        conflicts=conflicts,
        dry_run=dry_run,
    )


def _apply(store: MemoryStore, outcome: Settlement, now: datetime, dry_run: bool) -> list[Change]:
    """Retire what `outcome` retires (the current memory confirmed: updated_at = now) unless dry_run."""
    if not dry_run:
        confirmed = replace(outcome.current, updated_at=now)
        store.retire([(m.id, status) for m, status in outcome.retired], confirmed, now)
    return [Change(m.id, status, outcome.current.id) for m, status in outcome.retired]


def _unkeyed_pairs(store: MemoryStore, embedder: Embedder) -> _Pairs:
    """Every ACTIVE memory without a key against its bucket's neighbours (writer.conflicts_of:
    the same teller, no episodes), each unordered pair once, judged pairs left out; the relation
    is read from the older to the newer (facts.relation)."""
    memories = {m.id: m for m in store.unkeyed_current()}
    if len(memories) < 2:
        return _Pairs([], [])
    ids, vectors = store.vectors(list(memories))
    readings = {mid: Reading.of(m.content, m.language) for mid, m in memories.items()}
    judged = store.judged_pairs()
    seen: set[frozenset[str]] = set()
    pairs = _Pairs([], [])
    for mid, vector in zip(ids, vectors, strict=True):
        memory = memories[mid]
        bucket = Bucket.of(memory.scope, memory.owner_id, memory.area_id)
        for found in conflicts_of(
            store,
            embedder,
            vector,
            readings[mid],
            bucket,
            speaker_id=memory.speaker_id,
        ):
            pair = frozenset((mid, found.memory.id))
            if found.memory.id not in memories or len(pair) < 2 or pair in seen or pair in judged:
                continue  # itself, a keyed memory (its key decides), or a pair already read
            seen.add(pair)
            older, newer = sorted((memory, memories[found.memory.id]), key=lambda m: (m.created_at, m.id))
            kind = relation(readings[older.id], readings[newer.id], found.similarity)
            if kind is Relation.SAME:
                pairs.same.append((older, newer))
            elif kind is Relation.REPLACES:
                pairs.replaces.append(PossibleConflict(older.id, newer.id, round(found.similarity, 3)))
    return pairs
