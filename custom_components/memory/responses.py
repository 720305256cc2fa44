"""The answers the memory.* services and the panel's WebSocket commands share: memories as
response data (memory_dict and its kinds: a recall hit, a likely replacement, a value in a
memory's history, a pending memory), how much of the review backlog one answer lists, and the
report of a consolidation run (memory.consolidate, memory/consolidate). Documented in
docs/services.md.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import Context, HomeAssistant

from .audience import ADMIN
from .engine.api import Conflict
from .engine.audience import Audience
from .engine.models import Hit, Memory
from .engine_calls import async_run
from .judge import async_consolidate
from .runtime import MemoryConfigEntry

DEFAULT_PENDING_LIMIT = 50  # one review session's worth
MAX_PENDING_LIMIT = 500  # a whole backlog of a chatty household, still a bounded response
# What a reviewer needs to decide; owner/area are the caller's own or shared anyway.
PENDING_FIELDS = ("id", "content", "kind", "scope", "language", "created_at", "withheld")


def memory_dict(memory: Memory) -> dict[str, Any]:
    """A memory as service response data (JSON-safe; times ISO 8601 UTC). One withheld from the
    caller (engine/audience.py) has `content` null and `withheld` its reason; told, `withheld`
    is null."""
    return {
        "id": memory.id,
        "content": None if memory.withheld is not None else memory.content,
        "withheld": memory.withheld,
        "kind": memory.kind.value,
        "scope": memory.scope.value,
        "provenance": memory.provenance.value,
        "language": memory.language,
        "person": memory.owner_id,
        "said_by": memory.speaker_id,
        "area": memory.area_id,
        "created_at": memory.created_at.isoformat(),
    }


def conflict_dict(conflict: Conflict) -> dict[str, Any]:
    """A memory a new one may replace: the memory plus the relation and their similarity."""
    return {
        **memory_dict(conflict.memory),
        "relation": conflict.relation.value,
        "similarity": round(conflict.similarity, 4),
    }


def history_dict(memory: Memory) -> dict[str, Any]:
    """One value in a memory's history: memory_dict plus its status, what replaced it and the
    window it was current in (valid_to null: still current)."""
    return {
        **memory_dict(memory),
        "status": memory.status.value,
        "superseded_by": memory.superseded_by,
        "valid_from": (memory.valid_from or memory.created_at).isoformat(),
        "valid_to": None if memory.valid_to is None else memory.valid_to.isoformat(),
    }


def pending_dict(memory: Memory) -> dict[str, Any]:
    """A memory waiting for review: memory_dict's PENDING_FIELDS."""
    return {key: value for key, value in memory_dict(memory).items() if key in PENDING_FIELDS}


def hit_dict(hit: Hit) -> dict[str, Any]:
    """A recall hit: the memory plus its score, similarity, the factors behind the score and
    `outdated_by` (the id of a newer memory of the same answer that likely replaces it, or None)."""
    return {
        **memory_dict(hit.memory),
        "score": round(hit.score, 4),
        "similarity": round(hit.similarity, 4),
        "factors": {name: round(value, 4) for name, value in hit.factors.items()},
        "outdated_by": hit.outdated_by,
    }


async def async_consolidation_report(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    *,
    dry_run: bool,
    context: Context | None = None,
    audience: Audience = ADMIN,
) -> dict[str, Any]:
    """Consolidate now (judge.async_consolidate) and describe it: merged, superseded, pruned and
    the possible conflicts left for a person ({older, newer: {id, content}, similarity}: an
    administrator's view); with dry_run (`dry_run: true`) also what it would merge and supersede
    (`changes`: {id, content, status, by}) and prune (`prune`: ids of inferred guesses), and
    nothing is done; otherwise `judged`: the verdicts the AI Task applied (docs/consolidation.md).
    The same response for memory.consolidate and the panel's memory/consolidate; `context`, the
    request's, tells the judge whether a person asked (judge.async_judge_pairs). Raises
    EngineError."""
    report, judged = await async_consolidate(hass, entry, dry_run=dry_run, context=context)
    ids = [i for c in report.changes for i in (c.memory_id, c.by_id)]
    ids += [i for c in report.conflicts for i in (c.older_id, c.newer_id)]
    memories = await async_run(hass, _memories, entry.runtime_data.engine, ids, audience)

    def brief(memory_id: str) -> dict[str, Any]:
        memory = memories.get(memory_id)
        if memory is None or memory.withheld is not None:  # gone, or not for this caller's eyes
            return {"id": memory_id, "content": None}
        return {"id": memory_id, "content": memory.content}

    response: dict[str, Any] = {
        "merged": report.merged,
        "superseded": report.superseded,
        "pruned": report.pruned,
        "conflicts": [
            {"older": brief(c.older_id), "newer": brief(c.newer_id), "similarity": c.similarity}
            for c in report.conflicts
        ],
    }
    if dry_run:
        response["dry_run"] = True
        response["changes"] = [
            {**brief(c.memory_id), "status": c.status.value, "by": brief(c.by_id)} for c in report.changes
        ]
        response["prune"] = list(report.pruned_ids)  # inferred guesses: ids only
    else:
        response["judged"] = len(judged.applied)
    return response


def _memories(engine: Any, ids: list[str], audience: Audience) -> dict[str, Memory]:
    """The memories of `ids` (any status) told or withheld for `audience`, for the consolidate
    response's texts."""
    found = {mid: engine.get(mid, audience) for mid in dict.fromkeys(ids)}
    return {mid: m for mid, m in found.items() if m is not None}
