"""Diagnostics carry counts and options, never a memory's text (invariant 1)."""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry

from tests.conftest import async_call

SECRET_ISH = "Julian hides the birthday present behind the blue suitcase."


async def test_diagnostics_have_no_memory_text(
    household: HomeAssistant, memory_entry, julian, kitchen, hass_client
) -> None:
    await async_call(
        household, "remember", {"content": SECRET_ISH, "scope": "private", "person": julian.person_id}
    )
    await async_call(
        household, "remember", {"content": "The kitchen tap drips.", "scope": "room", "area": kitchen.area_id}
    )
    household.config_entries.async_update_entry(
        memory_entry,
        options={"device_persons": [{"device_id": kitchen.device_id, "person": julian.person_id}]},
    )
    assert await async_setup_component(household, "diagnostics", {})

    diagnostics = await get_diagnostics_for_config_entry(household, hass_client, memory_entry)

    dumped = json.dumps(diagnostics)
    for text in (SECRET_ISH, "birthday", "kitchen tap", julian.person_id, kitchen.device_id):
        assert text not in dumped
    assert diagnostics["engine"]["memories"] == 2
    assert diagnostics["engine"]["by_scope"] == {"private": 1, "room": 1}
    assert diagnostics["device_persons"] == 1
    assert diagnostics["entry"]["options"]["device_persons"] == "**REDACTED**"
