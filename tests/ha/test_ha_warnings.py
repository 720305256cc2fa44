"""Home Assistant finds nothing to warn the integration about: no "Detected that custom integration
'memory' …" (helpers/frame.py: a use HA deprecates or refuses, with the breaking version) and no
"The deprecated … was used from memory" (helpers/deprecation.py) in a whole life of the entry —
set-up through the config flow, conversation turns (a memory sentence, a memory answer, a turn
handed to HA's own agent, one to an LLM agent with the Memory API), service calls, the reconfigure
flow, and unload.

HA reports each frame warning once per code line and process (frame._REPORTED_INTEGRATIONS): the
test starts with that record empty, so a line another test reached first is reported here too.
"""

from __future__ import annotations

import logging
import re

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import frame

from custom_components.memory.answers import reply
from tests.conftest import Resident, Room, async_call, reconfigure_to_sqlite, setup_memory
from tests.ha.helpers_conversation import async_say, async_wrap_recording_agent, speech

# What HA logs about an integration's use of a deprecated or refused API (frame.py, deprecation.py).
WARNED = re.compile(r"Detected that custom integration 'memory'|The deprecated .* was .* from memory\.")


def _warnings_about_memory(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every warning HA logged about the integration."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.WARNING and WARNED.search(record.getMessage())
    ]


async def test_home_assistant_warns_about_nothing_the_integration_does(
    household: HomeAssistant,
    julian: Resident,
    kitchen: Room,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(frame, "_REPORTED_INTEGRATIONS", set())
    caplog.set_level(logging.WARNING)

    entry = await setup_memory(household)
    said = await async_say(
        household, entry, "Remember that the ladder is behind the shed.", who=julian, room=kitchen
    )
    assert speech(said) == reply("en", "remembered_shared")
    answered = await async_say(household, entry, "Where is the ladder?", who=julian, room=kitchen)
    assert "behind the shed" in speech(answered)
    await async_say(household, entry, "What time is it?", who=julian, room=kitchen)  # HA's own agent
    await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    found = await async_call(household, "recall", {"query": "When do the bins go out?"})
    assert found["memories"][0]["content"] == "The bins go out on Tuesday."

    agent = await async_wrap_recording_agent(household, entry, with_memory_api=True)
    said = await async_say(household, entry, "Where is the ladder?", who=julian, room=kitchen)
    assert speech(said) == "ok" and "behind the shed" in agent.extra_prompts[-1]
    await reconfigure_to_sqlite(household, entry, "other.db")
    assert await household.config_entries.async_unload(entry.entry_id)
    assert entry.state is ConfigEntryState.NOT_LOADED

    warned = _warnings_about_memory(caplog)
    assert not warned, "\n".join(warned)
