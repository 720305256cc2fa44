"""Transcripts on the HA side: verbatim turns from the memory agent and the Memory LLM API
(recorded once), the retention purge at set-up and daily, and the consent options."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.memory.const import (
    CONF_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS,
    CONF_TRANSCRIPT_RETENTION_DAYS,
    LLM_API_ID,
)
from custom_components.memory.conversation import chat_session
from custom_components.memory.engine.models import Role, TranscriptTurn
from custom_components.memory.transcripts import PURGE_INTERVAL, learning_allowed
from tests.conftest import Resident, Room, setup_memory

from .helpers_conversation import (
    async_all_memories,
    async_say,
    async_transcript,
    async_wrap_recording_agent,
    speech,
)

# Per language: a question the wrapped agent answers, and a remember sentence the memory agent handles.
TURNS = {
    "en": ("  Where is the spare key for the cellar?? ", "Remember that I like short answers."),
    "de": ("Wo ist der Ersatzschlüssel für den Keller?", "Merk dir, dass ich kurze Antworten mag."),
    "it": ("Dov'è la chiave di riserva della cantina?", "Ricorda che mi piacciono le risposte brevi."),
}


async def _conversation(hass: HomeAssistant, entry: Any, conversation_id: str) -> list[TranscriptTurn]:
    engine = entry.runtime_data.engine
    turns: list[TranscriptTurn] = await async_transcript(hass, engine, conversation_id)
    return turns


@pytest.mark.parametrize("language", list(TURNS))
async def test_memory_agent_records_both_sides_verbatim(
    household: HomeAssistant, julian: Resident, kitchen: Room, language: str
) -> None:
    entry = await setup_memory(household)
    await async_wrap_recording_agent(household, entry)
    question, remember = TURNS[language]
    first = await async_say(household, entry, question, language=language, who=julian, room=kitchen)
    assert first.conversation_id is not None
    second = await async_say(
        household, entry, remember, language=language, who=julian, room=kitchen,
        conversation_id=first.conversation_id,
    )  # fmt: skip
    assert second.conversation_id == first.conversation_id
    assert len(await async_all_memories(household, entry)) == 1  # the sentence was still handled

    turns = await _conversation(household, entry, first.conversation_id)
    assert [(t.turn, t.role, t.text) for t in turns] == [
        (0, Role.USER, question),  # verbatim: spacing and punctuation as said
        (1, Role.ASSISTANT, "ok"),
        (2, Role.USER, remember),
        (3, Role.ASSISTANT, speech(second)),
    ]
    assert {(t.speaker_id, t.area_id, t.language) for t in turns} == {
        (julian.person_id, kitchen.area_id, language)
    }


async def test_a_turn_through_agent_and_llm_api_is_recorded_once(
    household: HomeAssistant, julian: Resident, kitchen: Room
) -> None:
    entry = await setup_memory(household)
    agent = await async_wrap_recording_agent(household, entry, with_memory_api=True)
    result = await async_say(household, entry, "Where is the spare key?", who=julian, room=kitchen)
    assert agent.api_prompts  # the Memory API built its prompt for this turn
    turns = await _conversation(household, entry, result.conversation_id or "")
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "Where is the spare key?"),
        (Role.ASSISTANT, "ok"),
    ]


async def test_llm_api_alone_records_the_user_turn(household: HomeAssistant, julian: Resident) -> None:
    entry = await setup_memory(household)
    user_input = conversation.ConversationInput(
        text="Was gibt es heute zum Abendessen?",
        context=julian.context,
        conversation_id=None,
        device_id=None,
        satellite_id=None,
        language="de",
        agent_id="test_llm",
    )
    with (
        chat_session(household, None, user_input.context) as session,
        conversation.async_get_chat_log(household, session, user_input) as chat_log,
    ):
        await chat_log.async_provide_llm_data(user_input.as_llm_context("test_llm"), [LLM_API_ID], None, None)
        await chat_log.async_provide_llm_data(user_input.as_llm_context("test_llm"), [LLM_API_ID], None, None)
        conversation_id = session.conversation_id
    turns = await _conversation(household, entry, conversation_id)
    assert [(t.turn, t.role, t.text, t.speaker_id, t.language) for t in turns] == [
        (0, Role.USER, "Was gibt es heute zum Abendessen?", julian.person_id, "de")
    ]


async def test_recording_failure_never_breaks_the_answer(
    household: HomeAssistant, julian: Resident, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = await setup_memory(household)
    await async_wrap_recording_agent(household, entry)

    def broken(*_: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(entry.runtime_data.engine, "record_turns", broken)
    result = await async_say(household, entry, "Where is the spare key?", who=julian)
    assert speech(result) == "ok"


async def test_daily_purge_removes_old_turns_and_keeps_new_ones(
    household: HomeAssistant, julian: Resident, freezer: FrozenDateTimeFactory
) -> None:
    entry = await setup_memory(household)
    await async_wrap_recording_agent(household, entry)
    household.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_TRANSCRIPT_RETENTION_DAYS: 2}
    )
    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    old = await async_say(household, entry, "An old question", who=julian)
    assert len(await _conversation(household, entry, old.conversation_id or "")) == 2

    freezer.tick(timedelta(days=2, seconds=1))  # the old turns are now more than 2 days old
    async_fire_time_changed(household, dt_util.utcnow() + PURGE_INTERVAL)  # the daily timer is due
    await household.async_block_till_done(wait_background_tasks=True)  # interval jobs run in background
    assert await _conversation(household, entry, old.conversation_id or "") == []

    new = await async_say(household, entry, "A new question", who=julian)
    freezer.tick(PURGE_INTERVAL)
    async_fire_time_changed(household, dt_util.utcnow() + PURGE_INTERVAL)
    await household.async_block_till_done(wait_background_tasks=True)
    assert [t.text for t in await _conversation(household, entry, new.conversation_id or "")] == [
        "A new question",
        "ok",
    ]


async def test_purge_runs_at_setup(
    household: HomeAssistant, julian: Resident, freezer: FrozenDateTimeFactory
) -> None:
    entry = await setup_memory(household)
    await async_wrap_recording_agent(household, entry)
    old = await async_say(household, entry, "An old question", who=julian)
    freezer.tick(timedelta(days=366))
    await household.config_entries.async_reload(entry.entry_id)  # default retention: 365 days
    await household.async_block_till_done()
    assert await _conversation(household, entry, old.conversation_id or "") == []


async def test_options_show_and_validate_learning_fields(household: HomeAssistant, kitchen: Room) -> None:
    entry = await setup_memory(household)
    result = await household.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    fields = {str(key): key for key in result["data_schema"].schema}
    assert {CONF_LEARNING, CONF_LEARNING_OPT_OUT_AREAS, CONF_TRANSCRIPT_RETENTION_DAYS} <= set(fields)
    assert fields[CONF_LEARNING].description["suggested_value"] is False  # consent first
    assert fields[CONF_TRANSCRIPT_RETENTION_DAYS].description["suggested_value"] == 365
    assert learning_allowed(entry.options, kitchen.area_id) is False

    base = {"top_k": 5, "max_chars": 1200, "min_similarity": 0.25, "answer_similarity": 0.35}
    for days in (0, 3651):
        with pytest.raises(InvalidData):
            await household.config_entries.options.async_configure(
                result["flow_id"], {**base, CONF_TRANSCRIPT_RETENTION_DAYS: days}
            )
    result = await household.config_entries.options.async_configure(  # the areas show with learning on
        result["flow_id"], {**base, CONF_LEARNING: True, CONF_LEARNING_OPT_OUT_AREAS: ["no_such_area"]}
    )
    assert result["errors"] == {CONF_LEARNING_OPT_OUT_AREAS: "invalid_area"}
    result = await household.config_entries.options.async_configure(
        result["flow_id"],
        {**base, CONF_LEARNING: True, CONF_LEARNING_OPT_OUT_AREAS: [kitchen.area_id],
         CONF_TRANSCRIPT_RETENTION_DAYS: 30.0},
    )  # fmt: skip
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    assert entry.options[CONF_TRANSCRIPT_RETENTION_DAYS] == 30
    assert learning_allowed(entry.options, kitchen.area_id) is False  # the kitchen opted out
    assert learning_allowed(entry.options, "hall") is True
    assert learning_allowed(entry.options, None) is True
