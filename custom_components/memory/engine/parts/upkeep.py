"""Upkeep: consolidation, judged pairs, counts, re-embedding, backup pauses — a part of the engine
(engine/engine.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from .. import consolidation, facts, inputs, writer
from ..api import (
    ConsolidationReport,
    EngineStats,
    InvalidInput,
)
from ..core import Part, tallied
from ..models import Speaker, Status
from ..store.base import Visibility

REEMBED_BATCH = 256


class Upkeep(Part):
    """Upkeep. Blocking; thread-safe (writes under the core's write lock)."""

    def consolidate(self, now: datetime | None = None, *, dry_run: bool = False) -> ConsolidationReport:
        """One consolidation pass (daily and on demand): per fact key one current memory (the
        newest stated value; paraphrases ARCHIVED, older values SUPERSEDED, kept as history);
        memories without a key compared pairwise in their bucket by facts.relation: a restatement
        (SAME) is ARCHIVED into the one that holds, a likely replacement (REPLACES) is only
        reported (report.conflicts), never retired; pairs with a verdict (settle_pair) are left
        alone; `inferred` memories never recalled for 90 days deleted. dry_run: the same report,
        nothing changed. Idempotent. now: aware UTC, default the engine's clock."""
        inputs.check_moment("now", now, optional=True)
        inputs.check_flag("dry_run", dry_run)
        self._require_open()
        with self._writes:
            return consolidation.consolidate(self.store, self.embedder, now or self._clock(), dry_run=dry_run)

    def settle_pair(self, older_id: str, newer_id: str, verdict: facts.Relation) -> tuple[str, ...]:
        """Apply a judge's verdict on two memories (a reported conflict; facts.settle_pair): SAME
        archives the weaker/older into the other, REPLACES supersedes the older by the newer (a
        guess never supersedes a stated memory), ADDS_DETAIL/UNRELATED change nothing; a
        memory no longer current changes nothing. The verdict is kept either way, so the pair is
        not reported again. Unknown ids raise InvalidInput("memory_id", "unknown_memory").
        Returns the ids retired."""
        inputs.check_id("memory_id", older_id)
        inputs.check_id("memory_id", newer_id)
        verdict = inputs.check_verdict(verdict)
        self._require_open()
        with self._writes:
            now = self._clock()
            everything = Visibility.of(Speaker.administrator())
            older, newer = self.store.get(older_id, everything), self.store.get(newer_id, everything)
            if older is None or newer is None or older_id == newer_id:
                raise InvalidInput("memory_id", "unknown_memory")
            outcome = None
            if older.status is Status.ACTIVE and newer.status is Status.ACTIVE:
                outcome = facts.settle_pair(older, newer, verdict)
            if outcome is not None:
                retired = [(m.id, status) for m, status in outcome.retired]
                self.store.retire(retired, replace(outcome.current, updated_at=now), now)
            self.store.record_verdict(older_id, newer_id, verdict.value, now)
        return tuple(m.id for m, _ in outcome.retired) if outcome is not None else ()

    def stats(self) -> EngineStats:
        """Counts for diagnostics (no text)."""
        self._require_open()
        counts = self.store.counts()
        return EngineStats(
            memories=counts["memories"],
            active=counts["active"],
            tombstones=counts["tombstones"],
            by_scope=tallied(counts, "scope"),
            embedding=self.embedder.identity,
            schema_version=self.store.schema_version(),
            stale_vectors=counts["stale"],
            by_provenance=tallied(counts, "provenance"),
            by_status=tallied(counts, "status"),
            tombstones_by_scope=tallied(counts, "tombstone_scope"),
        )

    def reembed_pending(self, batch: int = REEMBED_BATCH) -> int:
        """Re-embed up to `batch` memories whose vectors are of another identity; returns how many.

        Tombstones hold no text, so theirs cannot be re-embedded: a tombstone of another
        identity keeps blocking only once that identity is active again (docs/architecture.md).
        """
        inputs.check_count("batch", batch)
        self._require_open()
        stale = self.store.stale(batch)
        if not stale:
            return 0
        vectors = self.embedder.embed([writer.embedding_text(content) for _, content in stale])
        with self._writes:  # an edit meanwhile has set its own vector: the stale one is not written
            still = dict(self.store.stale(batch))
            for (mid, content), vector in zip(stale, vectors, strict=True):
                if still.get(mid) == content:
                    self.store.set_vector(mid, vector)
        return len(stale)

    def pause_writes(self, timeout: float) -> None:
        """Before a backup (backup.py): every write in progress ends, the store's file is made
        whole (SQLite: the WAL checkpointed), later writes wait until resume_writes
        (store.base.MemoryStore.pause_writes). Raises WritesPaused when a write does not end
        within `timeout` s, StoreUnavailable when the store is not open or its file cannot be
        made whole; nothing stays paused after a raise."""
        inputs.check_seconds("timeout", timeout)
        self._require_open()
        self.store.pause_writes(timeout)

    def resume_writes(self) -> bool:
        """After the backup: held-back writes go on (idempotent). True when the pause held
        throughout (store.base.MemoryStore.resume_writes)."""
        return self.store.resume_writes()
