"""The PostgreSQL store's circuit breaker: while its server is known to be unreachable, every call
fails at once with StoreUnavailable instead of waiting for the pool (CONNECT_TIMEOUT, 5 s, per
call): a recall on every conversation turn would otherwise wait that long to answer [] anyway.

It opens (trip) when a call meets a connection failure: the pool could not connect within its
timeout, or the connection broke under a query. While it is open, the store's own loop tries the
server every RECONNECT_EVERY in the background (connection.PostgresConnection._reconnect); the
first success puts a fresh pool in place and closes it (reset). A call never waits for a server
that is down, and the first call after the server is back (RECONNECT_EVERY later at most) works.
"""

from __future__ import annotations

import threading
import time

from ...api import StoreUnavailable

# How often a lost server is tried in the background. A restart (an add-on or container update)
# takes seconds, so the household has its memory back at most this long after the server; one
# connection attempt per interval is nothing to a server that is starting. Not shorter than an
# attempt may take (connection.CONNECT_TIMEOUT, 5 s), so attempts never overlap.
RECONNECT_EVERY = 5.0  # s


def unreachable(why: str, *, writing: bool) -> StoreUnavailable:
    """The error of a call while the server cannot be reached; `why` password-free."""
    err = StoreUnavailable(
        f"the memory store's PostgreSQL server cannot be reached ({why}); calls fail at once "
        f"until it answers again (tried every {RECONNECT_EVERY:g} s)"
    )
    return err.as_refused_write() if writing else err


class Breaker:
    """Open (the server is down) or closed; thread-safe: calls check it from HA's executor
    threads, the store's loop trips and resets it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down: tuple[float, str] | None = None  # (time.monotonic() when it opened, why)

    @property
    def down(self) -> bool:
        return self._down is not None

    def check(self, *, writing: bool) -> None:
        """Raise StoreUnavailable (writing: a refused write) at once while open."""
        down = self._down
        if down is not None:
            since, why = down
            raise unreachable(f"{why}; {time.monotonic() - since:.0f} s ago", writing=writing)

    def trip(self, why: str) -> bool:
        """A call could not reach the server: open. True when it was closed until now (the
        caller starts the background reconnect)."""
        with self._lock:
            if self._down is not None:
                return False
            self._down = (time.monotonic(), why)
            return True

    def reset(self) -> None:
        """The server answers again: closed."""
        with self._lock:
            self._down = None
