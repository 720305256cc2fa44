"""Learning with the real local model in the loop: real conversations through HA's conversation
component and the Memory assistant, ended by the idle option, extracted by the memory_local_llm
AI Task (the integration's own instructions and structure), stored by the engine.

These are the cases whose outcome depends on understanding the words (docs/cases.md C09, C13,
C14, C20): a scripted AI Task (tests/ha/test_learning.py) cannot prove them. Wording varies with
the model, so the tests assert stored rows, counts and keywords. Times are printed (run with -s).
C20 (commands the regex filter misses) and C09 (supersession needs the model's fact keys) are
expected failures with Qwen2.5-Coder-1.5B (non-strict xfail): they show when a model does better.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from custom_components.memory_local_llm.const import DOMAIN as LLM_DOMAIN
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import ai_task, conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import async_capture_events, async_fire_time_changed

from custom_components.memory.const import (
    CONF_AGENT,
    CONF_EXTRACTION_ENTITY,
    CONF_IDLE_MINUTES,
    CONF_LEARNING,
    EVENT_MEMORY_LEARNED,
)
from custom_components.memory.engine.extraction import is_device_command
from custom_components.memory.engine.models import Kind, Memory
from tests.conftest import Resident, Room, async_call, setup_memory
from tests.ha.helpers_conversation import async_all_memories, async_say, speech


def wall_clock() -> float:
    """Seconds of real time (the freezer freezes time.perf_counter and freezegun's copies)."""
    return os.times().elapsed


IDLE_MINUTES = 1  # the conversation ends one minute after its last turn (the idle option)


def _llm_entity_id(hass: HomeAssistant, domain: str, llm_entry: Any, key: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(domain, LLM_DOMAIN, f"{llm_entry.entry_id}_{key}")
    assert entity_id is not None
    return entity_id


async def _learning(hass: HomeAssistant, llm_entry: Any, *, llm_agent: bool) -> Any:
    """Memory set up with learning on and the local AI Task extracting; the Memory assistant wraps
    the local LLM's conversation agent (`llm_agent`) or HA's default agent."""
    entry = await setup_memory(hass)
    options: dict[str, Any] = {
        CONF_LEARNING: True,
        CONF_EXTRACTION_ENTITY: _llm_entity_id(hass, ai_task.DOMAIN, llm_entry, "ai_task"),
        CONF_IDLE_MINUTES: IDLE_MINUTES,
    }
    if llm_agent:
        options[CONF_AGENT] = _llm_entity_id(hass, conversation.DOMAIN, llm_entry, "conversation")
    hass.config_entries.async_update_entry(entry, options={**entry.options, **options})
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def _conversation(
    hass: HomeAssistant, entry: Any, turns: list[str], *, language: str, who: Resident, room: Room | None
) -> tuple[str, list[str]]:
    """Say `turns` in one conversation; (conversation id, the replies)."""
    conversation_id: str | None = None
    replies: list[str] = []
    for text in turns:
        started = wall_clock()
        result = await async_say(
            hass, entry, text, language=language, who=who, room=room, conversation_id=conversation_id
        )
        conversation_id = result.conversation_id
        replies.append(speech(result))
        print(f"\n  turn {wall_clock() - started:.1f} s: {text!r} -> {replies[-1]!r}")
    assert conversation_id is not None
    return conversation_id, replies


async def _end_and_extract(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    """Let the idle time pass: the conversation ends and the real model extracts it."""
    started = wall_clock()
    freezer.tick(timedelta(minutes=IDLE_MINUTES + 1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    print(f"\n  extraction {wall_clock() - started:.1f} s")


def _learned(events: list[Any], conversation_id: str) -> dict[str, Any]:
    """The memory_learned event of the conversation: proof the model was asked and answered."""
    found = [e.data for e in events if e.data["conversation_id"] == conversation_id]
    assert len(found) == 1, [e.data for e in events]
    return found[0]


def _show(memories: list[Memory]) -> str:
    return "\n".join(f"  [{m.kind.value}/{m.language}] {m.content}" for m in memories)


def _has(memory: Memory, *groups: tuple[str, ...]) -> bool:
    """Every keyword group has a word in the memory's text (case-insensitive)."""
    text = memory.content.casefold()
    return all(any(word in text for word in group) for group in groups)


BINS = "The bins go out on Tuesday"


async def test_c13_recalled_memory_is_not_learned_again(
    household: HomeAssistant,
    llm_entry: Any,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A memory recalled into the LLM agent's prompt (and answered from) is not stored again when
    the conversation is extracted; what the user newly said is."""
    entry = await _learning(household, llm_entry, llm_agent=True)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    await async_call(household, "remember", {"content": BINS, "person": julian.person_id})
    conversation_id, replies = await _conversation(
        household,
        entry,
        [
            "When do the bins go out?",
            "My sister Clara visits us every Sunday afternoon with her dog.",
        ],
        language="en",
        who=julian,
        room=kitchen,
    )
    assert "tuesday" in replies[0].casefold()  # the recalled memory reached the LLM's answer
    await _end_and_extract(household, freezer)
    learned = _learned(events, conversation_id)
    memories = await async_all_memories(household, entry)
    print(f"\n  learned {learned}\n{_show(memories)}")

    # any other memory about the bins is an echo (or an answer the model made up to the question)
    bins = [m for m in memories if _has(m, ("bin",))]
    assert [m.content for m in bins] == [BINS], _show(memories)
    assert any(_has(m, ("clara",), ("sunday",)) for m in memories if m.kind is not Kind.EPISODE), _show(
        memories
    )


# C14 per language: what is said, keyword groups the arrival fact must match in that language,
# and the question in that language. English words a translation would bring in must not appear.
TOLD = {
    "fr": (
        ["Ma sœur Claire arrive samedi en train.", "Elle adore les croissants aux amandes du boulanger."],
        (("claire",), ("arrive", "samedi", "train")),
        "Quand est-ce que Claire arrive ?",
    ),
    "es": (
        ["Mi hermana Claire llega el sábado en tren.", "Le encantan los cruasanes de almendra."],
        (("claire",), ("llega", "sábado", "tren")),
        "¿Cuándo llega Claire?",
    ),
}
ENGLISH_WORDS = ("sister", "saturday", "arrives", "almond", "bakery")
ENGLISH_QUESTION = "When is Claire arriving?"


@pytest.mark.parametrize("language", list(TOLD))
async def test_c14_language_is_kept(
    household: HomeAssistant,
    llm_entry: Any,
    julian: Resident,
    freezer: FrozenDateTimeFactory,
    language: str,
) -> None:
    """Facts told in French (Spanish) are stored in that language (never translated) and found by a
    question in that language and by an English one."""
    turns, keywords, question = TOLD[language]
    entry = await _learning(household, llm_entry, llm_agent=False)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    conversation_id, _ = await _conversation(
        household, entry, turns, language=language, who=julian, room=None
    )
    await _end_and_extract(household, freezer)
    learned = _learned(events, conversation_id)
    memories = await async_all_memories(household, entry)
    print(f"\n  learned {learned}\n{_show(memories)}")

    assert learned["stored"] >= 1 and memories
    assert all(m.language == language for m in memories)
    assert not [m for m in memories if any(w in m.content.casefold() for w in ENGLISH_WORDS)], _show(memories)
    arrival = [m for m in memories if _has(m, *keywords) and m.kind is not Kind.EPISODE]
    assert arrival, _show(memories)
    for asked in (question, ENGLISH_QUESTION):
        found = await async_call(household, "recall", {"query": asked, "person": julian.person_id})
        contents = [m["content"] for m in found["memories"]]
        print(f"  recall {asked!r}: {contents}")
        assert any(c == arrival[0].content for c in contents[:3]), (asked, contents)


# C20: device commands and the assistant's replies. The regex filter drops the first two before
# the model sees them; the others it does not catch, so the model has to leave them out.
COMMANDS = [
    "Set the kitchen light to red",
    "Turn off the hall",
    "I want the living room a bit warmer, twenty-two degrees please",
    "Kitchen blinds halfway down",
]


@pytest.mark.xfail(
    reason="Qwen2.5-Coder-1.5B keeps commands the regex filter misses (restated as states or wishes) "
    "despite the instructions (and its summary restates them)",
    strict=False,
)
async def test_c20_commands_and_replies_are_not_memories(
    household: HomeAssistant,
    llm_entry: Any,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A conversation of device commands (some the regex filter misses) and HA's replies: the
    model is asked and nothing is stored."""
    assert [is_device_command(c) for c in COMMANDS] == [True, True, False, False]
    entry = await _learning(household, llm_entry, llm_agent=False)
    events = async_capture_events(household, EVENT_MEMORY_LEARNED)
    conversation_id, _ = await _conversation(
        household, entry, COMMANDS, language="en", who=julian, room=kitchen
    )
    await _end_and_extract(household, freezer)
    learned = _learned(events, conversation_id)
    memories = await async_all_memories(household, entry)
    print(f"\n  learned {learned}\n{_show(memories)}")
    assert learned["stored"] == 0 and learned["merged"] == 0, learned
    assert memories == [], _show(memories)


NEGATIONS = ("not", "n't", "no longer", "any more", "anymore")


@pytest.mark.xfail(
    reason="supersession needs a subject and predicate per candidate; Qwen2.5-Coder-1.5B leaves the "
    "optional keys out (and fills them wrongly when they are required)",
    strict=False,
)
async def test_c09_changed_preference_real(
    household: HomeAssistant,
    llm_entry: Any,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Coffee, then tea in a later conversation: recall answers tea, not coffee as current."""
    entry = await _learning(household, llm_entry, llm_agent=False)
    for said in ("I like coffee in the morning.", "I don't drink coffee any more, I drink tea now."):
        await _conversation(household, entry, [said], language="en", who=julian, room=kitchen)
        await _end_and_extract(household, freezer)
    print(f"\n{_show(await async_all_memories(household, entry))}")
    found = await async_call(
        household, "recall", {"query": "What do I like to drink?", "person": julian.person_id}
    )
    contents = [m["content"].casefold() for m in found["memories"]]
    print(f"  recall: {contents}")
    assert any("tea" in c for c in contents[:2]), contents
    still_coffee = [c for c in contents if "coffee" in c and not any(n in c for n in NEGATIONS)]
    assert not still_coffee, contents
