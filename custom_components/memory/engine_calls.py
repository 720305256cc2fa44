"""The async doors to the blocking engine: every engine call runs in HA's executor through
async_run (the one place that feeds the store's health), recall through async_recall."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant

from .engine.api import StoreUnavailable
from .engine.audience import Audience
from .engine.engine import MemoryEngine
from .engine.inputs import recall_query
from .engine.models import Hit
from .runtime import MemoryRuntimeData, loaded_entry_or_none
from .speaker import areas_named, persons_named

if TYPE_CHECKING:
    from .health import StoreHealth

# The engine's methods that return memories to a caller: each needs the request's Audience.
TELLING = frozenset({
    "recall", "find_to_forget", "remember", "history", "lineage", "get", "find", "list_memories",
    "list_pending", "pending_review", "forget", "approve", "approve_pending", "reject",
})  # fmt: skip


async def async_run[T](hass: HomeAssistant, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a blocking engine call in HA's executor (never on the event loop).

    The one door of every engine call, so the one place that classifies store failures for the
    loaded entry's store health (health.StoreHealth): a StoreUnavailable from the engine is
    checked by the health (a fault of the file, is the store reachable at all, or was it this
    call?) and raised on as it is (its `writing` says whether a write was refused). A store
    known to be down fails at once by itself (the PostgreSQL store's breaker).

    A door that names no audience cannot call an engine method that tells memories (TELLING):
    TypeError before anything runs (audience.py builds one)."""
    if _tells(func) and not any(isinstance(arg, Audience) for arg in (*args, *kwargs.values())):
        raise TypeError(
            f"MemoryEngine.{getattr(func, '__name__', '')} needs the request's Audience (audience.py)"
        )
    health = _health(hass)
    engine_call = health is not None and getattr(func, "__self__", None) is health.engine
    try:
        if kwargs:
            result = await hass.async_add_executor_job(lambda: func(*args, **kwargs))
        else:
            result = await hass.async_add_executor_job(func, *args)
    except StoreUnavailable as err:
        if health is not None and engine_call:
            await health.async_check(err)
        raise
    if health is not None and engine_call:
        health.answered(reached=func != health.engine.recall)
    return result


def _tells(func: Callable[..., Any]) -> bool:
    """`func` is a MemoryEngine method that returns memories to a caller (TELLING)."""
    return getattr(func, "__name__", None) in TELLING and isinstance(
        getattr(func, "__self__", None), MemoryEngine
    )


def _health(hass: HomeAssistant) -> StoreHealth | None:
    """The loaded entry's store health; None while none is loaded (set-up, unload)."""
    entry = loaded_entry_or_none(hass)
    return entry.runtime_data.health if entry is not None else None


async def async_recall(
    hass: HomeAssistant, data: MemoryRuntimeData, query: str, audience: Audience, **overrides: Any
) -> list[Hit]:
    """Recall for the audience (audience.py: each hit told or withheld for it) with the entry's
    options and the persons and areas the query names (speaker.persons_named,
    speaker.areas_named); never raises (engine contract). While the store is known to be down
    (health.py) it answers [] at once: the turn goes on without memories and without waiting on
    an unreachable database."""
    if data.health.down:
        return []
    query = recall_query(query)  # what the engine reads of it: the names are looked for there too
    if "named_persons" not in overrides:
        overrides["named_persons"] = persons_named(hass, query)
    if "named_areas" not in overrides:
        overrides["named_areas"] = areas_named(hass, query)
    try:
        return await async_run(hass, data.engine.recall, query, audience, data.recall_options(**overrides))
    except Exception:
        return []
