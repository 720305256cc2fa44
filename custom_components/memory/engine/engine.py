"""MemoryEngine: the facade the HA side calls — a table of contents of the engine's parts.

Each part (engine/parts/) does one job and takes its collaborators from one shared Core (store,
embedder, clock, write lock: engine/core.py); none reaches back into this facade. Every method
below is the part's own (same signature and contract; its docstring is the part's). Blocking and
thread-safe (the store serialises; writes take the core's write lock); the HA side runs every
call in an executor.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Concatenate

from . import forgetting
from .calibration import Hubness
from .core import Core, Part, utc_now
from .embedding.base import Embedder
from .parts.forgetting import Forgetting
from .parts.memories import Memories
from .parts.transcripts import Transcripts
from .parts.transfer import Transfer
from .parts.upkeep import Upkeep
from .parts.voice import Voices
from .store.base import MemoryStore

__all__ = ["MemoryEngine", "utc_now"]


def _via[**P, R](
    part: str, method: Callable[Concatenate[Any, P], R]
) -> Callable[Concatenate[MemoryEngine, P], R]:
    """The facade's method `method.__name__`: the call goes to the part named `part`."""
    name = method.__name__

    def call(engine: MemoryEngine, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return getattr(getattr(engine, part), name)(*args, **kwargs)  # type: ignore[no-any-return]

    call.__name__, call.__qualname__, call.__doc__ = name, f"MemoryEngine.{name}", method.__doc__
    return call


class MemoryEngine(Part):
    """The memory engine: open it, call its parts' methods, close it.

    Raises StoreUnavailable from every method but recall while not open (recall answers [])."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        *,
        clock: Callable[[], datetime] = utc_now,
        anchor_key: bytes | None = None,
    ) -> None:
        """anchor_key: the per-installation secret for the identifier digests tombstones keep
        (forgetting.anchor_digests), kept outside the store's file; None: tombstones keep and
        check none (similarity alone decides)."""
        super().__init__(Core(store=store, embedder=embedder, clock=clock, anchor_key=anchor_key))
        self.memories = Memories(self._core)
        self.forgetting = Forgetting(self._core)
        self.transfer = Transfer(self._core, self.memories)
        self.voices = Voices(self._core)
        self.transcripts = Transcripts(self._core)
        self.upkeep = Upkeep(self._core)

    @property
    def hubness(self) -> Hubness:
        """The hubness calibration of this engine's embedder (for tools timing recall's steps)."""
        return self._core.hubness

    @property
    def anchor_key_matches(self) -> bool:
        """After open(): False when the store's tombstone digests were made with another anchor key
        (another installation's, or a config entry made anew over an old file): forgotten
        identifiers are then recognised by meaning only (forgetting.anchor_check). True without a
        key."""
        return self._core.anchor_key_matches

    @property
    def is_open(self) -> bool:
        """Between a successful open() and close(). No I/O."""
        return self._core.is_open

    @property
    def voice_generation(self) -> int:
        """Changes whenever a voiceprint may have changed (enroll_voice, forget_voice,
        forget_person): a cache of voiceprints() is current while it is unchanged. No I/O."""
        return self._core.voice_generation

    @property
    def write_fault(self) -> str | None:
        """Why the store's file could not be written at the last write (StoreUnwritable: a full
        disk, a read-only file), None once a write commits again. No I/O."""
        return self._core.store.write_fault

    # ------------------------------------------------------------------ lifecycle
    def open(self) -> None:
        """Open the store, migrate, load vectors of the embedder's identity, warm the encoder.

        Raises StoreUnavailable (file/schema) or EncoderUnavailable (the model cannot load).
        """
        core = self._core
        core.store.open(core.embedder.identity)
        try:
            if core.anchor_key:
                check = forgetting.anchor_check(core.anchor_key)
                core.anchor_key_matches = core.store.claim_anchor_check(check) == check
            core.hubness.warm()  # loads the model and embeds the calibration background once
        except BaseException:
            core.store.close()
            raise
        core.is_open = True

    def close(self) -> None:
        """Flush and close; idempotent."""
        self._core.store.close()
        self._core.is_open = False

    # --------------------------------------------------------- memories and review (parts/memories.py)
    remember = _via("memories", Memories.remember)
    supersede = _via("memories", Memories.supersede)
    learn = _via("memories", Memories.learn)
    recall = _via("memories", Memories.recall)
    get = _via("memories", Memories.get)
    history = _via("memories", Memories.history)
    lineage = _via("memories", Memories.lineage)
    find = _via("memories", Memories.find)
    edit = _via("memories", Memories.edit)
    list_memories = _via("memories", Memories.list_memories)
    list_pending = _via("memories", Memories.list_pending)
    pending_review = _via("memories", Memories.pending_review)
    approve = _via("memories", Memories.approve)
    approve_pending = _via("memories", Memories.approve_pending)
    reject = _via("memories", Memories.reject)
    # --------------------------------------------------------- forgetting (parts/forgetting.py)
    find_to_forget = _via("forgetting", Forgetting.find_to_forget)
    forget = _via("forgetting", Forgetting.forget)
    forget_person = _via("forgetting", Forgetting.forget_person)
    is_tombstoned = _via("forgetting", Forgetting.is_tombstoned)
    tombstones = _via("forgetting", Forgetting.tombstones)
    lift_tombstone = _via("forgetting", Forgetting.lift_tombstone)
    # --------------------------------------------------------- export and import (parts/transfer.py)
    export = _via("transfer", Transfer.export)
    import_memories = _via("transfer", Transfer.import_memories)
    # --------------------------------------------------------- voiceprints (parts/voice.py)
    enroll_voice = _via("voices", Voices.enroll_voice)
    voiceprints = _via("voices", Voices.voiceprints)
    forget_voice = _via("voices", Voices.forget_voice)
    # --------------------------------------------------------- transcripts (parts/transcripts.py)
    record_turns = _via("transcripts", Transcripts.record_turns)
    append_turn = _via("transcripts", Transcripts.append_turn)
    conversation = _via("transcripts", Transcripts.conversation)
    purge_transcripts = _via("transcripts", Transcripts.purge_transcripts)
    # --------------------------------------------------------- upkeep (parts/upkeep.py)
    consolidate = _via("upkeep", Upkeep.consolidate)
    settle_pair = _via("upkeep", Upkeep.settle_pair)
    stats = _via("upkeep", Upkeep.stats)
    reembed_pending = _via("upkeep", Upkeep.reembed_pending)
    pause_writes = _via("upkeep", Upkeep.pause_writes)
    resume_writes = _via("upkeep", Upkeep.resume_writes)
