"""The memory tools on the Assist API (the integration's LLM tool platform, llm.py), through HA's
real conversation component and chat log: an LLM agent with only "Assist" ticked remembers,
recalls and forgets as the speaker (case C36), and a turn with both Assist and the Memory API
gets one memory block and one set of memory tools.

`ScriptedLLM` (helpers_conversation) is plumbing: a conversation agent that does what an LLM agent
does with HA's chat log, the model's choices scripted per turn. The tools it calls, their results
and the stored rows are the integration's own.
"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm

from custom_components.memory.const import LLM_API_ID
from custom_components.memory.engine.models import Scope
from custom_components.memory.llm_api import IN_TURN_PROMPT, MEMORY_BLOCK_HEADER
from tests.conftest import Resident, async_call, both_stores

from .helpers_conversation import Model, ScriptedLLM, async_all_memories, async_scripted_llm, memory_agent_id

LLM_DOMAIN = "test_llm"
PLUMBER = "The plumber's number is 0151 2345"


async def _agent(hass: HomeAssistant, apis: list[str]) -> tuple[ScriptedLLM, str]:
    """A ScriptedLLM registered as the agent of a config entry; (agent, agent id)."""
    return await async_scripted_llm(hass, apis, domain=LLM_DOMAIN)


async def _say(
    hass: HomeAssistant, agent_id: str, text: str, who: Resident | None, conversation_id: str | None = None
) -> conversation.ConversationResult:
    return await conversation.async_converse(
        hass, text, conversation_id, who.context if who else Context(user_id=None), "en", agent_id=agent_id
    )


def _speech(result: conversation.ConversationResult) -> str:
    return str(result.response.speech["plain"]["speech"])


def _succeeded(result: llm.ToolResult) -> dict[str, Any]:
    assert result.error is False and result.data["success"] is True, result
    return result.data


# ------------------------------------------------------------------ the model's choices (C36)
async def _remember_plumber(model: Model) -> str:
    _succeeded(await model.call("memory__remember", content=PLUMBER))
    return "Noted."


async def _find_plumber(model: Model) -> str:
    """ "Forget it": the model finds what "it" is and asks, naming what it found."""
    found = _succeeded(await model.call("memory__find_to_forget", query="the plumber's number"))
    return "Should I forget " + "; ".join(f'"{c["content"]}"' for c in found["candidates"]) + "?"


async def _forget_found(model: Model) -> str:
    """ "Yes": the model forgets what it asked about, with the confirmation it was given."""
    (found,) = model.earlier_results("memory__find_to_forget")
    (candidate,) = found.data["candidates"]  # type: ignore[misc]
    done = _succeeded(
        await model.call("memory__forget", memory_id=candidate["id"], confirmation=candidate["confirmation"])
    )
    return f"Forgotten: {done['forgotten']}"


@both_stores
async def test_c36_assist_only_agent_remembers_and_forgets_after_asking(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident, caplog: pytest.LogCaptureFixture
) -> None:
    """Only "Assist" ticked: the memory tools are offered as memory__…, act as the speaker
    (Julian's words, stored with the scope his words get: the household's), and forget acts only
    after the question was asked and answered."""
    agent, agent_id = await _agent(hass, [llm.LLM_API_ASSIST])
    agent.script.extend([_remember_plumber, _find_plumber, _forget_found])

    first = await _say(hass, agent_id, "Remember that the plumber's number is 0151 2345", julian)
    assert {"memory__remember", "memory__recall", "memory__find_to_forget", "memory__forget"} <= set(
        agent.offered[0]
    )
    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.content, memory.speaker_id, memory.scope) == (PLUMBER, julian.person_id, Scope.SHARED)
    assert _speech(first) == "Noted."
    found = await async_call(hass, "recall", {"query": "plumber number"}, context=anna.context)
    assert [m["content"] for m in found["memories"]] == [PLUMBER]  # shared: Anna sees it too

    asked = await _say(hass, agent_id, "Forget it", julian, first.conversation_id)
    assert _speech(asked) == f'Should I forget "{PLUMBER}"?'
    assert [m.id for m in await async_all_memories(hass, memory_entry)] == [memory.id]  # asked, kept

    done = await _say(hass, agent_id, "Yes", julian, first.conversation_id)
    assert _speech(done) == f"Forgotten: {PLUMBER}"
    assert await async_all_memories(hass, memory_entry) == []
    # the platform's tools are as HA wants them: no report about prefix, integration or results
    assert "not prefixed" not in caplog.text
    assert "without an integration" not in caplog.text
    assert "returns a JSON object" not in caplog.text


async def test_assist_tools_are_bound_to_the_speaker(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident
) -> None:
    """Julian's private memory, stored through an Assist-only agent, is his: Anna's recall and
    find_to_forget through the same agent never see it, and a confirmation given to Julian does
    nothing for Anna."""
    agent, agent_id = await _agent(hass, [llm.LLM_API_ASSIST])
    seen: dict[str, Any] = {}

    async def remember(model: Model) -> str:
        seen["stored"] = _succeeded(await model.call("memory__remember", content="My dentist is Dr. Weber."))
        seen["julian"] = _succeeded(await model.call("memory__find_to_forget", query="dentist"))
        return "ok"

    async def look(model: Model) -> str:
        seen["recall"] = _succeeded(await model.call("memory__recall", query="Who is the dentist?"))
        seen["find"] = _succeeded(await model.call("memory__find_to_forget", query="dentist"))
        (candidate,) = seen["julian"]["candidates"]
        seen["forget"] = await model.call(
            "memory__forget", memory_id=candidate["id"], confirmation=candidate["confirmation"]
        )
        return "ok"

    agent.script.extend([remember, look])
    await _say(hass, agent_id, "Remember that my dentist is Dr. Weber.", julian)
    assert seen["stored"]["scope"] == "private"
    await _say(hass, agent_id, "Who is the dentist?", anna)
    assert seen["recall"]["memories"] == [] and seen["find"]["candidates"] == []
    assert seen["forget"] == llm.ToolResult(data={"success": False, "error": "not_confirmed"}, error=True)
    assert len(await async_all_memories(hass, memory_entry)) == 1


@both_stores
@pytest.mark.parametrize(
    "apis",
    [[llm.LLM_API_ASSIST, LLM_API_ID], [LLM_API_ID, llm.LLM_API_ASSIST]],
    ids=["assist-first", "memory-first"],
)
async def test_c36_both_apis_one_memory_block_one_set_of_tools(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, apis: list[str]
) -> None:
    """Assist and the Memory API ticked, in either order: the turn's prompt holds one memory block
    and the model is offered one tool per memory verb (from whichever API HA builds first), which
    works."""
    await async_call(hass, "remember", {"content": PLUMBER})
    agent, agent_id = await _agent(hass, apis)
    calls: list[llm.ToolResult] = []

    async def recall(model: Model) -> str:
        calls.append(await model.call_memory("recall", query="plumber"))
        return "ok"

    agent.script.append(recall)
    await _say(hass, agent_id, "What is the plumber's number?", julian)
    (prompt,) = agent.system_prompts
    assert prompt.count(MEMORY_BLOCK_HEADER) == 1
    assert f'"{PLUMBER}"' in prompt
    (offered,) = agent.offered
    for verb in ("remember", "replace", "recall", "find_to_forget", "forget"):  # named per release
        assert len([n for n in offered if n == verb or n.endswith(f"memory__{verb}")]) == 1, (verb, offered)
    (result,) = calls
    assert [m["content"] for m in _succeeded(result)["memories"]] == [PLUMBER]


@both_stores
async def test_c36_wrapped_by_the_memory_agent_one_memory_block(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    """The memory agent wrapping an LLM agent with Assist and the Memory API: the turn's block is
    in the system prompt once (the memory agent's), the Memory API only points at it, and the
    tools come once and act as the turn's speaker."""
    await async_call(hass, "remember", {"content": PLUMBER})
    agent, _ = await async_scripted_llm(
        hass, [llm.LLM_API_ASSIST, LLM_API_ID], domain=LLM_DOMAIN, wrapped_by=memory_entry
    )
    stored: list[llm.ToolResult] = []

    async def remember(model: Model) -> str:
        stored.append(await model.call_memory("remember", content="My gym locker is number 12."))
        return "ok"

    agent.script.append(remember)
    await conversation.async_converse(
        hass,
        "What is the plumber's number? Also remember that my gym locker is number 12.",
        None,
        julian.context,
        "en",
        agent_id=memory_agent_id(hass, memory_entry),
    )
    (prompt,) = agent.system_prompts
    assert prompt.count(MEMORY_BLOCK_HEADER) == 1 and f'"{PLUMBER}"' in prompt
    assert IN_TURN_PROMPT in prompt
    (offered,) = agent.offered
    assert len([n for n in offered if n.endswith("memory__remember")]) == 1, offered
    (result,) = stored
    assert _succeeded(result)["scope"] == "private"
    locker = [m for m in await async_all_memories(hass, memory_entry) if "locker" in m.content]
    assert [m.owner_id for m in locker] == [julian.person_id]


async def test_no_memory_tools_without_a_loaded_entry(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    """The integration stays loaded after its entry is unloaded; its tool platform then offers nothing."""
    agent, agent_id = await _agent(hass, [llm.LLM_API_ASSIST])
    await _say(hass, agent_id, "Hello", julian)
    await hass.config_entries.async_unload(memory_entry.entry_id)
    await _say(hass, agent_id, "Hello", julian)
    with_entry, without = agent.offered
    assert "memory__remember" in with_entry
    assert not any(name.startswith("memory__") for name in without)
