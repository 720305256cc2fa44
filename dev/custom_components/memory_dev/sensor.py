"""One sensor per satellite device, so each device shows up with an entity in the UI."""

from __future__ import annotations

from homeassistant.components.sensor import SensorEntity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import DOMAIN, SATELLITES


async def async_setup_entry(
    hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the satellites' status sensors."""
    async_add_entities(SatelliteStatus(ident, name) for ident, name in SATELLITES)


class SatelliteStatus(SensorEntity):
    """A static "ready" status; the device is what the demo needs."""

    _attr_has_entity_name = True
    _attr_name = "Status"
    _attr_native_value = "ready"
    _attr_should_poll = False

    def __init__(self, ident: str, name: str) -> None:
        self._attr_unique_id = f"{ident}_status"
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, ident)}, name=name)
