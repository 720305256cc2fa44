"""The verbatim transcript store — a part of the engine (engine/engine.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from .. import inputs
from ..api import InvalidInput
from ..core import Part
from ..models import TranscriptTurn


class Transcripts(Part):
    """Transcripts. Blocking; thread-safe (the store serialises)."""

    def record_turns(self, turns: list[TranscriptTurn]) -> None:
        """Store verbatim turns before any interpretation, committed. Empty text is stored as said
        (a turn is a fact of the conversation, not a memory); a (conversation_id, turn) already
        stored raises StoreUnavailable (nothing written). Transcripts are independent of memories:
        forget() never deletes them."""
        if not isinstance(turns, list | tuple):
            raise InvalidInput("turns", "wrong_type")
        turns = [inputs.check_turn(said) for said in turns]
        self._require_open()
        for t in turns:
            if t.turn < 0:
                raise InvalidInput("turn", "negative")
        self.store.add_turns(turns)

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Record one verbatim turn after the conversation's last (its `turn` is assigned here,
        atomically); committed. Returns the stored turn, or None when it repeats the last user
        turn (the same utterance through both the memory agent and the Memory LLM API)."""
        said = inputs.check_turn(said)
        self._require_open()
        return self.store.append_turn(said)

    def conversation(self, conversation_id: str) -> list[TranscriptTurn]:
        """The stored turns of one conversation, in order ([] when none or purged)."""
        inputs.check_id("conversation_id", conversation_id)
        self._require_open()
        return self.store.turns(conversation_id)

    def purge_transcripts(self, now: datetime, retention_days: int) -> int:
        """Delete turns older than `retention_days` days before `now` (UTC-aware); returns how
        many. retention_days < 1 raises InvalidInput("retention_days", "too_small"), more than
        inputs.MAX_RETENTION_DAYS ("retention_days", "too_large")."""
        inputs.check_retention(now, retention_days)
        self._require_open()
        if retention_days < 1:
            raise InvalidInput("retention_days", "too_small")
        return self.store.purge_turns(now - timedelta(days=retention_days))
