"""SQLite rows <-> engine records, and this backend's compilation of the visibility rule.

Moments are stored as fixed-width UTC ISO text (`ts`), so text order is time order. The
visibility rule and "current" come from store/sql.py (THE compilation), with columns opaque to
SQLite's planner (unary +) and moments as `ts` text: `where_visible`, `where_current`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import numpy as np

from ...models import Memory, Role, SpeakerSource, TranscriptTurn, Voiceprint
from ..base import EVERYTHING, Visibility
from ..sql import MEMORY_COLUMNS, MEMORY_TYPES, SELECT_MEMORY, current_sql, visibility_sql


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


def _decoder(kind: type) -> Callable[[Any], Any]:
    """How a column of `kind` (sql.MEMORY_TYPES) is read back from what memory_values wrote."""
    if issubclass(kind, Enum):
        return kind
    if kind is datetime:
        return datetime.fromisoformat
    return kind  # bool from 0/1, int, float, str


def _encoder(kind: type) -> Callable[[Any], Any]:
    """How a field of `kind` (sql.MEMORY_TYPES) is written: enums as their value, moments as `ts`
    text, booleans as 0/1."""
    if issubclass(kind, Enum):
        return lambda v: v.value
    if kind is datetime:
        return ts
    if kind is bool:
        return int
    return lambda v: v


# The codec of a memory row, one converter per column, derived from the stored fields' types.
_DECODE = tuple(_decoder(MEMORY_TYPES[c]) for c in MEMORY_COLUMNS)
_ENCODE = tuple(_encoder(MEMORY_TYPES[c]) for c in MEMORY_COLUMNS)


def memory_of(row: sqlite3.Row | tuple[Any, ...]) -> Memory:
    """A memory from a row of MEMORY_COLUMNS (in that order)."""
    values = zip(MEMORY_COLUMNS, _DECODE, row, strict=True)
    fields: dict[str, Any] = {c: None if v is None else decode(v) for c, decode, v in values}
    return Memory(**fields)


def memory_values(m: Memory) -> tuple[Any, ...]:
    """A memory as the values of MEMORY_COLUMNS (in that order)."""
    values = ((getattr(m, c), encode) for c, encode in zip(MEMORY_COLUMNS, _ENCODE, strict=True))
    return tuple(None if v is None else encode(v) for v, encode in values)


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
