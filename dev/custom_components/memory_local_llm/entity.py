"""What the AI Task and conversation entities share: the entry's model, names, the device."""

from __future__ import annotations

from typing import TYPE_CHECKING

from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity

from .const import DOMAIN

if TYPE_CHECKING:
    from . import LocalLLMConfigEntry
    from .model import LocalModel


class LocalLLMEntity(Entity):
    """An entity of the entry's device, answering with the entry's model."""

    _attr_has_entity_name = True

    def __init__(self, entry: LocalLLMConfigEntry, key: str, name: str) -> None:
        self._attr_unique_id = f"{entry.entry_id}_{key}"
        self._attr_name = name
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title,
            manufacturer="Household Memory (development)",
            model="llama.cpp",
            entry_type=DeviceEntryType.SERVICE,
        )
        self._model: LocalModel = entry.runtime_data
