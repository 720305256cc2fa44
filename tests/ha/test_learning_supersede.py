"""Learning that changes its mind: real conversations in HA, a scripted recording AI Task
(tests/ha/ai_task_helpers.py) proposing candidates with subject/predicate/value, and what the
household then gets as current (cases C09, C10, C12, C15) — plus memory.consolidate."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_capture_events, async_fire_time_changed

from custom_components.memory.const import EVENT_MEMORY_CONSOLIDATED, EVENT_MEMORY_LEARNED
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker, Status
from custom_components.memory.engine.writer import embedding_text
from tests.case_texts import C09
from tests.conftest import Resident, Room, async_call

from .ai_task_helpers import ScriptedAITask
from .helpers_conversation import RecordingAgent, async_all_memories, async_say
from .test_learning import _end_conversations, _learning

ADMIN = Speaker.administrator()
NOTHING_DONE = {"merged": 0, "superseded": 0, "pruned": 0, "conflicts": [], "judged": 0}


def preference(content: str, predicate: str, value: str, subject: str = "me", **extra: Any) -> dict[str, Any]:
    """A candidate as an AI Task following the extraction prompt proposes it."""
    return {
        "content": content,
        "kind": "preference",
        "subject": subject,
        "predicate": predicate,
        "value": value,
        "confidence": 0.9,
        **extra,
    }


@dataclass
class Talk:
    """One resident talking to the memory agent at a satellite, with learning on."""

    hass: HomeAssistant
    entry: Any
    task: ScriptedAITask
    agent: RecordingAgent
    freezer: FrozenDateTimeFactory
    who: Resident
    room: Room
    language: str = "en"

    async def tell(self, said: str, candidate: dict[str, Any]) -> dict[str, Any]:
        """One conversation: `said`, the AI Task proposes `candidate`, the conversation ends;
        returns the memory_learned event's data."""
        events = async_capture_events(self.hass, EVENT_MEMORY_LEARNED)
        self.task.script.append({"memories": [candidate], "summary": None})
        await async_say(self.hass, self.entry, said, language=self.language, who=self.who, room=self.room)
        await _end_conversations(self.hass, self.freezer)
        (event,) = events
        return dict(event.data)

    async def ask(self, question: str) -> str:
        """Ask the memory agent; what it recalled for the answer (the wrapped agent's memory block)."""
        await async_say(self.hass, self.entry, question, language=self.language, who=self.who, room=self.room)
        return self.agent.extra_prompts[-1]

    async def current(self) -> list[str]:
        """The contents of every active memory."""
        return sorted(m.content for m in await async_all_memories(self.hass, self.entry))

    async def get(self, memory_id: str) -> Memory:
        return await _get(self.hass, self.entry, memory_id)


async def _talk(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, who: Resident, room: Room, language: str = "en"
) -> Talk:
    entry, task, agent = await _learning(hass)
    return Talk(hass, entry, task, agent, freezer, who, room, language)


async def _get(hass: HomeAssistant, entry: Any, memory_id: str) -> Memory:
    memory = await hass.async_add_executor_job(entry.runtime_data.engine.get, memory_id, ADMIN)
    assert memory is not None
    return memory


@pytest.mark.parametrize("case", list(C09))
async def test_c09_changed_preference_supersedes(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory, case: str
) -> None:
    old_text, old_value, new_text, new_value, question = C09[case]
    talk = await _talk(household, freezer, julian, kitchen, case.split("-", maxsplit=1)[0])
    first = await talk.tell(old_text, preference(old_text, "drinks", old_value))
    second = await talk.tell(new_text, preference(new_text, "drinks", new_value))
    assert (second["stored"], second["superseded"], second["merged"]) == (1, 1, 0)
    recalled = await talk.ask(question)
    assert new_text in recalled and old_text not in recalled  # tea only
    found = await async_call(household, "recall", {"query": question, "person": julian.person_id})
    assert [m["content"] for m in found["memories"]] == [new_text]
    coffee, tea = await talk.get(first["memory_ids"][0]), await talk.get(second["memory_ids"][0])
    assert (coffee.status, coffee.superseded_by) == (Status.SUPERSEDED, tea.id)  # kept in history
    assert (tea.status, tea.owner_id, tea.value) == (Status.ACTIVE, julian.person_id, new_value)


async def test_c10_opposite_preference_never_leaves_neither(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    talk = await _talk(household, freezer, julian, kitchen)
    love, hate = "I love spicy food.", "I can't stand spicy food any more."
    first = await talk.tell(love, preference(love, "likes_spicy_food", "love"))
    assert await talk.current() == [love]
    second = await talk.tell(hate, preference(hate, "likes_spicy_food", "can't stand"))
    assert await talk.current() == [hate]
    assert (await talk.get(first["memory_ids"][0])).superseded_by == second["memory_ids"][0]
    recalled = await talk.ask("Do I like spicy food?")
    assert hate in recalled and love not in recalled


C12 = [
    ("My favourite colour is blue.", "blue"),
    ("I like blue best.", "Blue"),
    ("Blue is my colour.", "blue."),
    ("Favourite colour: blue", "BLUE"),
]


async def test_c12_paraphrases_become_one_memory(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    talk = await _talk(household, freezer, julian, kitchen)
    learned = [await talk.tell(text, preference(text, "favourite_colour", value)) for text, value in C12]
    assert [(e["stored"], e["merged"]) for e in learned] == [(1, 0), (0, 1), (0, 1), (0, 1)]
    assert {e["memory_ids"][0] for e in learned} == {learned[0]["memory_ids"][0]}
    assert await async_call(household, "consolidate", {}) == NOTHING_DONE
    assert await talk.current() == ["My favourite colour is blue."]
    assert "My favourite colour is blue." in await talk.ask("What is my favourite colour?")


async def test_c15_mention_is_not_a_contradiction(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    talk = await _talk(household, freezer, julian, kitchen)
    shifts, bike = "Anna works night shifts on Tuesdays.", "Anna's bike is in the garage."
    about_anna = {"subject": "Anna", "scope_hint": "shared"}
    await talk.tell(shifts, preference(shifts, "works_shift", "night shifts on Tuesdays", **about_anna))
    second = await talk.tell(bike, preference(bike, "bike_location", "garage", **about_anna))
    assert (second["stored"], second["superseded"]) == (1, 0)
    assert await talk.current() == sorted([shifts, bike])


async def test_the_speakers_own_name_is_me(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    """The model names the speaker ("Julian") instead of "me": the person's own name is "me"."""
    talk = await _talk(household, freezer, julian, kitchen)
    await talk.tell("I drink coffee.", preference("I drink coffee.", "drinks", "coffee"))
    second = await talk.tell(
        "I drink tea now.", preference("Julian drinks tea now.", "drinks", "tea", "Julian")
    )
    assert second["superseded"] == 1
    assert await talk.current() == ["Julian drinks tea now."]


def _legacy_row(content: str, value: str, age_days: int, owner: str) -> Memory:
    """A row as an older version (or another door) left it: two values of one key, both active."""
    created = dt_util.utcnow() - timedelta(days=age_days)
    return Memory(
        id=uuid.uuid4().hex,
        content=content,
        kind=Kind.PREFERENCE,
        language="en",
        provenance=Provenance.EXTRACTED,
        scope=Scope.PRIVATE,
        owner_id=owner,
        area_id=None,
        created_at=created,
        updated_at=created,
        subject="me",
        predicate="drinks",
        value=value,
    )


async def _add_legacy(hass: HomeAssistant, entry: Any, owner: str) -> tuple[Memory, Memory]:
    engine = entry.runtime_data.engine
    rows = (
        _legacy_row("I like coffee.", "coffee", 3, owner),
        _legacy_row("I drink tea now.", "tea", 1, owner),
    )

    def add() -> None:
        for row in rows:
            engine.store.add(row, engine.embedder.embed([embedding_text(row.content)])[0])

    await hass.async_add_executor_job(add)
    return rows


async def test_consolidate_service_is_admin_only(
    household: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident
) -> None:
    """memory.consolidate changes everyone's memories: administrators only (Anna is a plain user;
    Julian, the first user, is the owner)."""
    assert not (await household.auth.async_get_user(anna.user_id)).is_admin  # type: ignore[union-attr]
    coffee, tea = await _add_legacy(household, memory_entry, julian.person_id)
    with pytest.raises(Unauthorized):
        await async_call(household, "consolidate", {}, context=anna.context)
    assert {m.id for m in await async_all_memories(household, memory_entry)} == {coffee.id, tea.id}
    admin = await household.auth.async_create_user("Admin", group_ids=["system-admin"])
    response = await async_call(household, "consolidate", {}, context=Context(user_id=admin.id))
    assert response == {**NOTHING_DONE, "superseded": 1}
    assert [m.id for m in await async_all_memories(household, memory_entry)] == [tea.id]
    assert (await _get(household, memory_entry, coffee.id)).superseded_by == tea.id
    assert await async_call(household, "consolidate", {}) == NOTHING_DONE


async def test_consolidation_runs_daily(
    freezer: FrozenDateTimeFactory, household: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    """The daily run, on frozen time. `freezer` comes first: time is frozen before the entry
    schedules its interval, so the timer and the ticks share one clock (set up on the wall clock,
    the timer's due time depended on how long set-up took on a busy machine)."""
    events = async_capture_events(household, EVENT_MEMORY_CONSOLIDATED)
    coffee, tea = await _add_legacy(household, memory_entry, julian.person_id)
    freezer.tick(timedelta(hours=23))
    async_fire_time_changed(household)
    await household.async_block_till_done(wait_background_tasks=True)  # interval jobs run in background
    assert len(await async_all_memories(household, memory_entry)) == 2
    assert events == []
    freezer.tick(timedelta(hours=1, seconds=1))
    async_fire_time_changed(household)
    await household.async_block_till_done(wait_background_tasks=True)  # interval jobs run in background
    assert [e.data for e in events] == [
        {"merged": 0, "superseded": 1, "pruned": 0, "conflicts": 0, "judged": 0}
    ]
    assert [m.id for m in await async_all_memories(household, memory_entry)] == [tea.id]
    assert (await _get(household, memory_entry, coffee.id)).status is Status.SUPERSEDED


@pytest.mark.parametrize("verdict", ["replaces", "unrelated", "not sure"])
async def test_a_learned_change_without_a_key_is_judged_by_the_ai_task(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory, verdict: str
) -> None:
    """The model proposes no fact key (as the small local model does): the learned change is
    stored, the pair goes to the AI Task judge right after, and only a clear "replaces" retires the
    old memory; anything else leaves both current (a possible conflict, never a silent retire)."""
    talk = await _talk(household, freezer, julian, kitchen)
    old = "The bike pump is in the garage."
    new = "I put the bike pump in the cellar now."
    unkeyed = {"content": old, "kind": "fact", "confidence": 0.9, "scope_hint": "shared"}
    await talk.tell(old, unkeyed)
    talk.task.script.append({"memories": [{**unkeyed, "content": new}], "summary": None})
    talk.task.script.append({"relation": verdict})
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    await async_say(household, talk.entry, new, who=julian, room=kitchen)
    await _end_conversations(household, freezer)
    assert events[0].data["stored"] == 1 and events[0].data["conflicts"] == 1
    judge_call = talk.task.calls[-1]
    assert old in judge_call.instructions and new in judge_call.instructions
    expected = [new] if verdict == "replaces" else sorted([old, new])
    assert await talk.current() == expected
