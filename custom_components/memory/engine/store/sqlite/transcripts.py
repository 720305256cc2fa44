"""Verbatim conversation turns in SQLite (TranscriptStore): independent of memories and
forgetting, purged by age."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ...models import Role, TranscriptTurn
from .connection import SqliteConnection
from .rows import INSERT_TURN, ts, turn_of, turn_values


class SqliteTranscripts(SqliteConnection):
    """TranscriptStore over the shared connection (store/base.py)."""

    def add_turns(self, turns: list[TranscriptTurn]) -> None:
        """Insert verbatim turns; committed. A (conversation_id, turn) already stored raises
        StoreUnavailable (nothing of the batch written)."""
        if not turns:
            return
        with self._tx() as conn:
            conn.executemany(INSERT_TURN, [turn_values(t) for t in turns])

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Append `said` after its conversation's last turn, numbering it in the same write
        transaction (concurrent callers never collide); committed. None, and nothing written,
        when it is a user turn repeating the last turn (one utterance seen through two doors)."""
        with self._tx() as conn:
            last = conn.execute(
                "SELECT turn, role, text FROM transcript_turns WHERE conversation_id = ? "
                "ORDER BY turn DESC LIMIT 1",
                (said.conversation_id,),
            ).fetchone()
            repeated = last is not None and (last[1], last[2]) == (Role.USER.value, said.text)
            if repeated and said.role is Role.USER:
                return None
            numbered = replace(said, turn=0 if last is None else int(last[0]) + 1)
            conn.execute(INSERT_TURN, turn_values(numbered))
        return numbered

    def turns(self, conversation_id: str) -> list[TranscriptTurn]:
        """The conversation's turns in order ([] when unknown or purged)."""
        rows = self._read(
            "SELECT conversation_id, turn, role, text, speaker_id, area_id, language, created_at, "
            "speaker_source FROM transcript_turns WHERE conversation_id = ? ORDER BY turn",
            (conversation_id,),
        )
        return [turn_of(r) for r in rows]

    def purge_turns(self, older_than: datetime) -> int:
        """Delete turns created before `older_than` (secure_delete zeroes them); returns how many."""
        with self._tx() as conn:
            cur = conn.execute("DELETE FROM transcript_turns WHERE created_at < ?", (ts(older_than),))
            return int(cur.rowcount)
