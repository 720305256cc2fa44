"""C39's edges, found by probing: what a caller may not be told is never read back to it —
not in the memory that a restatement confirms, not in a memory reply the chat log keeps for a
cloud model, not in the report an automation gets from memory.consolidate."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope
from custom_components.memory.engine.writer import embedding_text
from custom_components.memory.llm_api import WITHHELD_REPLY
from tests.conftest import Resident, Room, async_call
from tests.ha.helpers_conversation import async_say, async_scripted_llm, memory_agent_id, speech

WIFI = "The wifi password is sunflower."
GATE = "The code for the garden gate is 4711."


async def test_a_guess_confirms_a_memory_without_reading_it_back(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, kitchen: Room
) -> None:
    """A guest guessing "wifi password" restates Julian's memory: the service, the memory agent
    at a satellite and in the Assist dialog say it was known, never what it says; Julian hears it."""
    await async_call(hass, "remember", {"content": WIFI}, context=julian.context)
    user = await hass.auth.async_create_user("Guest", group_ids=["system-users"])
    guest = Context(user_id=user.id)
    for context in (guest, Context()):  # a guest account, an automation
        guessed = await async_call(hass, "remember", {"content": "The wifi password"}, context=context)
        assert guessed["action"] == "confirmed"
        assert "sunflower" not in json.dumps(guessed)
        assert guessed["memory"]["withheld"] == "sensitive_unknown_speaker"
    agent_id = memory_agent_id(hass, memory_entry)
    for said in ("Remember the wifi password", "Remember: wifi password"):
        at_satellite = speech(await async_say(hass, memory_entry, said, room=kitchen))
        typed = speech(await conversation.async_converse(hass, said, None, guest, "en", agent_id=agent_id))
        assert "sunflower" not in at_satellite + typed, (said, at_satellite, typed)
    member = await async_call(hass, "remember", {"content": "The wifi password"}, context=julian.context)
    assert member["memory"]["content"] == WIFI


async def test_a_memory_reply_reaches_a_cloud_model_without_the_secret(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    """Julian hears his codes from the memory agent; the cloud model it wraps reads the same
    conversation later, and its chat log holds WITHHELD_REPLY where a code was read out."""
    for content in (WIFI, GATE):
        await async_call(hass, "remember", {"content": content}, context=julian.context)
    history: list[str] = []

    async def step(model: Any) -> str:
        history.extend(str(getattr(c, "content", "")) for c in model._chat_log.content)
        return "It is sunny."

    agent, _ = await async_scripted_llm(
        hass, ["memory"], domain="openai_conversation", wrapped_by=memory_entry
    )
    agent.script.append(step)
    heard, conversation_id = [], None
    for said in (
        "Forget the code for the garden gate",
        "no",
        "Remember the wifi password",
        "How is the weather?",
    ):
        result = await async_say(hass, memory_entry, said, who=julian, conversation_id=conversation_id)
        conversation_id = result.conversation_id
        heard.append(speech(result))
    assert "4711" in heard[0] and "sunflower" in heard[2], heard  # Julian, at home, hears them
    assert history, "the cloud model was asked"
    assert not any("4711" in text or "sunflower" in text for text in history), history
    assert WITHHELD_REPLY in history


async def _told(hass: HomeAssistant, entry: Any, content: str, age_days: int, owner: str) -> None:
    """A private memory of `owner` told `age_days` ago (as consolidation finds old ones)."""
    created = dt_util.utcnow() - timedelta(days=age_days)
    memory = Memory(
        id=uuid.uuid4().hex, content=content, kind=Kind.FACT, language="en", provenance=Provenance.CONFIRMED,
        scope=Scope.PRIVATE, owner_id=owner, area_id=None, created_at=created, updated_at=created,
        speaker_id=owner,
    )  # fmt: skip
    engine = entry.runtime_data.engine
    (vector,) = await hass.async_add_executor_job(engine.embedder.embed, [embedding_text(content)])
    await hass.async_add_executor_job(engine.store.add, memory, vector)


async def test_an_automation_consolidating_reads_no_private_memory(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, hass_admin_user: Any
) -> None:
    """memory.consolidate run by an automation (no user) reports Julian's private pairs by id,
    their texts withheld; an administrator's run reads them."""
    await _told(hass, memory_entry, "My dentist is in the old town.", 4, julian.person_id)
    await _told(hass, memory_entry, "My dentist is in the new town.", 2, julian.person_id)
    await _told(hass, memory_entry, "I am seeing Maria secretly.", 4, julian.person_id)
    await _told(hass, memory_entry, "I'm seeing Maria secretly.", 2, julian.person_id)
    unattended = await async_call(hass, "consolidate", {"dry_run": True}, context=Context())
    assert unattended["changes"] or unattended["conflicts"], unattended
    assert "dentist" not in json.dumps(unattended) and "Maria" not in json.dumps(unattended)
    admin = await async_call(
        hass, "consolidate", {"dry_run": True}, context=Context(user_id=hass_admin_user.id)
    )
    assert "Maria" in json.dumps(admin) or "dentist" in json.dumps(admin)
