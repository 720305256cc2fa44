"""Records of the memory engine: memories, tombstones, speakers, recall hits and transcript turns.

Everything here is a frozen dataclass or a string enum; the engine never imports
Home Assistant. Ids are opaque strings (uuid4 hex).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .embedding.base import Vectors


class Kind(StrEnum):
    """What sort of memory a record is (docs/design.md §4)."""

    FACT = "fact"
    PREFERENCE = "preference"
    EPISODE = "episode"
    PROCEDURE = "procedure"
    NOTE = "note"


class Provenance(StrEnum):
    """How a memory came to be known, strongest first (docs/design.md §4)."""

    CONFIRMED = "confirmed"  # said or confirmed explicitly
    OBSERVED = "observed"  # by sensors or automations
    EXTRACTED = "extracted"  # from a conversation
    INFERRED = "inferred"  # a model's guess

    @property
    def rank(self) -> int:
        """0 for the strongest (confirmed) to 3 for the weakest (inferred)."""
        return list(Provenance).index(self)


class Scope(StrEnum):
    """Who may see a memory (docs/design.md §5)."""

    PRIVATE = "private"  # only its owner person
    ROOM = "room"  # anyone in its area
    SHARED = "shared"  # everyone in the household
    SYSTEM = "system"  # everyone; written by the integration itself


class Status(StrEnum):
    """Lifecycle of a memory; only ACTIVE is ever recalled."""

    ACTIVE = "active"
    PENDING = "pending"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


class Source(StrEnum):
    """Which door a memory came through."""

    VOICE = "voice"
    SERVICE = "service"
    EXTRACTION = "extraction"
    AUTOMATION = "automation"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class EmbeddingIdentity:
    """Which embedding space a vector lives in; vectors of different identities are never compared."""

    provider: str
    model: str
    dimension: int

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}/{self.dimension}"


class SpeakerSource(StrEnum):
    """How a speaker was recognised, strongest first (docs/design.md §5)."""

    VOICE = "voice"  # their enrolled voiceprint matched this utterance
    USER = "user"  # the HA user of an authenticated context
    DEVICE = "device"  # a personal device mapped to them in the options


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who is asking and where: the input of the visibility rule (docs/design.md §5).

    person_id: a recognised person's id, or None for an unknown speaker.
    area_id: the area of the satellite/device, or None when not known.
    admin: the explicit admin view (the panel only) that sees every memory.
    source: how the person was recognised (SpeakerSource: "voice", "user", "device"), None when
    unknown or not said (services, the admin view). It never changes what the speaker sees.
    """

    person_id: str | None = None
    area_id: str | None = None
    admin: bool = False
    source: SpeakerSource | None = None

    @property
    def known(self) -> bool:
        """True when the speaker is a recognised person."""
        return self.person_id is not None

    @classmethod
    def administrator(cls) -> Speaker:
        """The admin view: sees all scopes of all persons."""
        return cls(admin=True)


@dataclass(frozen=True, slots=True)
class Memory:
    """One stored memory (docs/design.md §4). Times are timezone-aware UTC datetimes."""

    id: str
    content: str
    kind: Kind
    language: str
    provenance: Provenance
    scope: Scope
    owner_id: str | None
    area_id: str | None
    created_at: datetime
    updated_at: datetime
    subject: str | None = None  # normalised (facts.fact_subject): "me" = the owner/speaker
    predicate: str | None = None  # normalised English snake_case key (facts.fact_predicate)
    value: str | None = None  # the predicate's value as said ("tea"); compared by facts.same_value
    confidence: float = 1.0
    importance: float = 0.5
    sensitive: bool = False
    status: Status = Status.ACTIVE
    superseded_by: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    source: Source = Source.SERVICE
    source_ref: str | None = None
    access_count: int = 0
    last_accessed_at: datetime | None = None
    speaker_id: str | None = None  # provenance: the recognised person who said it; None if unknown
    # never stored: why the caller may not be told this memory (audience.Withheld; its content,
    # subject, predicate and value are empty then), None when told (engine/audience.py)
    withheld: str | None = None


# The fields a store keeps, declared once: both stores' columns and codecs and the move between
# stores follow it, tests/engine/test_record_fields.py checks the rest. `withheld` is not the
# memory's but one caller's (engine/audience.py), so it is never stored.
STORED_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Memory) if f.name != "withheld")


@dataclass(frozen=True, slots=True)
class Tombstone:
    """What remains of a forgotten memory: its embedding and scope, never its text."""

    id: str
    scope: Scope
    owner_id: str | None
    area_id: str | None
    created_at: datetime
    lifted_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """A recalled memory with its final score and the per-factor breakdown behind it.

    factors: named contributions (e.g. "similarity", "lexical", "provenance",
    "importance", "recency", "about_speaker", "newer") whose sum is `score`.
    outdated_by: the id of a newer memory in the same slate that likely replaces this one
    (recall.mark_outdated; facts.relation REPLACES, nobody settled it yet), else None.
    withheld: the caller may know that it matched but not be told it (memory.withheld, decided
    by engine/audience.py; the memory's text is removed).
    """

    memory: Memory
    score: float
    similarity: float
    factors: dict[str, float] = field(default_factory=dict)
    outdated_by: str | None = None

    @property
    def withheld(self) -> bool:
        """True when the memory was withheld from the caller (Memory.withheld says why)."""
        return self.memory.withheld is not None


class Role(StrEnum):
    """Who said a transcript turn."""

    USER = "user"
    ASSISTANT = "assistant"


@dataclass(frozen=True, slots=True)
class TranscriptTurn:
    """One verbatim conversation turn, stored before any interpretation (docs/learning.md).

    turn: 0-based index within the conversation; (conversation_id, turn) is unique.
    speaker_id: the recognised person's id, or None. area_id: the satellite's area, or None.
    speaker_source: how speaker_id was recognised (SpeakerSource value), None when unknown.
    created_at: timezone-aware UTC. Forgetting a memory never touches transcripts; they go
    only by the retention purge.
    """

    conversation_id: str
    turn: int
    role: Role
    text: str
    language: str
    created_at: datetime
    speaker_id: str | None = None
    area_id: str | None = None
    speaker_source: SpeakerSource | None = None


@dataclass(frozen=True, slots=True)
class Voiceprint:
    """One person's enrolled voice: the mean of their enrolment clips' speaker embeddings.

    vector: float32[dimension] (512 for the fused model: the d-vector's and GE2E's 256 each, weighted;
    voice/fusion.py), unit length; never leaves the store except to the matcher (not in
    diagnostics, not in service responses). clips: how many clips it was averaged over.
    embedding: the identity of the voice model that made it (voice.MODEL_IDENTITY); prints of
    another model are never compared. created_at: first enrolment; updated_at: the latest
    (re-enrolment replaces the vector); both timezone-aware UTC.
    """

    person_id: str
    vector: Vectors = field(repr=False, compare=False)
    clips: int
    embedding: str
    created_at: datetime
    updated_at: datetime
