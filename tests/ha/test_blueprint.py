"""The remember_observation blueprint, imported into HA and fired by a real state change."""

from __future__ import annotations

import shutil
from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from tests.conftest import async_call

BLUEPRINT = Path(__file__).parents[2] / "blueprints" / "automation" / "memory" / "remember_observation.yaml"


async def test_blueprint_remembers_observation(household: HomeAssistant, memory_entry) -> None:
    hass = household
    target = Path(hass.config.path("blueprints", "automation", "memory"))

    def install() -> None:
        target.mkdir(parents=True)
        shutil.copy(BLUEPRINT, target / BLUEPRINT.name)

    await hass.async_add_executor_job(install)
    hass.states.async_set("binary_sensor.garage_door", "off", {"friendly_name": "Garage door"})

    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": {
                "id": "remember_garage",
                "alias": "Remember the garage door",
                "use_blueprint": {
                    "path": "memory/remember_observation.yaml",
                    "input": {"entity": "binary_sensor.garage_door"},
                },
            }
        },
    )
    await hass.async_block_till_done()

    hass.states.async_set("binary_sensor.garage_door", "on", {"friendly_name": "Garage door"})
    await hass.async_block_till_done()

    response = await async_call(hass, "recall", {"query": "Garage door changed to on"})
    observed = [m for m in response["memories"] if m["provenance"] == "observed"]
    assert observed, response
    assert observed[0]["content"] == "Garage door changed to on"
    assert observed[0]["scope"] == "shared"
