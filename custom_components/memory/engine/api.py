"""The engine's public surface, as the Home Assistant side calls it.

THIS FILE IS THE CONTRACT between the engine and the HA side. `MemoryEngine`
(engine/engine.py) implements it. All methods are synchronous and may block
(SQLite I/O, model inference): the HA side runs them in an executor, never on
the event loop. The engine is thread-safe (one writer at a time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from .facts import Relation
from .models import (
    EmbeddingIdentity,
    Hit,
    Kind,
    Memory,
    Provenance,
    Scope,
    Source,
    Speaker,
    Status,
    Tombstone,
    TranscriptTurn,
    Voiceprint,
)
from .store.base import MemoryFilter

if TYPE_CHECKING:
    from .embedding.base import Vectors

MAX_CONTENT_CHARS = 1000  # longest memory text accepted (other limits: inputs.py, docs/services.md#limits)
WRITE_REFUSED = "the memory store is unavailable for writing, nothing was stored"  # as_refused_write


class EngineError(Exception):
    """Base of the engine's errors."""


class StoreUnavailable(EngineError):
    """The store cannot be opened or reached; nothing of the call was acknowledged.

    writing: True when a write was refused (nothing of it is stored), False for a read."""

    def __init__(self, message: str, *, writing: bool = False) -> None:
        super().__init__(message)
        self.writing = writing

    def as_refused_write(self) -> StoreUnavailable:
        """This failure, met by a write operation (a read before its write included, such as
        remember's search for the same fact), as the refused write it is: the same class,
        writing=True, the message saying so; itself when it is one already."""
        if self.writing:
            return self
        return type(self)(f"{WRITE_REFUSED}: {self}", writing=True)


class StoreFileChanged(StoreUnavailable):
    """The store's file was deleted or replaced while the store was open: every later write is
    refused (it would go to a file nobody reads again) until the store is opened anew."""


class StoreCorrupt(StoreUnavailable):
    """The store's file is not a readable database (a damaged page, not SQLite at all): it is
    never repaired or replaced silently; restore a backup or move it away."""


class StoreUnwritable(StoreUnavailable):
    """The store's file cannot be written (the disk is full, the file or its folder read-only, an
    I/O error): this write was refused, nothing stored; reads go on, and writes work again as
    soon as the cause is gone (no reload needed)."""


class WritesPaused(StoreUnavailable):
    """Writes were paused (a backup in progress) for longer than a write waits
    (store.write_gate.PAUSE_WAIT): this write was refused, not stored."""


class EncoderUnavailable(EngineError):
    """The configured embedding encoder cannot be loaded (e.g. fastembed not installed,
    or its model files missing). The HA side raises a repair issue and falls back to "bundled"."""


class InvalidInput(EngineError):
    """Bad input. `field` names the offending field, `reason` a stable key
    (e.g. "empty", "too_long", "scope_needs_person", "scope_needs_area",
    "unknown_memory", "unknown_speaker"; the input checks' reasons: engine/inputs.py).
    `limit`: the bound that was crossed when there is one (the most characters or items for
    "too_long" / "too_many", the largest value for "too_large", the smallest for "negative" /
    "too_small"), else None."""

    def __init__(self, field_name: str, reason: str, *, limit: float | None = None) -> None:
        super().__init__(f"{field_name}: {reason}")
        self.field = field_name
        self.reason = reason
        self.limit = limit


class WriteAction(StrEnum):
    """What remember() did."""

    CREATED = "created"  # a new memory row
    MERGED = "merged"  # the same wording (case/punctuation/whitespace aside) or the same value of
    #                    the fact key existed in the same scope/owner/area; confirmed, no new row
    CONFIRMED = "confirmed"  # a restatement in other words or another language (facts.Relation.SAME)
    #                          of a current memory: that memory is confirmed, no new row


@dataclass(frozen=True, slots=True)
class MemoryDraft:
    """A memory to be written, as every door hands it to MemoryEngine.remember.

    speaker: who said it (provenance: speaker_id; default owner/area). subject/predicate/value
    describe a fact (subject "me" = the owner; predicate an English snake_case key; value as
    said), stored normalised. status: ACTIVE, or PENDING for a memory awaiting review (applies to
    a new row; a merge keeps the existing status). replaces: ids of current memories the speaker
    sees that this one supersedes (a person said so: the conversation's yes, a service's
    `replaces`, the LLM tool's). importance in [0, 1] (clamped).
    """

    content: str
    speaker: Speaker
    scope: Scope
    kind: Kind = Kind.FACT
    language: str = "en"
    provenance: Provenance = Provenance.CONFIRMED
    source: Source = Source.SERVICE
    source_ref: str | None = None
    owner_id: str | None = None
    area_id: str | None = None
    subject: str | None = None
    predicate: str | None = None
    value: str | None = None
    importance: float = 0.5
    status: Status = Status.ACTIVE
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Conflict:
    """A current memory a new one may restate or replace (facts.Relation), with their
    similarity on the recall scale."""

    memory: Memory
    relation: Relation
    similarity: float


@dataclass(frozen=True, slots=True)
class RememberResult:
    memory: Memory  # the memory now holding the fact (new or the merged one)
    action: WriteAction
    lifted_tombstones: int = 0
    sensitive: bool = False
    superseded: tuple[str, ...] = ()  # ids of older values of the same fact the new memory replaced
    # current memories the new one likely replaces (facts.Relation.REPLACES), closest first, left
    # current for the caller to settle (MemoryEngine.supersede); none are in `superseded`
    conflicts: tuple[Conflict, ...] = ()


@dataclass(frozen=True, slots=True)
class Change:
    """One memory a consolidation run retired (or, in a dry run, would retire): it becomes
    `status` (ARCHIVED: merged into `by_id`, the same fact; SUPERSEDED: an older value)."""

    memory_id: str
    status: Status
    by_id: str


@dataclass(frozen=True, slots=True)
class PossibleConflict:
    """Two current memories without a fact key where the newer likely replaces the older
    (facts.Relation.REPLACES), left current until a judge (an AI Task, a person) settles them
    (MemoryEngine.settle_pair); similarity on the recall scale."""

    older_id: str
    newer_id: str
    similarity: float


@dataclass(frozen=True, slots=True)
class ConsolidationReport:
    """What one consolidation run changed, or in a dry run would change (engine/consolidation.py):
    memories merged (ARCHIVED into a memory of the same fact), superseded (an older value of the
    same fact), pruned (inferred guesses never recalled, deleted: `pruned_ids`), each retired one in
    `changes`; `conflicts`: likely replacements among memories without a fact key, left current."""

    merged: int = 0
    superseded: int = 0
    pruned: int = 0
    changes: tuple[Change, ...] = ()
    pruned_ids: tuple[str, ...] = ()
    conflicts: tuple[PossibleConflict, ...] = ()
    dry_run: bool = False

    def counts(self) -> dict[str, int]:
        """The counts, text-free (the `memory_consolidated` event, diagnostics)."""
        return {
            "merged": self.merged,
            "superseded": self.superseded,
            "pruned": self.pruned,
            "conflicts": len(self.conflicts),
        }


@dataclass(frozen=True, slots=True)
class RecallOptions:
    """Recall tunables; defaults are the documented ones (docs/design.md §6)."""

    limit: int = 5  # top-k
    max_chars: int = 1200  # cap on the summed content length of the slate
    max_chars_per_memory: int = 300  # a longer memory is cut with an ellipsis in prompt blocks
    min_similarity: float = 0.25  # semantic leg threshold (docs/design.md §6)
    include_about_speaker: bool = True  # add memories owned by/about the recognised speaker
    language: str | None = None  # the query's language (ISO 639-1) for full-text terms; None: any
    # the persons the query names, name as said -> person id (the caller resolves them:
    # speaker.persons_named, text.names_in); a memory told by, owned by, keyed on or naming one
    # of them gains the factor "named" (recall.W_NAMED)
    named_persons: Mapping[str, str] = field(default_factory=dict)
    # the areas the query names, as area ids (the caller resolves them: speaker.areas_named); their
    # ROOM memories are visible to this recall wherever it is asked (store.base.Visibility.of);
    # PRIVATE memories never follow a name
    named_areas: tuple[str, ...] = ()
    # recall "as of" a moment (aware UTC): the memories current then instead of the ACTIVE ones —
    # ACTIVE or SUPERSEDED, valid_from (else created_at) <= as_of < valid_to (None: still current);
    # ranked as then (recency up to as_of), no access counted. None: now. A naive time recalls [].
    as_of: datetime | None = None
    # an unknown speaker may be told sensitive memories (the integration's option); False: their
    # hits come back marked withheld (sensitive.withholds)
    sensitive_to_unknown: bool = False


@dataclass(frozen=True, slots=True)
class EngineStats:
    memories: int
    active: int
    tombstones: int
    by_scope: dict[str, int] = field(default_factory=dict)
    embedding: EmbeddingIdentity | None = None
    schema_version: int = 0
    stale_vectors: int = 0  # vectors of another embedding identity awaiting re-embed
    by_provenance: dict[str, int] = field(default_factory=dict)  # active memories per provenance
    by_status: dict[str, int] = field(default_factory=dict)  # memories per status (any)
    tombstones_by_scope: dict[str, int] = field(default_factory=dict)  # unlifted, per scope


@dataclass(frozen=True, slots=True)
class MemoryEdit:
    """An administrator's correction of one memory (MemoryEngine.edit); None keeps a field.

    content: new text (validated, flagged and re-embedded as remember does); owner_id counts for
    PRIVATE, area_id for ROOM (the memory's own kept when not given); given for a memory that
    will not be of that scope, InvalidInput("owner_id", "owner_needs_private") or ("area_id",
    "area_needs_room") rather than ignored."""

    content: str | None = None
    kind: Kind | None = None
    scope: Scope | None = None
    owner_id: str | None = None
    area_id: str | None = None


@dataclass(frozen=True, slots=True)
class Lineage:
    """One memory and its place in its fact's history (MemoryEngine.lineage): `older` the values
    it replaced (recursively), newest first; `newer` the memories that replaced it, the next one
    first and the current one last. Every entry has valid_from (created_at when none was stored)."""

    memory: Memory
    older: tuple[Memory, ...] = ()
    newer: tuple[Memory, ...] = ()


@dataclass(frozen=True, slots=True)
class Export:
    """Everything a person may read of the store (MemoryEngine.export): each ACTIVE memory with
    the values it replaced (Lineage.older), the PENDING ones, and unlifted tombstones counted by
    scope (a tombstone has no text)."""

    current: tuple[Lineage, ...]
    pending: tuple[Memory, ...]
    tombstones_by_scope: dict[str, int]


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What MemoryEngine.import_memories did: new memories `created`, `duplicates` (a memory
    saying the same was there: confirmed instead, remember's MERGED/CONFIRMED), and `rejected`
    (index in the input, reason key) — written nowhere."""

    created: int = 0
    duplicates: int = 0
    rejected: tuple[tuple[int, str], ...] = ()
    # index in the input -> the InvalidInput that refused it (field, reason, limit), for the
    # rejections that are one (not "forgotten", "conflict", "scope_reserved")
    refusals: Mapping[int, InvalidInput] = field(default_factory=dict)


class MemoryEngineAPI(Protocol):
    """What the HA side may call. Every method but recall() may raise EngineError. Each checks
    its input first (engine/inputs.py: types, enum values, lengths, ranges, finite numbers) and
    raises InvalidInput naming the field before anything is read or written; recall() logs and
    answers [] instead, and reads a query up to inputs.MAX_QUERY_CHARS."""

    anchor_key_matches: bool
    """After open(): False when the store's tombstone digests were made with another anchor key
    (another installation's, or a config entry made anew over an old file): forgotten
    identifiers are then recognised by meaning only (forgetting.anchor_check). True without a key."""

    def open(self) -> None:
        """Open the store, run schema migrations, load vectors. Raises StoreUnavailable."""

    def close(self) -> None:
        """Flush and close; idempotent."""

    def remember(self, draft: MemoryDraft) -> RememberResult:
        """Store a memory, committed before returning (engine/writer.py, the rules in facts.py).

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
        ...

    def recall(
        self,
        query: str,
        speaker: Speaker,
        options: RecallOptions | None = None,
        *,
        vector: Vectors | None = None,
    ) -> list[Hit]:
        """Hybrid recall of ACTIVE memories visible to `speaker`, best first,
        capped by options. With options.as_of, of the memories current at that moment
        (superseded ones included if they were current then); never a superseded memory
        without it. Never raises: on any failure returns [] and logs.
        vector: the query's embedding (float32[dimension], unit, of the engine's
        embedding identity) when the caller already has it; None embeds `query`."""
        ...

    def find_to_forget(self, query: str, speaker: Speaker, limit: int = 3) -> list[Hit]:
        """Candidates to forget: active memories visible to speaker matching query.
        An empty, invisible-only or non-encodable query gives []."""
        ...

    def forget(self, memory_id: str, speaker: Speaker) -> Memory:
        """Delete the memory's text (row removed, FTS row removed) and leave a
        tombstone (embedding + scope + keyed digests of its identifiers, no text); the
        older values it superseded (its superseded_by history) go with it, each to a
        tombstone, in the same transaction. The memory must be visible to speaker, else
        InvalidInput("memory_id", "unknown_memory"). Returns the memory as it was (for
        the confirmation reply)."""
        ...

    def forget_person(self, person_id: str) -> int:
        """Forget every PRIVATE memory owned by person_id (tombstones left) and drop them as the
        teller (speaker_id) of other memories, which stay. Returns how many were forgotten.
        Other persons untouched. Their voiceprint is deleted too."""
        ...

    def enroll_voice(self, person_id: str, vector: Vectors, clips: int, embedding: str) -> Voiceprint:
        """Store person_id's voiceprint: `vector` (float32[d], the mean of `clips` enrolment
        clips' speaker embeddings; stored unit length) made by the voice model `embedding`.
        Re-enrolment replaces it (created_at kept, updated_at now). Committed; returns the row.
        Raises InvalidInput("person_id", "unknown_speaker") for an empty id,
        ("vector", "invalid_vector") for an empty/non-finite/zero vector, ("clips", "too_small")
        for clips < 1, ("embedding", "empty")."""
        ...

    def voiceprints(self) -> list[Voiceprint]:
        """Every enrolled voiceprint, by person id. Vectors are for the matcher only: never in
        diagnostics or service responses."""
        ...

    def forget_voice(self, person_id: str) -> bool:
        """Delete person_id's voiceprint; True when there was one."""
        ...

    @property
    def voice_generation(self) -> int:
        """Changes whenever a voiceprint may have changed (enroll_voice, forget_voice,
        forget_person); a cache of voiceprints() is current while it is unchanged. No I/O."""
        ...

    def get(self, memory_id: str, speaker: Speaker) -> Memory | None:
        """One memory if visible to speaker."""
        ...

    def history(self, memory_id: str, speaker: Speaker) -> list[Memory]:
        """The memory's whole chain of values visible to speaker, newest first: the current one
        (the head: following superseded_by forward from memory_id as far as visible), then every
        memory the head replaced, recursively (SUPERSEDED older values, ARCHIVED paraphrases),
        newest first. Each entry carries its validity window: valid_from (created_at when none was
        stored) and valid_to (None while current; for a PENDING head, never current, also None).
        memory_id may be any link of the chain. Raises InvalidInput("memory_id", "unknown_memory")
        when it does not exist or is not visible to speaker."""
        ...

    def approve(self, memory_id: str, speaker: Speaker) -> Memory:
        """A PENDING memory visible to speaker becomes ACTIVE; else
        InvalidInput("memory_id", "unknown_memory") (not visible) or ("memory_id", "not_pending").
        With a fact key it then holds the key: the key's other ACTIVE memories become ARCHIVED
        (same value) or SUPERSEDED (another value), in the same transaction."""
        ...

    def consolidate(self, now: datetime | None = None, *, dry_run: bool = False) -> ConsolidationReport:
        """One consolidation pass (daily and on demand): per fact key one current memory (the
        newest stated value; paraphrases ARCHIVED, older values SUPERSEDED, kept as history);
        memories without a key compared pairwise in their bucket by facts.relation: a restatement
        (SAME) is ARCHIVED into the one that holds, a likely replacement (REPLACES) is only
        reported (report.conflicts), never retired; pairs with a verdict (settle_pair) are left
        alone; `inferred` memories never recalled for 90 days deleted. dry_run: the same report,
        nothing changed. Idempotent. now: aware UTC, default the engine's clock."""
        ...

    def settle_pair(self, older_id: str, newer_id: str, verdict: Relation) -> tuple[str, ...]:
        """Apply a judge's verdict on two memories (a reported conflict; facts.settle_pair): SAME
        archives the weaker/older into the other, REPLACES supersedes the older by the newer (a
        guess never supersedes a stated memory), ADDS_DETAIL/UNRELATED change nothing; a
        memory no longer current changes nothing. The verdict is kept either way, so the pair is
        not reported again. Unknown ids raise InvalidInput("memory_id", "unknown_memory").
        Returns the ids retired."""
        ...

    def list_memories(self, speaker: Speaker, *, limit: int = 100, offset: int = 0) -> list[Memory]:
        """Visible active memories, newest first."""
        ...

    def list_pending(self, speaker: Speaker, *, limit: int = 50) -> list[Memory]:
        """Visible PENDING memories (review mode: extracted, awaiting approve/reject), newest
        first, at most `limit`; InvalidInput("limit", "negative") if limit < 0."""
        ...

    def find(
        self, speaker: Speaker, where: MemoryFilter, *, limit: int = 50, offset: int = 0
    ) -> tuple[list[Memory], int]:
        """Memories visible to speaker matching `where` (store.base.MemoryFilter; by default the
        ACTIVE ones), newest first: the page [offset, offset + limit) and how many match in all.
        InvalidInput("limit" | "offset", "negative")."""
        ...

    def lineage(self, memory_id: str, speaker: Speaker) -> Lineage:
        """The memory (any status) with the values it replaced and the ones that replaced it,
        as far as speaker sees; InvalidInput("memory_id", "unknown_memory") when not visible."""
        ...

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
        ...

    def pending_review(self, speaker: Speaker, *, limit: int = 50) -> list[tuple[Memory, list[Memory]]]:
        """The PENDING memories visible to speaker (newest first, at most `limit`), each with the
        current memories approving it would supersede (facts.approving: another value of its
        fact key)."""
        ...

    def approve_pending(self, memory_id: str, speaker: Speaker) -> tuple[Memory, tuple[str, ...]]:
        """approve(), also returning the ids it superseded (another value of the fact key)."""
        ...

    def reject(self, memory_id: str, speaker: Speaker) -> Memory:
        """Forget a PENDING memory visible to speaker (a tombstone, as forget); else
        InvalidInput("memory_id", "unknown_memory") (not visible) or ("memory_id", "not_pending").
        Returns it as it was."""
        ...

    def tombstones(self, *, limit: int = 50, offset: int = 0) -> tuple[list[Tombstone], int]:
        """Every tombstone (lifted ones too), newest first: the page and the total."""
        ...

    def lift_tombstone(self, tombstone_id: str) -> Tombstone:
        """Lift one unlifted tombstone (it blocks learning no more); InvalidInput("tombstone_id",
        "unknown_tombstone") when there is none such. Returns it lifted."""
        ...

    def export(self) -> Export:
        """Every current memory with its history, the pending ones and the tombstone counts."""
        ...

    def import_memories(self, drafts: Sequence[MemoryDraft]) -> ImportReport:
        """Remember each draft in order by remember's own rules (dedup, restatements: counted
        as duplicates), committed one by one. Also a duplicate: a draft saying what was said
        here and has been replaced since (the same wording, superseded or archived in its bucket;
        the value its key's current memory holds) — never current again. Rejected, nothing
        written for it: what remember refuses (the InvalidInput reason), what a tombstone blocks
        ("forgotten": forgetting stays until someone remembers it explicitly), a fact whose key
        holds another value now ("conflict": the household's current value is never superseded
        by an import; also when the key's last value here was replaced by a memory told without
        the key) and a SYSTEM-scope draft ("scope_reserved": the integration's own notes)."""
        ...

    def record_turns(self, turns: list[TranscriptTurn]) -> None:
        """Store verbatim conversation turns before any interpretation, committed.
        A (conversation_id, turn) already stored raises StoreUnavailable (nothing written).
        Transcripts are independent of memories: forget() never deletes them."""
        ...

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Record one turn after the conversation's last, numbered atomically; None (nothing
        written) when it repeats the last user turn."""
        ...

    def conversation(self, conversation_id: str) -> list[TranscriptTurn]:
        """One conversation's stored turns, ordered by turn ([] when none or purged)."""
        ...

    def purge_transcripts(self, now: datetime, retention_days: int) -> int:
        """Delete turns created more than retention_days days before now (aware UTC);
        returns how many. retention_days < 1 raises InvalidInput."""
        ...

    def stats(self) -> EngineStats:
        """Counts for diagnostics (no text)."""
        ...

    def reembed_pending(self, batch: int = 256) -> int:
        """Re-embed up to `batch` memories/tombstones whose vectors are of another
        embedding identity; returns how many were done (0 when none remain)."""
        ...
