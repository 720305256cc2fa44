"""The transcript recorder: every turn through the memory agent or the Memory LLM API, verbatim.

A user turn is recorded before anything interprets it; the memory agent also records its
reply. A turn that passes through both doors (the memory agent wrapping an LLM agent that
uses the Memory API) is recorded once: a user turn whose text equals the conversation's
last stored turn, itself a user turn, is that same turn. Recording never delays or breaks an
answer: turns are queued and written in the order they were said by one task per entry
(TranscriptRecorder), so a turn waits for no write ahead of it (another process holding the
file's lock, a backup's pause); errors are logged. Learning flushes the queue before it reads a
conversation, and unloading flushes it before the store closes. Transcripts are kept regardless of
the learning consent (only learning reads them for a model); the retention purge is the only deletion
(docs/learning.md, docs/privacy.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.util import dt as dt_util

from .const import (
    CONF_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS,
    CONF_TRANSCRIPT_RETENTION_DAYS,
    DEFAULT_LEARNING,
    DEFAULT_TRANSCRIPT_RETENTION_DAYS,
)
from .engine.api import InvalidInput, StoreUnavailable
from .engine.models import Role, Speaker, TranscriptTurn
from .engine_calls import async_run
from .runtime import MemoryConfigEntry

_LOGGER = logging.getLogger(__name__)

PURGE_INTERVAL = timedelta(days=1)


def learning_allowed(options: Mapping[str, Any], area_id: str | None) -> bool:
    """True when the user consented to learning and the turn's area did not opt out."""
    if not options.get(CONF_LEARNING, DEFAULT_LEARNING):
        return False
    return area_id is None or area_id not in (options.get(CONF_LEARNING_OPT_OUT_AREAS) or [])


def retention_days(options: Mapping[str, Any]) -> int:
    """The transcript retention option in days (default 365)."""
    return int(options.get(CONF_TRANSCRIPT_RETENTION_DAYS, DEFAULT_TRANSCRIPT_RETENTION_DAYS))


class TranscriptRecorder:
    """The entry's queue of turns to record, written in order by one task at a time (module
    docstring); runtime_data.transcripts."""

    def __init__(self, hass: HomeAssistant, entry: MemoryConfigEntry) -> None:
        self._hass = hass
        self._entry = entry
        self._waiting: deque[TranscriptTurn] = deque()
        self._task: asyncio.Task[None] | None = None

    @callback
    def record(self, said: TranscriptTurn) -> None:
        """Queue one turn; returns at once (the writer task starts when none runs)."""
        self._waiting.append(said)
        if self._task is None or self._task.done():
            self._task = self._entry.async_create_task(self._hass, self._drain(), "memory transcript")

    async def _drain(self) -> None:
        engine = self._entry.runtime_data.engine
        while self._waiting:
            said = self._waiting.popleft()
            try:
                await async_run(self._hass, engine.append_turn, said)
            except StoreUnavailable:  # the store's health reports it (log, repair issue): no traceback
                _LOGGER.debug("Turn %s of conversation %s not recorded: store unavailable",
                              said.role.value, said.conversation_id)  # fmt: skip
            except InvalidInput as err:  # a turn no store takes (engine/inputs.py): said, not a failure
                _LOGGER.warning("Turn %s of conversation %s not recorded: %s %s",
                                said.role.value, said.conversation_id, err.field, err.reason)  # fmt: skip
            except Exception:
                _LOGGER.exception("Could not record a %s turn of conversation %s",
                                  said.role.value, said.conversation_id)  # fmt: skip

    async def async_flush(self) -> None:
        """Wait until every queued turn is written (or failed and logged)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


@callback
def record_turn(
    entry: MemoryConfigEntry,
    conversation_id: str,
    role: Role,
    text: str,
    *,
    speaker: Speaker,
    language: str,
) -> None:
    """Record one verbatim turn, after the answer (TranscriptRecorder); never raises."""
    entry.runtime_data.transcripts.record(
        TranscriptTurn(
            conversation_id=conversation_id,
            turn=0,  # numbered by the store
            role=role,
            text=text,
            language=language,
            created_at=dt_util.utcnow(),
            speaker_id=speaker.person_id,
            area_id=speaker.area_id,
            speaker_source=speaker.source if speaker.person_id else None,
        )
    )


async def async_purge_transcripts(hass: HomeAssistant, entry: MemoryConfigEntry) -> int:
    """Delete turns older than the retention option; returns how many (0 and logged on failure)."""
    days = retention_days(entry.options)
    try:
        count = await async_run(hass, entry.runtime_data.engine.purge_transcripts, dt_util.utcnow(), days)
    except Exception:
        _LOGGER.exception("Purging transcripts older than %d days failed", days)
        return 0
    if count:
        _LOGGER.info("Purged %d transcript turns older than %d days", count, days)
    return count


@callback
def async_track_purge(hass: HomeAssistant, entry: MemoryConfigEntry) -> Callable[[], None]:
    """Purge once a day; returns the callable that stops it (entry.async_on_unload)."""

    async def _purge(_now: Any) -> None:
        await async_purge_transcripts(hass, entry)

    return async_track_time_interval(hass, _purge, PURGE_INTERVAL, name=f"{entry.domain} transcript purge")
