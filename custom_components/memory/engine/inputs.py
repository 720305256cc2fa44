"""What the engine takes: the limits of every input and the checks every public MemoryEngine call
runs first, one per kind of record (a draft, an edit, recall options, a query, ids, a page, the
transcript retention, a speaker, a transcript turn, a voiceprint, a filter, a learning call).

A check raises InvalidInput(field, reason, limit=...) naming the offending field (the parameter's
or the record attribute's name, e.g. "subject", "speaker.person_id", "limit") before anything is
read, embedded or written; the doors translate it (validation.py on the Home Assistant side). The
limits are listed for people once, in docs/services.md#limits.

Reasons (stable keys): "wrong_type" (bytes for text, text for a number, None where a value is
needed), "unknown_value" (not one of an enum's values), "invalid_text" (text no store can hold:
lone surrogates are not UTF-8, PostgreSQL text cannot hold NUL), "too_long" (more characters than
`limit`), "too_many" (more items than `limit`), "not_finite" (NaN or infinity), "negative" /
"too_small" (below `limit`), "too_large" (above `limit`), "naive_time" (a datetime without a zone).

What is not decided here stays where it is decided: the memory text's own rule (empty, too long
after trimming, sensitive) is writer.checked_content's; visibility and existence are the store's.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np

from .api import MAX_CONTENT_CHARS, InvalidInput, MemoryDraft, MemoryEdit, RecallOptions
from .audience import Audience, Reader
from .extraction import ExtractedFact
from .facts import Relation
from .models import Kind, Provenance, Role, Scope, Source, Speaker, SpeakerSource, Status, TranscriptTurn
from .store.base import MemoryFilter
from .text import is_encodable

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# ---------------------------------------------------------------------------- the limits
# A query longer than any memory cannot be meant as a question: recall reads the first this many
# characters of a longer one, find_to_forget refuses it. It also bounds what a query costs (the
# encoder's tokens, the full-text words, the anchors are all linear in it: 1.2 MB took 30 s).
MAX_QUERY_CHARS = MAX_CONTENT_CHARS
# A fact's value is said in its memory's text ("tea" of "Julian drinks tea").
MAX_VALUE_CHARS = MAX_CONTENT_CHARS
# A fact key's subject (a name, "me") or predicate (an English snake_case key): a short phrase.
MAX_KEY_CHARS = 200
# Ids of memories, tombstones, persons, areas, conversations, source references and voice models:
# Home Assistant's longest entity id (homeassistant.const.MAX_LENGTH_STATE_ENTITY_ID); person ids
# are entity ids, memory ids 32 hex digits, context and conversation ids 26-character ULIDs.
MAX_ID_CHARS = 255
# A language tag: RFC 5646 §4.4.1 asks implementations to hold tags of at least 35 characters.
MAX_LANGUAGE_CHARS = 35
# One transcript turn, verbatim: an assistant's long answer (about 8,000 tokens of a model's
# reply) is more than any spoken or typed user turn.
MAX_TURN_CHARS = 32_000
# Counts, pages and offsets: far beyond any household, within every store's integers (SQLite's
# 64-bit INTEGER, PostgreSQL's 32-bit integer of transcript turns and voiceprint clips).
MAX_COUNT = 10**9
# Ids one call names (a memory's `replaces`, supersede's memory_ids): a conversation's conflicts
# are a handful; one review session's worth.
MAX_IDS = 500
# Names one call carries (RecallOptions.named_persons / named_areas, learn's people): a query of
# MAX_QUERY_CHARS characters says at most this many one-letter words.
MAX_NAMES = MAX_QUERY_CHARS // 2
# Transcript retention: ten years, the options flow's range (const.TRANSCRIPT_RETENTION_RANGE).
MAX_RETENTION_DAYS = 3650
# A voiceprint's width: wider than any speaker or sentence model the engine knows (d-vector 256,
# e5-small 384, USE-m3 512).
MAX_VECTOR_DIMENSION = 4096
# How long pause_writes may wait for a write in progress: an hour is longer than any backup.
MAX_PAUSE_SECONDS = 3600.0

DRAFT_STATUSES = (Status.ACTIVE, Status.PENDING)  # what a new memory can be (api.MemoryDraft)


# ---------------------------------------------------------------------------- one per record
def check_draft(draft: object) -> MemoryDraft:
    """A MemoryDraft's fields: types, enum values, lengths, a finite importance (the text's own
    rule is writer.checked_content's). Raises InvalidInput naming the field; returns the draft
    with its enum fields as members (a value such as "shared" is taken for Scope.SHARED)."""
    if not isinstance(draft, MemoryDraft):
        raise InvalidInput("draft", "wrong_type")
    _content("content", draft.content)
    speaker = check_speaker(draft.speaker)
    scope = _choice("scope", draft.scope, Scope)
    kind = _choice("kind", draft.kind, Kind)
    provenance = _choice("provenance", draft.provenance, Provenance)
    source = _choice("source", draft.source, Source)
    if (status := _choice("status", draft.status, Status)) not in DRAFT_STATUSES:
        raise InvalidInput("status", "unknown_value")
    _text("language", draft.language, MAX_LANGUAGE_CHARS)
    _text("source_ref", draft.source_ref, MAX_ID_CHARS, optional=True)
    _text("owner_id", draft.owner_id, MAX_ID_CHARS, optional=True)
    _text("area_id", draft.area_id, MAX_ID_CHARS, optional=True)
    _text("subject", draft.subject, MAX_KEY_CHARS, optional=True)
    _text("predicate", draft.predicate, MAX_KEY_CHARS, optional=True)
    _text("value", draft.value, MAX_VALUE_CHARS, optional=True)
    importance = _number("importance", draft.importance)
    check_ids("replaces", draft.replaces)
    return _with(draft, speaker=speaker, scope=scope, kind=kind, provenance=provenance, source=source,
                 status=status, importance=importance)  # fmt: skip


def check_edit(change: object) -> MemoryEdit:
    """A MemoryEdit's fields (None keeps one): content text a store can hold (its own rule is
    writer.checked_content's), kind and scope values (returned as members), owner/area ids."""
    if not isinstance(change, MemoryEdit):
        raise InvalidInput("change", "wrong_type")
    if change.content is not None:
        _content("content", change.content)
    kind = None if change.kind is None else _choice("kind", change.kind, Kind)
    scope = None if change.scope is None else _choice("scope", change.scope, Scope)
    _text("owner_id", change.owner_id, MAX_ID_CHARS, optional=True)
    _text("area_id", change.area_id, MAX_ID_CHARS, optional=True)
    return _with(change, kind=kind, scope=scope)


def check_recall_options(options: object) -> None:
    """RecallOptions: limit a whole number in 0..MAX_COUNT, the character caps whole numbers from 0
    (any size: "unlimited" is sys.maxsize; they are only compared), a finite min_similarity, a
    language tag, at most MAX_NAMES named persons/areas, as_of an aware datetime or None."""
    if not isinstance(options, RecallOptions):
        raise InvalidInput("options", "wrong_type")
    _count("limit", options.limit)
    _count("max_chars", options.max_chars, high=None)
    _count("max_chars_per_memory", options.max_chars_per_memory, high=None)
    _number("min_similarity", options.min_similarity)
    _flag("include_about_speaker", options.include_about_speaker)
    _text("language", options.language, MAX_LANGUAGE_CHARS, optional=True)
    _names("named_persons", options.named_persons)
    for area in _items("named_areas", options.named_areas):
        _text("named_areas", area, MAX_ID_CHARS)
    check_moment("as_of", options.as_of, optional=True)


def recall_query(query: object) -> str:
    """The query as recall reads it: its first MAX_QUERY_CHARS characters (recall never refuses
    a question for its length, invariant 2; what it costs stays bounded). InvalidInput("query",
    "wrong_type") for anything but text."""
    if not isinstance(query, str):
        raise InvalidInput("query", "wrong_type")
    return query[:MAX_QUERY_CHARS]


def check_query(query: object) -> None:
    """A find_to_forget query: text of at most MAX_QUERY_CHARS characters (to forget, a person
    names what; a longer text is no such name). Empty or unencodable text is no error (it finds
    nothing)."""
    if not isinstance(query, str):
        raise InvalidInput("query", "wrong_type")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput("query", "too_long", limit=MAX_QUERY_CHARS)


def check_id(field: str, value: object) -> None:
    """One id: text of at most MAX_ID_CHARS characters that a store can hold. An empty or unknown
    id is no error here (the store does not find it)."""
    _text(field, value, MAX_ID_CHARS)


def check_ids(field: str, values: object) -> None:
    """A list or tuple of at most MAX_IDS ids (check_id each); a single string is not a list."""
    for value in _items(field, values, MAX_IDS):
        check_id(field, value)


def check_page(*, limit: object, offset: object = 0) -> None:
    """A page of a listing: limit and offset whole numbers in 0..MAX_COUNT."""
    _count("limit", limit)
    _count("offset", offset)


def check_retention(now: object, retention_days: object) -> None:
    """A transcript purge: `now` an aware datetime, retention_days a whole number of days in
    1..MAX_RETENTION_DAYS (InvalidInput("retention_days", "too_small" | "too_large"))."""
    check_moment("now", now)
    _count("retention_days", retention_days, low=1, high=MAX_RETENTION_DAYS)


def check_speaker(speaker: object, field: str = "speaker") -> Speaker:
    """A Speaker: ids of at most MAX_ID_CHARS characters (or None), admin a bool, source a
    SpeakerSource (or None; returned as a member)."""
    if not isinstance(speaker, Speaker):
        raise InvalidInput(field, "wrong_type")
    _text(f"{field}.person_id", speaker.person_id, MAX_ID_CHARS, optional=True)
    _text(f"{field}.area_id", speaker.area_id, MAX_ID_CHARS, optional=True)
    _flag(f"{field}.admin", speaker.admin)
    source = None if speaker.source is None else _choice(f"{field}.source", speaker.source, SpeakerSource)
    return _with(speaker, source=source)


def check_audience(audience: object, field: str = "audience") -> Audience:
    """An Audience (engine/audience.py) with a checked speaker, a Reader and bool options; a bare
    Speaker is that person reading the answer themselves (Audience.of)."""
    if isinstance(audience, Speaker):
        audience = Audience.of(audience)
    if not isinstance(audience, Audience):
        raise InvalidInput(field, "wrong_type")
    speaker = check_speaker(audience.speaker, f"{field}.speaker")
    reader = _choice(f"{field}.reader", audience.reader, Reader)
    for name in ("cloud", "sensitive_to_unknown", "personal_to_cloud"):
        _flag(f"{field}.{name}", getattr(audience, name))
    return _with(audience, speaker=speaker, reader=reader)


def check_turn(turn: object) -> TranscriptTurn:
    """A TranscriptTurn: a conversation id, a turn number in 0..MAX_COUNT, a role, its text (at most
    MAX_TURN_CHARS characters a store can hold; empty is a turn too), a language tag, an aware
    created_at, the speaker's and area's ids (or None), a SpeakerSource (or None); the enums
    returned as members."""
    if not isinstance(turn, TranscriptTurn):
        raise InvalidInput("turn", "wrong_type")
    check_id("conversation_id", turn.conversation_id)
    _count("turn", turn.turn)
    role = _choice("role", turn.role, Role)
    _text("text", turn.text, MAX_TURN_CHARS)
    _text("language", turn.language, MAX_LANGUAGE_CHARS)
    check_moment("created_at", turn.created_at)
    _text("speaker_id", turn.speaker_id, MAX_ID_CHARS, optional=True)
    _text("area_id", turn.area_id, MAX_ID_CHARS, optional=True)
    said_by = (
        None if turn.speaker_source is None else _choice("speaker_source", turn.speaker_source, SpeakerSource)
    )
    return _with(turn, role=role, speaker_source=said_by)


def check_voiceprint(person_id: object, vector: object, clips: object, embedding: object) -> None:
    """enroll_voice's input: the person's id, a vector of numbers at most MAX_VECTOR_DIMENSION wide
    ("invalid_vector" for anything else; its length and finiteness are enroll_voice's own check),
    clips a whole number in 1..MAX_COUNT, the voice model's identity (at most MAX_ID_CHARS; empty is
    enroll_voice's own "empty")."""
    check_id("person_id", person_id)
    try:
        array = np.asarray(vector, dtype=np.float32)
    except TypeError, ValueError, OverflowError:
        raise InvalidInput("vector", "invalid_vector") from None
    if array.size > MAX_VECTOR_DIMENSION:
        raise InvalidInput("vector", "too_many", limit=MAX_VECTOR_DIMENSION)
    _count("clips", clips, low=1)
    _text("embedding", embedding, MAX_ID_CHARS)


def check_filter(where: object) -> MemoryFilter:
    """A MemoryFilter: enum values (or None; returned as members), ids and a language tag of their
    limits (or None)."""
    if not isinstance(where, MemoryFilter):
        raise InvalidInput("where", "wrong_type")
    members: dict[str, object] = {}
    for name, enum in (("kind", Kind), ("scope", Scope), ("provenance", Provenance), ("status", Status)):
        value = getattr(where, name)
        members[name] = None if value is None else _choice(name, value, enum)
    for name in ("person", "area", "said_by"):
        _text(name, getattr(where, name), MAX_ID_CHARS, optional=True)
    _text("language", where.language, MAX_LANGUAGE_CHARS, optional=True)
    return _with(where, **members)


def check_learning(
    candidates: Iterable[object],
    *,
    speaker: object,
    language: object,
    summary: object,
    review: object,
    conversation_id: object,
    people: object,
) -> list[ExtractedFact]:
    """MemoryEngine.learn's input, the candidates as a list: each a ExtractedFact of text fields (or
    None), a Kind, a finite confidence (what a candidate says is extraction's to judge: too long
    or unsure, it is rejected, not an error); the speaker, the language tag, the summary (text or
    None), review a bool, the conversation's id (or None), people's names -> person ids (at most
    MAX_NAMES)."""
    check_speaker(speaker)
    _text("language", language, MAX_LANGUAGE_CHARS)
    if summary is not None:
        _content("summary", summary)
    _flag("review", review)
    _text("conversation_id", conversation_id, MAX_ID_CHARS, optional=True)
    if people is not None:
        _names("people", people)
    if isinstance(candidates, str | bytes) or not isinstance(candidates, Iterable):
        raise InvalidInput("candidates", "wrong_type")
    found: list[ExtractedFact] = []
    for candidate in candidates:
        if not isinstance(candidate, ExtractedFact):
            raise InvalidInput("candidates", "wrong_type")
        _content("content", candidate.content)
        kind = _choice("kind", candidate.kind, Kind)
        for name in ("subject", "predicate", "value", "scope_hint"):
            value = getattr(candidate, name)
            if value is not None:
                _content(name, value)
        confidence = _number("confidence", candidate.confidence)
        found.append(_with(candidate, kind=kind, confidence=confidence))
    return found


def check_moment(field: str, value: object, *, optional: bool = False) -> None:
    """An aware datetime (None too when `optional`): "wrong_type", or "naive_time" without a zone."""
    if value is None and optional:
        return
    if not isinstance(value, datetime):
        raise InvalidInput(field, "wrong_type")
    if value.utcoffset() is None:
        raise InvalidInput(field, "naive_time")


def check_verdict(verdict: object) -> Relation:
    """A judge's verdict: a facts.Relation value (returned as a member)."""
    return _choice("verdict", verdict, Relation)


def check_seconds(field: str, value: object, high: float = MAX_PAUSE_SECONDS) -> None:
    """A duration in seconds: a finite number in 0..high."""
    number = _number(field, value)
    if number < 0:
        raise InvalidInput(field, "negative", limit=0)
    if number > high:
        raise InvalidInput(field, "too_large", limit=high)


def check_flag(field: str, value: object) -> None:
    """A bool (no 0/1, no "yes")."""
    _flag(field, value)


def check_count(field: str, value: object, *, low: int = 0, high: int = MAX_COUNT) -> None:
    """A whole number (no bool, no 1.5) in low..high."""
    _count(field, value, low=low, high=high)


def check_bucket(scope: object, owner_id: object, area_id: object) -> Scope:
    """A scope value (returned as a member) with its owner's and area's ids (or None)."""
    _text("owner_id", owner_id, MAX_ID_CHARS, optional=True)
    _text("area_id", area_id, MAX_ID_CHARS, optional=True)
    return _choice("scope", scope, Scope)


def check_tombstone_text(text_or_vector: object, text: object) -> None:
    """is_tombstoned's input: text of at most MAX_CONTENT_CHARS characters, or a vector (the
    embedder's shape is the store's to compare); the text of a vector, if given, too."""
    if isinstance(text_or_vector, str):
        _text("text", text_or_vector, MAX_CONTENT_CHARS)
    elif not isinstance(text_or_vector, np.ndarray | Sequence):
        raise InvalidInput("text", "wrong_type")
    _text("text", text, MAX_CONTENT_CHARS, optional=True)


# ---------------------------------------------------------------------------- the checks
def storable(text: str) -> bool:
    """True when every store can hold `text`: valid UTF-8 (no lone surrogates) and no NUL
    (PostgreSQL's text refuses it: psycopg's DataError)."""
    return "\x00" not in text and is_encodable(text)


def _content(field: str, value: object) -> None:
    """Text a store can hold, of any length (its length is the writer's rule, after trimming)."""
    if not isinstance(value, str):
        raise InvalidInput(field, "wrong_type")
    if not storable(value):
        raise InvalidInput(field, "invalid_text")


def _text(field: str, value: object, limit: int, *, optional: bool = False) -> None:
    """Text of at most `limit` characters a store can hold (None too when `optional`)."""
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise InvalidInput(field, "wrong_type")
    if len(value) > limit:
        raise InvalidInput(field, "too_long", limit=limit)
    if not storable(value):
        raise InvalidInput(field, "invalid_text")


def _with[R: DataclassInstance](record: R, **values: object) -> R:
    """`record` with `values` where they differ (itself when none does)."""
    changed = {name: value for name, value in values.items() if getattr(record, name) is not value}
    return replace(record, **changed) if changed else record


def _choice[E: StrEnum](field: str, value: object, enum: type[E]) -> E:
    """`value` as a member of `enum` (a member or its value)."""
    if not isinstance(value, str):
        raise InvalidInput(field, "wrong_type")
    try:
        return enum(value)
    except ValueError:
        raise InvalidInput(field, "unknown_value") from None


def _number(field: str, value: object) -> float:
    """A finite int or float (no bool, no text; what every store binds), as a float: "not_finite"
    for NaN or infinity; an int too large for a float is taken as the largest one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(field, "wrong_type")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(field, "not_finite")
    try:
        return float(value)
    except OverflowError:  # copysign would convert it again
        return sys.float_info.max if value > 0 else -sys.float_info.max


def _count(field: str, value: object, *, low: int = 0, high: int | None = MAX_COUNT) -> int:
    """An int (no bool, no float; what every store binds) in low..high (None: no upper bound):
    "negative" below 0, "too_small" below a positive `low`, "too_large" above `high` (the bound as
    InvalidInput.limit)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(field, "wrong_type")
    number = int(value)
    if number < low:
        raise InvalidInput(field, "negative" if low == 0 else "too_small", limit=low)
    if high is not None and number > high:
        raise InvalidInput(field, "too_large", limit=high)
    return number


def _flag(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidInput(field, "wrong_type")


def _items(field: str, values: object, limit: int = MAX_NAMES) -> Sequence[object]:
    """A list or tuple of at most `limit` items."""
    if not isinstance(values, list | tuple):
        raise InvalidInput(field, "wrong_type")
    if len(values) > limit:
        raise InvalidInput(field, "too_many", limit=limit)
    return values


def _names(field: str, names: object) -> None:
    """A mapping of at most MAX_NAMES names (MAX_KEY_CHARS) to ids (MAX_ID_CHARS)."""
    if not isinstance(names, Mapping):
        raise InvalidInput(field, "wrong_type")
    if len(names) > MAX_NAMES:
        raise InvalidInput(field, "too_many", limit=MAX_NAMES)
    for name, ident in names.items():
        _text(field, name, MAX_KEY_CHARS)
        _text(field, ident, MAX_ID_CHARS)
