"""PostgreSQL row <-> record codecs and the two conditions every query is made of: `mine` (the
household, tenancy) and the visibility rule as store/sql.py compiles it (mark "%s"); the memory
column list (a memory is its memories row plus its memory_access counts); vectors as the driver
sends and returns them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import numpy as np

from ...embedding.base import Vectors
from ...models import Memory
from ..base import EVERYTHING
from ..sql import MEMORY_COLUMNS, MEMORY_TYPES, current_sql

# The memory columns stored as text of an enum's value, and the moments (timestamptz) of every
# table: a memory's read off the stored fields' types (sql.MEMORY_TYPES), the others' named here.
ENUMS: dict[str, type[Enum]] = {c: t for c, t in MEMORY_TYPES.items() if issubclass(t, Enum)}
TIMES = frozenset({c for c, t in MEMORY_TYPES.items() if t is datetime} | {"lifted_at", "judged_at"})


def mine(alias: str = "") -> str:
    """THE tenancy condition: the row belongs to this connection's household."""
    return f"{alias + '.' if alias else ''}household = current_setting('memory.household')"


ACTIVE = current_sql(EVERYTHING, mark="%s")[0]


# Recall's access counts live in memory_access (migration v5): counting one never writes a memories
# row, so the row's indexes (the HNSW graph above all) gain no entry for it.
ACCESS_COLUMNS = ("access_count", "last_accessed_at")
ROW_COLUMNS = tuple(c for c in MEMORY_COLUMNS if c not in ACCESS_COLUMNS)  # the memories table's
WITH_ACCESS = "memories m LEFT JOIN memory_access a ON a.household = m.household AND a.id = m.id"


def select_list(columns: Sequence[str], access: bool = True) -> str:
    """`columns` (of a memory) as a select list over WITH_ACCESS (access=False: over `memories m`
    alone, the counts as 0 and NULL)."""
    counts = {"access_count": "coalesce(a.access_count, 0)", "last_accessed_at": "a.last_accessed_at"}
    if not access:
        counts = {"access_count": "0", "last_accessed_at": "NULL::timestamptz"}
    return ", ".join(counts.get(c, f"m.{c}") for c in columns)


SELECT_MEMORY = f"SELECT {select_list(MEMORY_COLUMNS)} FROM {WITH_ACCESS}"


def ts_text(value: datetime | None) -> str | None:
    """A moment as TRANSFER_TABLES renders it: fixed-width UTC ISO text, as SQLite stores it."""
    return None if value is None else value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def to_memory(row: Sequence[Any]) -> Memory:
    r = dict(zip(MEMORY_COLUMNS, row, strict=True))
    for name, enum in ENUMS.items():
        r[name] = enum(r[name])
    for name in TIMES.intersection(r):
        r[name] = utc(r[name])
    return Memory(**r)


def memory_values(m: Memory) -> list[Any]:
    """The memory's values of ROW_COLUMNS (its memories row)."""
    return [v.value if isinstance(v, Enum) else v for v in (getattr(m, c) for c in ROW_COLUMNS)]


def as_array(value: Any) -> Vectors:
    """A stored vector as float32[d] (pgvector loads binary results as its Vector type)."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def as_vector(vector: Vectors) -> Any:
    """A vector as the driver sends it (pgvector's adapter of numpy float32 arrays)."""
    return np.asarray(vector, dtype=np.float32).reshape(-1)


def with_rows(
    inner: str, params: list[Any], *, identity: tuple[str, str, int] | None = None, order: str = ""
) -> tuple[str, list[Any]]:
    """A statement whose rows have an `id` column (`inner`, `params`), each row followed by its
    memory's columns (MEMORY_COLUMNS as SELECT_MEMORY reads them) and, given the active
    `identity`, by its vector of it (None for another): row = (*inner's, *memory's[, vector]).
    order: the ORDER BY of the result over `x` (the inner row), e.g. "x.score DESC"."""
    vector = ""
    if identity is not None:
        vector = (", CASE WHEN m.emb_provider = %s AND m.emb_model = %s AND m.emb_dimension = %s "
                  "THEN m.embedding END")  # fmt: skip
    sql = (
        f"SELECT x.*, {select_list(MEMORY_COLUMNS)}{vector} FROM ({inner}) x JOIN memories m "
        f"ON {mine('m')} AND m.id = x.id "
        "LEFT JOIN memory_access a ON a.household = m.household AND a.id = m.id"
    )
    return sql + (f" ORDER BY {order}" if order else ""), [*(identity or ()), *params]


def row_select(alias: str = "m") -> str:
    """The memories row's columns (ROW_COLUMNS) of `alias` as `r_<column>`: a select list for an
    inner statement that with_access completes."""
    return ", ".join(f"{alias}.{c} AS r_{c}" for c in ROW_COLUMNS)


def with_access(inner: str, params: list[Any], lead: Sequence[str]) -> tuple[str, list[Any]]:
    """with_rows' rows (*lead, *memory's columns) for an `inner` statement over `memories` that
    selects its `lead` columns (the first named `id`) and row_select's itself: its memory's
    columns are not read again by id, only the access counts are joined."""
    counts = {"access_count": "coalesce(a.access_count, 0)", "last_accessed_at": "a.last_accessed_at"}
    memory = ", ".join(counts.get(c, f"x.r_{c}") for c in MEMORY_COLUMNS)
    sql = (
        f"SELECT {', '.join(f'x.{c}' for c in lead)}, {memory} FROM ({inner}) x "
        "LEFT JOIN memory_access a ON a.household = current_setting('memory.household') AND a.id = x.id"
    )
    return sql, params


def memory_at(row: Sequence[Any], start: int) -> Memory:
    """The memory whose columns (MEMORY_COLUMNS) start at `start` in a with_rows row."""
    return to_memory(row[start : start + len(MEMORY_COLUMNS)])
