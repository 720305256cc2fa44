"""Development-only integration: satellite-like devices for the demo and scripts/develop.

Home Assistant only gets devices from integrations, and `assist_pipeline/run` needs a
`device_id` to stand for "a turn at the kitchen satellite". This integration registers
one device per entry in const.SATELLITES, each with a small sensor so it shows up in the
UI. Never installed by HACS: it lives under dev/, not custom_components/.

`memory_dev:` in configuration.yaml creates the config entry through the import step;
the config flow's user step does the same from the UI or the REST API.
"""

from __future__ import annotations

from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.typing import ConfigType

from .const import DOMAIN, SATELLITES

PLATFORMS = [Platform.SENSOR]
CONFIG_SCHEMA = cv.empty_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Create the config entry from YAML (`memory_dev:`) if there is none yet."""
    if DOMAIN in config and not hass.config_entries.async_entries(DOMAIN):
        hass.async_create_task(
            hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_IMPORT}, data={})
        )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Register the satellite devices, then their sensors."""
    registry = dr.async_get(hass)
    for ident, name in SATELLITES:
        registry.async_get_or_create(
            config_entry_id=entry.entry_id,
            identifiers={(DOMAIN, ident)},
            name=name,
            manufacturer="Household Memory (development)",
            model="Text satellite",
        )
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Unload the sensors; the devices stay in the registry like any integration's."""
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
