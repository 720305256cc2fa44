"""C20 by Home Assistant's own sentence matching: user turns that HA's default agent strictly
recognises as an action on this home's exposed entities are never sent to the AI Task, in any
language HA ships intents for — also the terse ones no verb list catches ("Kitchen light on")."""

from __future__ import annotations

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant

from custom_components.memory.commands import async_is_device_command
from custom_components.memory.engine.extraction import is_device_command
from tests.conftest import Resident, Room

from .helpers_conversation import async_say
from .test_learning import CHAT, _end_conversations, _learning

# (language, said): commands the engine's verb list misses, matched by HA's intents.
TERSE_COMMANDS = [
    ("en", "Kitchen light on"),
    ("en", "Kitchen light to 30 percent"),
    ("en", "Add milk to my shopping list"),
    ("de", "Küchenlicht ausschalten"),
    ("de", "Küchenlicht auf 30 Prozent"),
    ("en", "No, turn on the kitchen light."),  # an answer to a question, then a command
    ("de", "Ja, Küchenlicht ausschalten."),
]
# Not commands: questions (HassGet…) and statements that merely name a device.
NOT_COMMANDS = [
    ("en", "Is the kitchen light on?"),
    ("en", "The kitchen light is broken, the electrician comes Monday."),
    ("en", "The spare key is in the blue tin."),
    ("de", "Das Küchenlicht flackert seit Dienstag."),
]


@pytest.fixture
def lights(household: HomeAssistant) -> HomeAssistant:
    """Two exposed lights, named in English and German."""
    colour = {"supported_color_modes": ["hs"], "color_mode": "hs"}
    household.states.async_set("light.kitchen_light", "off", {"friendly_name": "Kitchen light", **colour})
    household.states.async_set("light.kuechenlicht", "off", {"friendly_name": "Küchenlicht", **colour})
    return household


@pytest.mark.parametrize(("language", "said"), TERSE_COMMANDS)
async def test_c20_home_assistant_recognises_terse_commands(
    lights: HomeAssistant, language: str, said: str
) -> None:
    assert not is_device_command(said)  # the verb list alone would send it
    assert await async_is_device_command(lights, said, language)


@pytest.mark.parametrize(("language", "said"), NOT_COMMANDS)
async def test_questions_and_statements_are_not_commands(
    lights: HomeAssistant, language: str, said: str
) -> None:
    assert not await async_is_device_command(lights, said, language)


async def test_c20_recognised_commands_never_reach_the_model(
    lights: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(lights)
    said = await async_say(lights, entry, "Kitchen light on", who=julian, room=kitchen)
    for text in ("Kitchen light to 30 percent", CHAT):
        await async_say(lights, entry, text, who=julian, room=kitchen, conversation_id=said.conversation_id)
    await _end_conversations(lights, freezer)
    (call,) = task.calls
    assert CHAT in call.instructions
    assert "Kitchen light" not in call.instructions


async def test_c20_a_conversation_of_commands_only_is_not_sent(
    lights: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    entry, task, _ = await _learning(lights)
    said = await async_say(lights, entry, "Kitchen light on", who=julian, room=kitchen)
    await async_say(
        lights,
        entry,
        "Küchenlicht auf 30 Prozent",
        language="de",
        who=julian,
        room=kitchen,
        conversation_id=said.conversation_id,
    )
    await _end_conversations(lights, freezer)
    assert task.calls == []
