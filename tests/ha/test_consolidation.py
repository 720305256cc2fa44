"""memory.consolidate over memories without a fact key, through the real service: restatements
merged, likely replacements reported — and judged by an AI Task when one is configured (a
scripted entity: the verdict comes from the test), dry run, the `memory_consolidated` event."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.memory.const import EVENT_MEMORY_CONSOLIDATED
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker, Status
from custom_components.memory.engine.writer import embedding_text
from tests.conftest import async_call, setup_memory

from .helpers_conversation import async_all_memories
from .test_learning import _learning

ADMIN = Speaker.administrator()
BINS = ("The bins are emptied on Tuesdays.", "Bin day is Tuesday.")
PUMP = ("The bike pump is in the garage.", "The bike pump is in the cellar.")


async def _said(hass: HomeAssistant, entry: Any, content: str, age_days: int) -> Memory:
    """A household memory without a fact key, straight to the store (as an older version or two
    doors at once left it: the writer never read it against the others)."""
    created = dt_util.utcnow() - timedelta(days=age_days)
    memory = Memory(
        id=uuid.uuid4().hex,
        content=content,
        kind=Kind.FACT,
        language="en",
        provenance=Provenance.CONFIRMED,
        scope=Scope.SHARED,
        owner_id=None,
        area_id=None,
        created_at=created,
        updated_at=created,
    )
    engine = entry.runtime_data.engine
    vector = await hass.async_add_executor_job(engine.embedder.embed, [embedding_text(content)])
    await hass.async_add_executor_job(engine.store.add, memory, vector[0])
    return memory


async def _household_memories(hass: HomeAssistant, entry: Any) -> tuple[Memory, ...]:
    return (
        await _said(hass, entry, BINS[0], 4),
        await _said(hass, entry, BINS[1], 3),
        await _said(hass, entry, PUMP[0], 2),
        await _said(hass, entry, PUMP[1], 1),
    )


async def _status(hass: HomeAssistant, entry: Any, memory_id: str) -> Status:
    memory = await hass.async_add_executor_job(entry.runtime_data.engine.get, memory_id, ADMIN)
    assert memory is not None
    return memory.status


async def test_without_a_judge_restatements_merge_and_replacements_are_reported(
    household: HomeAssistant, memory_entry: Any
) -> None:
    events = async_capture_events(household, EVENT_MEMORY_CONSOLIDATED)
    bins_old, bins_new, garage, cellar = await _household_memories(household, memory_entry)

    plan = await async_call(household, "consolidate", {"dry_run": True})
    assert plan["dry_run"] is True
    assert (plan["merged"], plan["superseded"], plan["pruned"]) == (1, 0, 0)
    assert plan["changes"] == [
        {
            "id": bins_old.id,
            "content": BINS[0],
            "status": "archived",
            "by": {"id": bins_new.id, "content": BINS[1]},
        }
    ]
    assert [(c["older"], c["newer"]) for c in plan["conflicts"]] == [
        ({"id": garage.id, "content": PUMP[0]}, {"id": cellar.id, "content": PUMP[1]})
    ]
    assert len(await async_all_memories(household, memory_entry)) == 4  # a dry run does nothing
    assert events == []

    done = await async_call(household, "consolidate", {})
    assert (done["merged"], done["superseded"], done["judged"]) == (1, 0, 0)
    assert done["conflicts"] == plan["conflicts"]  # left for a person
    assert sorted(m.content for m in await async_all_memories(household, memory_entry)) == sorted(
        [BINS[1], *PUMP]
    )
    assert await _status(household, memory_entry, bins_old.id) is Status.ARCHIVED
    assert [e.data for e in events] == [
        {"merged": 1, "superseded": 0, "pruned": 0, "conflicts": 1, "judged": 0}
    ]
    assert memory_entry.runtime_data.possible_conflicts == 1


async def test_the_ai_task_judges_a_possible_conflict(household: HomeAssistant) -> None:
    entry, task, _ = await _learning(household)
    events = async_capture_events(household, EVENT_MEMORY_CONSOLIDATED)
    _, _, garage, cellar = await _household_memories(household, entry)
    task.script.append({"relation": "replaces"})
    done = await async_call(household, "consolidate", {})
    assert (done["merged"], done["superseded"], done["judged"], done["conflicts"]) == (1, 1, 1, [])
    (call,) = task.calls
    assert PUMP[0] in call.instructions and PUMP[1] in call.instructions
    assert call.instructions.index(PUMP[0]) < call.instructions.index(PUMP[1])  # older first
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED
    assert await _status(household, entry, cellar.id) is Status.ACTIVE
    assert events[-1].data == {"merged": 1, "superseded": 1, "pruned": 0, "conflicts": 0, "judged": 1}
    again = await async_call(household, "consolidate", {})
    assert (again["merged"], again["superseded"], again["conflicts"]) == (0, 0, [])
    assert len(task.calls) == 1  # nothing left to ask


async def test_an_unclear_verdict_leaves_the_pair_for_a_person(household: HomeAssistant) -> None:
    entry, task, _ = await _learning(household)
    _, _, garage, cellar = await _household_memories(household, entry)
    task.script.extend([{"relation": "probably"}, {"relation": "adds_detail"}])
    first = await async_call(household, "consolidate", {})
    assert [(c["older"]["id"], c["newer"]["id"]) for c in first["conflicts"]] == [(garage.id, cellar.id)]
    assert await _status(household, entry, garage.id) is Status.ACTIVE
    second = await async_call(household, "consolidate", {})  # asked again; now a clear answer
    assert (second["judged"], second["conflicts"]) == (1, [])
    assert {await _status(household, entry, m.id) for m in (garage, cellar)} == {Status.ACTIVE}
    third = await async_call(household, "consolidate", {})
    assert third["conflicts"] == [] and len(task.calls) == 2  # the verdict is kept


async def test_the_last_consolidation_survives_a_reload(
    household: HomeAssistant, memory_entry: Any, hass_storage: dict[str, Any], hass_ws_client: Any
) -> None:
    """When the last real run ended (memory/overview's `last_consolidation`) and the conflicts it
    left (diagnostics) are kept in HA's storage: a reload (as a restart) reads them back; a dry
    run records nothing; deleting the entry deletes the record."""
    key = f"memory.{memory_entry.entry_id}.consolidation"
    client = await hass_ws_client(household)

    async def overview() -> Any:
        await client.send_json_auto_id({"type": "memory/overview"})
        response = await client.receive_json()
        assert response["success"], response
        return response["result"]["last_consolidation"]

    await _household_memories(household, memory_entry)
    await async_call(household, "consolidate", {"dry_run": True})
    assert (await overview(), memory_entry.runtime_data.possible_conflicts) == (None, None)
    assert key not in hass_storage
    started = dt_util.utcnow()
    await async_call(household, "consolidate", {})
    ran = memory_entry.runtime_data.last_consolidation
    assert ran is not None and ran >= started
    assert await overview() == ran.isoformat()
    assert hass_storage[key]["data"] == {"last_consolidation": ran.isoformat(), "possible_conflicts": 1}

    assert await household.config_entries.async_reload(memory_entry.entry_id)
    await household.async_block_till_done()
    data = memory_entry.runtime_data  # a new one, read back from the storage
    assert (data.last_consolidation, data.possible_conflicts) == (ran, 1)
    assert await overview() == ran.isoformat()

    await household.config_entries.async_remove(memory_entry.entry_id)
    await household.async_block_till_done()
    assert key not in hass_storage


async def test_an_unreadable_consolidation_record_is_no_consolidation(
    household: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    entry = await setup_memory(household)
    assert await household.config_entries.async_unload(entry.entry_id)
    key = f"memory.{entry.entry_id}.consolidation"
    hass_storage[key] = {"version": 1, "key": key, "data": {"last_consolidation": "yesterday"}}
    assert await household.config_entries.async_setup(entry.entry_id)
    await household.async_block_till_done()
    assert (entry.runtime_data.last_consolidation, entry.runtime_data.possible_conflicts) == (None, None)
