"""Verbatim conversation turns on PostgreSQL (TranscriptStore); a conversation's turns are
numbered under an advisory lock, so concurrent callers (other instances too) never collide."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from psycopg import AsyncConnection

from ...models import Role, SpeakerSource, TranscriptTurn
from .connection import PostgresConnection
from .migrations import TRANSCRIPT_LOCK_CLASS
from .rows import mine


class PostgresTranscripts(PostgresConnection):
    """TranscriptStore (see the module docstring)."""

    def add_turns(self, turns: list[TranscriptTurn]) -> None:
        """Insert verbatim turns; committed. A (conversation_id, turn) already stored raises
        StoreUnavailable (nothing of the batch written)."""
        if not turns:
            return

        async def work(conn: AsyncConnection) -> None:
            async with conn.cursor() as cur:
                await cur.executemany(_INSERT_TURN, [_turn_row(t) for t in turns])

        self._write(work, memories=False)

    def append_turn(self, said: TranscriptTurn) -> TranscriptTurn | None:
        """Append `said` after its conversation's last turn, numbering it in the same transaction
        under a lock on the conversation (concurrent callers, other instances too, never collide);
        committed. None, and nothing written, when it is a user turn repeating the last turn (one
        utterance seen through two doors)."""

        async def work(conn: AsyncConnection) -> TranscriptTurn | None:
            await conn.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(current_setting('memory.household') || "
                "'/' || %s))",
                (TRANSCRIPT_LOCK_CLASS, said.conversation_id),
            )
            cur = await conn.execute(
                f"SELECT turn, role, text FROM transcript_turns WHERE {mine()} AND conversation_id = %s "
                "ORDER BY turn DESC LIMIT 1",
                (said.conversation_id,),
            )
            last = await cur.fetchone()
            repeated = last is not None and (last[1], last[2]) == (Role.USER.value, said.text)
            if repeated and said.role is Role.USER:
                return None
            numbered = replace(said, turn=0 if last is None else int(last[0]) + 1)
            await conn.execute(_INSERT_TURN, _turn_row(numbered))
            return numbered

        return self._write(work, memories=False)

    def turns(self, conversation_id: str) -> list[TranscriptTurn]:
        """The conversation's turns in order ([] when unknown or purged)."""
        rows = self._read(
            "SELECT conversation_id, turn, role, text, speaker_id, area_id, language, created_at, "
            f"speaker_source FROM transcript_turns WHERE {mine()} AND conversation_id = %s ORDER BY turn",
            (conversation_id,),
        )
        return [
            TranscriptTurn(conversation_id=r[0], turn=int(r[1]), role=Role(r[2]), text=r[3],
                           speaker_id=r[4], area_id=r[5], language=r[6], created_at=r[7].astimezone(UTC),
                           speaker_source=SpeakerSource(r[8]) if r[8] else None)
            for r in rows
        ]  # fmt: skip

    def purge_turns(self, older_than: datetime) -> int:
        """Delete turns created before `older_than` (gone from queries at once, from disk at the
        next vacuum); returns how many."""

        async def work(conn: AsyncConnection) -> int:
            cur = await conn.execute(
                f"DELETE FROM transcript_turns WHERE {mine()} AND created_at < %s", (older_than,)
            )
            return cur.rowcount

        return self._write(work, memories=False)


_INSERT_TURN = (
    "INSERT INTO transcript_turns (conversation_id, turn, role, text, speaker_id, area_id, language, "
    "created_at, speaker_source) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


def _turn_row(t: TranscriptTurn) -> tuple[Any, ...]:
    return (t.conversation_id, t.turn, t.role.value, t.text, t.speaker_id, t.area_id, t.language,
            t.created_at, t.speaker_source.value if t.speaker_source else None)  # fmt: skip
