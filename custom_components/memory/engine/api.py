"""The engine's public types, as the Home Assistant side uses them: drafts and options in,
results and reports out, the errors (InvalidInput, StoreUnavailable, EncoderUnavailable).

The methods are MemoryEngine's (engine/engine.py, a table of contents of engine/parts/), each
documented where it is implemented. All are synchronous and may block (SQLite I/O, model
inference): the HA side runs them in an executor, never on the event loop. The engine is
thread-safe (one writer at a time).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from .facts import Conflict as Conflict  # noqa: PLC0414 - re-exported: the contract's result types
from .facts import WriteAction as WriteAction  # noqa: PLC0414
from .models import (
    EmbeddingIdentity,
    Kind,
    Memory,
    Provenance,
    Scope,
    Source,
    Speaker,
    Status,
)

if TYPE_CHECKING:
    pass

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
class RememberResult:
    memory: Memory  # the memory now holding the fact (new or the merged one)
    action: WriteAction
    lifted_tombstones: int = 0
    sensitive: bool = False
    superseded: tuple[str, ...] = ()  # ids of older values of the same fact the new memory replaced
    # current memories the new one likely replaces (facts.Relation.REPLACES), closest first, left
    # current for the caller to settle (MemoryEngine.supersede); none are in `superseded`
    conflicts: tuple[Conflict, ...] = ()
    reason: str = ""  # why (facts.Decision.reason): "same wording", "restatement", "new", …


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
