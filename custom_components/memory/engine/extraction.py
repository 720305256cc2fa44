"""Learning from conversations: the AI Task's answer → candidates → checked, stored memories.

HA-free. The HA side (extraction_job.py) picks the user's own words with `select_user_text`,
asks an AI Task entity for EXTRACTION_SCHEMA, and hands the raw answer to `parse_candidates`
(never raises) and the result to `apply_candidates`, which runs every candidate
through the rules of docs/design.md §6 in this order:

1. confidence < MIN_CONFIDENCE → rejected; a device command → rejected;
2. blocked by a tombstone the speaker could see (≥ TOMBSTONE_SIMILARITY, or an identifier in
   common and ≥ forgetting.TOMBSTONE_ANCHOR_SIMILARITY) → skipped_forgotten.
   Checked BEFORE the sensitive filter: a forgotten gate code is both, and "you told me to
   forget it" is the reason that matters to the user;
3. sensitive (credentials/codes, payment, health) → skipped_sensitive (invariant 7);
4. otherwise it is a MemoryDraft through the writer, the one rule for every write
   (facts.decide): the same wording, or the same value of its fact key (subject and predicate)
   → merged; another value of a key with current memories → stored and the older ones
   superseded (wording similarity is not asked there: "I love spicy food" and "I can't stand
   spicy food" are near-identical to an encoder); the same fact already stored in a bucket the
   speaker sees (facts.relation SAME: a paraphrase, the same values, a translation) → that memory
   is confirmed, no new row; else stored `extracted` (source `extraction`), `pending` in review
   mode, and a current memory it likely replaces (REPLACES) stays current beside it, the pair
   reported (LearnResult.conflicts) for an AI Task or a person to settle.
The similarities of rules 2 and 4 are on the recall scale (calibration.raw_threshold), so one
threshold means the same for every encoder.

The conversation's summary becomes an `episode` under the same rules, only when something of
the conversation was learned (a candidate stored or merged: a summary of commands and small talk
is no memory), and is left out entirely when any candidate was skipped as forgotten.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .api import MAX_CONTENT_CHARS, InvalidInput, MemoryDraft, RememberResult, WriteAction
from .embedding.base import Embedder
from .facts import SELF, fact_predicate, fact_subject
from .models import Kind, Provenance, Scope, Source, Speaker, Status
from .sensitive import is_sensitive
from .store.base import Bucket
from .text import is_encodable, visible_text
from .writer import buckets_seen, embedding_text, resolve_bucket, scope_for

# The writer's door (MemoryEngine.remember: checked, embedded, committed) and the tombstone
# check (forgetting.is_tombstoned with the store, embedder and anchor key bound).
type Remember = Callable[[MemoryDraft], RememberResult]
type IsTombstoned = Callable[..., bool]

_LOGGER = logging.getLogger(__name__)

MAX_CANDIDATES = 5  # "at most 5 candidates" (issue: learning from conversations); schema and prompt
MIN_CONFIDENCE = 0.6  # candidates under this are dropped (same issue)
MIN_USER_CHARS = 15  # conversations with fewer characters of user text are skipped (docs/design.md §6)
# A candidate without a confidence is taken at the threshold: kept (the schema asks for one, a
# model that forgets it should not lose the fact) but flagged as a problem and ranked last.
MISSING_CONFIDENCE = MIN_CONFIDENCE
SCOPE_HINTS = frozenset({"private", "shared", "room"})

# The structure an AI Task must return, spelled once: the HA side derives its `structure` selector
# from it (extraction_job.EXTRACTION_STRUCTURE) and parse_candidates reads what comes back.
CANDIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "content": {"type": "string", "description": "The fact, in the conversation's language."},
        "kind": {"type": "string", "enum": [k.value for k in Kind if k is not Kind.EPISODE]},
        "subject": {"type": ["string", "null"], "description": "Who or what it is about (me = the speaker)."},
        "predicate": {"type": ["string", "null"], "description": "The property, an English snake_case key."},
        "value": {"type": ["string", "null"], "description": "The property's value (e.g. tea)."},
        "scope_hint": {"type": "string", "enum": sorted(SCOPE_HINTS)},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["content", "kind", "confidence"],
}
EXTRACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "memories": {
            "type": "array",
            "maxItems": MAX_CANDIDATES,
            "items": CANDIDATE_SCHEMA,
            "description": f"At most {MAX_CANDIDATES} facts worth remembering",
        },
        "summary": {"type": ["string", "null"], "description": "One or two sentences, or empty"},
    },
    "required": ["memories"],
}

# Device commands in en/de/it/fr/es: an imperative at the start of the text (after an
# optional "please"/"can you"), or a third-person report of one ("the user asked to turn on …").
_POLITE = (
    r"(?:(?:please|bitte|per favore|s'il (?:te|vous) pla[iî]t|por favor|hey|ok)[,\s]+)?"
    r"(?:(?:can|could|would) you\s+|kannst du\s+|puoi\s+|peux-tu\s+|tu peux\s+|puedes\s+)?"
)
_IMPERATIVES = (
    r"turn\s+(?:on|off|up|down)|turn\s+.{1,40}?\s+(?:on|off|up|down)|switch\s+(?:on|off)"
    r"|switch\s+.{1,40}?\s+(?:on|off)|set\s+.{1,40}?\s+to|dim|brighten|open|close|lock|unlock"
    r"|start|stop|pause|play|activate|deactivate|toggle"
    r"|schalte?|mach(?:e)?\s+.{1,40}?\s+(?:an|aus|auf|zu|heller|dunkler)|stell(?:e)?|öffne|schlie(?:ß|ss)e"
    r"|dimme|sperre?|aktiviere|deaktiviere"
    r"|accendi|spegni|imposta|apri|chiudi|alza|abbassa|metti|attiva|disattiva"
    r"|allume|éteins|éteint|mets|règle|ouvre|ferme|monte|baisse|active|désactive"
    r"|enciende|apaga|pon|ajusta|abre|cierra|sube|baja|activa|desactiva"
)
_COMMAND_RE = re.compile(rf"^\s*{_POLITE}(?:{_IMPERATIVES})(?!\w)", re.IGNORECASE)
_REPORTED_RE = re.compile(
    r"\b(?:asked|asks|wants|wanted|requested)\b.{0,30}?\bto\s+(?:turn|switch|set|dim|open|close|lock"
    r"|unlock|start|stop|play|toggle)\b",
    re.IGNORECASE,
)
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_USER_ROLES = frozenset({"user", "human"})


def is_device_command(text: str) -> bool:
    """True when `text` is (or reports) a device command such as "turn on the kitchen light",
    "Schalte das Licht aus", "accendi la luce" — an action, not something to remember."""
    return bool(_COMMAND_RE.search(text) or _REPORTED_RE.search(text))


def select_user_text(turns: Iterable[object]) -> str | None:
    """The user's own words of a conversation, turns joined by newlines; None when fewer than
    MIN_USER_CHARS characters are left (whitespace runs counted as one space).

    turns: (role, text) pairs, or mappings with "role" and "text"/"content", or objects with
    .role and .text/.content. Only role "user" counts: assistant replies, system prompts (which
    carry recalled memories) and tool results are left out, and so are user turns that are
    device commands. Anything unreadable is skipped, never raised.
    """
    said: list[str] = []
    for turn in turns:
        role, text = _role_and_text(turn)
        if role in _USER_ROLES and text and not is_device_command(text):
            said.append(text.strip())
    joined = "\n".join(t for t in said if t)
    return joined if len(" ".join(joined.split())) >= MIN_USER_CHARS else None


def _role_and_text(turn: object) -> tuple[str | None, str | None]:
    if isinstance(turn, tuple | list) and len(turn) == 2:
        role, text = turn
    elif isinstance(turn, Mapping):
        role, text = turn.get("role"), turn.get("text", turn.get("content"))
    else:
        role = getattr(turn, "role", None)
        text = getattr(turn, "text", getattr(turn, "content", None))
    return (
        str(role).casefold() if role is not None else None,
        text if isinstance(text, str) else None,
    )


# ---------------------------------------------------------------------------- parsing
@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One proposed memory. confidence in [0, 1]; scope_hint "private" | "shared" | "room" | None."""

    content: str
    kind: Kind = Kind.FACT
    subject: str | None = None
    predicate: str | None = None
    value: str | None = None
    scope_hint: str | None = None
    confidence: float = MISSING_CONFIDENCE


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What could be read from an AI Task answer. problems: stable, text-free keys such as
    "empty", "not_json", "schema_echo", "missing_content", "too_many" (for logs/repairs)."""

    candidates: list[ExtractedFact]
    summary: str | None
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Nothing usable and something went wrong: the HA side counts these for a repair issue."""
        return not self.candidates and self.summary is None and bool(self.problems)


def parse_candidates(raw: object) -> ParseResult:
    """Read an AI Task answer into at most MAX_CANDIDATES candidates (best confidence first) and
    a summary. Accepts {"memories": [...], "summary": ...}, a bare list, a single candidate
    object, JSON text (also code-fenced or with prose around it). Never raises: what cannot be
    read is reported in `problems`."""
    problems: list[str] = []
    try:
        return _parse(raw, problems)
    except Exception:  # the last guard of "never a crash"
        _LOGGER.exception("Unreadable extraction answer")
        return ParseResult([], None, [*problems, "unreadable"])


def _parse(raw: object, problems: list[str]) -> ParseResult:
    data = _decode(raw, problems)
    if data is None:
        return ParseResult([], None, problems)
    summary: str | None = None
    items: list[object]
    if isinstance(data, Mapping):
        if _is_schema_echo(data):
            problems.append("schema_echo")
            return ParseResult([], None, problems)
        summary = _text(data.get("summary"))
        found = next((data[k] for k in ("memories", "candidates", "facts", "items") if k in data), None)
        if found is None:
            items = [data] if "content" in data else []
            if not items and summary is None:
                problems.append("no_memories")
        elif isinstance(found, list):
            items = found
        elif isinstance(found, Mapping):
            items = [found]
        else:
            problems.append("wrong_type")
            items = []
    elif isinstance(data, list):
        items = data
    else:
        problems.append("wrong_type")
        return ParseResult([], None, problems)
    candidates = [c for c in (_candidate(item, problems) for item in items) if c is not None]
    if len(candidates) > MAX_CANDIDATES:
        problems.append("too_many")
    candidates.sort(key=lambda c: c.confidence, reverse=True)  # stable: the model's order on ties
    return ParseResult(candidates[:MAX_CANDIDATES], summary, problems)


def _decode(raw: object, problems: list[str]) -> object:
    """The JSON value inside `raw`, or None (with a problem) when there is none."""
    if raw is None:
        problems.append("empty")
        return None
    if isinstance(raw, BaseException):
        problems.append("failed")
        return None
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    if not text:
        problems.append("empty")
        return None
    for chunk in [*_FENCE.findall(text), text]:
        try:
            return json.loads(chunk)
        except ValueError:
            pass
    found = _embedded_json(text)
    if found is None:
        problems.append("not_json")
    return found


def _embedded_json(text: str) -> object:
    """The first complete JSON object or array in prose ("Here you go: {...} Hope it helps")."""
    decoder = json.JSONDecoder()
    for i, ch in enumerate(text):
        if ch in "[{":
            try:
                return decoder.raw_decode(text, i)[0]
            except ValueError:
                continue
    return None


def _is_schema_echo(data: Mapping[Any, Any]) -> bool:
    """The schema handed back instead of an answer: JSON-schema keywords, no content."""
    return "content" not in data and ("properties" in data or data.get("type") in {"object", "array"})


def _text(value: object) -> str | None:
    """A field's text: a non-empty string (a number as its text: models write "value": 14), else
    None — also for text that cannot be stored (lone surrogates from a split emoji escape)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and value.strip() and is_encodable(value):
        return value.strip()
    return None


def _candidate(item: object, problems: list[str]) -> ExtractedFact | None:
    if isinstance(item, str):  # a bare sentence in a list: the content, nothing else known
        item = {"content": item}
    if not isinstance(item, Mapping):
        problems.append("wrong_type")
        return None
    content = _text(item.get("content") or item.get("text") or item.get("fact"))
    if content is None:
        problems.append("missing_content")
        return None
    try:
        kind = Kind(str(item.get("kind") or Kind.FACT).strip().casefold())
    except ValueError:
        problems.append("unknown_kind")
        kind = Kind.FACT
    hint = _text(item.get("scope_hint") or item.get("scope"))
    hint = hint.casefold() if hint else None
    if hint is not None and hint not in SCOPE_HINTS:
        problems.append("unknown_scope_hint")
        hint = None
    return ExtractedFact(
        content=content,
        kind=kind,
        subject=_text(item.get("subject")),
        predicate=_text(item.get("predicate")),
        value=_text(item.get("value")),
        scope_hint=hint,
        confidence=_confidence(item.get("confidence"), problems),
    )


def _confidence(value: object, problems: list[str]) -> float:
    """A number in [0, 1]; "0.8" and percentages (85) are read; missing → MISSING_CONFIDENCE."""
    if value is None:
        problems.append("missing_confidence")
        return MISSING_CONFIDENCE
    try:
        number = float(str(value).strip().rstrip("%")) if not isinstance(value, bool) else float("nan")
    except ValueError:
        number = float("nan")
    if math.isnan(number):
        problems.append("bad_confidence")
        return MISSING_CONFIDENCE
    if 1.0 < number <= 100.0:
        number /= 100.0
    return min(1.0, max(0.0, number))


# ---------------------------------------------------------------------------- applying
@dataclass(slots=True)
class LearnResult:
    """Counts of one conversation's extraction (the `memory_learned` event's data) and the ids
    of memories written or confirmed. The summary counts like a candidate. pending: the stored
    ones await review (review mode)."""

    stored: int = 0
    merged: int = 0
    skipped_forgotten: int = 0
    skipped_sensitive: int = 0
    rejected: int = 0
    superseded: int = 0  # older memories of the same fact key replaced by stored ones
    ids: list[str] = field(default_factory=list)
    pending: bool = False
    # (stored id, current id) pairs the fact rules call a likely replacement (facts.Relation.REPLACES),
    # both left current: an AI Task or a person settles them (MemoryEngine.settle_pair)
    conflicts: list[tuple[str, str]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """The event's counts, text-free."""
        return {
            "stored": self.stored,
            "merged": self.merged,
            "skipped_forgotten": self.skipped_forgotten,
            "skipped_sensitive": self.skipped_sensitive,
            "rejected": self.rejected,
            "superseded": self.superseded,
            "conflicts": len(self.conflicts),
        }


def target_bucket(speaker: Speaker, scope_hint: str | None, text: str, language: str) -> Bucket:
    """Where a candidate goes: writer.scope_for's rule for a learned fact (the model's
    `scope_hint` "private" | "room" | "shared" | None), in the speaker's own bucket."""
    hint = Scope(scope_hint) if scope_hint in SCOPE_HINTS else None
    scope = scope_for(text, language, speaker, hint=hint, learned=True)
    return resolve_bucket(scope, speaker, None, None)


def apply_candidates(
    embedder: Embedder,
    candidates: Iterable[ExtractedFact],
    *,
    remember: Remember,
    is_tombstoned: IsTombstoned,
    speaker: Speaker,
    language: str,
    summary: str | None = None,
    review: bool = False,
    conversation_id: str | None = None,
    people: Mapping[str, str] | None = None,
) -> LearnResult:
    """Check and store one conversation's candidates (module docstring for the rules and their
    order); the summary becomes an `episode` unless a candidate was skipped as forgotten.
    people: the household's person names → person ids ({"Julian": "person.julian"}): a fact's
    subject naming a person is keyed to that person (Anna's "Julian drinks coffee" and Julian's
    own "I drink tea" told shared are one fact), the speaker's own name in a private bucket to "me".

    The engine calls it under its write lock (MemoryEngine.learn); every write goes through
    `remember` (the writer: facts.decide). Blocking (embeds and writes). Raises only the engine's
    own errors (StoreUnavailable); a candidate the writer refuses (InvalidInput) counts as
    rejected.
    """
    result = LearnResult(pending=review)
    context: dict[str, Any] = {
        "speaker": speaker,
        "language": language,
        "review": review,
        "conversation_id": conversation_id,
        "result": result,
        "people": {" ".join(name.casefold().split()): pid for name, pid in (people or {}).items()},
    }
    for candidate in list(candidates)[:MAX_CANDIDATES]:
        _apply_one(embedder, remember, is_tombstoned, candidate, **context)
    if summary is not None and (result.stored or result.merged) and not result.skipped_forgotten:
        episode = ExtractedFact(content=summary, kind=Kind.EPISODE, confidence=1.0)
        _apply_one(embedder, remember, is_tombstoned, episode, **context)
    return result


def _apply_one(
    embedder: Embedder,
    remember: Remember,
    is_tombstoned: IsTombstoned,
    candidate: ExtractedFact,
    *,
    speaker: Speaker,
    language: str,
    review: bool,
    conversation_id: str | None,
    result: LearnResult,
    people: Mapping[str, str],
) -> None:
    text = visible_text(" ".join(candidate.content.split())) or ""  # "" for unstorable text
    too_long = len(text) > MAX_CONTENT_CHARS  # the writer would refuse it: not embedded first
    if candidate.confidence < MIN_CONFIDENCE or not text or too_long or is_device_command(text):
        result.rejected += 1
        return
    target = target_bucket(speaker, candidate.scope_hint, text, language)
    buckets = buckets_seen(speaker, target)
    vector = embedder.embed([embedding_text(text)])[0]
    if any(
        is_tombstoned(vector, scope=b.scope, owner_id=b.owner_id, area_id=b.area_id, text=text)
        for b in buckets
    ):
        result.skipped_forgotten += 1
        return
    if is_sensitive(text):
        result.skipped_sensitive += 1
        return
    subject, predicate = (
        _fact_subject(candidate.subject, speaker, people),
        fact_predicate(candidate.predicate),
    )
    try:
        written = remember(
            MemoryDraft(
                text,
                speaker=speaker,
                scope=target.scope,
                kind=candidate.kind,
                language=language,
                provenance=Provenance.EXTRACTED,
                source=Source.EXTRACTION,
                source_ref=conversation_id,
                owner_id=target.owner_id,
                area_id=target.area_id,
                subject=subject,
                predicate=predicate,
                value=candidate.value,
                status=Status.PENDING if review else Status.ACTIVE,
            )
        )
    except InvalidInput as err:
        _LOGGER.debug("Extraction candidate refused by the writer: %s", err.reason)
        result.rejected += 1
        return
    if written.action is WriteAction.CREATED:
        result.stored += 1
    else:
        result.merged += 1  # said before (facts.decide): confirmed, no new row
    result.superseded += len(written.superseded)
    if written.memory.id not in result.ids:  # two candidates of one conversation may confirm one memory
        result.ids.append(written.memory.id)
    result.conflicts.extend((written.memory.id, c.memory.id) for c in written.conflicts)


def _fact_subject(said: str | None, speaker: Speaker, people: Mapping[str, str]) -> str | None:
    """The key's subject of a candidate (facts.fact_subject, then people's names): the speaker's
    own name is SELF ("me", which the writer keys to the person outside their private bucket);
    any other person's name becomes their person id."""
    subject = fact_subject(said)
    if subject is not None and subject != SELF and subject in people:
        subject = SELF if people[subject] == speaker.person_id else people[subject]
    return subject
