"""A forgotten code said again in other words is not learned (C04, invariant 3): tombstones keep
keyed digests of the forgotten text's identifiers; the key lives in the config entry only."""

from __future__ import annotations

import json
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry

from custom_components.memory.const import CONF_ANCHOR_KEY, EVENT_MEMORY_LEARNED
from custom_components.memory.storage import ANCHOR_KEY_BYTES
from tests.conftest import Resident, Room, async_call, both_stores, setup_memory

from .helpers_conversation import async_all_memories, async_say
from .test_learning import _end_conversations, _learning, fact


@both_stores
async def test_c04_paraphrase_of_a_forgotten_code_is_not_learned(
    household: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
) -> None:
    entry, task, _ = await _learning(household, entry=memory_entry)
    assert len(bytes.fromhex(entry.data[CONF_ANCHOR_KEY])) == ANCHOR_KEY_BYTES
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    said = await async_say(household, entry, "Remember that the gate code is 4711", who=julian, room=kitchen)
    cid = said.conversation_id
    await async_say(household, entry, "Forget the gate code", who=julian, room=kitchen, conversation_id=cid)
    await async_say(household, entry, "yes", who=julian, room=kitchen, conversation_id=cid)
    assert await async_all_memories(household, entry) == []
    await _end_conversations(household, freezer)
    # the remark names the code without the word "code": it is sensitive, so no model sees it
    calls = len(task.calls)
    await async_say(
        household, entry, "By the way, the garden gate opens with 4711 now.", who=julian, room=kitchen
    )
    await _end_conversations(household, freezer)
    assert len(task.calls) == calls
    assert await async_all_memories(household, entry) == []
    # the real local model turned that remark into a candidate 0.56 similar to the tombstone; a
    # candidate like it from an innocent remark is still blocked by the tombstone
    task.script.append({"memories": [fact("The garden gate opens with 4711")], "summary": "About the gate."})
    await async_say(household, entry, "By the way, the garden gate works again.", who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert len(task.calls) == calls + 1
    assert events[-1].data["skipped_forgotten"] == 1 and events[-1].data["stored"] == 0
    assert await async_all_memories(household, entry) == []  # neither the fact nor the summary
    # only an explicit remember lifts the block
    await async_call(
        household, "remember", {"content": "The garden gate opens with 4711", "person": julian.person_id}
    )
    assert [m.content for m in await async_all_memories(household, entry)] == [
        "The garden gate opens with 4711"
    ]


async def test_anchor_key_is_added_to_old_entries_and_never_in_diagnostics(
    household: HomeAssistant, hass_client
) -> None:
    entry = await setup_memory(household)
    first = entry.data[CONF_ANCHOR_KEY]
    old = {k: v for k, v in entry.data.items() if k != CONF_ANCHOR_KEY}  # an entry from before (1.1)
    household.config_entries.async_update_entry(entry, data=old, minor_version=1)
    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    key = entry.data[CONF_ANCHOR_KEY]
    assert len(bytes.fromhex(key)) == ANCHOR_KEY_BYTES and key != first
    await household.config_entries.async_reload(entry.entry_id)  # kept from then on
    await household.async_block_till_done()
    assert entry.data[CONF_ANCHOR_KEY] == key

    assert await async_setup_component(household, "diagnostics", {})
    diagnostics = await get_diagnostics_for_config_entry(household, hass_client, entry)
    assert key not in json.dumps(diagnostics)
    assert diagnostics["entry"]["data"][CONF_ANCHOR_KEY] == "**REDACTED**"
