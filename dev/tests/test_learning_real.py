"""Learning with the real local model in the loop: real conversations through HA's conversation
component and the Memory assistant, ended by the idle option, extracted by the memory_local_llm
AI Task (the integration's own instructions and structure), stored by the engine.

These are the cases whose outcome depends on understanding the words (docs/cases.md C09, C13,
C14, C20): a scripted AI Task (tests/ha/test_learning.py) cannot prove them. Wording varies with
the model, so the tests assert stored rows, counts and keywords. Times are printed (run with -s).
The clock is pinned (conftest `_pinned_clock`): the prompt, and so the answer, is the same on every
run. C09 with the real model is not here: Qwen2.5-Coder-1.5B does not give the fact keys
supersession needs (the limitation is documented, a test that always fails proves nothing).
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from custom_components.memory_local_llm.const import DOMAIN as LLM_DOMAIN
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import ai_task, conversation
from homeassistant.components.light import intent as light_intent
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_fire_time_changed,
    async_mock_service,
)

from custom_components.memory.commands import async_is_device_command
from custom_components.memory.const import (
    CONF_AGENT,
    CONF_EXTRACTION_ENTITY,
    CONF_IDLE_MINUTES,
    CONF_LEARNING,
    EVENT_MEMORY_LEARNED,
)
from custom_components.memory.engine.extraction import is_device_command
from custom_components.memory.engine.models import Kind, Memory, Speaker
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


# C20: a conversation of device commands, HA's replies, and small talk. The first three the
# engine's verb list drops; the terse ones only Home Assistant's intents recognise (commands.py);
# the small talk is the only turn the model sees, and it has nothing worth keeping.
COMMANDS = [
    "Set the kitchen light to red",
    "Turn off the hall",
    "Close the kitchen blinds",
    "Kitchen light to 30 percent",
    "Hall light off",
]
TERSE = COMMANDS[3:]
SMALL_TALK = "Thanks, that's all for now, good night."


@pytest.fixture
async def devices(household: HomeAssistant) -> HomeAssistant:
    """Exposed lights and blinds (as tests/ha/test_learning_commands.py); their services answered
    and the light intents registered, so HA's default agent carries the commands out and replies."""
    colour = {"supported_color_modes": ["hs"], "color_mode": "hs"}
    household.states.async_set("light.kitchen_light", "off", {"friendly_name": "Kitchen light", **colour})
    household.states.async_set("light.hall_light", "on", {"friendly_name": "Hall light", **colour})
    household.states.async_set(
        "cover.kitchen_blinds",
        "open",
        {"friendly_name": "Kitchen blinds", "device_class": "blind", "supported_features": 15},
    )
    for domain, service in (("light", "turn_on"), ("light", "turn_off"), ("cover", "close_cover")):
        async_mock_service(household, domain, service)
    await light_intent.async_setup_intents(household)
    return household


async def test_c20_commands_and_replies_are_not_memories(
    devices: HomeAssistant,
    llm_entry: Any,
    julian: Resident,
    kitchen: Room,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Commands (said to HA's default agent, which carries them out and replies) and small talk:
    the model is asked (the small talk reaches it) and nothing is stored, not even a summary."""
    assert [is_device_command(c) for c in COMMANDS] == [True, True, True, False, False]
    for said in TERSE:
        assert await async_is_device_command(devices, said, "en"), said
    assert not is_device_command(SMALL_TALK)
    assert not await async_is_device_command(devices, SMALL_TALK, "en")
    entry = await _learning(devices, llm_entry, llm_agent=False)
    events = async_capture_events(devices, EVENT_MEMORY_LEARNED)
    conversation_id, _ = await _conversation(
        devices, entry, [*COMMANDS, SMALL_TALK], language="en", who=julian, room=kitchen
    )
    await _end_and_extract(devices, freezer)
    learned = _learned(events, conversation_id)
    memories = await async_all_memories(devices, entry)
    print(f"\n  learned {learned}\n{_show(memories)}")
    assert learned["stored"] == 0 and learned["merged"] == 0, learned
    assert memories == [], _show(memories)


# C35 with the real model as the write-time judge. Qwen2.5-Coder-1.5B answers "replaces" for a
# translation (measured 2026-12-06: the watering can, the spare key), so here the person is asked,
# as without a judge: a judge's "replaces" never retires a memory at the voice door. Another thing
# in the same sentence frame is no conflict at all (not put to the judge).
TRANSLATED = [
    (
        ("de", "Merk dir: Die Gießkanne steht im Schuppen."),
        ("en", "Remember: the watering can is in the shed."),
    ),
    (
        ("it", "Ricorda: la chiave di riserva è sotto lo zerbino."),
        ("en", "Remember: the spare key is under the doormat."),
    ),
]
OTHER_THING = (
    ("de", "Merk dir: Die Gießkanne steht im Schuppen."),
    ("en", "Remember: the bicycle is in the shed."),
)


@pytest.mark.parametrize(("pair", "translated"), [*((p, True) for p in TRANSLATED), (OTHER_THING, False)])
async def test_c35_the_real_judge_never_retires_without_the_person(
    household: HomeAssistant, llm_entry: Any, *, julian: Resident, anna: Resident, pair: Any, translated: bool
) -> None:
    """Julian tells a fact in one language, Anna the same (or another thing) in another, the local
    model configured as the judge: a translation is merged when the model says "same", else
    asked about (both stay current until the person's yes); another thing is stored beside it."""
    entry = await setup_memory(household)
    task = _llm_entity_id(household, ai_task.DOMAIN, llm_entry, "ai_task")
    household.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_EXTRACTION_ENTITY: task}
    )
    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    (first_language, first), (again_language, again) = pair
    await async_say(household, entry, first, language=first_language, who=julian)
    started = wall_clock()
    said = speech(
        await async_say(household, entry, again, language=again_language, who=anna, conversation_id="j")
    )
    memories = [m for m in await async_all_memories(household, entry) if m.status.value == "active"]
    print(f"\n  answered in {wall_clock() - started:.1f} s: {said!r}\n{_show(memories)}")
    first_text = first.split(": ", 1)[1]
    if not translated:
        assert len(memories) == 2 and first_text not in said, _show(memories)
    elif len(memories) == 1:  # judged the same: one memory, both tellers
        history = await household.async_add_executor_job(
            entry.runtime_data.engine.history, memories[0].id, Speaker(admin=True)
        )
        assert {m.speaker_id for m in history} == {julian.person_id, anna.person_id}
    else:  # not judged the same: asked, nothing retired
        assert len(memories) == 2 and first_text in said and "?" in said, (said, _show(memories))
