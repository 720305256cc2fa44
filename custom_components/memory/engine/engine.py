"""MemoryEngine: the facade the HA side calls (implements api.MemoryEngineAPI).

Composes a store, an embedder and the recall/writer/forgetting modules. Blocking and
thread-safe (the store serialises); the HA side runs every call in an executor.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np

from . import consolidation, extraction, facts, forgetting, writer
from . import recall as recall_mod
from .api import (
    ConsolidationReport,
    EngineStats,
    InvalidInput,
    MemoryDraft,
    RecallOptions,
    RememberResult,
    StoreUnavailable,
)
from .calibration import Hubness
from .embedding.base import Embedder, Vectors, embed_queries
from .extraction import Candidate, LearnResult
from .models import Hit, Memory, Provenance, Scope, Speaker, Status, TranscriptTurn, Voiceprint
from .store.base import Bucket, MemoryStore, Visibility
from .text import visible_text

_LOGGER = logging.getLogger(__name__)
REEMBED_BATCH = 256


def utc_now() -> datetime:
    return datetime.now(UTC)


class MemoryEngine:
    """See api.MemoryEngineAPI for each method's contract."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        *,
        clock: Callable[[], datetime] = utc_now,
        anchor_key: bytes | None = None,
    ) -> None:
        """anchor_key: the per-installation secret for the identifier digests tombstones keep
        (forgetting.anchor_digests), kept outside the store's file; None: tombstones keep and
        check none (similarity alone decides)."""
        self.store = store
        self.embedder = embedder
        self._clock = clock
        self._anchor_key = anchor_key
        self._hubness = Hubness(embedder)
        self._open = False
        # One writer at a time decides a fact key: a key's read and its write are separate store
        # calls, and two concurrent changes of one fact must not both supersede the old value.
        self._writes = threading.RLock()
        self._voice_generation = 0  # bumped by every voiceprint change (voice_generation)

    # ------------------------------------------------------------------ lifecycle
    def open(self) -> None:
        """Open the store, migrate, load vectors of the embedder's identity, warm the encoder.

        Raises StoreUnavailable (file/schema) or EncoderUnavailable (the model cannot load).
        """
        self.store.open(self.embedder.identity)
        try:
            self._hubness.warm()  # loads the model and embeds the calibration background once
        except BaseException:
            self.store.close()
            raise
        self._open = True

    def close(self) -> None:
        """Flush and close; idempotent."""
        self.store.close()
        self._open = False

    def _require_open(self) -> None:
        if not self._open:
            raise StoreUnavailable("memory engine is not open")

    # ------------------------------------------------------------------ writing
    def remember(self, draft: MemoryDraft) -> RememberResult:
        """Store a memory, committed before returning (api.MemoryEngineAPI.remember)."""
        self._require_open()
        now = self._clock()
        with self._writes:
            result = writer.remember(self.store, self.embedder, now, draft)
        memory = result.memory
        lifted = forgetting.lift_anchored(
            self.store,
            self.embedder,
            writer.clean_content(draft.content),
            bucket=Bucket.of(memory.scope, memory.owner_id, memory.area_id),
            provenance=Provenance(draft.provenance),
            now=now,
            anchor_key=self._anchor_key,
        )
        return replace(result, lifted_tombstones=result.lifted_tombstones + lifted) if lifted else result

    def supersede(self, memory_ids: Sequence[str], by_id: str, speaker: Speaker) -> tuple[str, ...]:
        """A person settled it: `by_id` replaces `memory_ids` (the conversation's yes to "Should
        this replace it?"). Each must be a current memory the speaker sees, and `by_id` too, else
        InvalidInput("memory_id", "unknown_memory"); they become SUPERSEDED by it (valid_to =
        now, kept in its history) in one transaction, and it is seen by everyone who saw them
        (facts.taking_over: a private memory replacing a shared one becomes shared). Returns the
        ids superseded."""
        self._require_open()
        with self._writes:
            view = Visibility.of(speaker)
            ids = [i for i in dict.fromkeys(memory_ids) if i != by_id]
            found = self.store.get_many([by_id, *ids], view)
            if any(i not in found or found[i].status is not Status.ACTIVE for i in (by_id, *ids)):
                raise InvalidInput("memory_id", "unknown_memory")
            holder = facts.taking_over(found[by_id], [found[i] for i in ids])
            self.store.retire([(i, Status.SUPERSEDED) for i in ids], holder, self._clock())
        return tuple(ids)

    def learn(
        self,
        candidates: Iterable[Candidate],
        *,
        speaker: Speaker,
        language: str,
        summary: str | None = None,
        review: bool = False,
        conversation_id: str | None = None,
        people: Mapping[str, str] | None = None,
    ) -> LearnResult:
        """Learn one conversation's candidates (extraction.apply_candidates: the checks, the
        fact rules, the summary) as one operation under the write lock, at the engine's clock.
        Raises StoreUnavailable; a refused candidate counts as rejected."""
        self._require_open()
        with self._writes:
            return extraction.apply_candidates(
                self,
                candidates,
                speaker=speaker,
                language=language,
                summary=summary,
                review=review,
                conversation_id=conversation_id,
                people=people,
                now=self._clock(),
            )

    # ------------------------------------------------------------------ reading
    def recall(
        self,
        query: str,
        speaker: Speaker,
        options: RecallOptions | None = None,
        *,
        vector: Vectors | None = None,
    ) -> list[Hit]:
        """Hybrid recall, best first, capped; never raises (logs and returns []).

        vector: the query's embedding (float32[dimension], unit, of embedder.identity) when the
        caller already has it; otherwise the query is embedded here. The text is still needed
        for the lexical leg.
        """
        try:
            self._require_open()
            if not query or visible_text(query) is None:
                return []  # nothing to search for, or text no encoder/SQLite can take
            opts = options or RecallOptions()
            if opts.as_of is not None and opts.as_of.utcoffset() is None:
                raise InvalidInput("as_of", "naive_time")  # logged below: recall never raises
            qvec = embed_queries(self.embedder, [query])[0] if vector is None else self._checked(vector)
            hits = recall_mod.recall(
                self.store,
                qvec,
                query=query,
                speaker=speaker,
                options=opts,
                now=self._clock(),
                hubness=self._hubness,
            )
            if hits and opts.as_of is None:  # a look back is not a use of what is current
                self.store.touch([h.memory.id for h in hits], self._clock())
        except Exception:
            _LOGGER.exception("Memory recall failed; answering without memories")
            return []
        return hits

    def _checked(self, vector: Vectors) -> Vectors:
        qvec = np.asarray(vector, dtype=np.float32).reshape(-1)
        if qvec.shape != (self.embedder.identity.dimension,):
            raise InvalidInput("vector", "wrong_dimension")
        return qvec

    @property
    def hubness(self) -> Hubness:
        """The C08 calibration of this engine's embedder (for tools timing recall's steps)."""
        return self._hubness

    def find_to_forget(self, query: str, speaker: Speaker, limit: int = 3) -> list[Hit]:
        """Forget candidates visible to speaker, best first."""
        self._require_open()
        return forgetting.find_to_forget(
            self.store,
            self.embedder,
            self._hubness,
            query=query,
            speaker=speaker,
            limit=limit,
            now=self._clock(),
        )

    def get(self, memory_id: str, speaker: Speaker) -> Memory | None:
        """One memory (any status) if visible to speaker."""
        self._require_open()
        return self.store.get(memory_id, Visibility.of(speaker))

    def history(self, memory_id: str, speaker: Speaker) -> list[Memory]:
        """The memory's chain of values visible to speaker, newest first, each with its validity
        window (api.MemoryEngineAPI.history); InvalidInput("memory_id", "unknown_memory") if not
        visible."""
        self._require_open()
        vis = Visibility.of(speaker)
        memory = self.store.get(memory_id, vis)
        if memory is None:
            raise InvalidInput("memory_id", "unknown_memory")
        seen = {memory.id}
        while memory.superseded_by is not None and memory.superseded_by not in seen:
            newer = self.store.get(memory.superseded_by, vis)
            if newer is None:  # forgotten meanwhile, or (never by the writer) not visible
                break
            memory = newer
            seen.add(memory.id)
        older = self.store.history(memory.id, vis)[::-1]  # the store gives them oldest first
        return [replace(m, valid_from=m.valid_from or m.created_at) for m in (memory, *older)]

    def approve(self, memory_id: str, speaker: Speaker) -> Memory:
        """A PENDING memory visible to speaker becomes ACTIVE (review of extracted memories) and,
        with a fact key, holds it: the key's other ACTIVE memories become ARCHIVED (same value)
        or SUPERSEDED (another value), in the same transaction (approval = said now).

        Raises InvalidInput("memory_id", "unknown_memory") when it is not visible or not pending.
        """
        self._require_open()
        with self._writes:
            return self._approve_locked(memory_id, speaker)

    def _approve_locked(self, memory_id: str, speaker: Speaker) -> Memory:
        memory = self.store.get(memory_id, Visibility.of(speaker))
        if memory is None or memory.status is not Status.PENDING:
            raise InvalidInput("memory_id", "unknown_memory")
        approved = replace(memory, status=Status.ACTIVE)
        others: list[Memory] = []
        if memory.subject is not None and memory.predicate is not None:
            bucket = Bucket.of(memory.scope, memory.owner_id, memory.area_id)
            others = self.store.current_by_key(bucket, memory.subject, memory.predicate, [Status.ACTIVE])
        retired = [
            (m.id, Status.ARCHIVED if facts.same_value(m, approved) else Status.SUPERSEDED) for m in others
        ]
        self.store.retire(retired, approved, self._clock())
        return approved

    def list_memories(self, speaker: Speaker, *, limit: int = 100, offset: int = 0) -> list[Memory]:
        """Visible active memories, newest first."""
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit", "negative")
        return self.store.list_current(Visibility.of(speaker), limit=limit, offset=offset)

    def list_pending(self, speaker: Speaker, *, limit: int = 50) -> list[Memory]:
        """Visible PENDING memories (awaiting approve/reject), newest first, at most `limit`.

        Raises InvalidInput("limit", "negative") when limit < 0.
        """
        self._require_open()
        if limit < 0:
            raise InvalidInput("limit", "negative")
        return self.store.list_current(Visibility.of(speaker), limit=limit, offset=0, status=Status.PENDING)

    # ------------------------------------------------------------------ forgetting
    def forget(self, memory_id: str, speaker: Speaker) -> Memory:
        """Delete the text and the older values it replaced (forgetting.forget), leave
        tombstones; InvalidInput("memory_id", "unknown_memory") if not visible."""
        self._require_open()
        return forgetting.forget(self.store, memory_id, speaker, self._clock(), self._anchor_key)

    def forget_person(self, person_id: str) -> int:
        """Forget every PRIVATE memory of person_id and unlink them as the teller of the others;
        returns how many were forgotten. Under the write lock: a write racing it cannot put the
        teller back."""
        self._require_open()
        with self._writes:
            try:
                return forgetting.forget_person(self.store, person_id, self._clock(), self._anchor_key)
            finally:
                self._voice_generation += 1  # the voiceprint went with the person

    # ------------------------------------------------------------------ voiceprints
    def enroll_voice(self, person_id: str, vector: Vectors, clips: int, embedding: str) -> Voiceprint:
        """Store person_id's voiceprint (api.MemoryEngineAPI.enroll_voice); re-enrolment replaces
        the vector and clip count (created_at kept). vector: float32[d], any positive length (it
        is stored unit length); clips >= 1; embedding: the voice model's identity. Raises
        InvalidInput("person_id", "unknown_speaker"), ("vector", "invalid_vector") for an empty,
        multi-dimensional, non-finite or zero vector, ("clips", "too_small")."""
        self._require_open()
        if not person_id:
            raise InvalidInput("person_id", "unknown_speaker")
        unit = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(unit)) if unit.ndim == 1 and unit.size else 0.0
        if not np.isfinite(norm) or norm <= 0.0:
            raise InvalidInput("vector", "invalid_vector")
        if clips < 1:
            raise InvalidInput("clips", "too_small")
        if not embedding:
            raise InvalidInput("embedding", "empty")
        now = self._clock()
        with self._writes:
            try:
                return self.store.put_voiceprint(
                    Voiceprint(person_id, unit / norm, clips, embedding, created_at=now, updated_at=now)
                )
            finally:
                self._voice_generation += 1

    def voiceprints(self) -> list[Voiceprint]:
        """Every enrolled voiceprint, by person id (vectors included: for the matcher only)."""
        self._require_open()
        return self.store.voiceprints()

    def forget_voice(self, person_id: str) -> bool:
        """Delete person_id's voiceprint; True when there was one."""
        self._require_open()
        with self._writes:
            try:
                return self.store.delete_voiceprint(person_id)
            finally:
                self._voice_generation += 1

    @property
    def voice_generation(self) -> int:
        """A number that changes whenever a voiceprint may have changed (enrol, forget_voice,
        forget_person): a cache of voiceprints() is current while it is unchanged. No I/O."""
        return self._voice_generation

    def is_tombstoned(
        self,
        text_or_vector: str | Vectors,
        *,
        scope: Scope,
        owner_id: str | None = None,
        area_id: str | None = None,
        text: str | None = None,
    ) -> bool:
        """True when a forgotten memory of this scope/owner/area blocks the text (extraction):
        ≥ writer.TOMBSTONE_SIMILARITY similar, or ≥ forgetting.TOMBSTONE_ANCHOR_SIMILARITY with an
        identifier in common (both on the recall scale of this engine's embedder).
        Given a vector, pass its `text` too, else only similarity counts."""
        self._require_open()
        return forgetting.is_tombstoned(
            self.store,
            self.embedder,
            text_or_vector,
            scope=scope,
            owner_id=owner_id,
            area_id=area_id,
            text=text,
            anchor_key=self._anchor_key,
        )

    # ------------------------------------------------------------------ transcripts
    def record_turns(self, turns: list[TranscriptTurn]) -> None:
        """Store verbatim turns, committed. Empty text is stored as said (a turn is a fact of
        the conversation, not a memory); a turn index already stored raises StoreUnavailable."""
        self._require_open()
        for t in turns:
            if t.turn < 0:
                raise InvalidInput("turn", "negative")
        self.store.add_turns(turns)

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Record one verbatim turn after the conversation's last (its `turn` is assigned here,
        atomically); committed. Returns the stored turn, or None when it repeats the last user
        turn (the same utterance through both the memory agent and the Memory LLM API)."""
        self._require_open()
        return self.store.append_turn(said)

    def conversation(self, conversation_id: str) -> list[TranscriptTurn]:
        """The stored turns of one conversation, in order ([] when none or purged)."""
        self._require_open()
        return self.store.turns(conversation_id)

    def purge_transcripts(self, now: datetime, retention_days: int) -> int:
        """Delete turns older than `retention_days` days before `now` (UTC-aware); returns how
        many. retention_days < 1 raises InvalidInput("retention_days", "too_small")."""
        self._require_open()
        if retention_days < 1:
            raise InvalidInput("retention_days", "too_small")
        return self.store.purge_turns(now - timedelta(days=retention_days))

    # ------------------------------------------------------------------ maintenance
    def consolidate(self, now: datetime | None = None, *, dry_run: bool = False) -> ConsolidationReport:
        """One consolidation pass (engine/consolidation.py); idempotent. now: aware UTC.
        dry_run: what it would do, nothing changed."""
        self._require_open()
        with self._writes:
            return consolidation.consolidate(self, now or self._clock(), dry_run=dry_run)

    def settle_pair(self, older_id: str, newer_id: str, verdict: facts.Relation) -> tuple[str, ...]:
        """A judge's verdict on two memories (api.MemoryEngineAPI.settle_pair, facts.settle_pair),
        applied when both are still current, and kept; returns the ids retired."""
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
            by_scope={k.split(":", 1)[1]: v for k, v in counts.items() if k.startswith("scope:")},
            embedding=self.embedder.identity,
            schema_version=self.store.schema_version(),
            stale_vectors=counts["stale"],
        )

    def reembed_pending(self, batch: int = REEMBED_BATCH) -> int:
        """Re-embed up to `batch` memories whose vectors are of another identity; returns how many.

        Tombstones hold no text, so theirs cannot be re-embedded: a tombstone of another
        identity keeps blocking only once that identity is active again (docs/architecture.md).
        """
        self._require_open()
        stale = self.store.stale(batch)
        if not stale:
            return 0
        vectors = self.embedder.embed([writer.embedding_text(content) for _, content in stale])
        for (mid, _), vector in zip(stale, vectors, strict=True):
            self.store.set_vector(mid, vector)
        return len(stale)
