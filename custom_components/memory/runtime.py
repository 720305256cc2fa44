"""What a config entry holds at run time, and the async doors to the (blocking) engine."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .const import (
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_TOP_K,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_TOP_K,
)
from .engine.api import RecallOptions
from .engine.models import Hit, Speaker
from .speaker import areas_named, persons_named

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

# entry.data key of the per-installation secret (hex) for the identifier digests tombstones keep
# (engine/forgetting.py): outside the database file, so the file alone cannot brute-force them.
CONF_ANCHOR_KEY = "anchor_key"
ANCHOR_KEY_BYTES = 32


def new_anchor_key() -> str:
    """A fresh anchor key, hex (config entry data is JSON)."""
    return secrets.token_bytes(ANCHOR_KEY_BYTES).hex()


def anchor_key(data: Mapping[str, Any]) -> bytes | None:
    """The entry's anchor key as bytes; None when absent or malformed."""
    try:
        return bytes.fromhex(data[CONF_ANCHOR_KEY]) or None
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class PendingForget:
    """A forget question waiting for yes/no in one conversation.

    asker: who asked — ("person", person id) for a recognised person, ("device", satellite or
    device id, or "") for an unknown speaker; only the same asker may answer (anyone else's
    "yes" in the same conversation must not forget someone else's memories).
    memory_ids: the memories named in the question ("forget …").
    person_id: set for "forget everything about me": whose private memories go.
    """

    asker: tuple[str, str]
    memory_ids: tuple[str, ...] = ()
    person_id: str | None = None


@dataclass
class MemoryRuntimeData:
    """entry.runtime_data: the open engine plus per-entry state.

    pending_forget: conversation_id -> the open forget question (multi-turn forget).
    reembed: the background re-embed task holder (set by __init__.py).
    """

    engine: MemoryEngine
    options: dict[str, Any]
    pending_forget: dict[str, PendingForget] = field(default_factory=dict)
    reembed: Any = None  # __init__._Reembed: the background re-embed, stopped before the engine closes

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


async def async_run[T](hass: HomeAssistant, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a blocking engine call in HA's executor (never on the event loop)."""
    if kwargs:
        return await hass.async_add_executor_job(lambda: func(*args, **kwargs))
    return await hass.async_add_executor_job(func, *args)


async def async_recall(
    hass: HomeAssistant, data: MemoryRuntimeData, query: str, speaker: Speaker, **overrides: Any
) -> list[Hit]:
    """Recall for speaker with the entry's options and the persons and areas the query names
    (speaker.persons_named, speaker.areas_named); never raises (engine contract)."""
    if "named_persons" not in overrides:
        overrides["named_persons"] = persons_named(hass, query)
    if "named_areas" not in overrides:
        overrides["named_areas"] = areas_named(hass, query)
    try:
        return await async_run(hass, data.engine.recall, query, speaker, data.recall_options(**overrides))
    except Exception:
        return []
