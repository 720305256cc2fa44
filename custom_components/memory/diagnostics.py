"""Config entry diagnostics: engine counts and options — never any memory text (invariant 1), never
a voiceprint vector or any audio (only per person: enrolled, clips, when)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.core import HomeAssistant

from .const import CONF_ANCHOR_KEY, CONF_DB_URL, CONF_DEVICE_PERSONS
from .engine.api import EngineError
from .engine_calls import async_run
from .recognition import async_voice_status
from .runtime import MemoryConfigEntry
from .storage import redact_url

# Who uses which personal device is personal data; the count is enough to debug. The anchor key
# would let anyone holding the database file test guesses against forgotten codes.
TO_REDACT = {CONF_DEVICE_PERSONS, CONF_ANCHOR_KEY, "content", "text", "vector", "pcm"}


async def async_get_config_entry_diagnostics(hass: HomeAssistant, entry: MemoryConfigEntry) -> dict[str, Any]:
    """Entry data, options (redacted), engine.stats() (counts, embedding identity, schema) and the
    voice status (recognition on, the speaker encoder loaded, voices per person)."""
    data = entry.runtime_data
    entry_data = async_redact_data(dict(entry.data), TO_REDACT)
    if entry_data.get(CONF_DB_URL):  # the database's URL holds its password: scheme/host/db only
        entry_data[CONF_DB_URL] = redact_url(entry_data[CONF_DB_URL])
    try:
        stats = await async_run(hass, data.engine.stats)
    except EngineError:  # the store is unreachable: the rest still helps to debug that
        stats_dict: dict[str, Any] | None = None
    else:
        stats_dict = asdict(stats)
        stats_dict["embedding"] = str(stats.embedding) if stats.embedding else None
    recognizer = data.recognizer
    return {
        "entry": {
            "data": entry_data,
            "options": async_redact_data(dict(entry.options), TO_REDACT),
        },
        "device_persons": len(entry.options.get(CONF_DEVICE_PERSONS) or []),
        "engine": async_redact_data(stats_dict, TO_REDACT) if stats_dict is not None else None,
        "store_down_since": data.health.down_since.isoformat() if data.health.down_since else None,
        "possible_conflicts": data.possible_conflicts,  # left by the last consolidation (None: none ran)
        "reembed_running": data.reembed.running,
        "voice": {
            "recognition": recognizer is not None,
            "encoder": recognizer.encoder_name if recognizer is not None else None,
            # voiceprints refreshed by strong matches since the start (RAM only): a count, no names
            "adapted": len(recognizer.adaptations) if recognizer is not None else 0,
            # who has an enrolled voice is personal (memory.voice_status tells the household): counts
            "voices": _voice_counts(await async_voice_status(hass, data.engine))
            if stats_dict is not None
            else None,
        },
    }


def _voice_counts(status: list[dict[str, Any]]) -> dict[str, Any]:
    """Enrolled voices, their clips and the newest enrolment, without saying whose."""
    enrolled = [v for v in status if v["enrolled"]]
    return {
        "persons": len(status),
        "enrolled": len(enrolled),
        "clips": sum(v["clips"] for v in enrolled),
        "last_enrolled_at": max((v["enrolled_at"] for v in enrolled), default=None),
    }
