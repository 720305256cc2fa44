"""Forgetting: find candidates, delete text leaving tombstones, and tombstone checks (docs/design.md §6).

A tombstone keeps the forgotten memory's vector, scope, owner and area — never its text.
Extraction drops candidates ≥ TOMBSTONE_SIMILARITY to an unlifted tombstone of the same
bucket (is_tombstoned); only an explicit remember lifts one (writer.py).
"""

from __future__ import annotations

from datetime import datetime

from .api import InvalidInput, RecallOptions
from .calibration import Hubness
from .embedding.base import Embedder, Vectors
from .models import Hit, Memory, Scope, Speaker
from .recall import recall
from .store.base import Bucket, MemoryStore, Visibility
from .text import visible_text
from .writer import TOMBSTONE_SIMILARITY, embedding_text


def find_to_forget(
    store: MemoryStore,
    embedder: Embedder,
    hubness: Hubness,
    *,
    query: str,
    speaker: Speaker,
    limit: int,
    now: datetime,
) -> list[Hit]:
    """Active memories visible to speaker that match query, best first (no speaker extras);
    [] for an empty, invisible-only or non-encodable query."""
    if not query or visible_text(query) is None or limit <= 0:
        return []
    options = RecallOptions(limit=limit, max_chars=10**9, include_about_speaker=False)
    return recall(
        store,
        embedder.embed([query])[0],
        query=query,
        speaker=speaker,
        options=options,
        now=now,
        hubness=hubness,
    )


def forget(store: MemoryStore, memory_id: str, speaker: Speaker, now: datetime) -> Memory:
    """Delete one memory visible to speaker, leaving a tombstone; returns it as it was.

    Raises InvalidInput("memory_id", "unknown_memory") when it does not exist or is not visible.
    """
    memory = store.get(memory_id, Visibility.of(speaker))
    if memory is None:
        raise InvalidInput("memory_id", "unknown_memory")
    done = store.delete_to_tombstones([memory.id], now)
    if not done:
        raise InvalidInput("memory_id", "unknown_memory")
    return memory


def forget_person(store: MemoryStore, person_id: str, now: datetime) -> int:
    """Delete every PRIVATE memory of person_id (tombstones left); returns how many."""
    if not person_id:
        raise InvalidInput("person_id", "unknown_speaker")
    return len(store.delete_to_tombstones(store.ids_owned(person_id), now))


def is_tombstoned(
    store: MemoryStore,
    embedder: Embedder,
    text_or_vector: str | Vectors,
    *,
    scope: Scope,
    owner_id: str | None = None,
    area_id: str | None = None,
) -> bool:
    """True when an unlifted tombstone of this scope/owner/area is ≥ TOMBSTONE_SIMILARITY
    to the text (or unit vector of the store's identity)."""
    if isinstance(text_or_vector, str):
        vector = embedder.embed([embedding_text(text_or_vector)])[0]
    else:
        vector = text_or_vector
    bucket = Bucket.of(scope, owner_id, area_id)
    return bool(store.tombstones_near(vector, bucket, TOMBSTONE_SIMILARITY))
