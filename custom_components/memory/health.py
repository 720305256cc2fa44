"""Is the store reachable, and is its file the one opened? One tracker per loaded entry
(runtime_data.health), fed by the one door every engine call goes through (engine_calls.async_run).

A StoreUnavailable from an engine call is checked with a probe (engine.stats: one cheap read):
when the probe fails too the store is DOWN; when it succeeds, the failure was that call's own
(a duplicate transcript turn, a statement timeout) and nothing changes.

While it is down: recall answers [] at once (engine_calls.async_recall), so conversations go on
without memories; every other call fails at once in the store itself (the PostgreSQL store's
breaker: no call waits for a server that is down) and writes are refused, never acknowledged;
the probe runs every PROBE_INTERVAL and marks the store up when it answers; after
STORE_DOWN_ISSUE_AFTER a repair issue `store_unreachable` appears, deleted on recovery (and on
unload).

A fault of the file itself needs a person at once, so its repair issue appears with the first
call that meets it: `store_file_changed` (StoreFileChanged: the SQLite file was deleted or
replaced under the running store; every write is refused until the entry reloads) and
`store_corrupt` (StoreCorrupt: not a readable database; at set-up the entry fails too), both
gone when the entry is set up again with a good store (clear_file_faults), not on unload: the
file is still what it was; and `store_unwritable` (StoreUnwritable: a full disk, a read-only
file; writes refused, reads go on), gone as soon as a write commits again (answered).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_call_later, async_track_time_interval
from homeassistant.util import dt as dt_util

from .const import DOMAIN
from .engine.api import EngineError, StoreCorrupt, StoreFileChanged, StoreUnavailable, StoreUnwritable
from .repair_issues import create_issue

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

_LOGGER = logging.getLogger(__name__)

ISSUE_STORE_UNREACHABLE = "store_unreachable"
# Two minutes: restarting PostgreSQL (an add-on or container update, a version upgrade) takes well
# under a minute and fixes itself (the pool reconnects); a repair issue for that would be noise.
# Down for two minutes, somebody has to act.
STORE_DOWN_ISSUE_AFTER = timedelta(minutes=2)
# How often a down store is tried again when nothing else calls it (a cheap count query).
PROBE_INTERVAL = timedelta(seconds=30)
ISSUE_STORE_FILE_CHANGED = "store_file_changed"
ISSUE_STORE_CORRUPT = "store_corrupt"
ISSUE_STORE_UNWRITABLE = "store_unwritable"
FILE_FAULT_ISSUES: dict[type[StoreUnavailable], str] = {
    StoreFileChanged: ISSUE_STORE_FILE_CHANGED,
    StoreCorrupt: ISSUE_STORE_CORRUPT,
    StoreUnwritable: ISSUE_STORE_UNWRITABLE,
}


@callback
def file_fault(hass: HomeAssistant, err: StoreUnavailable, where: str, entry_id: str) -> bool:
    """When `err` is a fault of the store's file (FILE_FAULT_ISSUES), its repair issue naming
    `where` (the store, password-free), for config entry `entry_id`; True then."""
    issue = next((key for kind, key in FILE_FAULT_ISSUES.items() if isinstance(err, kind)), None)
    if issue is None:
        return False
    if ir.async_get(hass).async_get_issue(DOMAIN, issue) is None:
        _LOGGER.error("The memory store %s: %s", where, err)
    error = {"error": str(err)} if issue == ISSUE_STORE_UNWRITABLE else {}
    create_issue(hass, issue, ir.IssueSeverity.ERROR, config_entry_id=entry_id, store=where, **error)
    return True


@callback
def clear_file_faults(hass: HomeAssistant) -> None:
    """The entry opened a good store: the file faults' repair issues go."""
    for issue in FILE_FAULT_ISSUES.values():
        ir.async_delete_issue(hass, DOMAIN, issue)


class StoreHealth:
    """Down/up state of one entry's store and its repair issue (module docstring)."""

    def __init__(self, hass: HomeAssistant, engine: MemoryEngine, where: str, entry_id: str) -> None:
        """where: the store, password-free (storage.StoreSettings.describe), for the issue text;
        entry_id: the config entry whose store it is (its repair issues belong to it)."""
        self._hass = hass
        self._entry_id = entry_id
        self.engine = engine
        self._where = where
        self.down_since: datetime | None = None
        self._cancel: list[CALLBACK_TYPE] = []
        self._stopped = False  # the entry unloaded: nothing is armed again (a call failing late)
        self._on_recovery: list[Callable[[], None]] = []

    @callback
    def on_recovery(self, action: Callable[[], None]) -> None:
        """Call `action` (a callback, on the event loop) each time the store is reachable again:
        work that stopped because it was down (the background re-embed) resumes."""
        self._on_recovery.append(action)

    @property
    def down(self) -> bool:
        return self.down_since is not None

    @callback
    def answered(self, *, reached: bool) -> None:
        """An engine call returned. reached: it can only have returned by reaching the store (any
        call but recall, which answers [] when the store fails): a store marked down is up again
        at once, not at the next probe. Once a write commits again (engine.write_fault None), the
        store_unwritable repair issue goes (a freed disk, a writable file: no reload needed)."""
        if reached and self.down_since is not None:
            self.succeeded()
        if self.engine.write_fault is None and ir.async_get(self._hass).async_get_issue(
            DOMAIN, ISSUE_STORE_UNWRITABLE
        ):
            _LOGGER.info("The memory store %s can be written again", self._where)
            ir.async_delete_issue(self._hass, DOMAIN, ISSUE_STORE_UNWRITABLE)

    @callback
    def failed(self, err: StoreUnavailable) -> None:
        """The store is unreachable (a call and the probe failed): down from now on. Ignored once
        stopped: a call still running at unload fails against the closed store, which is no outage."""
        if self.down_since is not None or self._stopped:
            return
        self.down_since = dt_util.utcnow()
        _LOGGER.warning(
            "The memory store %s is unreachable (%s); recall answers without memories", self._where, err
        )
        self._cancel = [
            async_call_later(self._hass, STORE_DOWN_ISSUE_AFTER, self._raise_issue),
            async_track_time_interval(self._hass, self._probe, PROBE_INTERVAL, name=f"{DOMAIN} store probe"),
        ]

    async def async_check(self, err: StoreUnavailable) -> None:
        """A call failed with `err`: a file fault's repair issue at once; otherwise probe the
        store, down when the probe fails too."""
        if (
            self._stopped
            or file_fault(self._hass, err, self._where, self._entry_id)
            or self.down_since is not None
        ):
            return
        if not await self._async_reachable():
            self.failed(err)

    async def _async_reachable(self) -> bool:
        try:
            await self._hass.async_add_executor_job(self.engine.stats)
        except EngineError:  # unreachable (or not open: the entry is going away)
            return False
        return True

    @callback
    def succeeded(self) -> None:
        """The probe reached the store: it is up; the repair issue (if any) goes."""
        if self.down_since is None:
            return
        _LOGGER.info("The memory store %s is reachable again", self._where)
        self.down_since = None
        self._disarm()
        if not self._stopped:
            for action in self._on_recovery:
                action()

    @callback
    def stop(self) -> None:
        """The entry unloads: cancel the timers and delete the repair issue, for good (a later
        failure arms nothing again)."""
        self._stopped = True
        self._disarm()

    @callback
    def _disarm(self) -> None:
        """Cancel the timers and delete the repair issue (recovery, stop)."""
        for cancel in self._cancel:
            cancel()
        self._cancel = []
        ir.async_delete_issue(self._hass, DOMAIN, ISSUE_STORE_UNREACHABLE)

    @callback
    def _raise_issue(self, _now: datetime) -> None:
        if self.down_since is None:
            return
        since = self.down_since.isoformat(timespec="seconds")
        create_issue(
            self._hass,
            ISSUE_STORE_UNREACHABLE,
            ir.IssueSeverity.ERROR,
            config_entry_id=self._entry_id,
            store=self._where,
            since=since,
        )

    async def _probe(self, _now: datetime) -> None:
        if self.down_since is not None and await self._async_reachable():
            self.succeeded()
