"""C38 memory on every turn: three questions and two speakers recognised by voice in one
conversation at the kitchen satellite, through a real Assist pipeline — on every Home Assistant
release the suite runs on (HA 2026.11+ keeps a chat log's API instance and system prompt between
turns for prompt caching; the memory must still be recalled for each question).

Set-ups: an LLM agent with the Memory API ticked (alone, and beside Assist) as the pipeline's
agent, and the memory agent wrapping that LLM agent (with the Memory API ticked, or only Assist).
Voices are real: espeak-ng speech through the entry's speaker recognition (Julian and Anna
enrolled from clips), the text handed to the pipeline's intent stage as a satellite's STT would.
The LLM agent is `ScriptedLLM` (plumbing: HA's chat log and tool calls, the model's choices
scripted): each turn it records the system prompt HA built and calls the memory `recall` tool
with the question; in Anna's turn it also asks `remember` to store a first-person fact.
"""

from __future__ import annotations

import asyncio
import contextvars
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from custom_components.memory.const import LLM_API_ID
from custom_components.memory.engine.models import Role, Scope
from tests.conftest import Resident, Room, async_call
from tests.speech import MEN, WOMEN, speak

from .helpers_conversation import (
    Model,
    async_all_memories,
    async_pipeline_say,
    async_say,
    async_scripted_llm,
    async_transcript,
    speech,
)
from .test_voice_identity import async_hear
from .voice_helpers import async_enrol_household

LLM_DOMAIN = "ollama"  # a local model (manifest iot_class local_*): it may read every memory told
KEY = "The spare key is in the blue tin in the hall."
WIFI = "The guest wifi password is sunflower42."
BINS = "The recycling bins go out on Tuesday evening."
JULIAN_BREAKFAST = "I like muesli with yoghurt for breakfast."
ANNA_BREAKFAST = "I like croissants with jam for breakfast."
ANNA_TEA = "I take my tea without sugar."
# (who, question, the memory that answers it); each question long enough that its voice is
# recognised at least ROUNDING_ROOM clear of its threshold (docs/voice.md "Thresholds": the fused
# recogniser scored "Where is the spare key?" 0.780 against 0.808, this one 0.882 against 0.844)
TURNS = (
    ("julian", "Where is the spare key for the front door?", KEY),
    ("julian", "What's the guest wifi password?", WIFI),
    ("anna", "What do I like for breakfast?", ANNA_BREAKFAST),
)
VOICES = {"julian": MEN[0], "anna": WOMEN[0]}  # as async_enrol_household enrols them

SETUPS = {
    "llm-agent-memory-api": (False, [LLM_API_ID]),
    "llm-agent-assist-and-memory-api": (False, ["assist", LLM_API_ID]),
    "memory-agent-wrapping-memory-api": (True, [LLM_API_ID]),
    "memory-agent-wrapping-assist": (True, ["assist"]),
}


async def _recall_then_answer(model: Model, question: str) -> list[str]:
    """What a model does with a question: looks it up with the memory tool; the contents found."""
    result = await model.call_memory("recall", query=question)
    assert result.data["success"] is True, result
    return [found["content"] for found in result.data["memories"]]


@pytest.fixture
async def household_memories(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident
) -> None:
    """Three shared memories and one private breakfast each, told through memory.remember."""
    for text, who in (
        (KEY, None),
        (WIFI, None),
        (BINS, None),
        (JULIAN_BREAKFAST, julian),
        (ANNA_BREAKFAST, anna),
    ):
        await async_call(
            hass,
            "remember",
            {"content": text, **({"person": who.person_id, "scope": "private"} if who else {})},
        )
    stored = {m.content: m for m in await async_all_memories(hass, memory_entry)}
    assert stored[JULIAN_BREAKFAST].scope is Scope.PRIVATE and stored[ANNA_BREAKFAST].scope is Scope.PRIVATE


@pytest.mark.parametrize("setup", list(SETUPS))
async def test_c38_memory_on_every_turn(  # noqa: PLR0917 (fixtures)
    hass: HomeAssistant,
    memory_entry: Any,
    media: Path,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    household_memories: None,
    setup: str,
) -> None:
    wrapped, apis = SETUPS[setup]
    people = dict(
        zip(("julian", "anna"), await async_enrol_household(hass, media, julian, anna), strict=True)
    )
    agent, agent_id = await async_scripted_llm(
        hass, apis, domain=LLM_DOMAIN, wrapped_by=memory_entry if wrapped else None
    )
    found: list[list[str]] = []
    questions = iter(TURNS)

    async def look_up(model: Model) -> str:
        _, question, _ = next(questions)
        found.append(await _recall_then_answer(model, question))
        return "ok"

    async def look_up_and_remember(model: Model) -> str:
        await look_up(model)
        result = await model.call_memory("remember", content=ANNA_TEA)
        assert result.data["success"] is True, result
        return "Noted."

    agent.script.extend([look_up, look_up, look_up_and_remember])
    conversation_id: str | None = None
    for who, question, _ in TURNS:
        await async_hear(memory_entry.runtime_data.recognizer, speak(question, VOICES[who]), question)
        said = await async_pipeline_say(
            hass,
            memory_entry,
            question,
            room=kitchen,
            conversation_id=conversation_id,
            agent_id=None if wrapped else agent_id,
        )
        conversation_id = said.conversation_id

    # each turn's prompt holds that question's memory; Anna's never Julian's private one
    assert len(agent.system_prompts) == 3
    for prompt, (who, question, answer) in zip(agent.system_prompts, TURNS, strict=True):
        assert answer in prompt, (who, question, prompt)
    assert JULIAN_BREAKFAST not in agent.system_prompts[2]
    assert "The speaker is Anna, recognised by voice." in agent.system_prompts[2]
    assert "The speaker is Julian, recognised by voice." in agent.system_prompts[1]
    # each tool call acts as that turn's speaker
    for results, (_, _, answer) in zip(found, TURNS, strict=True):
        assert answer in results, results
    assert JULIAN_BREAKFAST not in found[2]
    (tea,) = [m for m in await async_all_memories(hass, memory_entry) if m.content == ANNA_TEA]
    assert (tea.scope, tea.owner_id, tea.speaker_id) == (Scope.PRIVATE, anna.person_id, anna.person_id)
    # every user turn is in the transcripts, with its speaker
    said_turns = await async_transcript(hass, memory_entry.runtime_data.engine, conversation_id)
    users = [(t.text, t.speaker_id) for t in said_turns if t.role is Role.USER]
    assert users == [(question, people[who].person_id) for who, question, _ in TURNS]


async def test_c38_tools_kept_between_turns_act_as_each_turns_speaker(  # noqa: PLR0917 (fixtures)
    hass: HomeAssistant,
    memory_entry: Any,
    media: Path,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    household_memories: None,
) -> None:
    """An LLM agent with only Assist ticked keeps its tools from one turn to the next (HA 2026.11+
    reuses the API instance at a satellite, whose user and device never change): when Anna goes on
    with Julian's conversation, her tool calls read and write as Anna, never as Julian."""
    await async_enrol_household(hass, media, julian, anna)
    agent, agent_id = await async_scripted_llm(hass, ["assist"], domain=LLM_DOMAIN)
    breakfasts: list[list[str]] = []

    async def breakfast(model: Model) -> str:
        breakfasts.append(await _recall_then_answer(model, "What do I like for breakfast?"))
        return "ok"

    async def breakfast_and_tea(model: Model) -> str:
        await breakfast(model)
        result = await model.call_memory("remember", content=ANNA_TEA)
        assert result.data["success"] is True, result
        return "Noted."

    agent.script.extend([breakfast, breakfast_and_tea])
    conversation_id: str | None = None
    for who in ("julian", "anna"):
        question = "What do I like for breakfast?"
        await async_hear(memory_entry.runtime_data.recognizer, speak(question, VOICES[who]), question)
        said = await async_pipeline_say(
            hass,
            memory_entry,
            question,
            room=kitchen,
            conversation_id=conversation_id,
            agent_id=agent_id,
        )
        conversation_id = said.conversation_id
    julians, annas = breakfasts
    assert JULIAN_BREAKFAST in julians and ANNA_BREAKFAST not in julians
    assert ANNA_BREAKFAST in annas and JULIAN_BREAKFAST not in annas
    (tea,) = [m for m in await async_all_memories(hass, memory_entry) if m.content == ANNA_TEA]
    assert (tea.scope, tea.owner_id) == (Scope.PRIVATE, anna.person_id)


async def test_c38_after_a_reload_the_next_turn_recalls_on_the_new_store(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, kitchen: Room, household_memories: None
) -> None:
    """Saving the options reloads the entry in the middle of a conversation: the next question is
    recalled anew and its tools act on the reloaded store (HA 2026.11+ would otherwise keep the
    instance built before the reload, with its closed store)."""
    agent, agent_id = await async_scripted_llm(hass, [LLM_API_ID], domain=LLM_DOMAIN)
    found: list[list[str]] = []

    async def look_up_wifi(model: Model) -> str:
        found.append(await _recall_then_answer(model, "What's the guest wifi password?"))
        return "ok"

    agent.script.extend([_answer_ok, look_up_wifi])
    first = await conversation.async_converse(
        hass,
        "Where is the spare key?",
        None,
        julian.context,
        "en",
        agent_id=agent_id,
        device_id=kitchen.device_id,
    )
    await hass.config_entries.async_reload(memory_entry.entry_id)
    await hass.async_block_till_done()
    await conversation.async_converse(
        hass,
        "What's the guest wifi password?",
        first.conversation_id,
        julian.context,
        "en",
        agent_id=agent_id,
        device_id=kitchen.device_id,
    )
    assert KEY in agent.system_prompts[0] and WIFI in agent.system_prompts[1]
    assert WIFI in found[0], found


async def _answer_ok(model: Model) -> str:
    return "ok"


async def test_two_turns_of_one_conversation_at_once_are_both_answered(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, household_memories: None
) -> None:
    """Two people at the kitchen satellite in one conversation at the same moment (a second
    question while the LLM still answers the first): the memory agent answers the second after the
    first, each with its own memories; nobody gets an error (HA 2026.11+ refuses a second open
    turn of one chat log)."""
    agent, _ = await async_scripted_llm(hass, [LLM_API_ID], domain=LLM_DOMAIN, wrapped_by=memory_entry)
    first_in_llm = asyncio.Event()
    release = asyncio.Event()

    async def slow(model: Model) -> str:
        first_in_llm.set()
        await release.wait()
        return "In the blue tin."

    async def quick(model: Model) -> str:
        return "On Tuesday evening."

    first = await async_say(hass, memory_entry, "Hello there.", room=kitchen)
    conversation_id = first.conversation_id
    agent.script.extend([slow, quick])
    async with asyncio.timeout(30):  # a hang fails the test
        key_turn = hass.async_create_task(
            async_say(
                hass, memory_entry, "Where is the spare key?", room=kitchen, conversation_id=conversation_id
            )
        )
        await first_in_llm.wait()
        bins_turn = hass.async_create_task(
            async_say(
                hass,
                memory_entry,
                "When do the recycling bins go out?",
                room=kitchen,
                conversation_id=conversation_id,
            )
        )
        await asyncio.sleep(0.2)  # the second question arrives while the first is answered
        assert not bins_turn.done()  # it waits for the turn before, instead of failing
        release.set()
        key, bins = await key_turn, await bins_turn
    assert (speech(key), speech(bins)) == ("In the blue tin.", "On Tuesday evening.")
    assert KEY in agent.system_prompts[-2] and BINS in agent.system_prompts[-1]


@pytest.mark.skipif(
    not hasattr(conversation, "ConversationBusyError"), reason="HA before 2026.11 has no busy conversations"
)
@pytest.mark.parametrize(
    ("language", "said", "busy_reply"),
    [
        # a memory sentence (the memory agent opens the chat log)
        ("de", "Merk dir: der Schlüssel liegt im Keller.", "Ich beantworte hier noch die letzte Frage."),
        # a question no memory answers, for HA's own agent (it opens the chat log)
        ("it", "Qual è la capitale della Mongolia?", "Sto ancora rispondendo alla domanda precedente."),
        # a question for the wrapped LLM agent (it opens the chat log)
        ("en", "What should we cook tonight?", "I'm still answering the last question here."),
    ],
    ids=["memory-sentence", "ha-agent", "llm-agent"],
)
async def test_a_turn_while_something_else_holds_the_conversation_is_told_busy(  # noqa: PLR0917 (fixtures)
    hass: HomeAssistant, memory_entry: Any, julian: Resident, language: str, said: str, busy_reply: str
) -> None:
    """HA 2026.11+: while another agent's turn holds the conversation's chat log, a turn to the
    memory agent is answered "busy" in the asker's language, whoever would have answered it — no
    error, nothing stored."""
    if said.startswith("What should"):
        await async_scripted_llm(hass, [LLM_API_ID], domain=LLM_DOMAIN, wrapped_by=memory_entry)
    from homeassistant.helpers.chat_session import async_get_chat_session  # noqa: PLC0415

    first = await async_say(hass, memory_entry, "Where is the spare key?", who=julian)
    conversation_id = first.conversation_id
    held = conversation.ConversationInput(
        text="Hello",
        context=julian.context,
        conversation_id=conversation_id,
        device_id=None,
        satellite_id=None,
        language="en",
        agent_id="test",
    )
    with (
        async_get_chat_session(hass, conversation_id, context=julian.context) as session,  # type: ignore[call-arg]
        conversation.async_get_chat_log(hass, session, held),
    ):
        # a turn of its own, as another caller's: not inside this held chat log's context
        task = asyncio.get_running_loop().create_task(
            async_say(
                hass, memory_entry, said, language=language, who=julian, conversation_id=conversation_id
            ),
            context=contextvars.Context(),
        )
        async with asyncio.timeout(30):  # a hang fails the test
            busy = await task
    assert speech(busy).startswith(busy_reply)
    assert busy.response.response_type is not intent.IntentResponseType.ERROR
    assert not [m for m in await async_all_memories(hass, memory_entry) if "Keller" in m.content]
