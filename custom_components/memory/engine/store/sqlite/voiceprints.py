"""Enrolled voices in SQLite (VoiceprintStore): one row per person, vector as little-endian
float32 bytes; no memory and no visibility rule involved."""

from __future__ import annotations

import numpy as np

from ...models import Voiceprint
from .connection import SqliteConnection
from .rows import SELECT_PRINT, ts, voiceprint_of


class SqliteVoiceprints(SqliteConnection):
    """VoiceprintStore over the shared connection (store/base.py)."""

    def put_voiceprint(self, print_: Voiceprint) -> Voiceprint:
        """Insert or replace person_id's voiceprint (a replacement keeps the first created_at);
        committed. Returns the row as stored."""
        vector = np.ascontiguousarray(print_.vector, dtype="<f4").reshape(-1)
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO voiceprints (person_id, vector, clips, embedding, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(person_id) DO UPDATE SET vector = excluded.vector, "
                "clips = excluded.clips, embedding = excluded.embedding, updated_at = excluded.updated_at",
                (print_.person_id, vector.tobytes(), print_.clips, print_.embedding,
                 ts(print_.created_at), ts(print_.updated_at)),
            )  # fmt: skip
            row = conn.execute(SELECT_PRINT + " WHERE person_id = ?", (print_.person_id,)).fetchone()
        return voiceprint_of(row)

    def voiceprints(self) -> list[Voiceprint]:
        """Every stored voiceprint, by person_id."""
        return [voiceprint_of(r) for r in self._read(SELECT_PRINT + " ORDER BY person_id", ())]

    def delete_voiceprint(self, person_id: str) -> bool:
        """Delete person_id's voiceprint (secure_delete zeroes the page); True when there was one."""
        with self._tx() as conn:
            return conn.execute("DELETE FROM voiceprints WHERE person_id = ?", (person_id,)).rowcount > 0
