"""The backup platform: Home Assistant's backup manager (homeassistant.components.backup, which
finds this module by its name) calls async_pre_backup before it copies the config directory and
async_post_backup after it, also when the backup failed; HA OS's Supervisor calls both through
the backup/start and backup/end WebSocket commands around its own copy.

SQLite: the pause writes the WAL into the store's file and truncates it, then holds writes back
while the file is copied (engine.MemoryEngine.pause_writes), so the copied file alone is the whole
store. A write meanwhile waits and is stored after the backup; one that waits longer than
write_gate.PAUSE_WAIT is refused, never acknowledged. Reads go on. An unload of the entry
meanwhile waits too (closing writes to the file) and ends after the backup.
PostgreSQL: nothing to pause; the database is backed up with its server, not by HA
(docs/backups.md). No entry loaded: nothing to pause.

Errors follow HA's platform contract (the recorder's backup platform is the model): a pre-backup
that raises stops the backup (nothing half-written is kept); a post-backup that raises marks the
backup failed, here when the pause had ended by itself (write_gate.PAUSE_MAX) before the copy did.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.hass_dict import HassKey

from .const import DOMAIN, STORAGE_POSTGRESQL
from .engine.api import EngineError
from .engine.store.write_gate import PAUSE_MAX
from .engine_calls import async_run
from .runtime import loaded_entry_or_none
from .storage import StoreSettings

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

_LOGGER = logging.getLogger(__name__)

# How long the pre-backup waits for the write in progress to end: the recorder's own wait for its
# database lock before a backup (homeassistant.components.recorder.core.DB_LOCK_TIMEOUT).
PRE_BACKUP_WAIT = 30.0  # s

# The engine whose writes the pre-backup paused: the post-backup resumes that one, also when its
# entry is unloading meanwhile (the unload waits for it) and is no longer the loaded entry.
PAUSED: HassKey[MemoryEngine] = HassKey(f"{DOMAIN}_backup_paused")


async def async_pre_backup(hass: HomeAssistant) -> None:
    """Pause the loaded entry's SQLite store for the copy (module docstring).

    Raises HomeAssistantError (translation "backup_not_paused"; the backup stops) when the store
    cannot be paused: a write did not end within PRE_BACKUP_WAIT, the store is unreachable, or its
    WAL may still hold a forgotten memory's text. Nothing stays paused then."""
    if (entry := loaded_entry_or_none(hass)) is None:
        _LOGGER.debug("No memory store is loaded: nothing to pause for the backup")
        return
    if StoreSettings.of(entry.data).storage == STORAGE_POSTGRESQL:
        _LOGGER.debug("The memory store is PostgreSQL, backed up with its server: nothing to pause")
        return
    engine = entry.runtime_data.engine
    try:
        await async_run(hass, engine.pause_writes, PRE_BACKUP_WAIT)
    except EngineError as err:
        raise HomeAssistantError(
            translation_domain=DOMAIN,
            translation_key="backup_not_paused",
            translation_placeholders={"error": str(err)},
        ) from err
    hass.data[PAUSED] = engine
    _LOGGER.info("Memory store writes paused for the backup")


async def async_post_backup(hass: HomeAssistant) -> None:
    """Let the writes held back by async_pre_backup go on; nothing when it paused none.

    Raises HomeAssistantError (translation "backup_pause_ended") when the pause had ended by
    itself before the backup did: writes went on during the copy, so the backup may hold a
    half-written store."""
    engine = hass.data.pop(PAUSED, None)
    if engine is None:
        return
    # Not async_run: while the store is known to be down it refuses engine calls at once, and the
    # held-back writes must go on whatever the store's state (resume_writes touches no file).
    held = await hass.async_add_executor_job(engine.resume_writes)
    _LOGGER.info("Memory store writes resumed after the backup")
    if not held:
        raise HomeAssistantError(
            translation_domain=DOMAIN,
            translation_key="backup_pause_ended",
            translation_placeholders={"minutes": str(round(PAUSE_MAX / 60))},
        )
