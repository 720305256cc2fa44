"""Forgetting: delete to tombstones, lift them, check them — a part of the engine (engine/engine.py)."""

from __future__ import annotations

from dataclasses import replace

from .. import forgetting, inputs
from ..api import InvalidInput
from ..audience import Audience
from ..core import Part
from ..embedding.base import Vectors
from ..models import Hit, Memory, Scope, Speaker, Tombstone


class Forgetting(Part):
    """Forgetting. Blocking; thread-safe (writes under the core's write lock)."""

    def find_to_forget(self, query: str, audience: Audience | Speaker, limit: int = 3) -> list[Hit]:
        """Candidates to forget: active memories visible to the audience matching query, best
        first, each told or withheld for it (a withheld one may still be forgotten by its id);
        an empty, invisible-only or non-encodable query gives []; InvalidInput("query",
        "too_long") past inputs.MAX_QUERY_CHARS."""
        inputs.check_query(query)
        audience = inputs.check_audience(audience)
        inputs.check_count("limit", limit)
        self._require_open()
        hits = forgetting.find_to_forget(
            self.store,
            self.embedder,
            self._hubness,
            query=query,
            speaker=audience.speaker,
            limit=limit,
            now=self._clock(),
        )
        return audience.tell_hits(hits)

    def forget(self, memory_id: str, audience: Audience | Speaker) -> Memory:
        """Delete the memory's text (row removed, FTS row removed) and leave a
        tombstone (embedding + scope + keyed digests of its identifiers, no text); the
        older values it superseded (its superseded_by history) go with it, each to a
        tombstone, in the same transaction. The memory must be visible to the audience, else
        InvalidInput("memory_id", "unknown_memory"). Returns the memory as it was, told or
        withheld for the audience (for the confirmation reply)."""
        inputs.check_id("memory_id", memory_id)
        audience = inputs.check_audience(audience)
        self._require_open()
        with self._writes:  # not beside a remember or supersede of the same memory
            gone = forgetting.forget(self.store, memory_id, audience.speaker, self._clock(), self._anchor_key)
        return audience.tell(gone)

    def forget_person(self, person_id: str) -> int:
        """Forget every PRIVATE memory owned by person_id (tombstones left) and drop them as the
        teller (speaker_id) of other memories, which stay; their voiceprint is deleted too. Returns
        how many were forgotten; other persons untouched. Under the write lock: a write racing it
        cannot put the teller back."""
        inputs.check_id("person_id", person_id)
        self._require_open()
        with self._writes:
            try:
                return forgetting.forget_person(self.store, person_id, self._clock(), self._anchor_key)
            finally:
                self._core.voice_generation += 1  # the voiceprint went with the person

    def tombstones(self, *, limit: int = 50, offset: int = 0) -> tuple[list[Tombstone], int]:
        """Every tombstone (lifted ones too), newest first: the page and the total."""
        inputs.check_page(limit=limit, offset=offset)
        self._require_open()
        if limit < 0 or offset < 0:
            raise InvalidInput("limit" if limit < 0 else "offset", "negative")
        return self.store.list_tombstones(limit=limit, offset=offset)

    def lift_tombstone(self, tombstone_id: str) -> Tombstone:
        """Lift one unlifted tombstone (it blocks learning no more); InvalidInput("tombstone_id",
        "unknown_tombstone") when there is none such. Returns it lifted."""
        inputs.check_id("tombstone_id", tombstone_id)
        self._require_open()
        with self._writes:
            tombstone = self.store.get_tombstone(tombstone_id)
            if tombstone is None or tombstone.lifted_at is not None:
                raise InvalidInput("tombstone_id", "unknown_tombstone")
            now = self._clock()
            self.store.lift_tombstones([tombstone.id], now)
        return replace(tombstone, lifted_at=now)

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
