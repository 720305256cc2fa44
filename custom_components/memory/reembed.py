"""The background re-embed: vectors of another embedding identity (the encoder option changed, or
an older model's store) are embedded anew, batch by batch, while the integration runs."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING

from homeassistant.core import HomeAssistant, callback

from .const import DOMAIN
from .engine.api import StoreUnavailable
from .engine_calls import async_run

if TYPE_CHECKING:
    from .engine.engine import MemoryEngine

_LOGGER = logging.getLogger(__name__)


class ReembedWorker:
    """Re-embeds stale vectors (engine.reembed_pending) in the background, one executor job per
    batch. Stopping lets the running batch finish (the engine is then closed safely) instead of
    cancelling mid-write; a store that goes down pauses it until `resume`."""

    def __init__(self, hass: HomeAssistant, engine: MemoryEngine) -> None:
        self.hass = hass
        self.engine = engine
        self.task: asyncio.Task[None] | None = None
        self._stop = threading.Event()

    @property
    def running(self) -> bool:
        """A batch loop is under way (diagnostics)."""
        return self.task is not None and not self.task.done()

    @callback
    def start(self) -> None:
        self.task = self.hass.async_create_background_task(self._run(), f"{DOMAIN} re-embed")

    @callback
    def resume(self) -> None:
        """Start again when the last run ended (e.g. the store went down meanwhile) and no stop
        was asked: called when the store is reachable again."""
        if not self._stop.is_set() and not self.running:
            self.start()

    async def _run(self) -> None:
        try:
            stats = await async_run(self.hass, self.engine.stats)
            if not stats.stale_vectors:
                return
            _LOGGER.info("Re-embedding %d vectors of another embedding identity", stats.stale_vectors)
            while not self._stop.is_set():
                if not await async_run(self.hass, self.engine.reembed_pending):
                    break
        except StoreUnavailable:
            _LOGGER.warning(
                "Background re-embed paused: the memory store is unreachable; it resumes when it is back"
            )
        except Exception:
            _LOGGER.exception("Background re-embed failed; it resumes on the next start")

    async def async_stop(self) -> None:
        """No new batch; waits for the running one (safe to call more than once)."""
        self._stop.set()
        if self.task is not None:
            await asyncio.shield(self.task)
