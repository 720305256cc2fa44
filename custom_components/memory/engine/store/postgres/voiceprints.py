"""Enrolled voices on PostgreSQL (VoiceprintStore): one per person, the vector as float32
little-endian bytes as SqliteStore keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from ...models import Voiceprint
from .connection import PostgresConnection
from .rows import mine


class PostgresVoiceprints(PostgresConnection):
    """VoiceprintStore (see the module docstring)."""

    def put_voiceprint(self, print_: Voiceprint) -> Voiceprint:
        """Insert or replace person_id's voiceprint (a replacement keeps the first created_at);
        committed. Returns the row as stored."""
        vector = np.ascontiguousarray(print_.vector, dtype="<f4").reshape(-1).tobytes()

        async def work(conn: AsyncConnection) -> Voiceprint:
            cur = await conn.execute(
                "INSERT INTO voiceprints (person_id, vector, clips, embedding, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (household, person_id) DO UPDATE SET "
                "vector = excluded.vector, clips = excluded.clips, embedding = excluded.embedding, "
                "updated_at = excluded.updated_at RETURNING " + _PRINT_COLUMNS,
                (
                    print_.person_id,
                    vector,
                    print_.clips,
                    print_.embedding,
                    print_.created_at,
                    print_.updated_at,
                ),
            )
            row = await cur.fetchone()
            assert row is not None  # INSERT … RETURNING returns the row
            return _voiceprint(row)

        return self._write(work, memories=False)

    def voiceprints(self) -> list[Voiceprint]:
        """Every stored voiceprint, by person_id."""
        rows = self._read(f"SELECT {_PRINT_COLUMNS} FROM voiceprints WHERE {mine()} ORDER BY person_id")
        return [_voiceprint(r) for r in rows]

    def delete_voiceprint(self, person_id: str) -> bool:
        """Delete person_id's voiceprint (gone from queries at once, from disk at the next vacuum);
        True when there was one."""

        async def work(conn: AsyncConnection) -> bool:
            cur = await conn.execute(
                f"DELETE FROM voiceprints WHERE {mine()} AND person_id = %s", (person_id,)
            )
            return cur.rowcount > 0

        return self._write(work, memories=False)


_PRINT_COLUMNS = "person_id, vector, clips, embedding, created_at, updated_at"


def _voiceprint(row: Sequence[Any]) -> Voiceprint:
    return Voiceprint(person_id=row[0], vector=np.frombuffer(bytes(row[1]), dtype="<f4").astype(np.float32),
                      clips=int(row[2]), embedding=row[3], created_at=row[4].astimezone(UTC),
                      updated_at=row[5].astimezone(UTC))  # fmt: skip
