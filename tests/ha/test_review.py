"""Review mode, the reviewer's side: memory.list_pending shows what awaits approve/reject, to whom
the memory is visible only (the speaker rules of recall/approve), and approval takes it off the list."""

from __future__ import annotations

from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.memory.const import CONF_REVIEW, EVENT_MEMORY_LEARNED
from tests.conftest import Resident, Room, async_call

from .ai_task_helpers import ScriptedAITask
from .helpers_conversation import async_say
from .test_learning import _end_conversations, _learning, fact

# language -> (what Julian says, what the scripted model learns, Julian's later question)
SAID = {
    "en": (
        "My sister Clara visits me every Sunday afternoon.",
        "Julian's sister Clara visits him on Sundays",
        "When does my sister visit?",
    ),
    "de": (
        "Meine Schwester Clara besucht mich jeden Sonntagnachmittag.",
        "Julians Schwester Clara besucht ihn sonntags",
        "Wann besucht mich meine Schwester?",
    ),
    "it": (
        "Mia sorella Clara mi viene a trovare ogni domenica pomeriggio.",
        "La sorella di Julian, Clara, lo viene a trovare la domenica",
        "Quando viene a trovarmi mia sorella?",
    ),
}


async def _learn_pending(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, julian: Resident, room: Room, language: str
) -> tuple[str, str, str, Any, ScriptedAITask]:
    """Review mode on; Julian says one private thing, the model learns it:
    (memory id, learned text, Julian's question, the entry, the scripted AI Task)."""
    chat, learned, question = SAID[language]
    entry, task, _ = await _learning(hass, **{CONF_REVIEW: True})
    events = async_capture_events(hass, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact(learned, scope_hint="private")]})
    await async_say(hass, entry, chat, language=language, who=julian, room=room)
    await _end_conversations(hass, freezer)
    (memory_id,) = events[-1].data["memory_ids"]
    return memory_id, learned, question, entry, task


@pytest.mark.parametrize("language", ["en", "de", "it"])
async def test_list_pending_shows_the_reviewer_what_awaits_review(  # noqa: PLR0917 - parametrized
    household: HomeAssistant,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
    language: str,
) -> None:
    memory_id, learned, question, _, _ = await _learn_pending(household, freezer, julian, kitchen, language)

    as_julian = await async_call(household, "list_pending", {}, context=julian.context)
    assert [(m["id"], m["content"]) for m in as_julian["memories"]] == [(memory_id, learned)]
    (listed,) = as_julian["memories"]
    assert set(listed) == {"id", "content", "kind", "scope", "language", "created_at", "withheld"}
    assert (listed["scope"], listed["language"]) == ("private", language)
    # Julian's private memory: not Anna's to review, nor an unknown speaker's (no user, no person)
    assert (await async_call(household, "list_pending", {}, context=anna.context))["memories"] == []
    assert (await async_call(household, "list_pending", {}))["memories"] == []
    with pytest.raises(ServiceValidationError) as err:  # Anna may not speak as Julian
        await async_call(household, "list_pending", {"person": julian.person_id}, context=anna.context)
    assert err.value.translation_placeholders == {"field": "person"}

    await async_call(household, "approve", {"memory_id": memory_id}, context=julian.context)
    assert (await async_call(household, "list_pending", {}, context=julian.context))["memories"] == []
    recalled = await async_call(household, "recall", {"query": question}, context=julian.context)
    assert recalled["memories"][0]["id"] == memory_id


async def test_list_pending_newest_first_and_limited(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    first, _, _, entry, task = await _learn_pending(household, freezer, julian, kitchen, "en")
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    task.script.append({"memories": [fact("Julian plays chess on Tuesdays", scope_hint="private")]})
    await async_say(household, entry, "I play chess every Tuesday.", who=julian, room=kitchen)
    await _end_conversations(household, freezer)  # later: the second pending memory is newer
    (second,) = events[-1].data["memory_ids"]
    listed = await async_call(household, "list_pending", {"person": julian.person_id})
    assert [m["id"] for m in listed["memories"]] == [second, first]
    limited = await async_call(household, "list_pending", {"person": julian.person_id, "limit": 1})
    assert [m["id"] for m in limited["memories"]] == [second]


@pytest.mark.parametrize("limit", [0, 501, -3, 2.5, "many"])
async def test_list_pending_bad_limit_names_the_field(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory, limit: object
) -> None:
    await _learning(household, **{CONF_REVIEW: True})
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "list_pending", {"limit": limit}, context=julian.context)
    assert err.value.translation_key == "invalid_limit"
    assert err.value.translation_placeholders["field"] == "limit"
