"""What a config entry holds at run time (entry.runtime_data), and the one way to find the
loaded entry (`loaded_entry`, `loaded_entry_or_none`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.storage import Store

from .const import (
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_TOP_K,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_TOP_K,
    DOMAIN,
)
from .dialogue import LAST_REMEMBERED_WINDOW, PendingQuestion, Remembered
from .engine.api import RecallOptions

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine
    from .extraction_job import ExtractionJob
    from .health import StoreHealth
    from .recognition import VoiceRecognizer
    from .reembed import ReembedWorker
    from .transcripts import TranscriptRecorder


@dataclass
class MemoryRuntimeData:
    """entry.runtime_data: the open engine, its workers and per-entry state. Built whole by
    __init__.py's set-up before it is assigned, once; nothing is added to it later.

    Workers (each stopped once, before the engine closes, by the entry's close on unload):
    health, whether the store is reachable (health.StoreHealth), fed by engine_calls.async_run;
    transcripts, the turns waiting to be recorded; extraction, learning from ended conversations;
    reembed, the background re-embed.
    recognizer: speaker recognition by voice (recognition.VoiceRecognizer) that the STT entity
    feeds; None: the voice recognition option is off.
    pending: conversation_id -> the question waiting for yes/no (multi-turn forget/remember).
    remembered: conversation id or asker (turn.asker_key) -> what it stored last.
    """

    engine: MemoryEngine
    options: dict[str, Any]
    health: StoreHealth
    transcripts: TranscriptRecorder  # turns to record, in order
    extraction: ExtractionJob
    reembed: ReembedWorker
    recognizer: VoiceRecognizer | None
    # judge.py: the last run's record in HA's storage (read at set-up, saved by each run), which
    # keeps last_consolidation and possible_conflicts over restarts
    consolidation_store: Store[dict[str, Any]]
    pending: dict[str, PendingQuestion] = field(default_factory=dict)
    remembered: dict[str | tuple[str, str], Remembered] = field(default_factory=dict)
    possible_conflicts: int | None = None  # left for a person by the last consolidation (diagnostics)
    last_consolidation: datetime | None = None  # when the last real consolidation run ended (any start)

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
        }
        base.update(overrides)
        return RecallOptions(**base)


type MemoryConfigEntry = ConfigEntry[MemoryRuntimeData]


@callback
def loaded_entry_or_none(hass: HomeAssistant) -> MemoryConfigEntry | None:
    """The loaded memory entry (single_config_entry); None while none is loaded (not set up yet,
    retrying, unloading)."""
    entries: list[MemoryConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
    return entries[0] if entries else None


@callback
def loaded_entry(hass: HomeAssistant) -> MemoryConfigEntry:
    """The loaded memory entry; a translated `not_loaded` error for the caller when none is."""
    if (entry := loaded_entry_or_none(hass)) is None:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    return entry
