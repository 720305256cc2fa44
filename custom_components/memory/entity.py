"""What the entry's entities share: one service device per config entry, the entity named by
its translation key."""

from __future__ import annotations

from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity

from .const import AGENT_NAME, DOMAIN
from .runtime import MemoryConfigEntry


class MemoryEntity(Entity):
    """An entity of the entry's service device; unique id: the entry id plus `suffix` ("" for the
    conversation agent, whose unique id has always been the entry id)."""

    _attr_has_entity_name = True

    def __init__(self, entry: MemoryConfigEntry, suffix: str = "") -> None:
        self._entry = entry
        self._attr_unique_id = f"{entry.entry_id}{suffix}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title or AGENT_NAME,
            entry_type=DeviceEntryType.SERVICE,
        )
