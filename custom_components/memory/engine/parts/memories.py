"""Memories and their review: write, read, correct, approve — a part of the engine (engine/engine.py)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial

import numpy as np

from .. import extraction, facts, forgetting, inputs, writer
from .. import recall as recall_mod
from ..api import (
    InvalidInput,
    Lineage,
    MemoryDraft,
    MemoryEdit,
    RecallOptions,
    RememberResult,
    StoreUnavailable,
)
from ..audience import Audience
from ..core import Part, windowed
from ..embedding.base import Vectors, embed_queries
from ..extraction import ExtractedFact, LearnResult
from ..models import Hit, Memory, Provenance, Scope, Speaker, Status
from ..store.base import Bucket, MemoryFilter, Visibility
from ..text import same_text, visible_text

_LOGGER = logging.getLogger(__name__)


class Memories(Part):
    """Memories and their review. Blocking; thread-safe (writes under the core's write lock)."""

    def remember(self, draft: MemoryDraft, audience: Audience | None = None) -> RememberResult:
        """Store a memory, committed before returning (engine/writer.py, the rules in facts.py).

        audience: who reads the result (engine/audience.py): the memory now holding it (perhaps
        one said before) and its conflicts come back told or withheld for it; None: the teller
        (draft.speaker) reading it themselves.

        The same wording (case, punctuation, whitespace aside) in the same scope/owner/area
        merges. With a fact key (draft.subject and .predicate) the key decides: the same value
        merges into the key's current memory; another one is stored and every older current
        memory of the key becomes SUPERSEDED (result.superseded), in the same transaction; a
        PENDING memory supersedes nothing until approved; an `inferred` one never supersedes a
        stated one (it is stored already superseded). Without a key, the current memories of the
        bucket it may restate or replace are compared by facts.relation: a restatement (SAME)
        confirms the existing memory instead of adding a row (action CONFIRMED); likely
        replacements are stored beside it and listed in result.conflicts for the caller to settle
        (ask the person, the service's `replaces`); draft.replaces supersedes those ids at once.

        owner_id defaults to speaker.person_id for PRIVATE; area_id defaults to speaker.area_id
        for ROOM. PRIVATE without an owner, ROOM without an area, empty (also: only invisible
        characters) or over-long content raise InvalidInput (nothing written); text with lone
        surrogates raises InvalidInput("content", "invalid_text"); a `replaces` id that is not a
        current memory the speaker sees raises InvalidInput("replaces", "unknown_memory"). Flags
        sensitive content (credentials/codes, payment, health) and stores it flagged; a draft
        learned automatically (provenance extracted or inferred) with sensitive content raises
        InvalidInput("content", "sensitive") (invariant 7; writer.checked_content, the rule an
        edit follows too). An explicit
        (CONFIRMED) remember lifts tombstones >= 0.85 similar (writer.TOMBSTONE_SIMILARITY, on the
        recall scale) in that scope, and those it shares an identifier with
        (forgetting.TOMBSTONE_ANCHOR_SIMILARITY) when the engine has an anchor key.
        """
        draft = inputs.check_draft(draft)
        reader = inputs.check_audience(draft.speaker if audience is None else audience)
        self._require_open()
        text = writer.clean_content(draft.content)
        # embedded before the write lock: the other writers wait for the store, not for the encoder
        vector = self.embedder.embed([writer.embedding_text(text)])[0]
        with self._writes:
            result = self.remember_embedded(draft, vector)
        told = tuple(replace(c, memory=reader.tell(c.memory)) for c in result.conflicts)
        memory = result.memory
        if reader.withholds(memory) is not None and not same_text(
            memory.content, text, memory.language, draft.language
        ):
            # a memory said before in other words confirmed by this one: told like any other
            # (a guess of a few of its words must not read it back); the caller's own words are theirs
            memory = reader.tell(memory)
        return replace(result, memory=memory, conflicts=told)

    def remember_embedded(self, draft: MemoryDraft, vector: Vectors) -> RememberResult:
        """remember() for a checked draft (inputs.check_draft) whose vector the caller embedded
        already — float32[dimension] of writer.embedding_text(writer.clean_content(draft.content))
        — under the write lock the caller holds (import: drafts embedded in batches)."""
        text = writer.clean_content(draft.content)
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
                self.embedder,
                candidates,
                remember=self.remember,
                is_tombstoned=partial(
                    forgetting.is_tombstoned, self.store, self.embedder, anchor_key=self._anchor_key
                ),
                speaker=speaker,
                language=language,
                summary=summary,
                review=review,
                conversation_id=conversation_id,
                people=people,
            )

    def recall(
        self,
        query: str,
        audience: Audience | Speaker,
        options: RecallOptions | None = None,
        *,
        vector: Vectors | None = None,
    ) -> list[Hit]:
        """Hybrid recall, best first, capped; never raises (logs and returns []). The hits the
        audience sees (its speaker's Visibility), each told or withheld for it (engine/audience.py;
        a bare Speaker: that person reading it themselves, Audience.of).

        vector: the query's embedding (float32[dimension], unit, of embedder.identity) when the
        caller already has it; otherwise the query is embedded here. The text is still needed
        for the lexical leg. A query longer than inputs.MAX_QUERY_CHARS is read up to there; input
        of the wrong shape (inputs.check_recall_options) is logged and answered with [].
        """
        try:
            self._require_open()
            query = inputs.recall_query(query)
            audience = inputs.check_audience(audience)
            speaker = audience.speaker
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
            hits = audience.tell_hits(hits)
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

    def get(self, memory_id: str, audience: Audience | Speaker) -> Memory | None:
        """One memory (any status) if visible to the audience, told or withheld for it."""
        inputs.check_id("memory_id", memory_id)
        audience = inputs.check_audience(audience)
        self._require_open()
        memory = self.store.get(memory_id, Visibility.of(audience.speaker))
        return None if memory is None else audience.tell(memory)

    def history(self, memory_id: str, audience: Audience | Speaker) -> list[Memory]:
        """The memory's whole chain of values visible to the audience, newest first, each told or
        withheld for it: the current one (the head: following superseded_by forward from
        memory_id as far as visible), then every memory the head replaced, recursively
        (SUPERSEDED older values, ARCHIVED paraphrases), newest first. Each entry carries its
        validity window: valid_from (created_at when none was stored) and valid_to (None while
        current; for a PENDING head, never current, also None). memory_id may be any link of the
        chain. Raises InvalidInput("memory_id", "unknown_memory") when it does not exist or is
        not visible."""
        audience = inputs.check_audience(audience)
        chain = self.lineage(memory_id, audience)
        head = chain.newer[-1] if chain.newer else chain.memory
        if head is chain.memory:
            older = chain.older
        else:
            older = tuple(audience.tell_all(self.older(head.id, Visibility.of(audience.speaker))))
        return [head, *older]

    def lineage(self, memory_id: str, audience: Audience | Speaker) -> Lineage:
        """The memory (any status) with the values it replaced and the ones that replaced it,
        as far as the audience sees, each told or withheld for it; InvalidInput("memory_id",
        "unknown_memory") when not visible."""
        inputs.check_id("memory_id", memory_id)
        audience = inputs.check_audience(audience)
        self._require_open()
        vis = Visibility.of(audience.speaker)
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
            newer.append(windowed(link))
        tell = audience.tell
        return Lineage(
            tell(windowed(memory)),
            tuple(audience.tell_all(self.older(memory.id, vis))),
            tuple(audience.tell_all(newer)),
        )

    def older(self, memory_id: str, vis: Visibility) -> tuple[Memory, ...]:
        """The values memory_id replaced, newest first, windowed (the store gives oldest first)."""
        return tuple(windowed(m) for m in self.store.history(memory_id, vis)[::-1])

    def approve(self, memory_id: str, audience: Audience | Speaker) -> Memory:
        """A PENDING memory visible to speaker becomes ACTIVE (review of extracted memories) and,
        with a fact key, holds it: the key's other ACTIVE memories become ARCHIVED (same value)
        or SUPERSEDED (another value), in the same transaction (approval = said now).

        Raises InvalidInput("memory_id", "unknown_memory") when it is not visible,
        ("memory_id", "not_pending") when it is not awaiting review.
        """
        return self.approve_pending(memory_id, audience)[0]

    def approve_pending(self, memory_id: str, audience: Audience | Speaker) -> tuple[Memory, tuple[str, ...]]:
        """approve(), also returning the ids it superseded (another value of the fact key); the
        memory told or withheld for the audience."""
        inputs.check_id("memory_id", memory_id)
        audience = inputs.check_audience(audience)
        self._require_open()
        with self._writes:
            memory = self._pending(memory_id, audience.speaker)
            approved = replace(memory, status=Status.ACTIVE)
            retired = facts.approving(approved, self._key_current(memory))
            self.store.retire([(m.id, status) for m, status in retired], approved, self._clock())
        superseded = tuple(m.id for m, status in retired if status is Status.SUPERSEDED)
        return audience.tell(approved), superseded

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

    def pending_review(
        self, audience: Audience | Speaker, *, limit: int = 50
    ) -> list[tuple[Memory, list[Memory]]]:
        """The PENDING memories visible to the audience (newest first, at most `limit`), each with
        the current memories approving it would supersede (facts.approving: another value of its
        fact key); all told or withheld for the audience."""
        audience = inputs.check_audience(audience)
        out = []
        for memory in self._visible_pending(audience.speaker, limit):
            retired = facts.approving(memory, self._key_current(memory))
            superseded = [m for m, status in retired if status is Status.SUPERSEDED]
            out.append((audience.tell(memory), audience.tell_all(superseded)))
        return out

    def reject(self, memory_id: str, audience: Audience | Speaker) -> Memory:
        """Forget a PENDING memory visible to the audience (a tombstone, as forget); else
        InvalidInput("memory_id", "unknown_memory") (not visible) or ("memory_id", "not_pending").
        Returns it as it was, told or withheld for the audience."""
        inputs.check_id("memory_id", memory_id)
        audience = inputs.check_audience(audience)
        speaker = audience.speaker
        self._require_open()
        with self._writes:
            self._pending(memory_id, speaker)
            gone = forgetting.forget(self.store, memory_id, speaker, self._clock(), self._anchor_key)
        return audience.tell(gone)

    def find(
        self, audience: Audience | Speaker, where: MemoryFilter, *, limit: int = 50, offset: int = 0
    ) -> tuple[list[Memory], int]:
        """Memories visible to the audience matching `where` (store.base.MemoryFilter; by default
        the ACTIVE ones), newest first, each told or withheld for it: the page [offset, offset +
        limit) and how many match in all. InvalidInput("limit" | "offset", "negative")."""
        audience = inputs.check_audience(audience)
        where = inputs.check_filter(where)
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit" if limit < 0 else "offset", "negative")
        page, total = self.store.find_memories(
            Visibility.of(audience.speaker), where, limit=limit, offset=offset
        )
        return audience.tell_all(page), total

    def edit(self, memory_id: str, change: MemoryEdit, speaker: Speaker) -> Memory:
        """Correct a current (ACTIVE or PENDING) memory visible to speaker, committed; returns it
        as stored (updated_at now). New content goes through remember's own rule (writer.
        checked_content, the same call: empty/too_long/invalid_text; flagged sensitive, and
        refused with ("content", "sensitive") when the memory was learned automatically —
        extracted, inferred: invariant 7) and is re-embedded; the fact's value is dropped with it
        (it was the old text's). The bucket is writer.resolve_bucket's: PRIVATE needs an owner
        ("scope", "scope_needs_person"), ROOM an area ("scope_needs_area"). A memory that is not
        visible: ("memory_id", "unknown_memory"); superseded or archived: ("memory_id",
        "not_current"). Nothing is written when it raises."""
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

    def list_memories(
        self, audience: Audience | Speaker, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        """Active memories visible to the audience, newest first, each told or withheld for it."""
        audience = inputs.check_audience(audience)
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit", "negative")
        return audience.tell_all(
            self.store.list_current(Visibility.of(audience.speaker), limit=limit, offset=offset)
        )

    def list_pending(self, audience: Audience | Speaker, *, limit: int = 50) -> list[Memory]:
        """PENDING memories (awaiting approve/reject) visible to the audience, newest first, at
        most `limit`, each told or withheld for it.

        Raises InvalidInput("limit", "negative") when limit < 0.
        """
        audience = inputs.check_audience(audience)
        return audience.tell_all(self._visible_pending(audience.speaker, limit))

    def _visible_pending(self, speaker: Speaker, limit: int) -> list[Memory]:
        inputs.check_page(limit=limit)
        self._require_open()
        if limit < 0:
            raise InvalidInput("limit", "negative")
        return self.store.list_current(Visibility.of(speaker), limit=limit, offset=0, status=Status.PENDING)
