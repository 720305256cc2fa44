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
from types import TracebackType

import numpy as np

from . import consolidation, extraction, facts, forgetting, inputs, writer
from . import recall as recall_mod
from .api import (
    ConsolidationReport,
    EngineStats,
    Export,
    ImportReport,
    InvalidInput,
    Lineage,
    MemoryDraft,
    MemoryEdit,
    RecallOptions,
    RememberResult,
    StoreUnavailable,
    WriteAction,
)
from .calibration import Hubness
from .embedding.base import Embedder, Vectors, embed_queries
from .extraction import ExtractedFact, LearnResult
from .models import Hit, Memory, Provenance, Scope, Speaker, Status, Tombstone, TranscriptTurn, Voiceprint
from .sensitive import withholds
from .store.base import Bucket, MemoryFilter, MemoryStore, Visibility
from .text import same_text, visible_text, wording

_LOGGER = logging.getLogger(__name__)
REEMBED_BATCH = 256
EXPORT_BATCH = 500  # memories read per page while exporting


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
        self._writes = _WriteLock()
        self._voice_generation = 0  # bumped by every voiceprint change (voice_generation)
        self.anchor_key_matches = True  # set by open() (api.MemoryEngineAPI.anchor_key_matches)

    # ------------------------------------------------------------------ lifecycle
    def open(self) -> None:
        """Open the store, migrate, load vectors of the embedder's identity, warm the encoder.

        Raises StoreUnavailable (file/schema) or EncoderUnavailable (the model cannot load).
        """
        self.store.open(self.embedder.identity)
        try:
            if self._anchor_key:
                check = forgetting.anchor_check(self._anchor_key)
                self.anchor_key_matches = self.store.claim_anchor_check(check) == check
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
        draft = inputs.check_draft(draft)
        self._require_open()
        text = writer.clean_content(draft.content)
        # embedded before the write lock: the other writers wait for the store, not for the encoder
        vector = self.embedder.embed([writer.embedding_text(text)])[0]
        with self._writes:
            now = self._clock()
            result = writer.remember(self.store, self.embedder, now, draft, vector=vector)
            memory = result.memory
            lifted = forgetting.lift_anchored(
                self.store,
                self.embedder,
                text,
                bucket=Bucket.of(memory.scope, memory.owner_id, memory.area_id),
                provenance=Provenance(draft.provenance),
                now=now,
                anchor_key=self._anchor_key,
                vector=vector,
            )
        return replace(result, lifted_tombstones=result.lifted_tombstones + lifted) if lifted else result

    def supersede(self, memory_ids: Sequence[str], by_id: str, speaker: Speaker) -> tuple[str, ...]:
        """A person settled it: `by_id` replaces `memory_ids` (the conversation's yes to "Should
        this replace it?"). Each must be a current memory the speaker sees, and `by_id` too, else
        InvalidInput("memory_id", "unknown_memory"); they become SUPERSEDED by it (valid_to =
        now, kept in its history) in one transaction, and it is seen by everyone who saw them
        (facts.taking_over: a private memory replacing a shared one becomes shared). Returns the
        ids superseded."""
        inputs.check_ids("memory_id", memory_ids)
        inputs.check_id("memory_id", by_id)
        speaker = inputs.check_speaker(speaker)
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
        candidates: Iterable[ExtractedFact],
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
        Raises StoreUnavailable; a refused candidate counts as rejected; InvalidInput for input
        of the wrong shape (inputs.check_learning)."""
        candidates = inputs.check_learning(
            candidates, speaker=speaker, language=language, summary=summary, review=review,
            conversation_id=conversation_id, people=people,
        )  # fmt: skip
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
        for the lexical leg. A query longer than inputs.MAX_QUERY_CHARS is read up to there; input
        of the wrong shape (inputs.check_recall_options) is logged and answered with [].
        """
        try:
            self._require_open()
            query = inputs.recall_query(query)
            speaker = inputs.check_speaker(speaker)
            if not query or visible_text(query) is None:
                return []  # nothing to search for, or text no encoder/SQLite can take
            opts = options or RecallOptions()
            inputs.check_recall_options(opts)
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
            hits = [
                replace(h, withheld=True)
                if withholds(h.memory, speaker, to_unknown=opts.sensitive_to_unknown)
                else h
                for h in hits
            ]
        except InvalidInput as err:  # the caller's mistake, not a failure: no traceback
            _LOGGER.warning("Memory recall refused its input (%s: %s); answering without memories",
                            err.field, err.reason)  # fmt: skip
            return []
        except StoreUnavailable as err:  # the store's own fault, reported by its health: no traceback
            _LOGGER.warning("Memory recall answered without memories: %s", err)
            return []
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
        """The hubness calibration of this engine's embedder (for tools timing recall's steps)."""
        return self._hubness

    def find_to_forget(self, query: str, speaker: Speaker, limit: int = 3) -> list[Hit]:
        """Forget candidates visible to speaker, best first; InvalidInput("query", "too_long") past
        inputs.MAX_QUERY_CHARS."""
        inputs.check_query(query)
        speaker = inputs.check_speaker(speaker)
        inputs.check_count("limit", limit)
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
        inputs.check_id("memory_id", memory_id)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        return self.store.get(memory_id, Visibility.of(speaker))

    def history(self, memory_id: str, speaker: Speaker) -> list[Memory]:
        """The memory's chain of values visible to speaker, newest first, each with its validity
        window (api.MemoryEngineAPI.history); InvalidInput("memory_id", "unknown_memory") if not
        visible."""
        chain = self.lineage(memory_id, speaker)
        head = chain.newer[-1] if chain.newer else chain.memory
        older = chain.older if head is chain.memory else self._older(head.id, Visibility.of(speaker))
        return [head, *older]

    def lineage(self, memory_id: str, speaker: Speaker) -> Lineage:
        """The memory with what it replaced and what replaced it (api.MemoryEngineAPI.lineage)."""
        inputs.check_id("memory_id", memory_id)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        vis = Visibility.of(speaker)
        memory = self.store.get(memory_id, vis)
        if memory is None:
            raise InvalidInput("memory_id", "unknown_memory")
        newer: list[Memory] = []
        seen = {memory.id}
        link = memory
        while link.superseded_by is not None and link.superseded_by not in seen:
            found = self.store.get(link.superseded_by, vis)
            if found is None:  # forgotten meanwhile, or (never by the writer) not visible
                break
            link = found
            seen.add(link.id)
            newer.append(_windowed(link))
        return Lineage(_windowed(memory), self._older(memory.id, vis), tuple(newer))

    def _older(self, memory_id: str, vis: Visibility) -> tuple[Memory, ...]:
        """The values memory_id replaced, newest first, windowed (the store gives oldest first)."""
        return tuple(_windowed(m) for m in self.store.history(memory_id, vis)[::-1])

    def approve(self, memory_id: str, speaker: Speaker) -> Memory:
        """A PENDING memory visible to speaker becomes ACTIVE (review of extracted memories) and,
        with a fact key, holds it: the key's other ACTIVE memories become ARCHIVED (same value)
        or SUPERSEDED (another value), in the same transaction (approval = said now).

        Raises InvalidInput("memory_id", "unknown_memory") when it is not visible,
        ("memory_id", "not_pending") when it is not awaiting review.
        """
        return self.approve_pending(memory_id, speaker)[0]

    def approve_pending(self, memory_id: str, speaker: Speaker) -> tuple[Memory, tuple[str, ...]]:
        """approve(), with the ids it superseded (api.MemoryEngineAPI.approve_pending)."""
        inputs.check_id("memory_id", memory_id)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        with self._writes:
            memory = self._pending(memory_id, speaker)
            approved = replace(memory, status=Status.ACTIVE)
            retired = facts.approving(approved, self._key_current(memory))
            self.store.retire([(m.id, status) for m, status in retired], approved, self._clock())
        return approved, tuple(m.id for m, status in retired if status is Status.SUPERSEDED)

    def _pending(self, memory_id: str, speaker: Speaker) -> Memory:
        memory = self.store.get(memory_id, Visibility.of(speaker))
        if memory is None:
            raise InvalidInput("memory_id", "unknown_memory")
        if memory.status is not Status.PENDING:
            raise InvalidInput("memory_id", "not_pending")
        return memory

    def _key_current(self, memory: Memory) -> list[Memory]:
        """The ACTIVE memories of memory's fact key (none without a key)."""
        if memory.subject is None or memory.predicate is None:
            return []
        bucket = Bucket.of(memory.scope, memory.owner_id, memory.area_id)
        return self.store.current_by_key(bucket, memory.subject, memory.predicate, [Status.ACTIVE])

    def pending_review(self, speaker: Speaker, *, limit: int = 50) -> list[tuple[Memory, list[Memory]]]:
        """Pending memories with what approving each would supersede (api.MemoryEngineAPI)."""
        out = []
        for memory in self.list_pending(speaker, limit=limit):
            retired = facts.approving(memory, self._key_current(memory))
            out.append((memory, [m for m, status in retired if status is Status.SUPERSEDED]))
        return out

    def reject(self, memory_id: str, speaker: Speaker) -> Memory:
        """Forget a PENDING memory visible to speaker (api.MemoryEngineAPI.reject)."""
        inputs.check_id("memory_id", memory_id)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        with self._writes:
            self._pending(memory_id, speaker)
            return forgetting.forget(self.store, memory_id, speaker, self._clock(), self._anchor_key)

    def find(
        self, speaker: Speaker, where: MemoryFilter, *, limit: int = 50, offset: int = 0
    ) -> tuple[list[Memory], int]:
        """Visible memories matching `where`, newest first, and how many (api.MemoryEngineAPI.find)."""
        speaker = inputs.check_speaker(speaker)
        where = inputs.check_filter(where)
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit" if limit < 0 else "offset", "negative")
        return self.store.find_memories(Visibility.of(speaker), where, limit=limit, offset=offset)

    def edit(self, memory_id: str, change: MemoryEdit, speaker: Speaker) -> Memory:
        """Correct one current memory (api.MemoryEngineAPI.edit); committed."""
        inputs.check_id("memory_id", memory_id)
        change = inputs.check_edit(change)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        with self._writes:
            memory = self.store.get(memory_id, Visibility.of(speaker))
            if memory is None:
                raise InvalidInput("memory_id", "unknown_memory")
            if memory.status not in (Status.ACTIVE, Status.PENDING):
                raise InvalidInput("memory_id", "not_current")
            scope = Scope(change.scope or memory.scope)
            if change.owner_id is not None and scope is not Scope.PRIVATE:
                raise InvalidInput("owner_id", "owner_needs_private")  # it would be ignored
            if change.area_id is not None and scope is not Scope.ROOM:
                raise InvalidInput("area_id", "area_needs_room")
            bucket = writer.resolve_bucket(
                scope, Speaker(), change.owner_id or memory.owner_id, change.area_id or memory.area_id
            )
            edited = replace(
                memory,
                kind=change.kind or memory.kind,
                scope=scope,
                owner_id=bucket.owner_id,
                area_id=bucket.area_id,
                updated_at=self._clock(),
            )
            vector = None
            if change.content is not None and change.content != memory.content:
                text, sensitive = writer.checked_content(change.content, memory.provenance)  # remember's rule
                edited = replace(edited, content=text, sensitive=sensitive, value=None)
                vector = self.embedder.embed([writer.embedding_text(text)])[0]
            self.store.update(edited, vector)
        return edited

    def list_memories(self, speaker: Speaker, *, limit: int = 100, offset: int = 0) -> list[Memory]:
        """Visible active memories, newest first."""
        speaker = inputs.check_speaker(speaker)
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit", "negative")
        return self.store.list_current(Visibility.of(speaker), limit=limit, offset=offset)

    def list_pending(self, speaker: Speaker, *, limit: int = 50) -> list[Memory]:
        """Visible PENDING memories (awaiting approve/reject), newest first, at most `limit`.

        Raises InvalidInput("limit", "negative") when limit < 0.
        """
        speaker = inputs.check_speaker(speaker)
        inputs.check_page(limit=limit)
        self._require_open()
        if limit < 0:
            raise InvalidInput("limit", "negative")
        return self.store.list_current(Visibility.of(speaker), limit=limit, offset=0, status=Status.PENDING)

    # ------------------------------------------------------------------ forgetting
    def forget(self, memory_id: str, speaker: Speaker) -> Memory:
        """Delete the text and the older values it replaced (forgetting.forget), leave
        tombstones; InvalidInput("memory_id", "unknown_memory") if not visible."""
        inputs.check_id("memory_id", memory_id)
        speaker = inputs.check_speaker(speaker)
        self._require_open()
        with self._writes:  # not beside a remember or supersede of the same memory
            return forgetting.forget(self.store, memory_id, speaker, self._clock(), self._anchor_key)

    def forget_person(self, person_id: str) -> int:
        """Forget every PRIVATE memory of person_id and unlink them as the teller of the others;
        returns how many were forgotten. Under the write lock: a write racing it cannot put the
        teller back."""
        inputs.check_id("person_id", person_id)
        self._require_open()
        with self._writes:
            try:
                return forgetting.forget_person(self.store, person_id, self._clock(), self._anchor_key)
            finally:
                self._voice_generation += 1  # the voiceprint went with the person

    def tombstones(self, *, limit: int = 50, offset: int = 0) -> tuple[list[Tombstone], int]:
        """Every tombstone, newest first: the page and the total (api.MemoryEngineAPI)."""
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit" if limit < 0 else "offset", "negative")
        return self.store.list_tombstones(limit=limit, offset=offset)

    def lift_tombstone(self, tombstone_id: str) -> Tombstone:
        """Lift one unlifted tombstone (api.MemoryEngineAPI.lift_tombstone)."""
        inputs.check_id("tombstone_id", tombstone_id)
        self._require_open()
        with self._writes:
            tombstone = self.store.get_tombstone(tombstone_id)
            if tombstone is None or tombstone.lifted_at is not None:
                raise InvalidInput("tombstone_id", "unknown_tombstone")
            now = self._clock()
            self.store.lift_tombstones([tombstone.id], now)
        return replace(tombstone, lifted_at=now)

    # ------------------------------------------------------------------ export and import
    def export(self) -> Export:
        """Every current memory with its history, the pending ones, tombstone counts."""
        self._require_open()
        admin = Speaker.administrator()
        vis = Visibility.of(admin)
        current = [Lineage(_windowed(m), self._older(m.id, vis)) for m in self._all(admin, Status.ACTIVE)]
        return Export(
            current=tuple(current),
            pending=tuple(self._all(admin, Status.PENDING)),
            tombstones_by_scope=_tallied(self.store.counts(), "tombstone_scope"),
        )

    def _all(self, speaker: Speaker, status: Status) -> list[Memory]:
        """Every memory of `status` visible to speaker, newest first, read page by page."""
        out: list[Memory] = []
        while True:
            page, total = self.find(speaker, MemoryFilter(status=status), limit=EXPORT_BATCH, offset=len(out))
            out += page
            if not page or len(out) >= total:
                return out

    def import_memories(self, drafts: Sequence[MemoryDraft]) -> ImportReport:
        """Remember each draft unless refused (api.MemoryEngineAPI.import_memories); a draft of the
        wrong shape is refused like one remember refuses (inputs.check_draft)."""
        if isinstance(drafts, str | bytes) or not isinstance(drafts, Sequence):
            raise InvalidInput("drafts", "wrong_type")
        self._require_open()
        created = duplicates = 0
        rejected: list[tuple[int, str]] = []
        refusals: dict[int, InvalidInput] = {}
        replaced = self._replaced_wordings()
        for index, draft in enumerate(drafts):
            with self._writes:
                try:
                    outcome = self._import_one(inputs.check_draft(draft), replaced)
                except InvalidInput as err:
                    outcome, refusals[index] = err.reason, err
            if outcome is WriteAction.CREATED:
                created += 1
            elif isinstance(outcome, WriteAction):
                duplicates += 1
            else:
                rejected.append((index, outcome))
        return ImportReport(created, duplicates, tuple(rejected), refusals)

    def _replaced_wordings(self) -> dict[tuple[Bucket, tuple[str, ...]], list[str | None]]:
        """Every SUPERSEDED or ARCHIVED memory's (bucket, wording) with who told it: what was
        said here and has been replaced since (an import's duplicates, never current again)."""
        admin = Speaker.administrator()
        out: dict[tuple[Bucket, tuple[str, ...]], list[str | None]] = {}
        for status in (Status.SUPERSEDED, Status.ARCHIVED):
            for m in self._all(admin, status):
                key = (Bucket.of(m.scope, m.owner_id, m.area_id), tuple(wording(m.content)))
                out.setdefault(key, []).append(m.speaker_id)
        return out

    def _import_one(
        self, draft: MemoryDraft, replaced: Mapping[tuple[Bucket, tuple[str, ...]], list[str | None]]
    ) -> WriteAction | str:
        """Import one draft: what remember did, or why it may not be imported ("forgotten",
        "conflict", "scope_reserved"); InvalidInput for what remember refuses. Counted as a
        duplicate (MERGED, nothing written), because remember compares with current memories
        only: a pending draft whose wording waits for review already in its bucket; a draft
        whose wording was said here in its bucket and has been replaced since (`replaced`:
        already known, and not current any more); a keyed draft whose value is the one its key's
        current memory holds through a replacement. A keyed ACTIVE draft whose key holds another
        value now — its ACTIVE memories, or the current memory that replaced its last value
        here — is a "conflict"."""
        if Scope(draft.scope) is Scope.SYSTEM:  # the integration's own notes, seen by every speaker
            return "scope_reserved"
        text = writer.clean_content(draft.content)
        bucket = writer.resolve_bucket(draft.scope, draft.speaker, draft.owner_id, draft.area_id)
        vector = self.embedder.embed([writer.embedding_text(text)])[0]
        if forgetting.is_tombstoned(
            self.store, self.embedder, vector, scope=bucket.scope, owner_id=bucket.owner_id,
            area_id=bucket.area_id, text=text, anchor_key=self._anchor_key,
        ):  # fmt: skip
            return "forgotten"
        if draft.status is Status.PENDING:
            waiting = self._all(Speaker.administrator(), Status.PENDING)
            if any(Bucket.of(m.scope, m.owner_id, m.area_id) == bucket and same_text(m.content, text)
                   for m in waiting):  # fmt: skip
                return WriteAction.MERGED
        tellers = replaced.get((bucket, tuple(wording(text))), [])
        if any(facts.same_teller(teller, draft.speaker.person_id) for teller in tellers):
            return WriteAction.MERGED
        subject, predicate = facts.fact_subject(draft.subject), facts.fact_predicate(draft.predicate)
        if draft.status is Status.ACTIVE and subject is not None and predicate is not None:
            held = self.store.current_by_key(bucket, subject, predicate, [Status.ACTIVE])
            if held:
                if not any(facts.same_value(m, draft) for m in held):
                    return "conflict"
            elif holders := self._key_replacers(bucket, subject, predicate):
                return WriteAction.MERGED if any(facts.same_value(m, draft) for m in holders) else "conflict"
        return self.remember(draft).action

    def _key_replacers(self, bucket: Bucket, subject: str, predicate: str) -> list[Memory]:
        """The current (ACTIVE) memories that replaced the key's replaced values (each followed
        along superseded_by): who holds a key none of whose ACTIVE memories carries it any more
        (a value replaced by a memory told without the key)."""
        everything = Visibility.of(Speaker.administrator())
        heads: dict[str, Memory] = {}
        old = self.store.current_by_key(bucket, subject, predicate, [Status.SUPERSEDED, Status.ARCHIVED])
        for memory in old:
            link: Memory | None = memory
            seen = {memory.id}
            while link is not None and link.superseded_by is not None and link.superseded_by not in seen:
                seen.add(link.superseded_by)
                link = self.store.get(link.superseded_by, everything)
            if link is not None and link.status is Status.ACTIVE:
                heads[link.id] = link
        return list(heads.values())

    # ------------------------------------------------------------------ voiceprints
    def enroll_voice(self, person_id: str, vector: Vectors, clips: int, embedding: str) -> Voiceprint:
        """Store person_id's voiceprint (api.MemoryEngineAPI.enroll_voice); re-enrolment replaces
        the vector and clip count (created_at kept). vector: float32[d], any positive length (it
        is stored unit length); clips >= 1; embedding: the voice model's identity. Raises
        InvalidInput("person_id", "unknown_speaker"), ("vector", "invalid_vector") for an empty,
        multi-dimensional, non-finite or zero vector, ("clips", "too_small")."""
        inputs.check_voiceprint(person_id, vector, clips, embedding)
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
        inputs.check_id("person_id", person_id)
        self._require_open()
        with self._writes:
            try:
                return self.store.delete_voiceprint(person_id)
            finally:
                self._voice_generation += 1

    @property
    def write_fault(self) -> str | None:
        """Why the store's file could not be written at the last write (StoreUnwritable: a full
        disk, a read-only file), None once a write commits again. No I/O."""
        return self.store.write_fault

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
        inputs.check_tombstone_text(text_or_vector, text)
        scope = inputs.check_bucket(scope, owner_id, area_id)
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
        if not isinstance(turns, list | tuple):
            raise InvalidInput("turns", "wrong_type")
        turns = [inputs.check_turn(said) for said in turns]
        self._require_open()
        for t in turns:
            if t.turn < 0:
                raise InvalidInput("turn", "negative")
        self.store.add_turns(turns)

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Record one verbatim turn after the conversation's last (its `turn` is assigned here,
        atomically); committed. Returns the stored turn, or None when it repeats the last user
        turn (the same utterance through both the memory agent and the Memory LLM API)."""
        said = inputs.check_turn(said)
        self._require_open()
        return self.store.append_turn(said)

    def conversation(self, conversation_id: str) -> list[TranscriptTurn]:
        """The stored turns of one conversation, in order ([] when none or purged)."""
        inputs.check_id("conversation_id", conversation_id)
        self._require_open()
        return self.store.turns(conversation_id)

    def purge_transcripts(self, now: datetime, retention_days: int) -> int:
        """Delete turns older than `retention_days` days before `now` (UTC-aware); returns how
        many. retention_days < 1 raises InvalidInput("retention_days", "too_small"), more than
        inputs.MAX_RETENTION_DAYS ("retention_days", "too_large")."""
        inputs.check_retention(now, retention_days)
        self._require_open()
        if retention_days < 1:
            raise InvalidInput("retention_days", "too_small")
        return self.store.purge_turns(now - timedelta(days=retention_days))

    # ------------------------------------------------------------------ maintenance
    def consolidate(self, now: datetime | None = None, *, dry_run: bool = False) -> ConsolidationReport:
        """One consolidation pass (engine/consolidation.py); idempotent. now: aware UTC.
        dry_run: what it would do, nothing changed."""
        inputs.check_moment("now", now, optional=True)
        inputs.check_flag("dry_run", dry_run)
        self._require_open()
        with self._writes:
            return consolidation.consolidate(self, now or self._clock(), dry_run=dry_run)

    def settle_pair(self, older_id: str, newer_id: str, verdict: facts.Relation) -> tuple[str, ...]:
        """A judge's verdict on two memories (api.MemoryEngineAPI.settle_pair, facts.settle_pair),
        applied when both are still current, and kept; returns the ids retired."""
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
            by_scope=_tallied(counts, "scope"),
            embedding=self.embedder.identity,
            schema_version=self.store.schema_version(),
            stale_vectors=counts["stale"],
            by_provenance=_tallied(counts, "provenance"),
            by_status=_tallied(counts, "status"),
            tombstones_by_scope=_tallied(counts, "tombstone_scope"),
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


class _WriteLock:
    """The engine's write lock (re-entrant). Every operation under it is a write, so a store
    failure within it, a read before the write included, is the refused write it is:
    StoreUnavailable.as_refused_write (writing=True), never a failed read."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lock.release()
        if isinstance(exc, StoreUnavailable) and not exc.writing:
            raise exc.as_refused_write() from exc


def _windowed(memory: Memory) -> Memory:
    """The memory with its validity window's start: valid_from, else created_at."""
    return memory if memory.valid_from is not None else replace(memory, valid_from=memory.created_at)


def _tallied(counts: Mapping[str, int], prefix: str) -> dict[str, int]:
    """The "<prefix>:<name>" entries of store counts as {name: n}."""
    return {k.split(":", 1)[1]: v for k, v in counts.items() if k.split(":", 1)[0] == prefix}
