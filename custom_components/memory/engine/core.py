"""What the engine's parts share (engine/parts/): the store, the embedder, the clock, the write
lock and the open state — handed to each part, so no part reaches back into the facade."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import TracebackType

from .api import StoreUnavailable
from .calibration import Hubness
from .embedding.base import Embedder
from .models import Memory
from .store.base import MemoryStore


def utc_now() -> datetime:
    return datetime.now(UTC)


class WriteLock:
    """The engine's write lock (re-entrant). Every operation under it is a write, so a store
    failure within it, a read before the write included, is the refused write it is:
    StoreUnavailable.as_refused_write (writing=True), never a failed read."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lock.release()
        if isinstance(exc, StoreUnavailable) and not exc.writing:
            raise exc.as_refused_write() from exc


@dataclass(eq=False)
class Core:
    """The collaborators of every part. anchor_key: the per-installation secret for the identifier
    digests tombstones keep (forgetting.anchor_digests), kept outside the store's file; None:
    tombstones keep and check none. One writer at a time decides a fact key (`writes`): a key's
    read and its write are separate store calls, and two concurrent changes of one fact must not
    both supersede the old value."""

    store: MemoryStore
    embedder: Embedder
    clock: Callable[[], datetime] = utc_now
    anchor_key: bytes | None = None
    hubness: Hubness = field(init=False)
    writes: WriteLock = field(init=False, default_factory=WriteLock)
    is_open: bool = False
    voice_generation: int = 0  # bumped by every voiceprint change (Voices.voice_generation)
    anchor_key_matches: bool = True  # set by MemoryEngine.open

    def __post_init__(self) -> None:
        self.hubness = Hubness(self.embedder)

    def require_open(self) -> None:
        """Raises StoreUnavailable while the engine is not open."""
        if not self.is_open:
            raise StoreUnavailable("memory engine is not open")


class Part:
    """A part of the engine: its collaborators come from the shared Core."""

    def __init__(self, core: Core) -> None:
        self._core = core

    @property
    def store(self) -> MemoryStore:
        return self._core.store

    @property
    def embedder(self) -> Embedder:
        return self._core.embedder

    @property
    def _writes(self) -> WriteLock:
        return self._core.writes

    @property
    def _anchor_key(self) -> bytes | None:
        return self._core.anchor_key

    @property
    def _hubness(self) -> Hubness:
        return self._core.hubness

    def _clock(self) -> datetime:
        return self._core.clock()

    def _require_open(self) -> None:
        self._core.require_open()


def windowed(memory: Memory) -> Memory:
    """The memory with its validity window's start: valid_from, else created_at."""
    return memory if memory.valid_from is not None else replace(memory, valid_from=memory.created_at)


def tallied(counts: Mapping[str, int], prefix: str) -> dict[str, int]:
    """The "<prefix>:<name>" entries of store counts as {name: n}."""
    return {k.split(":", 1)[1]: v for k, v in counts.items() if k.split(":", 1)[0] == prefix}
