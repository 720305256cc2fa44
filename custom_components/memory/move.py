"""Moving the memories to another store (the reconfigure step "move" and memory.move_store).

The procedure, and why it is safe:
1. The entry is UNLOADED first. Unloading stops everything that writes (the agent, the LLM API,
   intents, services reach no engine, the learning job, consolidation, re-embedding) and closes the
   engine, so no write can land in the source after its rows were read. Holding the engine's write
   lock would not do: forgetting, transcripts and access counts write outside it.
2. Source and target stores are opened on their own and engine/transfer.py copies every table and
   verifies row counts and checksums (the target must be empty).
3. Only when the copy verified is the entry's data switched to the target; then it is set up again.
   If anything fails (the target unreachable mid-copy, a mismatch), the entry's data is untouched
   and it is set up again on the source, which was only read: the old store is back in use,
   intact. A target file this move created is deleted; rows copied into a PostgreSQL database
   stay there (retry into an empty database, or delete them).
While it runs (seconds for thousands of memories) the assistant answers without its memory.
"""

from __future__ import annotations

import logging
from pathlib import Path

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant

from .engine.factory import build_store
from .engine.models import EmbeddingIdentity
from .engine.store.base import MemoryStore
from .engine.transfer import MoveReport, Progress, move
from .runtime import MemoryConfigEntry
from .storage import StoreSettings

_LOGGER = logging.getLogger(__name__)
SQLITE_SIDE_FILES = ("", "-wal", "-shm", "-journal")  # a SQLite database and its companion files


class EntryNotLoaded(Exception):
    """The entry is not loaded: there is no current store to move from."""


async def async_move_store(
    hass: HomeAssistant, entry: MemoryConfigEntry, target: StoreSettings, progress: Progress | None = None
) -> MoveReport:
    """Move every memory of the entry's store into `target` (module docstring) and switch to it.
    progress(done, total): rows handled so far (transfer.move), called from the executor thread.

    Raises EntryNotLoaded, transfer.TargetNotEmpty (nothing copied), StoreUnavailable or
    transfer.MoveMismatch (the source stays in use, intact). Returns the verified report.
    """
    if entry.state is not ConfigEntryState.LOADED:
        raise EntryNotLoaded
    source = StoreSettings.of(entry.data)
    identity = entry.runtime_data.engine.embedder.identity
    _LOGGER.info("Moving memories from %s to %s", source.describe(), target.describe())
    await hass.config_entries.async_unload(entry.entry_id)
    try:
        report = await hass.async_add_executor_job(
            _copy, source.store_kwargs(hass), target.store_kwargs(hass), identity, progress
        )
    except BaseException as err:
        _LOGGER.warning(
            "Moving memories to %s failed (%s); staying on %s", target.describe(), err, source.describe()
        )
        await hass.config_entries.async_setup(entry.entry_id)
        raise
    hass.config_entries.async_update_entry(entry, data=target.entry_data(entry.data))
    await hass.config_entries.async_setup(entry.entry_id)
    _LOGGER.info("Moved memories to %s: %s", target.describe(), report.as_dict())
    return report


def _copy(
    source_kwargs: dict[str, object],
    target_kwargs: dict[str, object],
    identity: EmbeddingIdentity,
    progress: Progress | None = None,
) -> MoveReport:
    """Open both stores, move, close both (blocking). A SQLite target file that did not exist
    before is removed when the move fails."""
    created = None
    if (path := target_kwargs.get("db_path")) is not None and not Path(str(path)).exists():
        created = Path(str(path))
    source: MemoryStore = build_store(**source_kwargs)  # type: ignore[arg-type]
    target: MemoryStore = build_store(**target_kwargs)  # type: ignore[arg-type]
    try:
        source.open(identity)
        target.open(identity)
        return move(source, target, progress=progress)
    except BaseException:
        target.close()
        if created is not None:
            for suffix in SQLITE_SIDE_FILES:
                Path(f"{created}{suffix}").unlink(missing_ok=True)
        raise
    finally:
        source.close()
        target.close()
