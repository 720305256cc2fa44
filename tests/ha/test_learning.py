"""Learning from conversations, HA side: a scripted AI Task entity (tests/ha/ai_task_helpers.py)
records every task it gets, so what reaches a model is asserted, not assumed."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_capture_events, async_fire_time_changed

from custom_components.memory.const import (
    CONF_CLOUD_PERSONAL,
    CONF_EXTRACTION_ENTITY,
    CONF_IDLE_MINUTES,
    CONF_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS,
    CONF_REVIEW,
    DOMAIN,
    EVENT_MEMORY_LEARNED,
)
from custom_components.memory.engine.models import Provenance, Speaker, Status
from custom_components.memory.extraction_job import (
    EXTRACTION_FAILURES_FOR_REPAIR,
    ISSUE_EXTRACTION_FAILING,
)
from tests.conftest import Resident, Room, async_call, setup_memory

from .ai_task_helpers import ScriptedAITask, async_add_ai_task
from .helpers_conversation import (
    RecordingAgent,
    async_all_memories,
    async_say,
    async_wrap_recording_agent,
)

REVIEW_BLUEPRINT = Path(__file__).parents[2] / "blueprints" / "automation" / "memory" / "notify_review.yaml"
CHAT = "My sister Clara visits us every Sunday afternoon with her dog."


def fact(content: str, confidence: float = 0.9, **extra: Any) -> dict[str, Any]:
    return {"content": content, "kind": "fact", "confidence": confidence, **extra}


async def _learning(
    hass: HomeAssistant, *, cloud: bool = False, entry: Any = None, **options: Any
) -> tuple[Any, ScriptedAITask, RecordingAgent]:
    """Memory set up (or `entry`, set up already: memory_entry) wrapping a recording agent, a
    scripted AI Task, learning on (overridable)."""
    entry = entry or await setup_memory(hass)
    agent = await async_wrap_recording_agent(hass, entry)
    task, entity_id = await async_add_ai_task(hass, cloud=cloud)
    settings = {CONF_LEARNING: True, CONF_EXTRACTION_ENTITY: entity_id, **options}
    hass.config_entries.async_update_entry(entry, options={**entry.options, **settings})
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    return entry, task, agent


async def _end_conversations(hass: HomeAssistant, freezer: FrozenDateTimeFactory, minutes: int = 11) -> None:
    """Let `minutes` pass without a turn: idle conversations end and are extracted."""
    freezer.tick(timedelta(minutes=minutes))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)


async def _memories(hass: HomeAssistant, entry: Any) -> list[Any]:
    return await async_all_memories(hass, entry)


async def test_consent_off_never_calls_the_model(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    """Invariant 6: with learning off, the transcript never reaches a model."""
    entry, task, _ = await _learning(household, **{CONF_LEARNING: False})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    await _end_conversations(household, freezer)
    assert task.calls == []


async def test_opted_out_area_never_calls_the_model(
    household: HomeAssistant, julian: Resident, kitchen: Room, hall: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household, **{CONF_LEARNING_OPT_OUT_AREAS: [kitchen.area_id]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert task.calls == []
    await async_say(household, entry, CHAT, who=julian, room=hall)  # another area still learns
    await _end_conversations(household, freezer)
    assert len(task.calls) == 1


# Per language: a recalled memory, a question that recalls it, and more of the user's words.
IDLE_TURNS = {
    "en": ("The bins go out on Tuesday", "When do the bins go out?", CHAT),
    "de": (
        "Der Müll wird am Dienstag rausgestellt",
        "Wann wird der Müll rausgestellt?",
        "Meine Schwester Clara besucht uns jeden Sonntagnachmittag mit ihrem Hund.",
    ),
    "it": (
        "La spazzatura si porta fuori il martedì",
        "Quando si porta fuori la spazzatura?",
        "Mia sorella Clara ci viene a trovare ogni domenica pomeriggio con il suo cane.",
    ),
}


@pytest.mark.parametrize("language", list(IDLE_TURNS))
async def test_idle_end_extracts_once_with_the_users_words_only(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory, language: str
) -> None:
    entry, task, agent = await _learning(household, **{CONF_IDLE_MINUTES: 1})
    memory, question, chat = IDLE_TURNS[language]
    await async_call(
        household, "remember", {"content": memory, "person": julian.person_id, "language": language}
    )
    first = await async_say(household, entry, question, language=language, who=julian, room=kitchen)
    await async_say(
        household,
        entry,
        chat,
        language=language,
        who=julian,
        room=kitchen,
        conversation_id=first.conversation_id,
    )
    assert memory in agent.extra_prompts[0]  # the wrapped agent got the recalled memory …
    # the idle option (1 minute) ends it, before HA's 5-minute chat session end
    await _end_conversations(household, freezer, minutes=2)
    assert len(task.calls) == 1
    sent = task.calls[0].instructions
    assert question in sent and chat in sent and f"({language})" in sent
    assert memory not in sent  # … but it is not sent for extraction
    assert "\nok" not in sent  # nor the reply
    assert task.calls[0].structure is not None
    await _end_conversations(household, freezer)  # the chat session's end later changes nothing
    assert len(task.calls) == 1


async def test_chat_session_end_extracts_before_the_idle_time(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household, **{CONF_IDLE_MINUTES: 60})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer, minutes=6)  # HA drops the chat session after 5
    assert len(task.calls) == 1


async def test_unload_stops_learning(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    assert await household.config_entries.async_unload(entry.entry_id)
    await _end_conversations(household, freezer)
    assert task.calls == []


async def test_options_choose_the_ai_task_review_and_idle_time(
    household: HomeAssistant, memory_entry: Any
) -> None:
    _, entity_id = await async_add_ai_task(household)
    result = await household.config_entries.options.async_init(memory_entry.entry_id)
    result = await household.config_entries.options.async_configure(
        result["flow_id"],
        {
            "top_k": 5,
            "max_chars": 1200,
            "min_similarity": 0.25,
            "answer_similarity": 0.35,
            CONF_LEARNING: True,
            CONF_EXTRACTION_ENTITY: entity_id,
            CONF_REVIEW: True,
            CONF_IDLE_MINUTES: 15.0,
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY, result
    await household.async_block_till_done()  # the reload the saved options scheduled
    options = memory_entry.runtime_data.options  # what the reloaded entry runs with
    assert (options[CONF_EXTRACTION_ENTITY], options[CONF_REVIEW], options[CONF_IDLE_MINUTES]) == (
        entity_id,
        True,
        15,
    )


async def test_extracted_memory_is_stored_and_recalled_in_another_language(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    fact_text, question = "The spare key is under the blue flower pot.", "Wo ist der Ersatzschlüssel?"
    entry, task, _ = await _learning(household)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact(fact_text, scope_hint="shared")], "summary": None})
    said = await async_say(
        household,
        entry,
        "By the way, the spare key is under the blue flower pot now.",
        who=julian,
        room=kitchen,
    )
    await _end_conversations(household, freezer)
    (stored,) = await _memories(household, entry)
    assert (stored.content, stored.provenance) == (fact_text, Provenance.EXTRACTED)
    assert events[-1].data == {
        "stored": 1, "merged": 0, "skipped_forgotten": 0, "skipped_sensitive": 0, "rejected": 0,
        "superseded": 0, "conflicts": 0, "conversation_id": said.conversation_id, "pending": False,
        "memory_ids": [stored.id],
    }  # fmt: skip
    found = await async_call(household, "recall", {"query": question, "person": julian.person_id})
    assert found["memories"][0]["content"] == fact_text


@pytest.mark.parametrize(
    "case",
    [
        (
            "fr",
            "Ma sœur Claire arrive samedi en train.",
            "Claire arrive samedi en train.",
            ("Quand est-ce que Claire arrive ?", "When is Claire arriving?"),
        ),
        (
            "de",
            "Meine Schwester Claire kommt am Samstag mit dem Zug.",
            "Claire kommt am Samstag mit dem Zug.",
            ("Wann kommt Claire?", "When is Claire arriving?"),
        ),
    ],
)
async def test_c14_language_is_kept(
    household: HomeAssistant,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
    case: tuple[str, str, str, tuple[str, str]],
) -> None:
    """The user's words go to the AI Task as said, which is asked to keep the conversation's
    language; the fact is stored in that language (never translated) and found by a question in
    it and by an English one. (With the real model: dev/tests/test_learning_real.py.)"""
    language, said, learned, questions = case
    entry, task, _ = await _learning(household)
    task.script.append({"memories": [fact(learned)], "summary": None})
    await async_say(household, entry, said, language=language, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    (call,) = task.calls
    assert said in call.instructions and f"({language})" in call.instructions
    (stored,) = await _memories(household, entry)
    assert (stored.content, stored.language) == (learned, language)
    for question in questions:
        found = await async_call(household, "recall", {"query": question, "person": julian.person_id})
        assert found["memories"][0]["content"] == learned, question


async def test_c04_forgotten_fact_is_not_learned_again(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    said = await async_say(household, entry, "Remember that the gate code is 4711", who=julian, room=kitchen)
    await async_say(
        household,
        entry,
        "Forget the gate code",
        who=julian,
        room=kitchen,
        conversation_id=said.conversation_id,
    )
    await async_say(household, entry, "yes", who=julian, room=kitchen, conversation_id=said.conversation_id)
    assert await _memories(household, entry) == []
    await _end_conversations(household, freezer)  # that conversation itself: nothing usable to send
    task.script.append(
        {"memories": [fact("The gate code is 4711")], "summary": "Julian talked about the gate."}
    )
    await async_say(
        household,
        entry,
        "The delivery driver needs to get through the gate tomorrow.",
        who=julian,
        room=kitchen,
    )
    await _end_conversations(household, freezer)
    assert events[-1].data["skipped_forgotten"] == 1 and events[-1].data["stored"] == 0
    assert await _memories(household, entry) == []  # no fact, and no summary episode either
    await async_call(household, "remember", {"content": "The gate code is 4711", "person": julian.person_id})
    assert [m.content for m in await _memories(household, entry)] == ["The gate code is 4711"]


async def test_c13_recalled_memory_proposed_again_is_merged(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    await async_call(household, "remember", {"content": "The bins go out on Tuesday"})
    task.script.append({"memories": [fact("The bins go out on Tuesday", scope_hint="shared")]})
    await async_say(household, entry, "When do the bins go out this week?", who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert events[-1].data["merged"] == 1 and events[-1].data["stored"] == 0
    assert len(await _memories(household, entry)) == 1


async def test_c20_device_commands_are_not_sent_and_not_stored(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact("The user asked to turn on the kitchen light")]})
    said = await async_say(household, entry, "Turn on the kitchen light", who=julian, room=kitchen)
    await async_say(household, entry, CHAT, who=julian, room=kitchen, conversation_id=said.conversation_id)
    await _end_conversations(household, freezer)
    assert "kitchen light" not in task.calls[0].instructions
    assert events[-1].data["rejected"] == 1
    assert await _memories(household, entry) == []


@pytest.mark.parametrize(
    "case",
    [
        ("Sure! Here are the memories: none really.", True),
        ("```json\n" + json.dumps({"memories": [fact("Clara visits on Sundays")]}) + "\n```", False),
        ({"type": "object", "properties": {"memories": {}}}, True),
        (None, True),
        ([{"content": "Clara visits on Sundays"}], False),
        (HomeAssistantError("model unavailable"), True),
    ],
)
async def test_c21_messy_answers_never_crash(
    household: HomeAssistant,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
    case: tuple[Any, bool],
) -> None:
    answer, failed = case
    entry, task, _ = await _learning(household)
    task.script.append(answer)
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert len(task.calls) == 1
    contents = [m.content for m in await _memories(household, entry)]
    assert contents == ([] if failed else ["Clara visits on Sundays"])


async def test_c21_repeated_failures_raise_a_repair_issue(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    issues = ir.async_get(household)
    for _ in range(EXTRACTION_FAILURES_FOR_REPAIR):
        assert issues.async_get_issue(DOMAIN, ISSUE_EXTRACTION_FAILING) is None
        task.script.append("not json")
        await async_say(household, entry, CHAT, who=julian, room=kitchen)
        await _end_conversations(household, freezer)
    assert issues.async_get_issue(DOMAIN, ISSUE_EXTRACTION_FAILING) is not None
    task.script.append({"memories": [fact("Clara visits on Sundays")]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert issues.async_get_issue(DOMAIN, ISSUE_EXTRACTION_FAILING) is None


async def test_review_mode_pending_until_approved(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household, **{CONF_REVIEW: True})
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact("Clara visits on Sundays", scope_hint="shared")]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert events[-1].data["pending"] is True
    assert await _memories(household, entry) == []
    query = {"query": "When does Clara visit?", "person": julian.person_id}
    assert (await async_call(household, "recall", query))["memories"] == []
    (memory_id,) = events[-1].data["memory_ids"]
    assert await _status(household, entry, memory_id) is Status.PENDING
    await async_call(household, "approve", {"memory_id": memory_id})
    assert (await async_call(household, "recall", query))["memories"][0][
        "content"
    ] == "Clara visits on Sundays"
    with pytest.raises(ServiceValidationError):  # only a pending memory can be approved or rejected
        await async_call(household, "reject", {"memory_id": memory_id})


async def test_review_mode_reject_forgets(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household, **{CONF_REVIEW: True})
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact("Clara visits on Sundays", scope_hint="shared")]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    (memory_id,) = events[-1].data["memory_ids"]
    await async_call(household, "reject", {"memory_id": memory_id})
    assert await _status(household, entry, memory_id) is None
    task.script.append({"memories": [fact("Clara visits on Sundays", scope_hint="shared")]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert events[-1].data["skipped_forgotten"] == 1  # rejected = forgotten: not learned again


@pytest.mark.parametrize("allowed", [False, True])
async def test_cloud_model_gets_a_residents_words_only_when_allowed(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory, allowed: bool
) -> None:
    entry, task, _ = await _learning(household, cloud=True, **{CONF_CLOUD_PERSONAL: allowed})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert len(task.calls) == (1 if allowed else 0)
    await async_say(household, entry, CHAT, who=None, room=kitchen)  # a guest: nothing private
    await _end_conversations(household, freezer)
    assert len(task.calls) == (2 if allowed else 1)


async def test_sensitive_turn_is_never_sent(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(household)
    said = await async_say(household, entry, "My bank PIN is 4711 by the way", who=julian, room=kitchen)
    await async_say(household, entry, CHAT, who=julian, room=kitchen, conversation_id=said.conversation_id)
    await _end_conversations(household, freezer)
    (call,) = task.calls
    assert "4711" not in call.instructions and CHAT in call.instructions


async def _status(hass: HomeAssistant, entry: Any, memory_id: str) -> Status | None:
    """The memory's status (admin view), None when it is gone."""
    engine = entry.runtime_data.engine
    memory = await hass.async_add_executor_job(engine.get, memory_id, Speaker.administrator())
    return None if memory is None else memory.status


async def test_notify_review_blueprint_tells_someone(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    """The blueprint, imported into HA, notifies when learned memories await review."""
    entry, task, _ = await _learning(household, **{CONF_REVIEW: True})
    target = Path(household.config.path("blueprints", "automation", "memory"))

    def install() -> None:
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(REVIEW_BLUEPRINT, target / REVIEW_BLUEPRINT.name)

    await household.async_add_executor_job(install)
    assert await async_setup_component(household, persistent_notification.DOMAIN, {})
    automation = {"id": "review", "alias": "Review", "use_blueprint": {"path": "memory/notify_review.yaml"}}
    assert await async_setup_component(household, "automation", {"automation": automation})
    await household.async_block_till_done()
    task.script.append({"memories": [fact("Clara visits on Sundays", scope_hint="shared")]})
    await async_say(household, entry, CHAT, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    await household.async_block_till_done()
    notifications = persistent_notification._async_get_or_create_notifications(household)
    assert notifications["memory_review"]["message"] == (
        "1 new memory awaits review. Read them with the action memory.list_pending, then "
        "memory.approve or memory.reject."
    )
