"""What a config entry holds at run time (entry.runtime_data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.helpers.storage import Store

from .const import (
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_SENSITIVE_TO_UNKNOWN,
    CONF_TOP_K,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_SENSITIVE_TO_UNKNOWN,
    DEFAULT_TOP_K,
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
