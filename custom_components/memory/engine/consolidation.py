"""Supersession and consolidation: one current memory per fact (docs/design.md §6, cases C09-C15).

A fact's key is (bucket, subject, predicate): the bucket is the memory's scope/owner/area, the
subject and predicate are normalised here (`fact_subject`, `fact_predicate`), once, for every door
(the writer stores them normalised). Two memories of one key say the same when their values fold
to the same words (`same_value`); otherwise the newer one supersedes the older (C09, C10), and
memories of different keys never touch each other (C15).

`settle` is the one rule deciding which memory of a key stays current; the writer applies its
write-time form (writer.py) and `consolidate` runs it over the whole store, daily and on demand.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from .api import ConsolidationReport
from .facts import key_of, settle
from .models import Memory, Status
from .store.base import Bucket

if TYPE_CHECKING:
    from .engine import MemoryEngine

INFERRED_PRUNE_DAYS = 90  # inferred memories never recalled for this long are deleted (docs/design.md §6)


def consolidate(engine: MemoryEngine, now: datetime) -> ConsolidationReport:
    """One pass over the store (any bucket): every key with more than one ACTIVE memory is
    settled (`settle`), each key in one transaction; `inferred` memories never recalled and
    created more than INFERRED_PRUNE_DAYS days before `now` are deleted without a tombstone
    (they were never said). Idempotent: a second run changes nothing. Raises StoreUnavailable."""
    groups: dict[tuple[Bucket, str, str], list[Memory]] = defaultdict(list)
    for memory in engine.store.keyed_current():
        if (key := key_of(memory)) is not None:
            groups[key].append(memory)
    merged = superseded = 0
    for group in groups.values():
        if len(group) < 2:
            continue
        outcome = settle(group)
        confirmed = replace(outcome.current, updated_at=now)
        engine.store.retire([(m.id, status) for m, status in outcome.retired], confirmed, now)
        merged += sum(status is Status.ARCHIVED for _, status in outcome.retired)
        superseded += sum(status is Status.SUPERSEDED for _, status in outcome.retired)
    pruned = engine.store.prune_inferred(now - timedelta(days=INFERRED_PRUNE_DAYS))
    return ConsolidationReport(merged=merged, superseded=superseded, pruned=pruned)
