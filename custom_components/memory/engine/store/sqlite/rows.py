"""SQLite rows <-> engine records, and this backend's compilation of the visibility rule.

Moments are stored as fixed-width UTC ISO text (`ts`), so text order is time order. The
visibility rule and "current" come from store/sql.py (THE compilation), with columns opaque to
SQLite's planner (unary +) and moments as `ts` text: `where_visible`, `where_current`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from ...models import (
    Kind,
    Memory,
    Provenance,
    Role,
    Scope,
    Source,
    SpeakerSource,
    Status,
    TranscriptTurn,
    Voiceprint,
)
from ..base import EVERYTHING, Visibility
from ..sql import MEMORY_COLUMNS, SELECT_MEMORY, current_sql, visibility_sql


def ts(value: datetime | None) -> str | None:
    """A UTC timestamp as fixed-width ISO text (sorts chronologically)."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def dt(value: str | None) -> datetime | None:
    """The moment `ts` wrote (None stays None)."""
    return None if value is None else datetime.fromisoformat(value)


def where_visible(vis: Visibility, alias: str = "m") -> tuple[str, list[Any]]:
    """store/sql.py's compilation of the rule for this backend (columns opaque to the planner)."""
    return visibility_sql(vis, alias=alias, opaque=True)


def where_current(vis: Visibility) -> tuple[str, list[Any]]:
    """store/sql.py's compilation of "current" for this backend (moments as ISO text)."""
    return current_sql(vis, opaque=True, stamp=ts)


# "current" now (status active), for the reads that take no Visibility (consolidation's input)
WHERE_ACTIVE = where_current(EVERYTHING)[0]


def select_current(ids: Sequence[str], vis: Visibility) -> tuple[str, list[Any]]:
    """The statement reading the current memories among `ids` that `vis` allows (SELECT_MEMORY
    columns; get_many, and the writer's neighbours under the admin view)."""
    where, params = where_visible(vis)
    current, at = where_current(vis)
    marks = ", ".join("?" * len(ids))
    return f"{SELECT_MEMORY} WHERE m.id IN ({marks}) AND {current} AND {where}", [*ids, *at, *params]


def memory_of(row: sqlite3.Row | tuple[Any, ...]) -> Memory:
    """A memory from a row of MEMORY_COLUMNS (in that order)."""
    r = dict(zip(MEMORY_COLUMNS, row, strict=True))
    created = dt(r["created_at"])
    updated = dt(r["updated_at"])
    assert created is not None and updated is not None
    return Memory(
        id=r["id"],
        content=r["content"],
        kind=Kind(r["kind"]),
        language=r["language"],
        provenance=Provenance(r["provenance"]),
        scope=Scope(r["scope"]),
        owner_id=r["owner_id"],
        area_id=r["area_id"],
        created_at=created,
        updated_at=updated,
        subject=r["subject"],
        predicate=r["predicate"],
        confidence=float(r["confidence"]),
        importance=float(r["importance"]),
        sensitive=bool(r["sensitive"]),
        status=Status(r["status"]),
        superseded_by=r["superseded_by"],
        valid_from=dt(r["valid_from"]),
        valid_to=dt(r["valid_to"]),
        source=Source(r["source"]),
        source_ref=r["source_ref"],
        access_count=int(r["access_count"]),
        last_accessed_at=dt(r["last_accessed_at"]),
        value=r["value"],
        speaker_id=r["speaker_id"],
    )


def memory_values(m: Memory) -> tuple[Any, ...]:
    """A memory as the values of MEMORY_COLUMNS (in that order)."""
    return (
        m.id, m.content, m.kind.value, m.language, m.provenance.value, m.scope.value, m.owner_id,
        m.area_id, m.subject, m.predicate, m.confidence, m.importance, int(m.sensitive), m.status.value,
        m.superseded_by, ts(m.valid_from), ts(m.valid_to), m.source.value, m.source_ref,
        m.access_count, ts(m.last_accessed_at), ts(m.created_at), ts(m.updated_at), m.value,
        m.speaker_id,
    )  # fmt: skip


INSERT_TURN = (
    "INSERT INTO transcript_turns (conversation_id, turn, role, text, speaker_id, area_id, language, "
    "created_at, speaker_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def turn_values(t: TranscriptTurn) -> tuple[Any, ...]:
    """A transcript turn as the values of INSERT_TURN."""
    return (t.conversation_id, t.turn, t.role.value, t.text, t.speaker_id, t.area_id, t.language,
            ts(t.created_at), t.speaker_source.value if t.speaker_source else None)  # fmt: skip


def turn_of(r: tuple[Any, ...]) -> TranscriptTurn:
    """A transcript turn from a row in INSERT_TURN's column order."""
    return TranscriptTurn(conversation_id=r[0], turn=int(r[1]), role=Role(r[2]), text=r[3],
                          speaker_id=r[4], area_id=r[5], language=r[6],
                          created_at=datetime.fromisoformat(r[7]),
                          speaker_source=SpeakerSource(r[8]) if r[8] else None)  # fmt: skip


SELECT_PRINT = "SELECT person_id, vector, clips, embedding, created_at, updated_at FROM voiceprints"


def voiceprint_of(row: tuple[Any, ...]) -> Voiceprint:
    """A voiceprint from a row of SELECT_PRINT."""
    return Voiceprint(person_id=row[0], vector=np.frombuffer(row[1], dtype="<f4").astype(np.float32),
                      clips=int(row[2]), embedding=row[3], created_at=datetime.fromisoformat(row[4]),
                      updated_at=datetime.fromisoformat(row[5]))  # fmt: skip
