"""The LLM tool platform: the memory tools for every agent and MCP client of the Assist API.

Home Assistant asks each loaded integration's `llm.py` for tools when it builds the Assist API,
so an LLM agent with only "Assist" ticked (and HA's MCP server) gets remember, replace, recall,
find_to_forget and forget as `memory__remember` … — the same classes as the Memory API's tools
(llm_api.memory_tools), each call acting as the speaker of its turn (llm_api.bind). The per-turn
memory block stays the Memory API's; with both APIs selected, the tools come once
(llm_api.claim_tools).
"""

from __future__ import annotations

from homeassistant.components.llm import LLMTools
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import llm

from .const import DOMAIN
from .llm_api import claim_tools, memory_tools, tools_prompt
from .runtime import loaded_entry_or_none

# HA requires a platform's tool names to start with its domain (llm: TOOL_PREFIX_BREAKS_IN_HA_VERSION).
TOOL_PREFIX = f"{DOMAIN}__"


@callback
def async_get_tools(hass: HomeAssistant, llm_context: llm.LLMContext, api_id: str) -> LLMTools | None:
    """The memory tools (each call acts as its turn's speaker) and how to use them, for the Assist API;
    None for another API, without a loaded entry, or when the Memory API of the same build
    already offers them."""
    if api_id != llm.LLM_API_ASSIST:
        return None
    if (entry := loaded_entry_or_none(hass)) is None or not claim_tools(llm_context, "platform"):
        return None
    return LLMTools(
        tools=memory_tools(entry, prefix=TOOL_PREFIX),
        prompt=tools_prompt(TOOL_PREFIX),
    )
