"""A store's write gate: one write transaction at a time, and a pause that holds new writes
back while a backup copies the store's file (MemoryStore.pause_writes / resume_writes).

Every write transaction of the SQLite store enters it (sqlite/connection.py); reads never do.
It is re-entrant for the thread that holds it (a write that flushes batched access counts).

While paused, a write waits (it is never dropped); one that waits longer than PAUSE_WAIT is
refused with WritesPaused, not acknowledged. A pause ends by resume() or by itself after
PAUSE_MAX (a backup that never reported its end must not stop the household's memory).
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from ..api import WritesPaused

# How long a write waits for a pause (a backup) to end before it is refused. HA's backup of the
# config directory takes seconds to a few minutes; an executor thread may wait that long.
PAUSE_WAIT = 600.0  # s
# A pause longer than this ends by itself (a backup agent that crashed before its post-backup).
PAUSE_MAX = 1800.0  # s


class WriteGate:
    """A re-entrant write lock with a pause (module docstring). Use `with gate:` around a write."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._owner: int | None = None
        self._depth = 0
        self._paused_at: float | None = None

    def _paused(self) -> bool:
        if self._paused_at is not None and time.monotonic() - self._paused_at > PAUSE_MAX:
            self._paused_at = None  # a pause nobody ended
        return self._paused_at is not None

    def __enter__(self) -> WriteGate:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += 1
                return self
            deadline = time.monotonic() + PAUSE_WAIT
            while self._owner is not None or self._paused():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WritesPaused("memory writes are paused for a backup; try again", writing=True)
                self._cond.wait(min(left, 1.0))  # wakes at least each second: PAUSE_MAX may end it
            self._owner, self._depth = me, 1
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.leave()

    def leave(self) -> None:
        """Leave the gate (entered by `with` or enter_now)."""
        with self._cond:
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._cond.notify_all()

    def enter_now(self) -> bool:
        """Enter only if that needs no wait (not paused, no other writer); True when entered
        (then leave()). For work that may as well wait for the next write."""
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += 1
                return True
            if self._owner is not None or self._paused():
                return False
            self._owner, self._depth = me, 1
            return True

    def pause(self, timeout: float = PAUSE_WAIT) -> None:
        """Hold new writes back and wait until the write in progress (if any) has ended.
        Raises WritesPaused (and does not pause) when it does not end within `timeout` s."""
        me = threading.get_ident()
        with self._cond:
            self._paused_at = time.monotonic()
            deadline = self._paused_at + timeout
            while self._owner is not None and self._owner != me:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._paused_at = None
                    self._cond.notify_all()
                    raise WritesPaused("a memory write did not end in time for the backup")
                self._cond.wait(min(left, 1.0))

    def resume(self) -> bool:
        """Let waiting and new writes go on; idempotent. True when the pause held until now;
        False when there was none (never paused, resumed already, or ended by itself after
        PAUSE_MAX: writes went on meanwhile)."""
        with self._cond:
            held = self._paused()
            self._paused_at = None
            self._cond.notify_all()
            return held

    @property
    def paused(self) -> bool:
        with self._cond:
            return self._paused()
