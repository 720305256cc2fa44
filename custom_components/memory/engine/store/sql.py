"""The visibility rule and "current" compiled to SQL, for every SQL backend (SQLite, PostgreSQL).

Both compile Visibility.grants() / Visibility.as_of (store/base.py) and nothing else: a backend
passes its parameter mark ("?" or "%s"), how it stores a moment (`stamp`) and whether columns are
wrapped in a unary + (SQLite: so its planner never drives a lookup by scope, a multi-index OR over
half the table; queries go by id, FTS rowid or created_at and filter on this).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from types import NoneType, UnionType
from typing import Any, get_args, get_type_hints

from ..models import STORED_FIELDS, Memory, Status
from .base import MemoryFilter, Visibility

# The columns of a memory row as every SQL backend reads and writes them: the stored fields of
# models.Memory (STORED_FIELDS, the one declaration), in its order; rows.py of each backend maps
# them to and from Memory by MEMORY_TYPES.
MEMORY_COLUMNS: tuple[str, ...] = STORED_FIELDS


def _stored_types() -> dict[str, type]:
    """Each stored field's type with None left aside, read off Memory's annotations."""
    hints = get_type_hints(Memory)
    out: dict[str, type] = {}
    for name in STORED_FIELDS:
        hint = hints[name]
        types = [t for t in get_args(hint) if t is not NoneType] if isinstance(hint, UnionType) else [hint]
        if len(types) != 1 or not isinstance(types[0], type):
            raise TypeError(f"Memory.{name}: a stored field holds one type or None, not {hint}")
        out[name] = types[0]
    return out


# What each backend's codec converts per column: an Enum (stored as its value), datetime, bool,
# int, float or str.
MEMORY_TYPES: dict[str, type] = _stored_types()
SELECT_MEMORY = "SELECT " + ", ".join(f"m.{c}" for c in MEMORY_COLUMNS) + " FROM memories m"


def neighbour_windows(
    rows: list[tuple[str, str, bool]], ids: list[str], window: int
) -> dict[str, list[tuple[str, int]]]:
    """neighbours' answer from the candidate rows: `rows` are (id, source_ref, sensitive) of the
    current visible memories of the wanted source_refs, ordered by source_ref then conversation
    order; for each of `ids` among them, the non-sensitive members of its source_ref at most
    `window` places away, as [(id, distance ≥ 1)] in order."""
    by_ref: dict[str, list[tuple[str, bool]]] = {}
    for mid, ref, sensitive in rows:
        by_ref.setdefault(ref, []).append((mid, bool(sensitive)))
    wanted = set(ids)
    out: dict[str, list[tuple[str, int]]] = {}
    for members in by_ref.values():
        for pos, (mid, _) in enumerate(members):
            if mid in wanted:
                lo, hi = max(0, pos - window), min(len(members), pos + window + 1)
                out[mid] = [(members[p][0], abs(p - pos)) for p in range(lo, hi)
                            if p != pos and not members[p][1]]  # fmt: skip
    return out


# a memory current at some moment was ACTIVE then: it still is, or was SUPERSEDED since (ARCHIVED
# ones were paraphrases of a value kept current, PENDING ones never current)
ONCE_CURRENT: tuple[Status, ...] = (Status.ACTIVE, Status.SUPERSEDED)


def _literals(values: tuple[Any, ...]) -> str:
    return ", ".join(f"'{v.value}'" for v in values)


def visibility_sql(
    vis: Visibility, *, alias: str = "m", mark: str = "?", opaque: bool = False
) -> tuple[str, list[Any]]:
    """The visibility rule as a SQL condition on `alias` and its parameters (THE SQL compilation).

    mark: the driver's parameter placeholder; opaque: prefix columns with unary + (SQLite)."""
    grants = vis.grants()
    if grants is None:
        return "TRUE", []
    plus = "+" if opaque else ""
    scope = f"{plus}{alias}.scope"
    always = tuple(g.scope for g in grants if g.column is None)
    parts = [f"{scope} IN ({_literals(always)})"] if always else []
    params: list[Any] = []
    for grant in grants:
        if grant.column is None:
            continue
        n = len(grant.values)
        test = f"= {mark}" if n == 1 else f"IN ({', '.join([mark] * n)})"
        parts.append(f"({scope} = '{grant.scope.value}' AND {plus}{alias}.{grant.column} {test})")
        params.extend(grant.values)
    return "(" + " OR ".join(parts) + ")", params


def filter_sql(where: MemoryFilter, *, alias: str = "m", mark: str = "?") -> tuple[str, list[Any]]:
    """A listing's filter (MemoryFilter) as a SQL condition on `alias` and its parameters, for
    every SQL backend: each set field one equality, `person` as owner OR teller."""
    parts, params = ["TRUE"], []
    for column, value in (
        ("kind", where.kind), ("scope", where.scope), ("provenance", where.provenance),
        ("status", where.status), ("area_id", where.area), ("language", where.language),
        ("speaker_id", where.said_by),
    ):  # fmt: skip
        if value is not None:
            parts.append(f"{alias}.{column} = {mark}")
            params.append(str(value))
    if where.person is not None:
        parts.append(f"({alias}.owner_id = {mark} OR {alias}.speaker_id = {mark})")
        params += [where.person, where.person]
    return " AND ".join(parts), params


def current_sql(
    vis: Visibility,
    *,
    alias: str = "m",
    mark: str = "?",
    opaque: bool = False,
    stamp: Callable[[datetime], Any] = lambda at: at,
) -> tuple[str, list[Any]]:
    """The condition "current" as SQL on `alias` (THE compilation): status active; with vis.as_of
    the memories current at that moment — active or superseded, valid from (valid_from, else
    created_at) at or before it and valid_to (None: still current) after it. stamp: the moment as
    the backend stores it (ISO text for SQLite, timestamptz for PostgreSQL)."""
    status = f"{'+' if opaque else ''}{alias}.status"
    if vis.as_of is None:
        return f"{status} = '{Status.ACTIVE.value}'", []
    at = stamp(vis.as_of)
    return (
        f"{status} IN ({_literals(ONCE_CURRENT)}) AND coalesce({alias}.valid_from, {alias}.created_at) "
        f"<= {mark} AND ({alias}.valid_to IS NULL OR {alias}.valid_to > {mark})",
        [at, at],
    )


def tally(rows: list[Any]) -> dict[str, int]:
    """MemoryStore.counts' memory keys from (scope, status, provenance, n) groups, for every SQL
    backend: memories, active, and scope:/provenance: (active) and status: counts."""
    out: dict[str, int] = {"memories": 0, "active": 0}
    for scope, status, provenance, n in rows:
        out["memories"] += n
        out[f"status:{status}"] = out.get(f"status:{status}", 0) + n
        if status == Status.ACTIVE.value:
            out["active"] += n
            for key in (f"scope:{scope}", f"provenance:{provenance}"):
                out[key] = out.get(key, 0) + n
    return out


def tally_tombstones(rows: list[Any]) -> dict[str, int]:
    """MemoryStore.counts' tombstone keys from (scope, n) groups of unlifted tombstones."""
    out = {"tombstones": sum(n for _, n in rows)}
    out.update({f"tombstone_scope:{scope}": n for scope, n in rows})
    return out
