"""The store protocol and THE visibility rule (docs/design.md §5), written once.

`Visibility.of(speaker)` is the only place that decides what a speaker may see (recall adds the
areas its question names: `Visibility.of(speaker, named_areas=...)`, and may look back to a
moment: `as_of`, which changes what "current" means, never who sees what). It states the rule
as data, `Visibility.grants()`; `allows` (one record), store/sql.py (a SQL WHERE for every SQL
backend) and store/vectors.py (a numpy mask over the embedded index) compile those grants and
nothing else, and every query that returns memories applies one of them, so no caller can
forget it and no backend has a copy of the rule to drift.

The store protocol is split by concern, each part a Protocol of its own (testable alone, see
tests/engine/test_store_protocols.py):
- MemoryRecords: memories — writes, reads under a Visibility (the admin panel's filtered
  listing too: MemoryFilter, compiled by store/sql.py), supersession chains, review,
  consolidation's inputs and verdicts, pruning, access counts.
- SearchLegs: what recall reads — semantic top-k, a bucket's nearest, vectors, similarities,
  languages, full-text phrases and terms, document frequencies, conversation neighbours.
- TombstoneStore: forgetting (delete to tombstones, the tombstone check, lifting, listing).
- TranscriptStore: verbatim conversation turns.
- VoiceprintStore: enrolled voices.
- StoreTransfer: whole-table export/import for a move between stores (TRANSFER_TABLES).
- MemoryStore: all of them plus lifecycle (open, close, schema_version), re-embedding (stale,
  set_vector) and counts: what the engine holds.
Backends: store/sqlite/ (SqliteStore, the embedded default); PostgreSQL joins beside it (issue 15).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from ..embedding.base import Vectors
from ..models import (
    STORED_FIELDS,
    EmbeddingIdentity,
    Kind,
    Memory,
    Provenance,
    Scope,
    Speaker,
    Status,
    Tombstone,
    TranscriptTurn,
    Voiceprint,
)

ALWAYS_VISIBLE: tuple[Scope, ...] = (Scope.SHARED, Scope.SYSTEM)


@dataclass(frozen=True, slots=True)
class Grant:
    """One way a memory can be visible: its scope is `scope` and, when `column` is set, its
    `column` ("area_id" or "owner_id") is one of `values` (never empty then)."""

    scope: Scope
    column: str | None = None
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Visibility:
    """What one speaker may see.

    everything: the admin view.
    area_id: ROOM memories of this area are visible (None: no room memories).
    owner_id: PRIVATE memories of this person are visible (None: no private memories).
    named_areas: ROOM memories of these areas are visible too (recall only: the areas the
    question names; never the speaker's own area, never None).
    as_of: the moment "current" refers to in the reads that return current memories only
    (aware UTC; recall "as of", RecallOptions.as_of): the memories current then — ACTIVE or
    SUPERSEDED, valid_from (else created_at) <= as_of < valid_to (None: still current). None:
    now, status ACTIVE. It never widens or narrows who sees what.
    SHARED and SYSTEM are always visible.
    """

    everything: bool
    area_id: str | None
    owner_id: str | None
    named_areas: tuple[str, ...] = ()
    as_of: datetime | None = None

    @classmethod
    def of(
        cls, speaker: Speaker, *, named_areas: Iterable[str] = (), as_of: datetime | None = None
    ) -> Visibility:
        """The rule: shared/system always; room when its area is the speaker's or one the
        question names (`named_areas`, area ids: room scope is about relevance, not secrecy);
        private only to its recognised owner, never by a name; an unknown speaker never sees
        private memories. `as_of` is carried along (see the class docstring)."""
        if speaker.admin:
            return cls(everything=True, area_id=None, owner_id=None, as_of=as_of)
        named = tuple(dict.fromkeys(a for a in named_areas if a and a != speaker.area_id))
        return cls(
            everything=False,
            area_id=speaker.area_id,
            owner_id=speaker.person_id,
            named_areas=named,
            as_of=as_of,
        )

    @property
    def areas(self) -> tuple[str, ...]:
        """Every area whose ROOM memories are visible: the speaker's first, then the named ones."""
        return self.named_areas if self.area_id is None else (self.area_id, *self.named_areas)

    def grants(self) -> tuple[Grant, ...] | None:
        """The rule as data (None: everything, the admin view): a memory is visible when one
        grant matches it. SHARED and SYSTEM always; ROOM of self.areas; PRIVATE of owner_id."""
        if self.everything:
            return None
        out = [Grant(scope) for scope in ALWAYS_VISIBLE]
        if areas := self.areas:
            out.append(Grant(Scope.ROOM, "area_id", areas))
        if self.owner_id is not None:
            out.append(Grant(Scope.PRIVATE, "owner_id", (self.owner_id,)))
        return tuple(out)

    def allows(self, memory: Memory | Tombstone) -> bool:
        """The grants on one record (tests and re-checks; queries use the compiled forms)."""
        grants = self.grants()
        return grants is None or any(
            memory.scope is g.scope and (g.column is None or getattr(memory, g.column) in g.values)
            for g in grants
        )


EVERYTHING = Visibility(everything=True, area_id=None, owner_id=None)  # the admin view, now: any row


@dataclass(frozen=True, slots=True)
class Bucket:
    """One exact (scope, owner, area) bucket: the unit of dedup and tombstone checks."""

    scope: Scope
    owner_id: str | None
    area_id: str | None

    @classmethod
    def of(cls, scope: Scope, owner_id: str | None, area_id: str | None) -> Bucket:
        """Owner only counts for PRIVATE, area only for ROOM."""
        return cls(
            scope=scope,
            owner_id=owner_id if scope is Scope.PRIVATE else None,
            area_id=area_id if scope is Scope.ROOM else None,
        )


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Which memories a listing returns (find_memories; the admin panel's filters). Each field
    None matches any value; the set ones must all hold.

    person: owner_id OR speaker_id is this person (their own memories and what they told);
    area: area_id; said_by: speaker_id; status: default ACTIVE, None for every status;
    language: the memory's language tag, exactly.
    """

    kind: Kind | None = None
    scope: Scope | None = None
    person: str | None = None
    area: str | None = None
    provenance: Provenance | None = None
    status: Status | None = Status.ACTIVE
    language: str | None = None
    said_by: str | None = None


@dataclass(frozen=True, slots=True)
class LexicalRow:
    """A full-text match: memory id, its text (for exact-anchor checks) and BM25 (higher = better)."""

    id: str
    content: str
    bm25: float


# The tables a move between stores copies (engine/transfer.py), in copy order, and the columns
# of each as exported: the SQLite schema's names; timestamps as fixed-width UTC ISO text
# ("%Y-%m-%dT%H:%M:%S.%f+00:00"), vectors as little-endian float32 bytes, booleans as 0/1.
# Every backend exports exactly these keys, so checksums compare across backends. A memory's are
# its stored fields (models.STORED_FIELDS) and its vector with the vector's identity.
TRANSFER_TABLES: dict[str, tuple[str, ...]] = {
    "memories": (*STORED_FIELDS, "embedding", "emb_provider", "emb_model", "emb_dimension"),
    "tombstones": (
        "id", "scope", "owner_id", "area_id", "embedding", "emb_provider", "emb_model",
        "emb_dimension", "created_at", "lifted_at", "anchors",
    ),
    "transcript_turns": (
        "conversation_id", "turn", "role", "text", "speaker_id", "area_id", "language", "created_at",
        "speaker_source",
    ),
    "voiceprints": ("person_id", "vector", "clips", "embedding", "created_at", "updated_at"),
    "pair_verdicts": ("first_id", "second_id", "relation", "judged_at"),
}  # fmt: skip

type Record = dict[str, str | int | float | bytes | None]


def transfer_columns(table: str, rows: Sequence[Record] = ()) -> tuple[str, ...]:
    """The columns of a TRANSFER_TABLES table, after checking that every row has each of them.
    Raises InvalidInput("table", "unknown_table") or InvalidInput("rows", "missing_column")."""
    from ..api import InvalidInput  # noqa: PLC0415 - api imports this module

    if table not in TRANSFER_TABLES:
        raise InvalidInput("table", "unknown_table")
    columns = TRANSFER_TABLES[table]
    if any(c not in row for row in rows for c in columns):
        raise InvalidInput("rows", "missing_column")
    return columns


class StoreTransfer(Protocol):
    """Whole-table export and import for a move between stores (engine/transfer.py)."""

    def export_records(self, table: str, batch: int = 1000) -> Iterator[list[Record]]:
        """Every row of `table` (a TRANSFER_TABLES key) as records with exactly its columns, in
        batches of at most `batch`, in a stable order (memories by created_at, id). Batched
        access counts are flushed first."""
        ...

    def import_records(self, table: str, rows: Sequence[Record]) -> None:
        """Insert exported rows as they are (ids, statuses, vectors and their identity kept;
        full-text rows and the vector index rebuilt from them); committed. A row whose key is
        already stored raises StoreUnavailable and nothing of the batch is written."""
        ...

    def is_empty(self) -> bool:
        """True when no TRANSFER_TABLES table holds a row (of this store's household)."""
        ...

    def count_records(self, table: str) -> int:
        """How many rows export_records(table) yields (of this store's household)."""
        ...


class VoiceprintStore(Protocol):
    """Persistence of enrolled voices, one per person (a concern of its own: no memory, no
    visibility rule involved). Blocking, thread-safe; every write committed on return."""

    def put_voiceprint(self, print_: Voiceprint) -> Voiceprint:
        """Insert or replace person_id's voiceprint; a replacement keeps the first created_at.
        Returns the row as stored. Raises StoreUnavailable."""
        ...

    def voiceprints(self) -> list[Voiceprint]:
        """Every stored voiceprint, by person_id."""
        ...

    def delete_voiceprint(self, person_id: str) -> bool:
        """Delete person_id's voiceprint (secure_delete zeroes it); True when there was one."""
        ...


class MemoryRecords(Protocol):
    """Memories themselves: writing, reading under a Visibility, lifecycle (supersession chains,
    review), consolidation's inputs and verdicts, pruning, access counts.

    Every write is committed on return and keeps the backend's search structures (full-text
    rows, vector index) in step; a failed write raises StoreUnavailable and leaves nothing of
    itself. Vectors are unit float32[dimension] of the store's active EmbeddingIdentity.
    """

    def add(self, memory: Memory, vector: Vectors, *, supersedes: Sequence[str] = ()) -> None:
        """Insert `memory` with its vector. supersedes: ids of memories it replaces, marked
        SUPERSEDED (superseded_by = memory.id, valid_to = memory.created_at) in the same
        transaction, so a crash leaves the old fact current or the new one, never neither.
        An id already stored raises StoreUnavailable."""
        ...

    def update(self, memory: Memory, vector: Vectors | None) -> None:
        """Rewrite every field of the stored memory memory.id (its vector too when given; its
        full-text rows when its content or language changed). A missing id: nothing happens."""
        ...

    def get(self, memory_id: str, vis: Visibility) -> Memory | None:
        """One memory, any status, when vis allows it (vis.as_of ignored); else None."""
        ...

    def get_many(self, ids: list[str], vis: Visibility) -> dict[str, Memory]:
        """The current memories (Visibility.as_of) among `ids` that vis allows, by id; unknown,
        invisible and not-current ids are left out."""
        ...

    def list_current(
        self, vis: Visibility, *, limit: int, offset: int, status: Status = Status.ACTIVE
    ) -> list[Memory]:
        """Memories of `status` that vis allows, newest first (created_at desc, then id), the
        page [offset, offset + limit). vis.as_of ignored."""
        ...

    def find_memories(
        self, vis: Visibility, where: MemoryFilter, *, limit: int, offset: int
    ) -> tuple[list[Memory], int]:
        """The memories vis allows that match `where` (any status unless where.status), newest
        first (created_at desc, then id): the page [offset, offset + limit) and how many match
        in all. vis.as_of ignored."""
        ...

    def history_ids(self, memory_id: str, vis: Visibility) -> list[str]:
        """Ids of the SUPERSEDED/ARCHIVED memories whose superseded_by chain leads to memory_id
        (recursively, memory_id excluded; a cycle ends) that vis allows, oldest first: the older
        values it replaced."""
        ...

    def history(self, memory_id: str, vis: Visibility) -> list[Memory]:
        """The memories history_ids names, read whole (any status), oldest first."""
        ...

    def set_status(self, memory_id: str, status: Status, superseded_by: str | None) -> None:
        """Give one memory a lifecycle status and superseded_by (None clears it)."""
        ...

    def retire(self, changes: Sequence[tuple[str, Status]], by: Memory, at: datetime) -> None:
        """In one transaction: rewrite `by` (the memory that stays current; as update without a
        vector) and give each listed memory its status (SUPERSEDED/ARCHIVED) with superseded_by
        = by.id and valid_to = at. When `by` is no longer stored nothing happens."""
        ...

    def current_by_key(
        self, bucket: Bucket, subject: str, predicate: str, statuses: Sequence[Status]
    ) -> list[Memory]:
        """Memories of exactly this bucket and fact key (normalised subject/predicate) with one
        of `statuses`, newest first (created_at desc, then id)."""
        ...

    def keyed_current(self) -> list[Memory]:
        """Every ACTIVE memory with a subject and a predicate, any bucket: consolidation's input."""
        ...

    def unkeyed_current(self) -> list[Memory]:
        """Every ACTIVE memory without a fact key that states something (no episode), any bucket,
        oldest first (created_at, then id)."""
        ...

    def ids_owned(self, person_id: str) -> list[str]:
        """Ids of every PRIVATE memory owned by person_id, any status."""
        ...

    def unlink_speaker(self, person_id: str) -> int:
        """Drop person_id as the teller (speaker_id) of every memory; the memories stay.
        Returns how many."""
        ...

    def prune_inferred(self, created_before: datetime, *, dry_run: bool = False) -> list[str]:
        """Delete the `inferred` memories never recalled (access_count 0, batched counts counted)
        created before `created_before`, with their search rows, no tombstone; returns their ids.
        dry_run: only finds them."""
        ...

    def record_verdict(self, first_id: str, second_id: str, relation: str, at: datetime) -> None:
        """Keep the verdict on one pair (order-free; a later verdict replaces it). A verdict goes
        with either memory (forgetting, pruning); an unknown id raises StoreUnavailable."""
        ...

    def judged_pairs(self) -> set[frozenset[str]]:
        """The pairs with a verdict (record_verdict)."""
        ...

    def touch(self, ids: list[str], at: datetime) -> None:
        """Count one access of each memory at `at` (access_count + 1, last_accessed_at). May be
        batched: written with the next write, before any export and at close."""
        ...


class SearchLegs(Protocol):
    """The reads recall is made of. Every leg returning memories applies the Visibility and
    "current" (Visibility.as_of) inside its query; similarities are exact cosines in [-1, 1]
    against the store's active EmbeddingIdentity (other identities are never compared)."""

    def semantic(
        self, vector: Vectors, vis: Visibility, k: int, *, owned_k: int = 0
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The top k current memories vis allows by cosine to `vector`, best first, as
        [(id, similarity)]; and, from the same pass, the top owned_k PRIVATE ones owned by
        vis.owner_id (the speaker's own; [] for the admin view or an unknown speaker)."""
        ...

    def nearest_in_buckets(
        self, vector: Vectors, buckets: Sequence[Bucket], k: int
    ) -> list[list[tuple[Memory, float]]]:
        """For each bucket (in order), the top k ACTIVE memories of exactly that bucket by cosine,
        best first, as [(memory, similarity)] (dedup, the writer's neighbours); one pass over the
        vectors, one round trip to a server (the rows come with their distances)."""
        ...

    def vectors(self, ids: list[str]) -> tuple[list[str], Vectors]:
        """The stored unit vectors of the listed memories that have one of the active identity:
        (their ids in the given order, float32[len(ids found), dimension])."""
        ...

    def similarities(self, ids: list[str], vector: Vectors) -> dict[str, float]:
        """Cosine of `vector` with each listed memory's vector, by id (ids without a vector of
        the active identity left out)."""
        ...

    def languages(self, ids: list[str]) -> dict[str, str]:
        """The language (BCP 47 primary tag) of each listed memory with a vector of the active
        identity, by id."""
        ...

    def lexical(self, phrases: list[str], vis: Visibility, limit: int) -> list[LexicalRow]:
        """Current memories vis allows whose text contains any of the phrases (word sequences),
        best BM25 first, at most `limit`; [] for no phrases."""
        ...

    def containing(self, phrases: list[str], ids: list[str], vis: Visibility) -> dict[str, str]:
        """Of the listed memories, those vis allows whose text contains any of the phrases (as
        lexical), id -> text; {} for no phrases or ids. A search among candidates found already."""
        ...

    def term_matches(
        self, terms: list[str], vis: Visibility, limit: int
    ) -> dict[str, tuple[float, frozenset[str]]]:
        """Current memories vis allows sharing any search term (terms.query_terms against
        terms.document_terms), id -> (BM25 > 0, higher = better; the terms of `terms` it holds),
        at most `limit`, best first."""
        ...

    def neighbours(self, ids: list[str], vis: Visibility, window: int) -> dict[str, list[tuple[str, int]]]:
        """Conversation context: for each listed memory with a source_ref, the current,
        visible, non-sensitive memories of the same source_ref at most `window` places away in
        time order, as [(id, distance >= 1)]; memories without a source_ref have none."""
        ...

    def doc_count(self) -> int:
        """Number of stored memories, any scope and status (BM25's and IDF's N)."""
        ...

    def doc_frequency(self, term: str, cap: int) -> int:
        """How many memories contain the phrase `term`, counted up to `cap`."""
        ...

    def doc_frequencies(self, terms: Sequence[str], cap: int) -> dict[str, int]:
        """doc_frequency of each of `terms`, by term; one round trip to a server."""
        ...


@dataclass(frozen=True, slots=True)
class RecallRequest:
    """What one recall's gather step reads, asked for at once (BatchedReads.recall_batch): the
    SearchLegs calls recall would make one by one, with their arguments."""

    vector: Vectors  # semantic(vector, vis, k, owned_k=owned_k)
    vis: Visibility
    k: int
    owned_k: int
    terms: list[str]  # term_matches(terms, vis, terms_limit)
    terms_limit: int
    words: list[str]  # doc_frequencies(words, lexical.rare_cap(doc_count) + 1)
    phrases: list[str]  # lexical(phrases, vis, phrases_limit); [] asks for nothing
    phrases_limit: int


@dataclass(frozen=True, slots=True)
class RecallBatch:
    """The answers to a RecallRequest, as the single calls give them, and the rows they name."""

    semantic: list[tuple[str, float]]
    owned: list[tuple[str, float]]
    term_matches: dict[str, tuple[float, frozenset[str]]]
    frequencies: dict[str, int]
    lexical: list[LexicalRow]
    doc_count: int  # the row count the frequencies' cap came from (doc_count() for this recall)
    memories: Mapping[str, Memory]  # every memory named above, as get_many(ids, vis) gives it
    vectors: Mapping[str, Vectors]  # ... and its vector of the active identity (none: left out)


@runtime_checkable
class BatchedReads(Protocol):
    """A store a round trip costs on: recall asks it for its reads in two batches (reads.py)."""

    def recall_batch(self, request: RecallRequest) -> RecallBatch:
        """Every read of `request` in one round trip."""
        ...

    def neighbour_rows(
        self, ids: list[str], vis: Visibility, window: int
    ) -> tuple[dict[str, list[tuple[str, int]]], Mapping[str, Memory], Mapping[str, Vectors]]:
        """neighbours(ids, vis, window), with the neighbours' memories and vectors (as
        RecallBatch's), in one round trip."""
        ...


class TombstoneStore(Protocol):
    """Forgetting: a forgotten memory's text goes everywhere, a tombstone (vector, bucket,
    keyed anchor digests; never the text) stays and blocks learning it again. Writes committed."""

    def delete_to_tombstones(
        self, ids: list[str], at: datetime, anchors_of: Callable[[str], Collection[str]] | None = None
    ) -> list[tuple[Memory, Tombstone]]:
        """Delete the listed memories (rows, search rows, pending access counts) leaving a
        tombstone each, created at `at`, with the digests anchors_of(content) gives (none when
        None); unknown ids are skipped. Returns (the memory as it was, its tombstone)."""
        ...

    def tombstones_near(
        self,
        vector: Vectors,
        bucket: Bucket,
        threshold: float,
        *,
        anchors: Collection[str] = (),
        anchor_threshold: float | None = None,
    ) -> list[tuple[Tombstone, float]]:
        """Unlifted tombstones of exactly this bucket and the active identity with cosine ≥
        threshold, or ≥ anchor_threshold when they share one of `anchors` (digests as stored by
        delete_to_tombstones); best first, as (tombstone, cosine)."""
        ...

    def lift_tombstones(self, ids: list[str], at: datetime) -> None:
        """Mark the listed tombstones lifted at `at` (an explicit remember); they block nothing."""
        ...

    def claim_anchor_check(self, check: str) -> str:
        """The anchor-key check of this store (of its household, on a shared database): `check`
        is stored when there is none yet — the first installation to open the store claims it —
        and the stored one is returned. A different value means the tombstones' digests here are
        keyed by another installation's anchor key (forgetting.anchor_check). Committed."""
        ...

    def list_tombstones(self, *, limit: int, offset: int) -> tuple[list[Tombstone], int]:
        """Every tombstone, lifted ones too (lifted_at set), newest first (created_at desc, then
        id): the page [offset, offset + limit) and how many there are in all."""
        ...

    def get_tombstone(self, tombstone_id: str) -> Tombstone | None:
        """One tombstone (lifted or not), else None."""
        ...


class TranscriptStore(Protocol):
    """Verbatim conversation turns, independent of memories and forgetting, purged by age.
    Writes committed on return."""

    def add_turns(self, turns: list[TranscriptTurn]) -> None:
        """Insert the turns as given. A (conversation_id, turn) already stored raises
        StoreUnavailable and nothing of the batch is written."""
        ...

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Append `said` after its conversation's last turn, numbered in the same transaction
        (concurrent callers never collide; said.turn is ignored); returns it as stored. None,
        nothing written, when it is a user turn repeating the last turn verbatim."""
        ...

    def turns(self, conversation_id: str) -> list[TranscriptTurn]:
        """The conversation's turns by turn number ([] when unknown or purged)."""
        ...

    def purge_turns(self, older_than: datetime) -> int:
        """Delete every turn created before `older_than`; returns how many."""
        ...


class MemoryStore(
    MemoryRecords, SearchLegs, TombstoneStore, TranscriptStore, VoiceprintStore, StoreTransfer, Protocol
):
    """A whole backend: every concern above plus its lifecycle, re-embedding and counts.
    Blocking, thread-safe; any call on a closed store or an unreachable database raises
    StoreUnavailable.

    Every method returning memories takes a Visibility and applies it inside its query;
    "current" means status ACTIVE (not pending/superseded/archived), or with vis.as_of the
    memories current at that moment (Visibility); get, list_current and history ignore as_of.
    Vectors are unit float32 rows of the store's active EmbeddingIdentity.
    """

    # why the last write could not be written to the store's file (StoreUnwritable: a full disk, a
    # read-only file), None once a write commits again; always None for a server database
    write_fault: str | None

    def open(self, identity: EmbeddingIdentity) -> None:
        """Connect (creating and migrating the schema) with `identity` as the active embedding
        identity; idempotent. Raises StoreUnavailable (unreachable, unwritable, schema newer)."""
        ...

    def close(self) -> None:
        """Write batched access counts and release the connection; idempotent."""
        ...

    def schema_version(self) -> int:
        """The schema version reached by open()."""
        ...

    def pause_writes(self, timeout: float) -> None:
        """Before a backup copies the store: wait (at most `timeout` s, else WritesPaused and no
        pause) for the write in progress, make every committed write part of the main file, and
        hold later writes back (they wait, write_gate.PAUSE_WAIT at most) until resume_writes.
        Reads go on. A server database (PostgreSQL) is backed up with the server: nothing to do."""
        ...

    def resume_writes(self) -> bool:
        """After the backup: let held-back and new writes go on; idempotent. True when the pause
        held throughout (or there is nothing to pause); False when it had ended by itself
        (write_gate.PAUSE_MAX) or was not on: writes may have gone on during the copy."""
        ...

    def bulk_writes(self) -> AbstractContextManager[None]:
        """A block of many writes from this thread (an import) acknowledged together when it
        ends: the store may commit them without waiting for the disk and wait once at the end,
        so they are durable when the block returns. Other threads' writes are unaffected.
        Raises StoreUnavailable at the end when that wait fails (the writes stay committed)."""
        ...

    def stale(self, limit: int) -> list[tuple[str, str]]:
        """Up to `limit` (id, content) of memories whose vector is missing or of another
        identity: what re-embedding has left to do."""
        ...

    def set_vector(self, memory_id: str, vector: Vectors) -> None:
        """Replace one memory's vector with one of the active identity (re-embedding)."""
        ...

    def counts(self) -> dict[str, int]:
        """Diagnostics, no text: memories, active, tombstones (unlifted), stale,
        "scope:<scope>" and "provenance:<provenance>" -> active memories of that scope or
        provenance, "status:<status>" -> memories of that status, "tombstone_scope:<scope>" ->
        unlifted tombstones of that scope (keys with no rows left out)."""
        ...
