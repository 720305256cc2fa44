"""Property: whatever the household stores, the conversation and LLM doors show a memory to a
speaker in a room exactly when the visibility rule allows it (docs/design.md §5, invariant 1)."""

from __future__ import annotations

from typing import Any

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.const import LLM_API_ID
from custom_components.memory.engine.models import Speaker
from tests.conftest import Resident, Room

from .helpers_conversation import async_all_memories, async_say, speech

TOPICS = (
    "The boat is moored at pier seven.",
    "The piano tuner comes every May.",
    "The attic key hangs next to the fuse box.",
    "The bakery closes at noon on Saturdays.",
    "The cat gets half a can in the evening.",
)
WHO = ("julian", "anna", None)
ROOMS = ("kitchen", "hall")

memory_specs = st.lists(
    st.tuples(
        st.sampled_from(WHO),  # who says it
        st.sampled_from(("private", "room", "shared")),
        st.sampled_from(ROOMS),  # where it is said
        st.sampled_from(TOPICS),
    ),
    min_size=1,
    max_size=4,
    unique_by=lambda spec: spec[3],
)


def _visible(scope: str, owner: str | None, area: str, viewer: str | None, room: str) -> bool:
    """docs/design.md §5, written independently of the engine."""
    if scope == "shared":
        return True
    if scope == "room":
        return area == room
    return owner is not None and owner == viewer


async def _api(hass: HomeAssistant, who: Resident | None, room: Room) -> llm.APIInstance:
    return await llm.async_get_api(
        hass,
        LLM_API_ID,
        llm.LLMContext(
            platform="test_llm",
            context=who.context if who else Context(user_id=None),
            language="en",
            assistant=conversation.DOMAIN,
            device_id=room.device_id,
        ),
    )


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(specs=memory_specs)
async def test_visibility_through_llm_tools_and_conversation(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    specs: list[tuple[str | None, str, str, str]],
) -> None:
    people = {"julian": julian, "anna": anna, None: None}
    rooms = {"kitchen": kitchen, "hall": hall}
    engine = memory_entry.runtime_data.engine
    for memory in await async_all_memories(hass, memory_entry):  # a fresh household per example
        await hass.async_add_executor_job(engine.forget, memory.id, Speaker.administrator())

    stored: list[tuple[str, str, str | None, str]] = []  # (content, scope, owner, area)
    for who, scope, where, content in specs:
        api = await _api(hass, people[who], rooms[where])
        result = await api.async_call_tool(
            llm.ToolInput(tool_name="remember", tool_args={"content": content, "scope": scope})
        )
        if scope == "private" and who is None:
            assert result == llm.ToolResult(data={"success": False, "error": "unknown_speaker"}, error=True)
            continue
        assert result.data["success"], result
        stored.append((content, scope, who, where))

    for viewer in WHO:
        for room in ROOMS:
            api = await _api(hass, people[viewer], rooms[room])
            for content, scope, owner, area in stored:
                expected = _visible(scope, owner, area, viewer, room)
                recalled = await api.async_call_tool(
                    llm.ToolInput(tool_name="recall", tool_args={"query": content})
                )
                assert (content in [m["content"] for m in recalled.data["memories"]]) == expected, (
                    viewer,
                    room,
                    content,
                )
                answer = await async_say(
                    hass,
                    memory_entry,
                    f"What do you know about {content.rstrip('.').lower()}?",
                    who=people[viewer],
                    room=rooms[room],
                )
                if not expected:
                    assert content not in speech(answer), (viewer, room, content)
