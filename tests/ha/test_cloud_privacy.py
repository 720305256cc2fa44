"""Sensitive memories never reach a cloud model: not in the memory agent's prompt to a cloud
agent, not in the Memory LLM API's prompt or tool results for a cloud platform. Cloud vs local
comes from the real manifests of HA's openai_conversation (cloud_polling) and ollama
(local_polling)."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from custom_components.memory.cloud import async_is_cloud_domain
from custom_components.memory.const import LLM_API_ID
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import async_say, async_wrap_recording_agent

GATE_CODE = "The code for the garden gate is 4711."
SPARE_KEY = "The spare key is in the blue tin."


async def _remember_both(hass: HomeAssistant) -> None:
    for content in (GATE_CODE, SPARE_KEY):
        await async_call(hass, "remember", {"content": content})


@pytest.mark.parametrize(
    ("domain", "cloud"),
    [("openai_conversation", True), ("ollama", False), ("conversation", False), ("no_such_thing", True)],
)
async def test_cloud_is_decided_by_manifest(
    hass: HomeAssistant, memory_entry: Any, domain: str, cloud: bool
) -> None:
    assert await async_is_cloud_domain(hass, domain) is cloud


@pytest.mark.parametrize(("domain", "sees_code"), [("openai_conversation", False), ("ollama", True)])
async def test_wrapped_cloud_agent_never_gets_a_sensitive_memory(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, kitchen: Room, domain: str, sees_code: bool
) -> None:
    await _remember_both(hass)
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True, domain=domain)

    await async_say(hass, memory_entry, "What is the code for the garden gate?", who=julian, room=kitchen)
    await async_say(hass, memory_entry, "Where is the spare key?", who=julian, room=kitchen)

    code_prompt, key_prompt = agent.extra_prompts
    assert ("4711" in code_prompt) is sees_code
    assert "blue tin" in key_prompt  # ordinary memories still reach it
    # one memory block per turn: the Memory API's part of the prompt points at it
    assert "4711" not in agent.api_prompts[0]
    assert "blue tin" not in agent.api_prompts[1]


async def test_cloud_llm_tools_never_return_a_sensitive_memory(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    await _remember_both(hass)

    async def tool(platform: str, name: str, **args: Any) -> Any:
        context = llm.LLMContext(
            platform=platform,
            context=julian.context,
            language="en",
            assistant=conversation.DOMAIN,
            device_id=None,
        )
        instance = await llm.async_get_api(hass, LLM_API_ID, context)
        return await instance.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args))

    for name in ("recall", "find_to_forget"):
        cloud = await tool("openai_conversation", name, query="garden gate code")
        local = await tool("ollama", name, query="garden gate code")
        assert "4711" not in str(cloud)
        assert "4711" in str(local)
