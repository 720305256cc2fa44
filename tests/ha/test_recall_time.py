"""Truth over time (issue 13) at the household's doors: the bike pump moved to the cellar three
weeks after it was said to be in the garage, and nobody answered "Should this replace it?".
The answer without an LLM quotes the cellar; an LLM's memory block marks the garage as older;
the recall tool and the memory.recall service say which memory likely replaces which."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from custom_components.memory.const import LLM_API_ID
from custom_components.memory.llm_api import OUTDATED_NOTE
from tests.case_texts import C23 as PUMP
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import async_all_memories, async_say, async_wrap_recording_agent, speech


async def _moved_unsettled(
    hass: HomeAssistant,
    entry: Any,
    freezer: FrozenDateTimeFactory,
    *,
    who: Resident,
    room: Room,
    language: str,
) -> None:
    """The pump is told in the garage, three weeks later in the cellar (in English as Julian's own:
    "I put …", a private memory; the writer asks "Should this replace it?" only within one bucket);
    nobody settles it: both stay current."""
    first, later, *_ = PUMP[language]
    await async_say(hass, entry, first, language=language, who=who, room=room)
    freezer.tick(timedelta(weeks=3))
    await async_say(hass, entry, later, language=language, who=who, room=room)
    places = PUMP[language][3:]
    assert sorted(
        p for m in await async_all_memories(hass, entry) for p in places if p in m.content
    ) == sorted(places)
    freezer.tick(timedelta(minutes=10))  # nobody answers; the next question is another conversation


@pytest.mark.parametrize("language", list(PUMP))
async def test_the_answer_without_llm_quotes_the_newer_place(
    hass: HomeAssistant,
    memory_entry: Any,
    freezer: FrozenDateTimeFactory,
    *,
    julian: Resident,
    hall: Room,
    language: str,
) -> None:
    await _moved_unsettled(hass, memory_entry, freezer, who=julian, room=hall, language=language)
    _, _, question, old_place, new_place = PUMP[language]
    answer = speech(await async_say(hass, memory_entry, question, language=language, who=julian, room=hall))
    assert new_place in answer
    assert old_place not in answer


async def test_an_llm_sees_the_garage_marked_older(
    hass: HomeAssistant, memory_entry: Any, freezer: FrozenDateTimeFactory, julian: Resident, hall: Room
) -> None:
    agent = await async_wrap_recording_agent(hass, memory_entry)
    await _moved_unsettled(hass, memory_entry, freezer, who=julian, room=hall, language="en")
    await async_say(hass, memory_entry, "Where is the bike pump?", who=julian, room=hall)
    lines = agent.extra_prompts[-1].splitlines()
    (garage,) = [line for line in lines if "garage" in line]
    (cellar,) = [line for line in lines if "cellar" in line]
    assert OUTDATED_NOTE in garage
    assert OUTDATED_NOTE not in cellar
    assert lines.index(cellar) < lines.index(garage)


async def test_the_recall_tool_and_service_say_which_replaces_which(
    hass: HomeAssistant, memory_entry: Any, freezer: FrozenDateTimeFactory, julian: Resident, hall: Room
) -> None:
    await _moved_unsettled(hass, memory_entry, freezer, who=julian, room=hall, language="en")
    found = await async_call(hass, "recall", {"query": "Where is the bike pump?"}, context=julian.context)
    by_place = {("cellar" if "cellar" in m["content"] else "garage"): m for m in found["memories"]}
    assert by_place["garage"]["outdated_by"] == by_place["cellar"]["id"]
    assert by_place["cellar"]["outdated_by"] is None

    api = await llm.async_get_api(
        hass,
        LLM_API_ID,
        llm.LLMContext(
            platform="test_llm",
            context=julian.context,
            language="en",
            assistant=conversation.DOMAIN,
            device_id=hall.device_id,
        ),
    )
    result = await api.async_call_tool(
        llm.ToolInput(tool_name="recall", tool_args={"query": "Where is the bike pump?"})
    )
    tool_by_place = {("cellar" if "cellar" in m["content"] else "garage"): m for m in result.data["memories"]}
    assert tool_by_place["garage"]["outdated_by"] == tool_by_place["cellar"]["id"]
